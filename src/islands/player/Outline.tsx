/**
 * The course outline beside the player: modules as collapsible groups (a heading with a disclosure
 * button each), lessons as links to their own addresses, completed ones ticked (with the word for
 * screen readers), the current one marked `aria-current="page"`.
 */
import type { MouseEvent } from 'react';
import { formatClock, type PlayerView } from '~/lib/learning/player';
import { format as fill } from '~/i18n/format';
import type { PlayerMessages } from './messages';
import styles from '../LessonPlayer.module.css';

interface Props {
  view: PlayerView;
  currentId: number;
  completed: ReadonlySet<number>;
  collapsed: ReadonlySet<number>;
  idPrefix: string;
  t: PlayerMessages;
  onToggle(moduleId: number): void;
  onNavigate(e: MouseEvent<HTMLAnchorElement>, lessonId: number): void;
}

export default function Outline({ view, currentId, completed, collapsed, idPrefix, t, onToggle, onNavigate }: Props) {
  return (
    <nav className={styles.outline} aria-labelledby={`${idPrefix}-outline`}>
      <h2 id={`${idPrefix}-outline`} className={styles.outlineTitle}>
        {t.outlineTitle}
      </h2>
      <ol className={styles.modules}>
        {view.modules.map((m) => {
          const open = !collapsed.has(m.id);
          const listId = `${idPrefix}-module-${m.id}`;
          const done = m.lessons.filter((l) => completed.has(l.id)).length;
          return (
            <li key={m.id} className={styles.module}>
              <h3 className={styles.moduleHeading}>
                <button type="button" className={styles.moduleToggle} aria-expanded={open} aria-controls={listId} onClick={() => onToggle(m.id)}>
                  <span className={styles.moduleName}>{fill(t.module, { n: m.number, name: m.name })}</span>
                  <span className={styles.moduleCount}>{fill(t.moduleCount, { completed: done, total: m.lessons.length })}</span>
                </button>
              </h3>
              <ol id={listId} className={styles.lessons} hidden={!open}>
                {m.lessons.map((l) => {
                  const isDone = completed.has(l.id);
                  const current = l.id === currentId;
                  return (
                    <li key={l.id}>
                      <a
                        href={l.href}
                        className={styles.lessonLink}
                        aria-current={current ? 'page' : undefined}
                        data-completed={isDone ? 'true' : undefined}
                        onClick={(e) => onNavigate(e, l.id)}
                      >
                        <span className={styles.tick} aria-hidden="true">
                          {isDone ? '✓' : l.number}
                        </span>
                        <span className={styles.lessonName}>
                          {l.name}
                          {isDone && <span className="sr-only"> ({t.completed})</span>}
                          {current && <span className={styles.nowPlaying}>{t.nowPlaying}</span>}
                        </span>
                        <span className={styles.lessonTime}>{formatClock(l.durationSeconds)}</span>
                      </a>
                    </li>
                  );
                })}
              </ol>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
