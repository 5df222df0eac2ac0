/** The bar over the questions: which attempt this is, the countdown (red in the last minute) and how many are answered. */
import { format } from '~/i18n/format';
import { formatRemaining } from '~/lib/exams/clock';
import type { ExamMessages } from './messages';
import styles from '../ExamRunner.module.css';

interface Props {
  attempt: { number: number; allowed: number };
  left: number;
  answered: number;
  total: number;
  t: Pick<ExamMessages, 'attempt' | 'timeLeft' | 'timeLeftValue' | 'progress'>;
}

export default function ExamBar({ attempt, left, answered, total, t }: Props) {
  const time = formatRemaining(left);
  return (
    <div className={styles.bar}>
      <p id="exam-attempt" className={styles.attempt}>
        {format(t.attempt, { number: attempt.number, allowed: attempt.allowed })}
      </p>
      <p className={left <= 60_000 ? `${styles.timer} ${styles.low}` : styles.timer}>
        <span className="sr-only">{t.timeLeft}: </span>
        <span role="timer" aria-live="off" aria-label={format(t.timeLeftValue, { time })}>
          {time}
        </span>
      </p>
      <p className={styles.count}>{format(t.progress, { answered, total })}</p>
    </div>
  );
}
