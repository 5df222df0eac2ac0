/** Previous and next lesson links under the video (the next one says when it starts a new module). */
import type { MouseEvent } from 'react';
import type { PlayerLesson } from '~/lib/learning/player';
import type { PlayerMessages } from './messages';
import styles from '../LessonPlayer.module.css';

interface Props {
  previous: Pick<PlayerLesson, 'id' | 'name' | 'href'> | null;
  next: Pick<PlayerLesson, 'id' | 'name' | 'href'> | null;
  startsModule: boolean;
  t: Pick<PlayerMessages, 'pager' | 'previous' | 'next' | 'nextModule'>;
  onNavigate(e: MouseEvent<HTMLAnchorElement>, lessonId: number): void;
}

export default function Pager({ previous, next, startsModule, t, onNavigate }: Props) {
  return (
    <nav className={styles.pager} aria-label={t.pager}>
      {previous ? (
        <a className="button button-outline button-small" href={previous.href} rel="prev" onClick={(e) => onNavigate(e, previous.id)}>
          <span aria-hidden="true">←</span> {t.previous}
          <span className="sr-only">: {previous.name}</span>
        </a>
      ) : null}
      {next && (
        <a className={`button button-small ${styles.next}`} href={next.href} rel="next" onClick={(e) => onNavigate(e, next.id)}>
          {startsModule ? t.nextModule : t.next}
          <span className="sr-only">: {next.name}</span> <span aria-hidden="true">→</span>
        </a>
      )}
    </nav>
  );
}
