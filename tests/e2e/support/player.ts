/**
 * Reads the lesson player's server data from its page: the props Astro serialises into the player
 * island (`<astro-island … props="…">`), so a test can see where each lesson resumes and whether it is
 * completed, exactly as the browser would get them.
 */

export interface PlayerLesson {
  id: number;
  durationSeconds: number;
  resumeAt: number;
  completed: boolean;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Undoes Astro's prop serialisation (`[0, value]` plain, `[1, [...]]` array). */
function revive(v: unknown): unknown {
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'number') {
    const [type, payload] = v as [number, unknown];
    if (type === 1 && Array.isArray(payload)) return payload.map(revive);
    if (type === 0 && payload !== null && typeof payload === 'object' && !Array.isArray(payload)) return revive(payload);
    return payload;
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]));
  return v;
}

/** The lessons of the player page's course, as the server rendered them. */
export function playerLessons(html: string): PlayerLesson[] {
  const island = /<astro-island[^>]*component-url="[^"]*LessonPlayer[^"]*"[^>]*>/.exec(html)?.[0];
  const raw = island && /\sprops="([^"]*)"/.exec(island)?.[1];
  if (!raw) throw new Error('no lesson player on the page');
  const props = revive(JSON.parse(decodeEntities(raw))) as { view?: { modules?: { lessons?: PlayerLesson[] }[] } };
  return (props.view?.modules ?? []).flatMap((m) => m.lessons ?? []);
}

/** Where the player opens a lesson, from the last position the server stored (the player's own rule). */
export function startPosition(lastPosition: number, durationSeconds: number): number {
  if (!Number.isFinite(lastPosition) || lastPosition <= 0) return 0;
  if (durationSeconds > 0 && lastPosition >= durationSeconds - 1) return 0;
  return lastPosition;
}
