/** One question: its prompt, kind and options (radios, or checkboxes for multiple choice), its saving state, and the pager in the one-at-a-time view. */
import { format } from '~/i18n/format';
import type { PresentedQuestion } from '~/lib/exams/exams';
import type { ExamMessages } from './messages';
import styles from '../ExamRunner.module.css';

interface Props {
  question: PresentedQuestion;
  index: number;
  total: number;
  chosen: readonly number[];
  /** The saving state in words ('' when there is nothing to say). */
  status: string;
  hidden: boolean;
  /** Shows the previous/next buttons (one question at a time). */
  paged: boolean;
  t: Pick<ExamMessages, 'question' | 'kinds' | 'previous' | 'next'>;
  onChoose(optionId: number, checked: boolean): void;
  onGoTo(index: number): void;
}

export default function QuestionCard({ question: q, index: i, total, chosen, status, hidden, paged, t, onChoose, onGoTo }: Props) {
  const multiple = q.kind === 'multiple';
  return (
    <li hidden={hidden} className={styles.question}>
      <fieldset id={`question-${q.id}`} tabIndex={-1} aria-describedby={`question-${q.id}-kind question-${q.id}-state`}>
        <legend>
          <span className={styles.number}>{format(t.question, { n: i + 1, total })}</span>
          <span className={styles.prompt}>{q.prompt}</span>
        </legend>
        <p id={`question-${q.id}-kind`} className={styles.kind}>
          {t.kinds[q.kind]}
        </p>
        <ul className={styles.options}>
          {q.options.map((o) => (
            <li key={o.id}>
              <label className={styles.option}>
                <input type={multiple ? 'checkbox' : 'radio'} name={`q${q.id}`} value={o.id} checked={chosen.includes(o.id)} onChange={(e) => onChoose(o.id, e.currentTarget.checked)} />
                <span>{o.text}</span>
              </label>
            </li>
          ))}
        </ul>
        <p id={`question-${q.id}-state`} className={styles.state} aria-live="polite">
          {status}
        </p>
      </fieldset>
      {paged && (
        <div className={styles.pager}>
          <button type="button" className="button button-small button-outline" disabled={i === 0} onClick={() => onGoTo(i - 1)}>
            {t.previous}
          </button>
          <button type="button" className="button button-small button-outline" disabled={i === total - 1} onClick={() => onGoTo(i + 1)}>
            {t.next}
          </button>
        </div>
      )}
    </li>
  );
}
