/**
 * The exam island: the attempt's questions one at a time or all on one page, a
 * navigator, and a countdown to the server's deadline (`useExamClock`) that speaks politely at 5 and
 * at 1 minute, not every second. Every answer is sent to the server as it is given, with a visible
 * saved state; answers the server has not confirmed wait in the browser's storage and are sent on
 * reconnect or on the next visit (`useExamAnswers`). At zero it submits (`useExamSubmit`). It is also
 * a plain form: without JavaScript every answer is posted on submit.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { actions } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import { format } from '~/i18n/format';
import { plural } from '~/i18n/plural';
import type { PresentedQuestion } from '~/lib/exams/exams';
import { actionErrorStatus, guardStatus } from '~/lib/http/session-guard';
import ExamBar from './exam/ExamBar';
import ExamTools, { type ExamView } from './exam/ExamTools';
import QuestionCard from './exam/QuestionCard';
import type { ExamMessages } from './exam/messages';
import { useConnectivity } from './exam/useConnectivity';
import { useExamAnswers, type SaveOutcome, type SaveState } from './exam/useExamAnswers';
import { useExamClock } from './exam/useExamClock';
import { useExamSubmit } from './exam/useExamSubmit';
import styles from './ExamRunner.module.css';

export type { ExamMessages };

interface Props {
  locale: Locale;
  t: ExamMessages;
  courseId: number;
  attempt: { id: number; number: number; allowed: number };
  questions: PresentedQuestion[];
  /** Stored answers by question id. */
  answers: Record<string, number[]>;
  /** Time left on the server's clock when the page was made (ms). */
  remainingMs: number;
  /** Where the form posts (the result page with the submit action). */
  submitAction: string;
  /** Where a lost session goes. */
  home: string;
}

/** The chosen view lasts for the browser tab's session. */
const VIEW_KEY = 'exam-view';

export default function ExamRunner({ locale, t, courseId, attempt, questions, answers: stored, remainingMs, submitAction, home }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [view, setView] = useState<ExamView>('all');
  const [current, setCurrent] = useState(0);
  const [notice, setNotice] = useState('');
  const post = () => formRef.current?.submit();

  /** One answer to the server, read as saved, to try again, or refused. */
  const save = async (questionId: number, answer: number[]): Promise<SaveOutcome> => {
    const { error } = await actions.exams.answer({ course: courseId, attempt: attempt.id, question: questionId, answer, lang: locale });
    if (!error) return { kind: 'saved' };
    if (error.status >= 500 || error.code === 'INTERNAL_SERVER_ERROR') return { kind: 'unavailable' };
    const status = actionErrorStatus(error.code);
    return { kind: 'refused', reason: error.message, sessionLost: status === 401 || status === 403, attemptOver: error.code === 'CONFLICT' };
  };
  const { answers, choose, flush, stateOf, forget } = useExamAnswers({
    attemptId: attempt.id,
    stored,
    save,
    onSessionLost: () => guardStatus(401, home),
    onAttemptOver: post,
  });
  const submitter = useExamSubmit({ flush, forget, post, confirmUnanswered: (count) => window.confirm(plural(locale, t.confirmUnanswered, count)) });
  const online = useConnectivity({
    onOnline: () =>
      void flush().then(() => {
        setNotice(t.online);
        submitter.resume();
      }),
    onOffline: () => setNotice(t.offline),
  });
  const { left, announced } = useExamClock(remainingMs, () => {
    setNotice(t.timeUp);
    submitter.expire();
  });

  useEffect(() => {
    setEnhanced(true);
    const chosen = sessionStorage.getItem(VIEW_KEY);
    if (chosen === 'one' || chosen === 'all') setView(chosen);
  }, []);

  const answeredCount = questions.filter((q) => (answers[q.id]?.length ?? 0) > 0).length;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitter.submit(questions.length - answeredCount, left > 0) === 'offline') setNotice(t.offlineSubmit);
  };

  const chooseView = (v: ExamView) => {
    setView(v);
    sessionStorage.setItem(VIEW_KEY, v);
  };
  const goTo = (i: number) => {
    setCurrent(i);
    const q = questions[i];
    if (!q) return;
    requestAnimationFrame(() => document.getElementById(`question-${q.id}`)?.focus());
  };

  const stateText = (s: SaveState | undefined): string => {
    if (!s) return '';
    if (s.kind === 'saved') return t.saved;
    if (s.kind === 'saving') return t.saving;
    if (s.kind === 'pending') return t.pending;
    return format(t.failed, { reason: s.reason });
  };

  const oneAtATime = enhanced && view === 'one';
  const spoken = announced === null ? '' : plural(locale, t.minutesLeft, announced);

  return (
    <form ref={formRef} method="post" action={submitAction} className={styles.exam} onSubmit={onSubmit} aria-labelledby="exam-attempt" data-enhanced={enhanced ? 'true' : undefined}>
      <input type="hidden" name="course" value={courseId} />
      <input type="hidden" name="attempt" value={attempt.id} />
      <input type="hidden" name="lang" value={locale} />
      <ExamBar attempt={attempt} left={left} answered={answeredCount} total={questions.length} t={t} />
      <p className="sr-only" aria-live="polite">
        {spoken}
      </p>
      <p className={notice ? styles.notice : 'sr-only'} role="status">
        {notice || (!online ? t.offline : '')}
      </p>
      {!enhanced && <p className={styles.hint}>{t.noScript}</p>}
      {enhanced && <ExamTools view={view} questions={questions} answers={answers} current={current} t={t} onView={chooseView} onGoTo={goTo} />}
      <ol className={styles.questions}>
        {questions.map((q, i) => (
          <QuestionCard
            key={q.id}
            question={q}
            index={i}
            total={questions.length}
            chosen={answers[q.id] ?? []}
            status={stateText(stateOf(q.id))}
            hidden={oneAtATime && i !== current}
            paged={oneAtATime}
            t={t}
            onChoose={(optionId, checked) => choose(q, optionId, checked)}
            onGoTo={goTo}
          />
        ))}
      </ol>
      <div className={styles.submit}>
        <button type="submit" className="button" disabled={submitter.submitting} aria-disabled={submitter.submitting}>
          {submitter.submitting ? t.submitting : t.submit}
        </button>
      </div>
    </form>
  );
}
