/** The panel under the course's last video: the exam's link, or the certificate's once the exam is passed. */
import type { Ref } from 'react';
import type { PlayerView } from '~/lib/learning/player';
import type { PlayerMessages } from './messages';
import styles from '../LessonPlayer.module.css';

interface Props {
  view: Pick<PlayerView, 'examPassed' | 'examHref' | 'certificateHref'>;
  headingId: string;
  headingRef: Ref<HTMLHeadingElement>;
  t: PlayerMessages['lastVideo'];
}

export default function ExamPanel({ view, headingId, headingRef, t }: Props) {
  return (
    <section className={styles.examPanel} aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {t.title}
      </h2>
      <p>{view.examPassed ? t.passed : t.exam}</p>
      <a className="button" href={view.examPassed ? view.certificateHref : view.examHref}>
        {view.examPassed ? t.certificateLink : t.examLink}
      </a>
    </section>
  );
}
