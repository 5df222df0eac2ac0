/**
 * The exam island (design card "exams"): the attempt's questions one at a time or all on one page, a
 * navigator, and a countdown to the server's deadline. The page gives the time left on the server's
 * clock; the countdown measures from it with the monotonic clock (`performance.now()`), so a wrong
 * device clock changes nothing. It speaks politely at 5 and at 1 minute, not every second. Every
 * answer is sent to the server as it is given, with a visible saved state; answers the server has not
 * confirmed wait in the browser's storage (`$pendingAnswers`) and are sent on reconnect or on the next
 * visit. At zero it submits. It is also a plain form: without JavaScript every answer is posted on submit.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { actions } from 'astro:actions';
import { useStore } from '@nanostores/react';
import type { Locale } from '~/i18n/locales';
import type { Messages } from '~/i18n';
import { format } from '~/i18n/format';
import { announcementDue, formatRemaining, type Announcement } from '~/lib/exams/clock';
import type { PresentedQuestion } from '~/lib/exams/exams';
import { $pendingAnswers, withoutAttempt, withoutConfirmed, withPending } from '~/lib/stores/exams';
import { actionErrorStatus, guardStatus } from '~/lib/http/session-guard';
import styles from './ExamRunner.module.css';

export type ExamMessages = Messages['exams']['run'] & { errors: Messages['exams']['errors'] };

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

type SaveState = { kind: 'saved' } | { kind: 'saving' } | { kind: 'pending' } | { kind: 'failed'; reason: string };

/** The chosen view lasts for the browser tab's session. */
const VIEW_KEY = 'exam-view';


