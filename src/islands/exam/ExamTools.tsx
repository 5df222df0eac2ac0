/** With JavaScript: the choice between one question at a time and all on one page, and the question navigator. */
import { format } from '~/i18n/format';
import type { PresentedQuestion } from '~/lib/exams/exams';
import type { ExamMessages } from './messages';
import styles from '../ExamRunner.module.css';

/** How the questions are shown. */
export type ExamView = 'one' | 'all';

interface Props {
  view: ExamView;
  questions: readonly PresentedQuestion[];
  answers: Readonly<Record<string, readonly number[]>>;
  /** The question shown in the one-at-a-time view. */
  current: number;
  t: Pick<ExamMessages, 'view' | 'oneAtATime' | 'allOnOnePage' | 'navigator' | 'goTo' | 'answered' | 'unanswered'>;
  onView(view: ExamView): void;
  onGoTo(index: number): void;
}

export default function ExamTools({ view, questions, answers, current, t, onView, onGoTo }: Props) {
  const oneAtATime = view === 'one';
  return (
    <div className={styles.tools}>
      <fieldset className={styles.views}>
        <legend>{t.view}</legend>
        <label>
          <input type="radio" name="exam-view" checked={view === 'one'} onChange={() => onView('one')} /> {t.oneAtATime}
        </label>
        <label>
          <input type="radio" name="exam-view" checked={view === 'all'} onChange={() => onView('all')} /> {t.allOnOnePage}
        </label>
      </fieldset>
      <nav aria-label={t.navigator} className={styles.navigator}>
        <ol>
          {questions.map((q, i) => {
            const done = (answers[q.id]?.length ?? 0) > 0;
            return (
              <li key={q.id}>
                <a
                  href={`#question-${q.id}`}
                  className={`${styles.navItem} ${done ? styles.done : ''}`}
                  aria-current={oneAtATime && i === current ? 'step' : undefined}
                  aria-label={`${format(t.goTo, { n: i + 1 })}, ${done ? t.answered : t.unanswered}`}
                  onClick={(e) => {
                    if (!oneAtATime) return;
                    e.preventDefault();
                    onGoTo(i);
                  }}
                >
                  {i + 1}
                </a>
              </li>
            );
          })}
        </ol>
      </nav>
    </div>
  );
}
