/**
 * The lesson player: a native, keyboard-accessible video with Spanish and English captions and a
 * playback-speed choice, the lesson's text and resources, previous/next links, the course outline
 * and progress. It reports progress in real time (`tracking play`, `tracking` every 5 s while
 * playing and on pause/seek, `tracking end`), shows only what the server acknowledges (a lesson is
 * ticked when the server says it is completed), hears the person's other tabs, and at the end of a
 * lesson moves on in place to the next one (or the next module's first), or shows the exam panel at
 * the course's last video. Everything comes from the page as props: no request on load.
 */
import { useCallback, useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import type { Locale } from '~/i18n/locales';
import type { TrackingAck, TrackingBroadcast, TrackingEventName } from '~/lib/learning/learning';
import {
  afterEnd,
  completedIds,
  findLesson,
  formatClock,
  neighbours,
  parsePlaybackRate,
  PLAYBACK_RATES,
  progressOf,
  showsExamPanel,
  trackingEntry,
  type PlayerView,
} from '~/lib/learning/player';
import { format as fill } from '~/i18n/format';
import { createTrackingClient, type TrackingClient } from '~/lib/realtime/tracking-client';
import { guardStatus } from '~/lib/http/session-guard';
import { announce } from '~/lib/stores/announcer';
import { rememberPosition } from '~/lib/stores/tracking';
import Outline from './player/Outline';
import type { PlayerMessages } from './player/messages';
import styles from './LessonPlayer.module.css';

interface Props {
  view: PlayerView;
  /** The person whose progress is tracked (the session's contact) and the user sending it. */
  contactId: number;
  userId: number | null;
  locale: Locale;
  t: PlayerMessages;
  /** For the document title when the lesson changes in place. */
  siteName: string;
  /** Where a lost session goes (spec: 401 clears everything and goes home). */
  home: string;
}

/** The chosen speed lasts for the browser tab's session. */
const RATE_KEY = 'playback-rate';
/** How often a playing video reports its position. */
const TICK_MS = 5000;

type Status = { kind: 'error' | 'hint'; text: string } | null;
type Focus = 'heading' | 'video' | null;

export default function LessonPlayer({ view, contactId, userId, locale, t, siteName, home }: Props) {
  const id = useId();
  const [currentId, setCurrentId] = useState(view.currentLessonId);
  const [completed, setCompleted] = useState<ReadonlySet<number>>(() => new Set(completedIds(view)));
  const [resumeAt, setResumeAt] = useState<Readonly<Record<number, number>>>(() =>
    Object.fromEntries(view.modules.flatMap((m) => m.lessons.map((l) => [l.id, l.resumeAt]))),
  );
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [rate, setRate] = useState(1);
  const [status, setStatus] = useState<Status>(null);
  const [forbidden, setForbidden] = useState(false);
  const [resumedFrom, setResumedFrom] = useState<number | null>(null);
  const [videoFailed, setVideoFailed] = useState(false);
  const [ready, setReady] = useState(false);
  const [connected, setConnected] = useState(false);
  const [saved, setSaved] = useState('');
  const [examFocus, setExamFocus] = useState(0);

  const videoRef = useRef<HTMLVideoElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const examRef = useRef<HTMLHeadingElement>(null);
  const clientRef = useRef<TrackingClient | null>(null);
  /** The lesson on screen, for callbacks that outlive a render. */
  const currentRef = useRef(currentId);
  const autoplayRef = useRef(false);
  const focusRef = useRef<Focus>(null);
  /** Set while the player itself seeks to the resume position (not the learner's seek: nothing to report). */
  const resumingRef = useRef(false);
  /** The video element already prepared (speed, resume position), so it happens once per element. */
  const preparedRef = useRef<HTMLVideoElement | null>(null);
  /** After a `forbidden` answer nothing more is sent. */
  const stoppedRef = useRef(false);
  const tickRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const found = findLesson(view, currentId)!;
  const lesson = found.lesson;
  const { previous, next, startsModule } = neighbours(view, currentId);
  const progress = progressOf(view, completed);
  const progressText = fill(t.progressValue, { completed: progress.completed, total: progress.total, percent: progress.percent });
  const examPanel = showsExamPanel(view, currentId);

  /* ───── talking to the server ───── */

  const onAck = useCallback(
    (lessonId: number, ack: TrackingAck) => {
      if (ack.ok) {
        setResumeAt((r) => ({ ...r, [ack.Identificador]: ack.Avance }));
        if (ack.completed) setCompleted((c) => (c.has(ack.Identificador) ? c : new Set(c).add(ack.Identificador)));
        setStatus((s) => (s?.kind === 'error' ? null : s));
        setSaved(`${lessonId}@${ack.Avance}`);
        return;
      }
      switch (ack.error) {
        case 'unauthorized':
          guardStatus(401, home);
          return;
        case 'forbidden':
          stoppedRef.current = true;
          setForbidden(true);
          return;
        case 'rate-limited':
          setStatus({ kind: 'error', text: t.status.rateLimited });
          return;
        case 'invalid':
          setStatus({ kind: 'error', text: t.status.invalid });
          return;
        default:
          setStatus({ kind: 'error', text: t.status.unavailable });
      }
    },
    [home, t],
  );

  const report = useCallback(
    async (event: TrackingEventName, lessonId: number, position: number, playing: boolean): Promise<TrackingAck | null> => {
      const client = clientRef.current;
      if (!client || stoppedRef.current) return null;
      const ack = await client.send(event, lessonId, position, playing);
      onAck(lessonId, ack);
      return ack;
    },
    [onAck],
  );

  const remember = useCallback(
    (lessonId: number, playing: boolean) => {
      const entry = trackingEntry(view, lessonId, playing);
      if (entry) rememberPosition(entry);
    },
    [view],
  );

  const stopTick = () => {
    clearInterval(tickRef.current);
    tickRef.current = undefined;
  };

  const startTick = () => {
    stopTick();
    tickRef.current = setInterval(() => {
      const v = videoRef.current;
      if (v && !v.paused && !v.ended) void report('tracking', currentRef.current, v.currentTime, true);
    }, TICK_MS);
  };

  /* ───── switching lessons in place ───── */

  /** Shows another lesson: new video, address, title, outline and resources; optionally plays it. */
  const go = (lessonId: number, opts: { push?: boolean; autoplay?: boolean; focus?: Focus; intro?: string; keepStatus?: boolean } = {}) => {
    const target = findLesson(view, lessonId);
    if (!target) return;
    const v = videoRef.current;
    // Leaving a playing video: its last position is reported (its pause event will not reach us).
    if (v && !v.paused && !v.ended && v.currentTime > 0) void report('tracking', currentRef.current, v.currentTime, false);
    stopTick();
    currentRef.current = lessonId;
    autoplayRef.current = opts.autoplay ?? false;
    focusRef.current = opts.focus ?? null;
    setCurrentId(lessonId);
    setResumedFrom(null);
    setVideoFailed(false);
    if (!opts.keepStatus) setStatus(null);
    setCollapsed((c) => {
      if (!c.has(target.module.id)) return c;
      const n = new Set(c);
      n.delete(target.module.id);
      return n;
    });
    if (opts.push ?? true) history.pushState({ lessonId }, '', target.lesson.href);
    document.title = `${target.lesson.name} · ${view.name} · ${siteName}`;
    remember(lessonId, opts.autoplay ?? false);
    announce([opts.intro, fill(t.nowPlayingAnnouncement, { name: target.lesson.name })].filter(Boolean).join(' '));
  };
  // Listeners registered once (popstate) call the latest `go`.
  const goRef = useRef(go);
  goRef.current = go;

  const onNavigate = (e: MouseEvent<HTMLAnchorElement>, lessonId: number) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (lessonId === currentRef.current) headingRef.current?.focus();
    else go(lessonId, { focus: 'heading' });
  };

  const onEnded = async (lessonId: number, position: number) => {
    stopTick();
    remember(lessonId, false);
    const hadFocus = document.activeElement === videoRef.current;
    const ack = await report('tracking end', lessonId, position, false);
    if (currentRef.current !== lessonId) return; // the learner moved on meanwhile
    const name = findLesson(view, lessonId)!.lesson.name;
    const done = ack?.ok === true && ack.completed;
    const intro = done ? fill(t.completedAnnouncement, { name }) : '';
    if (ack?.ok && !ack.completed) setStatus({ kind: 'hint', text: fill(t.notCompletedHint, { name }) });
    const step = afterEnd(view, lessonId);
    if (step.kind === 'next') {
      go(step.lesson.id, { autoplay: true, focus: hadFocus ? 'video' : null, intro, keepStatus: true });
    } else {
      if (intro) announce(intro);
      setExamFocus((n) => n + 1);
    }
  };

  /** Once a video knows its length: the chosen speed, the server's resume position, and play when moving on. */
  const prepare = (v: HTMLVideoElement) => {
    if (preparedRef.current === v) return;
    preparedRef.current = v;
    v.playbackRate = rate;
    const at = resumeAt[currentRef.current] ?? 0;
    if (at > 0 && Number.isFinite(v.duration) && at < v.duration - 1) {
      resumingRef.current = true;
      v.currentTime = at;
      setResumedFrom(at);
    }
    if (autoplayRef.current) {
      autoplayRef.current = false;
      void v.play().catch(() => undefined);
    }
  };

  /* ───── effects ───── */

  // The server-rendered video may have read its metadata before the island hydrated: prepare it now.
  useEffect(() => {
    const v = videoRef.current;
    if (v && v.readyState >= HTMLMediaElement.HAVE_METADATA) prepare(v);
  });

  useEffect(() => {
    const client = createTrackingClient({
      courseId: view.id,
      contactId,
      userId,
      onBroadcast: (b: TrackingBroadcast) => {
        // Another tab or device saved progress: update ticks and where that lesson resumes, never
        // seeking a video that is playing here.
        setResumeAt((r) => ({ ...r, [b.Identificador]: b.Avance }));
        if (b.completed) setCompleted((c) => (c.has(b.Identificador) ? c : new Set(c).add(b.Identificador)));
      },
      onConnectionChange: setConnected,
      onRefused: (reason) => {
        if (reason === 'unauthorized') guardStatus(401, home);
        else {
          stoppedRef.current = true;
          setForbidden(true);
        }
      },
    });
    clientRef.current = client;
    history.replaceState({ ...(history.state as object | null), lessonId: currentRef.current }, '');
    const onPop = (e: PopStateEvent) => {
      const lessonId = (e.state as { lessonId?: unknown } | null)?.lessonId;
      if (typeof lessonId === 'number' && lessonId !== currentRef.current) goRef.current(lessonId, { push: false, focus: 'heading' });
    };
    const sendLast = () => {
      const v = videoRef.current;
      if (v && v.currentTime > 0 && !stoppedRef.current) client.beacon(currentRef.current, v.currentTime, !v.paused);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') sendLast();
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('pagehide', sendLast);
    document.addEventListener('visibilitychange', onVisibility);
    try {
      setRate(parsePlaybackRate(sessionStorage.getItem(RATE_KEY)));
    } catch {
      /* storage unavailable: normal speed */
    }
    remember(currentRef.current, false);
    setReady(true);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('pagehide', sendLast);
      document.removeEventListener('visibilitychange', onVisibility);
      clearInterval(tickRef.current);
      client.close();
      clientRef.current = null;
    };
    // Once per page: the course, the person and the labels do not change while it lives.
  }, []);

  // Focus after an in-place switch: the new lesson's heading (a chosen link), or the new video (it had focus).
  useEffect(() => {
    const f = focusRef.current;
    focusRef.current = null;
    if (f === 'heading') headingRef.current?.focus();
    else if (f === 'video') videoRef.current?.focus();
  }, [currentId]);

  useEffect(() => {
    if (examFocus > 0) examRef.current?.focus();
  }, [examFocus]);

  useEffect(() => {
    if (videoRef.current) videoRef.current.playbackRate = rate;
  }, [rate]);

  const chooseRate = (value: string) => {
    const r = parsePlaybackRate(value);
    setRate(r);
    try {
      sessionStorage.setItem(RATE_KEY, String(r));
    } catch {
      /* storage unavailable: the choice lasts for this page */
    }
  };

  const toggle = (moduleId: number) =>
    setCollapsed((c) => {
      const n = new Set(c);
      if (n.has(moduleId)) n.delete(moduleId);
      else n.add(moduleId);
      return n;
    });

  /* ───── render ───── */

  const video = lesson.video;
  const defaultLang = video?.captions.some((c) => c.lang === locale) ? locale : video?.captions[0]?.lang;
  const rateFormat = new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-419');

  return (
    <div className={styles.player} data-ready={ready ? 'true' : undefined} data-connected={connected ? 'true' : undefined} data-lesson-id={currentId} data-saved={saved || undefined}>
      <div className={styles.stage}>
        <div className={styles.screen}>
          {video ? (
            <video
              key={lesson.id}
              ref={videoRef}
              className={styles.video}
              src={video.src}
              controls
              preload="metadata"
              playsInline
              aria-label={fill(t.videoLabel, { name: lesson.name })}
              onLoadedMetadata={(e) => prepare(e.currentTarget)}
              onPlay={(e) => {
                startTick();
                remember(lesson.id, true);
                void report('tracking play', lesson.id, e.currentTarget.currentTime, true);
              }}
              onPause={(e) => {
                stopTick();
                const v = e.currentTarget;
                if (v.ended) return; // `ended` reports the end
                remember(lesson.id, false);
                void report('tracking', lesson.id, v.currentTime, false);
              }}
              onSeeked={(e) => {
                if (resumingRef.current) {
                  resumingRef.current = false;
                  return;
                }
                const v = e.currentTarget;
                if (!v.ended) void report('tracking', lesson.id, v.currentTime, !v.paused);
              }}
              onEnded={(e) => void onEnded(lesson.id, e.currentTarget.duration || e.currentTarget.currentTime)}
              onRateChange={(e) => {
                const r = e.currentTarget.playbackRate;
                if (r !== rate && (PLAYBACK_RATES as readonly number[]).includes(r)) chooseRate(String(r));
              }}
              onError={() => setVideoFailed(true)}
            >
              {video.captions.map((c) => (
                <track key={c.lang} kind="captions" src={c.src} srcLang={c.lang} label={t.captions[c.lang]} default={c.lang === defaultLang} />
              ))}
              {t.videoFallback}
            </video>
          ) : (
            <p className={styles.noVideo}>{t.noVideo}</p>
          )}
        </div>

        <div className={styles.controls}>
          <label className={styles.speed}>
            <span>{t.speed}</span>
            <select value={String(rate)} onChange={(e) => chooseRate(e.target.value)} disabled={!video}>
              {PLAYBACK_RATES.map((r) => (
                <option key={r} value={String(r)}>
                  {fill(t.speedOption, { rate: rateFormat.format(r) })}
                </option>
              ))}
            </select>
          </label>
          {resumedFrom !== null && <p className={styles.resumed}>{fill(t.resumed, { time: formatClock(resumedFrom) })}</p>}
        </div>

        {forbidden && (
          <p className={styles.alert} role="alert">
            {t.status.forbidden}
          </p>
        )}
        {videoFailed && (
          <p className={styles.alert} role="alert">
            {t.videoError}
          </p>
        )}
        <p className={status?.kind === 'error' ? styles.alert : styles.hint} role="status">
          {status?.text}
        </p>

        <div className={styles.lessonInfo}>
          <p className={styles.lessonMeta}>
            {fill(t.lessonOf, { n: lesson.number, total: view.lessonCount })} · {fill(t.duration, { time: formatClock(lesson.durationSeconds) })}
          </p>
          <h2 ref={headingRef} tabIndex={-1} className={styles.lessonTitle}>
            {lesson.name}
          </h2>
          {lesson.summary && <p>{lesson.summary}</p>}
        </div>

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

        {examPanel && (
          <section className={styles.examPanel} aria-labelledby={`${id}-exam`}>
            <h2 id={`${id}-exam`} ref={examRef} tabIndex={-1}>
              {t.lastVideo.title}
            </h2>
            {view.examPassed ? (
              <>
                <p>{t.lastVideo.passed}</p>
                <a className="button" href={view.certificateHref}>
                  {t.lastVideo.certificateLink}
                </a>
              </>
            ) : (
              <>
                <p>{t.lastVideo.exam}</p>
                <a className="button" href={view.examHref}>
                  {t.lastVideo.examLink}
                </a>
              </>
            )}
          </section>
        )}

        {lesson.resources.length > 0 && (
          <section className={styles.resources} aria-labelledby={`${id}-resources`}>
            <h3 id={`${id}-resources`}>{t.resourcesTitle}</h3>
            <ul>
              {lesson.resources.map((r) => (
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
        )}
      </div>

      <aside className={styles.side}>
        <div className={styles.progress}>
          <p className={styles.progressLabel} id={`${id}-progress`}>
            {t.progressLabel}
          </p>
          <div
            className={`progress-bar ${styles.bar}`}
            role="progressbar"
            aria-labelledby={`${id}-progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress.percent}
            aria-valuetext={progressText}
          >
            <span style={{ width: `${progress.percent}%` }} />
          </div>
          <p className={styles.progressValue} aria-hidden="true">
            {progressText}
          </p>
        </div>
        <Outline view={view} currentId={currentId} completed={completed} collapsed={collapsed} idPrefix={id} t={t} onToggle={toggle} onNavigate={onNavigate} />
      </aside>
    </div>
  );
}