export default function ExamRunner({ locale, t, courseId, attempt, questions, answers: stored, remainingMs, submitAction, home }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const [answers, setAnswers] = useState<Record<string, number[]>>(stored);
  const [states, setStates] = useState<Record<string, SaveState>>({});
  const [enhanced, setEnhanced] = useState(false);
  const [view, setView] = useState<'one' | 'all'>('all');
  const [current, setCurrent] = useState(0);
  const [left, setLeft] = useState(remainingMs);
  const [online, setOnline] = useState(true);
  const [notice, setNotice] = useState('');
  const [spoken, setSpoken] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const submitWhenOnline = useRef(false);
  const announced = useRef(new Set<Announcement>());
  const pending = useStore($pendingAnswers);
  const key = String(attempt.id);

  const setState = (questionId: number, state: SaveState) => setStates((s) => ({ ...s, [questionId]: state }));

  /** Sends one answer; keeps it pending when the network fails, forgets it once the server answered. */
  const send = useCallback(
    async (questionId: number, answer: number[]) => {
      if (!navigator.onLine) {
        setState(questionId, { kind: 'pending' });
        return;
      }
      setState(questionId, { kind: 'saving' });
      let result: Awaited<ReturnType<typeof actions.exams.answer>>;
      try {
        result = await actions.exams.answer({ course: courseId, attempt: attempt.id, question: questionId, answer, lang: locale });
      } catch {
        setState(questionId, { kind: 'pending' });
        return;
      }
      const { error } = result;
      if (error && (error.status >= 500 || error.code === 'INTERNAL_SERVER_ERROR')) {
        setState(questionId, { kind: 'pending' });
        return;
      }
      $pendingAnswers.set(withoutConfirmed($pendingAnswers.get(), attempt.id, questionId, answer));
      if (!error) {
        setState(questionId, { kind: 'saved' });
        return;
      }
      if (guardStatus(actionErrorStatus(error.code), home)) return;
      setState(questionId, { kind: 'failed', reason: error.message });
      // The attempt is over on the server: its result is what counts now.
      if (error.code === 'CONFLICT') {
        $pendingAnswers.set(withoutAttempt($pendingAnswers.get(), attempt.id));
        formRef.current?.submit();
      }
    },
    [attempt.id, courseId, home, locale],
  );

  /** Sends every answer of this attempt still waiting. */
  const flush = useCallback(async () => {
    const waiting = $pendingAnswers.get()[key] ?? {};
    await Promise.all(Object.entries(waiting).map(([q, a]) => send(Number(q), a)));
  }, [key, send]);

  // Hydrated: answers kept on this device and not confirmed are newer than the page's; send them.
  useEffect(() => {
    setEnhanced(true);
    setOnline(navigator.onLine);
    const chosen = sessionStorage.getItem(VIEW_KEY);
    if (chosen === 'one' || chosen === 'all') setView(chosen);
    const waiting = $pendingAnswers.get()[key];
    if (waiting && Object.keys(waiting).length > 0) {
      setAnswers((a) => ({ ...a, ...waiting }));
      void flush();
    }
    const goneOnline = () => {
      setOnline(true);
      void flush().then(() => {
        setNotice(t.online);
        if (submitWhenOnline.current) formRef.current?.submit();
      });
    };
    const goneOffline = () => {
      setOnline(false);
      setNotice(t.offline);
    };
    addEventListener('online', goneOnline);
    addEventListener('offline', goneOffline);
    return () => {
      removeEventListener('online', goneOnline);
      removeEventListener('offline', goneOffline);
    };
  }, [flush, key, t.offline, t.online]);

  // The countdown: monotonic time from the server's figure; polite announcements at 5 and 1 minute.
  useEffect(() => {
    const end = performance.now() + remainingMs;
    const tick = () => {
      const ms = Math.max(0, end - performance.now());
      setLeft(ms);
      const due = announcementDue(ms, announced.current);
      if (due !== null) {
        announced.current.add(due);
        setSpoken(due === 1 ? t.minutesLeftOne : format(t.minutesLeftOther, { minutes: due }));
      }
      if (ms === 0) {
        clearInterval(timer);
        setNotice(t.timeUp);
        setSubmitting(true);
        void flush().finally(() => formRef.current?.submit());
      }
    };
    const timer = setInterval(tick, 1000);
    tick();
    return () => clearInterval(timer);
  }, [flush, remainingMs, t.minutesLeftOne, t.minutesLeftOther, t.timeUp]);

  const choose = (question: PresentedQuestion, optionId: number, checked: boolean) => {
    const before = answers[question.id] ?? [];
    const next = question.kind === 'multiple' ? (checked ? [...new Set([...before, optionId])] : before.filter((o) => o !== optionId)).sort((a, b) => a - b) : [optionId];
    setAnswers((a) => ({ ...a, [question.id]: next }));
    // Unticking every option of a multiple-choice question leaves the last saved answer on the server.
    if (next.length === 0) return;
    $pendingAnswers.set(withPending($pendingAnswers.get(), attempt.id, question.id, next));
    void send(question.id, next);
  };

  const answeredCount = questions.filter((q) => (answers[q.id]?.length ?? 0) > 0).length;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const unanswered = questions.length - answeredCount;
    if (unanswered > 0 && left > 0 && !window.confirm(format(t.confirmUnanswered, { count: unanswered }))) return;
    if (!navigator.onLine) {
      submitWhenOnline.current = true;
      setNotice(t.offlineSubmit);
      return;
    }
    setSubmitting(true);
    const form = event.currentTarget;
    void flush().finally(() => {
      $pendingAnswers.set(withoutAttempt($pendingAnswers.get(), attempt.id));
      form.submit();
    });
  };

  const chooseView = (v: 'one' | 'all') => {
    setView(v);
    sessionStorage.setItem(VIEW_KEY, v);
  };
  const goTo = (i: number) => {
    setCurrent(i);
    const q = questions[i];
    if (!q) return;
    requestAnimationFrame(() => document.getElementById(`question-${q.id}`)?.focus());
  };

  const stateText = (q: PresentedQuestion): string => {
    const s = states[q.id];
    if (!s) return pending[key]?.[q.id] ? t.pending : '';
    if (s.kind === 'saved') return t.saved;
    if (s.kind === 'saving') return t.saving;
    if (s.kind === 'pending') return t.pending;
    return format(t.failed, { reason: s.reason });
  };

  const oneAtATime = enhanced && view === 'one';
  const timeText = formatRemaining(left);
  const lowTime = left <= 60_000;
  const navigator_ = useMemo(
    () =>
      questions.map((q, i) => {
        const done = (answers[q.id]?.length ?? 0) > 0;
        return { q, i, done };
      }),
    [answers, questions],
  );

  return (
    <form ref={formRef} method="post" action={submitAction} className={styles.exam} onSubmit={onSubmit} aria-labelledby="exam-attempt" data-enhanced={enhanced ? "true" : undefined}>
      <input type="hidden" name="course" value={courseId} />
      <input type="hidden" name="attempt" value={attempt.id} />
      <input type="hidden" name="lang" value={locale} />
      <div className={styles.bar}>
        <p id="exam-attempt" className={styles.attempt}>
          {format(t.attempt, { number: attempt.number, allowed: attempt.allowed })}
        </p>
        <p className={lowTime ? `${styles.timer} ${styles.low}` : styles.timer}>
          <span className="sr-only">{t.timeLeft}: </span>
          <span role="timer" aria-live="off" aria-label={format(t.timeLeftValue, { time: timeText })}>
            {timeText}
          </span>
        </p>
        <p className={styles.count}>{format(t.progress, { answered: answeredCount, total: questions.length })}</p>
      </div>
      <p className="sr-only" aria-live="polite">
        {spoken}
      </p>
      <p className={notice ? styles.notice : 'sr-only'} role="status">
        {notice || (!online ? t.offline : '')}
      </p>
      {!enhanced && <p className={styles.hint}>{t.noScript}</p>}
      {enhanced && (
        <div className={styles.tools}>
          <fieldset className={styles.views}>
            <legend>{t.view}</legend>
            <label>
              <input type="radio" name="exam-view" checked={view === 'one'} onChange={() => chooseView('one')} /> {t.oneAtATime}
            </label>
            <label>
              <input type="radio" name="exam-view" checked={view === 'all'} onChange={() => chooseView('all')} /> {t.allOnOnePage}
            </label>
          </fieldset>
          <nav aria-label={t.navigator} className={styles.navigator}>
            <ol>
              {navigator_.map(({ q, i, done }) => (
                <li key={q.id}>
                  <a
                    href={`#question-${q.id}`}
                    className={`${styles.navItem} ${done ? styles.done : ''}`}
                    aria-current={oneAtATime && i === current ? 'step' : undefined}
                    aria-label={`${format(t.goTo, { n: i + 1 })}, ${done ? t.answered : t.unanswered}`}
                    onClick={(e) => {
                      if (!oneAtATime) return;
                      e.preventDefault();
                      goTo(i);
                    }}
                  >
                    {i + 1}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        </div>
      )}
      <ol className={styles.questions}>
        {questions.map((q, i) => {
          const chosen = answers[q.id] ?? [];
          const multiple = q.kind === 'multiple';
          const status = stateText(q);
          return (
            <li key={q.id} hidden={oneAtATime && i !== current} className={styles.question}>
              <fieldset id={`question-${q.id}`} tabIndex={-1} aria-describedby={`question-${q.id}-kind question-${q.id}-state`}>
                <legend>
                  <span className={styles.number}>{format(t.question, { n: i + 1, total: questions.length })}</span>
                  <span className={styles.prompt}>{q.prompt}</span>
                </legend>
                <p id={`question-${q.id}-kind`} className={styles.kind}>
                  {t.kinds[q.kind]}
                </p>
                <ul className={styles.options}>
                  {q.options.map((o) => (
                    <li key={o.id}>
                      <label className={styles.option}>
                        <input
                          type={multiple ? 'checkbox' : 'radio'}
                          name={`q${q.id}`}
                          value={o.id}
                          checked={chosen.includes(o.id)}
                          onChange={(e) => choose(q, o.id, e.currentTarget.checked)}
                        />
                        <span>{o.text}</span>
                      </label>
                    </li>
                  ))}
                </ul>
                <p id={`question-${q.id}-state`} className={styles.state} aria-live="polite">
                  {status}
                </p>
              </fieldset>
              {oneAtATime && (
                <div className={styles.pager}>
                  <button type="button" className="button button-small button-outline" disabled={i === 0} onClick={() => goTo(i - 1)}>
                    {t.previous}
                  </button>
                  <button type="button" className="button button-small button-outline" disabled={i === questions.length - 1} onClick={() => goTo(i + 1)}>
                    {t.next}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <div className={styles.submit}>
        <button type="submit" className="button" disabled={submitting} aria-disabled={submitting}>
          {submitting ? t.submitting : t.submit}
        </button>
      </div>
    </form>
  );
}
