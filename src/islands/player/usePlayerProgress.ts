/**
 * What the lesson player knows of the learner's progress: the lessons completed and where each lesson
 * resumes, as the server last acknowledged them (this tab's reports or another tab's broadcasts), and
 * the course's progress they add up to. Nothing here is guessed by the browser.
 */
import { useCallback, useState } from 'react';
import { completedIds, progressOf, type PlayerView } from '~/lib/learning/player';

/** The progress state of a player on `view`, starting from what the page rendered. */
export function usePlayerProgress(view: PlayerView) {
  const [completed, setCompleted] = useState<ReadonlySet<number>>(() => new Set(completedIds(view)));
  const [resumeAt, setResumeAt] = useState<Readonly<Record<number, number>>>(() =>
    Object.fromEntries(view.modules.flatMap((m) => m.lessons.map((l) => [l.id, l.resumeAt]))),
  );

  /** The server stored a lesson's position (and maybe its completion): a completed lesson stays completed. */
  const record = useCallback((lessonId: number, position: number, done: boolean) => {
    setResumeAt((r) => ({ ...r, [lessonId]: position }));
    if (done) setCompleted((c) => (c.has(lessonId) ? c : new Set(c).add(lessonId)));
  }, []);

  return { completed, resumeAt, record, progress: progressOf(view, completed) };
}
