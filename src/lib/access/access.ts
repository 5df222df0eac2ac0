/**
 * Who may see and open which course. Every rule of course visibility and access lives here, as pure
 * functions over plain data; pages, actions, media and socket handlers all ask these functions.
 */

/** True when a course costs money (value above 0). */
export function isPaid(price: number | string): boolean {
  return Number(price) > 0;
}

/** The course fields the rules read (database columns, not hard-coded ids). */
export interface AccessCourse {
  id: number;
  isTest: boolean;
  /** Taken off the catalogue by an editor (absent: shown). */
  hidden?: boolean;
  visibleOnlyToBuyers: boolean;
  allowAll: boolean;
  price: number;
  prerequisiteCourseId: number | null;
  categoryId: number;
}

/**
 * The person asking. `visitor`: nobody identified yet; `guest`: entered with an IBO code as a guest;
 * `ibo`: an IBO's session opening courses for a prospect; `learner`: a logged-in user.
 */
export interface Viewer {
  kind: 'visitor' | 'guest' | 'ibo' | 'learner';
  userId: number | null;
  /** The prospect or contact whose progress is tracked; guests and IBOs need one to open a course. */
  contactId: number | null;
  purchased: ReadonlySet<number>;
  completed: ReadonlySet<number>;
  /** Categories an active membership unlocks. */
  membershipCategories: ReadonlySet<number>;
}

/** Nobody in particular: the view of the catalogue every visitor shares. */
export const VISITOR: Viewer = Object.freeze({
  kind: 'visitor',
  userId: null,
  contactId: null,
  purchased: new Set<number>(),
  completed: new Set<number>(),
  membershipCategories: new Set<number>(),
});

/**
 * A viewer's access context as a short key: everything a page kept for many people may depend on (kind,
 * whether a person is being tracked, courses bought and completed, categories a membership unlocks).
 * Two people with the same key see the same shared pages; a visitor's key is `visitor`.
 */
export function accessKey(v: Viewer): string {
  if (v.kind === 'visitor') return 'visitor';
  const list = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b).join('.');
  return `${v.kind}:${v.contactId === null ? 'none' : 'contact'}:p${list(v.purchased)}:c${list(v.completed)}:m${list(v.membershipCategories)}`;
}

/** True when the viewer sees nothing a visitor would not (so shared, cached pages are right for them). */
export function seesWhatVisitorsSee(v: Viewer): boolean {
  return v.kind === 'visitor';
}

/** Test and hidden courses never appear; buyer-only courses appear only to people who bought them. */
export function isListed(c: AccessCourse, v: Viewer): boolean {
  if (c.isTest || c.hidden === true) return false;
  return !c.visibleOnlyToBuyers || v.purchased.has(c.id);
}

/** True when the viewer bought the course. */
export function isPurchased(c: AccessCourse, v: Viewer): boolean {
  return v.purchased.has(c.id);
}

/** Paid courses show buy buttons only when not already bought. */
export function showBuyButtons(c: AccessCourse, v: Viewer): boolean {
  return isPaid(c.price) && !isPurchased(c, v);
}

/** True when a required course (e.g. Real Vision basic before intermediate) is not completed. */
export function prerequisiteMissing(c: AccessCourse, v: Viewer): boolean {
  return c.prerequisiteCourseId !== null && !v.completed.has(c.prerequisiteCourseId);
}

/** Why a course cannot be opened now, or `null` when it can. */
export type Refusal =
  /** Not listed for this viewer: answer as if it did not exist. */
  | 'not-found'
  /** Requires a completed prerequisite course. */
  | 'prerequisite'
  /** Free for guests, but the guest or IBO must give prospect data first (or the visitor must enter). */
  | 'prospect'
  /** Only for logged-in learners. */
  | 'login'
  /** Paid and not bought (no membership unlocks it). */
  | 'purchase';

/** Whether the viewer may open (watch) the course, and why not. */
export function refusal(c: AccessCourse, v: Viewer): Refusal | null {
  if (!isListed(c, v)) return 'not-found';
  if (prerequisiteMissing(c, v)) return 'prerequisite';
  if (v.kind !== 'learner') {
    if (!c.allowAll || isPaid(c.price)) return 'login';
    return v.contactId === null ? 'prospect' : null;
  }
  if (isPaid(c.price) && !isPurchased(c, v) && !v.membershipCategories.has(c.categoryId)) return 'purchase';
  return null;
}

/** What a course card or details page shows for this viewer. */
export interface CourseState {
  /** Free for guests (`allowAll`): the free icon. */
  free: boolean;
  /** The lock icon: the viewer cannot open it now. */
  locked: boolean;
  refusal: Refusal | null;
  showBuy: boolean;
  purchased: boolean;
}

/** The per-viewer state of a listed course. */
export function courseState(c: AccessCourse, v: Viewer): CourseState {
  const r = refusal(c, v);
  return {
    free: c.allowAll && !isPaid(c.price) && r !== 'prerequisite',
    locked: r !== null,
    refusal: r,
    showBuy: showBuyButtons(c, v),
    purchased: isPurchased(c, v),
  };
}
