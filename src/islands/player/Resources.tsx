/** A lesson's resources: links open in a new tab; the video itself is marked as watched here. */
import type { PlayerResource } from '~/lib/learning/player';
import type { PlayerMessages } from './messages';
import styles from '../LessonPlayer.module.css';

interface Props {
  resources: readonly PlayerResource[];
  headingId: string;
  t: Pick<PlayerMessages, 'resourcesTitle' | 'kinds' | 'opensInNewTab' | 'watchingHere'>;
}

export default function Resources({ resources, headingId, t }: Props) {
  return (
    <section className={styles.resources} aria-labelledby={headingId}>
      <h3 id={headingId}>{t.resourcesTitle}</h3>
      <ul>
        {resources.map((r) => (
          <li key={r.id} className={styles.resource}>
            <span className={styles.resourceKind}>{t.kinds[r.kind]}</span>
            {r.href ? (
              <a href={r.href} target="_blank" rel="noopener noreferrer">
                {r.title}
                <span className="sr-only"> {t.opensInNewTab}</span>
              </a>
            ) : (
              <span>
                {r.title} <span className={styles.muted}>· {t.watchingHere}</span>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
