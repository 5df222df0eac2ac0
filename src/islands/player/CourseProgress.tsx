/** The course's progress bar beside the player (its value spoken once, by the bar). */
import { format as fill } from '~/i18n/format';
import type { CourseProgress as Progress } from '~/lib/learning/learning';
import type { PlayerMessages } from './messages';
import styles from '../LessonPlayer.module.css';

interface Props {
  progress: Progress;
  labelId: string;
  t: Pick<PlayerMessages, 'progressLabel' | 'progressValue'>;
}

export default function CourseProgress({ progress, labelId, t }: Props) {
  const text = fill(t.progressValue, { completed: progress.completed, total: progress.total, percent: progress.percent });
  return (
    <div className={styles.progress}>
      <p className={styles.progressLabel} id={labelId}>
        {t.progressLabel}
      </p>
      <div
        className={`progress-bar ${styles.bar}`}
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={text}
      >
        <span style={{ width: `${progress.percent}%` }} />
      </div>
      <p className={styles.progressValue} aria-hidden="true">
        {text}
      </p>
    </div>
  );
}
