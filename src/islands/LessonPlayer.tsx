/**
 * The lesson player: a native, keyboard-accessible video with Spanish and English captions and a
 * playback-speed choice, the lesson's text and resources, previous/next links, the course outline
 * and progress. It reports progress in real time (`tracking play`, `tracking` every 5 s while
 * playing and on pause/seek, `tracking end`), shows only what the server acknowledges (a lesson is
 * ticked when the server says it is completed), hears the person's other tabs, and at the end of a
 * lesson moves on in place to the next one (or the next module's first), or shows the exam panel at
 * the course's last video. Everything comes from the page as props: no request on load.
 */
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import type { Locale } from '~/i18n/locales';
import { afterEnd, findLesson, formatClock, neighbours, PLAYBACK_RATES, showsExamPanel, trackingEntry, type PlayerView } from '~/lib/learning/player';
import { format as fill } from '~/i18n/format';
import { guardStatus } from '~/lib/http/session-guard';
import { rememberPosition } from '~/lib/stores/tracking';
import CourseProgress from './player/CourseProgress';
import ExamPanel from './player/ExamPanel';
import Outline from './player/Outline';
import Pager from './player/Pager';
import Resources from './player/Resources';
import type { PlayerMessages } from './player/messages';
import { usePlaybackRate } from './player/usePlaybackRate';
import { usePlaybackTick } from './player/usePlaybackTick';
import { usePlayerProgress } from './player/usePlayerProgress';
import { useTrackingSocket } from './player/useTrackingSocket';
import { useHlsSource } from './player/useHlsSource';
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
  /** Where a lost session goes (a 401 clears everything and goes home). */
  home: string;
}

type Status = { kind: 'error' | 'hint' | 'done'; text: string } | null;
type Focus = 'heading' | 'video' | null;

export default function LessonPlayer({ view, contactId, userId, locale, t, siteName, home }: Props) {
  const id = useId();
  const [currentId, setCurrentId] = useState(view.currentLessonId);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [status, setStatus] = useState<Status>(null);
  /** What a screen reader hears of a lesson change (visible as the new title). */
  const [spoken, setSpoken] = useState('');
  const [resumedFrom, setResumedFrom] = useState<number | null>(null);
  const [videoFailed, setVideoFailed] = useState(false);
  const [ready, setReady] = useState(false);
  const [examFocus, setExamFocus] = useState(0);

  const videoRef = useRef<HTMLVideoElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const examRef = useRef<HTMLHeadingElement>(null);
  /** The lesson on screen, for callbacks that outlive a render. */
  const currentRef = useRef(currentId);
  const autoplayRef = useRef(false);
  const focusRef = useRef<Focus>(null);
  /** Set while the player itself seeks to the resume position (not the learner's seek: nothing to report). */
  const resumingRef = useRef(false);
  /** The video element already prepared (speed, resume position), so it happens once per element. */
  const preparedRef = useRef<HTMLVideoElement | null>(null);

  const { completed, resumeAt, record, progress } = usePlayerProgress(view);
  const [rate, chooseRate] = usePlaybackRate();
  const { report, connected, forbidden, saved } = useTrackingSocket({
    courseId: view.id,
    contactId,
    userId,
    // Another tab's progress updates ticks and resume positions, never seeking a video that plays here.
    onStored: record,
    onProblem: (problem) => setStatus((s) => (problem ? { kind: 'error', text: t.status[problem] } : s?.kind === 'error' ? null : s)),
    onSessionLost: () => guardStatus(401, home),
    lastPosition: () => {
      const v = videoRef.current;
      return v ? { lessonId: currentRef.current, position: v.currentTime, playing: !v.paused } : null;
    },
  });
  const tick = usePlaybackTick(() => {
    const v = videoRef.current;
    if (v && !v.paused && !v.ended) void report('tracking', currentRef.current, v.currentTime, true);
  });

  const found = findLesson(view, currentId)!;
  const lesson = found.lesson;
  const { previous, next, startsModule } = neighbours(view, currentId);
  const examPanel = showsExamPanel(view, currentId);
  // A library video is an HLS playlist: native HLS, or hls.js loaded for it alone.
  useHlsSource(videoRef, lesson.video?.src, lesson.video?.hls === true, () => setVideoFailed(true));

  const remember = (lessonId: number, playing: boolean) => {
    const entry = trackingEntry(view, lessonId, playing);
    if (entry) rememberPosition(entry);
  };

  /* ───── switching lessons in place ───── */

  /** Shows another lesson: new video, address, title, outline and resources; optionally plays it. */
  const go = (lessonId: number, opts: { push?: boolean; autoplay?: boolean; focus?: Focus; intro?: string; keepStatus?: boolean } = {}) => {
    const target = findLesson(view, lessonId);
    if (!target) return;
    const v = videoRef.current;
    // Leaving a playing video: its last position is reported (its pause event will not reach us).
    if (v && !v.paused && !v.ended && v.currentTime > 0) void report('tracking', currentRef.current, v.currentTime, false);
    tick.stop();
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
    // Said in the player's own lines, in the page's flow: a floating notice would cover the title or the
    // controls on a phone. A completed lesson is shown; which lesson plays now is only spoken (the title says it).
    if (opts.intro) setStatus({ kind: 'done', text: opts.intro });
    setSpoken(fill(t.nowPlayingAnnouncement, { name: target.lesson.name }));
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
    tick.stop();
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
      if (intro) setStatus({ kind: 'done', text: intro });
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
    history.replaceState({ ...(history.state as object | null), lessonId: currentRef.current }, '');
    const onPop = (e: PopStateEvent) => {
      const lessonId = (e.state as { lessonId?: unknown } | null)?.lessonId;
      if (typeof lessonId === 'number' && lessonId !== currentRef.current) goRef.current(lessonId, { push: false, focus: 'heading' });
    };
    window.addEventListener('popstate', onPop);
    remember(currentRef.current, false);
    setReady(true);
    return () => window.removeEventListener('popstate', onPop);
    // Once per page: the course does not change while it lives.
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
              src={video.hls ? undefined : video.src}
              controls
              preload="metadata"
              playsInline
              aria-label={fill(t.videoLabel, { name: lesson.name })}
              onLoadedMetadata={(e) => prepare(e.currentTarget)}
              onPlay={(e) => {
                tick.start();
                remember(lesson.id, true);
                void report('tracking play', lesson.id, e.currentTarget.currentTime, true);
              }}
              onPause={(e) => {
                tick.stop();
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
        <p className={styles[status?.kind === 'error' ? 'alert' : status?.kind === 'done' ? 'done' : 'hint']} role="status" data-player-status>
          {status?.text}
        </p>
        <p className="sr-only" role="status">
          {spoken}
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

        <Pager previous={previous} next={next} startsModule={startsModule} t={t} onNavigate={onNavigate} />

        {examPanel && <ExamPanel view={view} headingId={`${id}-exam`} headingRef={examRef} t={t.lastVideo} />}

        {lesson.resources.length > 0 && <Resources resources={lesson.resources} headingId={`${id}-resources`} t={t} />}
      </div>

      <aside className={styles.side}>
        <CourseProgress progress={progress} labelId={`${id}-progress`} t={t} />
        <Outline view={view} currentId={currentId} completed={completed} collapsed={collapsed} idPrefix={id} t={t} onToggle={toggle} onNavigate={onNavigate} />
      </aside>
    </div>
  );
}
