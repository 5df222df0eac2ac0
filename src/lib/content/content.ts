/**
 * Editorial content rules that need no I/O: the blog, events, FAQ and portfolio. The layout registries
 * (which variant of a page shows what) live here too, so a page variant is data, not a copy.
 */
import { isLocale, type Locale } from '~/i18n';
import type { paths } from '~/lib/paths';

// ───────────────────────────── entries in two languages ─────────────────────────────

/**
 * Splits a collection entry id of the form `<locale>/<slug>` (one folder per language, the same file
 * name in both) into its language and slug; `null` for an id that does not follow that shape.
 */
export function splitEntryId(id: string): { locale: Locale; slug: string } | null {
  const m = /^([a-z]{2})\/([a-z0-9][a-z0-9-]*)$/.exec(id);
  if (!m || !isLocale(m[1])) return null;
  return { locale: m[1], slug: m[2]! };
}

/** The entries written in `locale`, each with its slug. */
export function inLocale<T extends { id: string }>(entries: readonly T[], locale: Locale): (T & { slug: string })[] {
  return entries.flatMap((e) => {
    const key = splitEntryId(e.id);
    return key && key.locale === locale ? [{ ...e, slug: key.slug }] : [];
  });
}

/** Slugs that are missing in one of the two languages (each slug must address both). */
export function unpairedSlugs(ids: readonly string[]): string[] {
  const seen = new Map<string, Set<Locale>>();
  for (const id of ids) {
    const key = splitEntryId(id);
    if (!key) continue;
    seen.set(key.slug, (seen.get(key.slug) ?? new Set()).add(key.locale));
  }
  return [...seen].filter(([, locales]) => locales.size < 2).map(([slug]) => slug).sort();
}

// ───────────────────────────── dates ─────────────────────────────

const INTL_LOCALE: Record<Locale, string> = { es: 'es-ES', en: 'en-GB' };

/** A calendar date (posts carry a date without time, read as UTC) in the reader's language. */
export function formatDate(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** An event's day and hours in its own time zone, e.g. `Thursday 10 December 2026, 18:00–19:30 GMT-5`. */
export function formatEventRange(start: Date, end: Date, timeZone: string, locale: Locale): string {
  const fmt = new Intl.DateTimeFormat(INTL_LOCALE[locale], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  });
  // Intl puts narrow no-break spaces around the range dash; plain spaces read and test better.
  return fmt.formatRange(start, end).replace(/[\u202f\u2009]/g, ' ');
}

/** The day number and short month name of a moment in a time zone, for a calendar-style date tile. */
export function dateTile(date: Date, timeZone: string, locale: Locale): { day: string; month: string } {
  const part = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(INTL_LOCALE[locale], { ...options, timeZone }).format(date);
  return { day: part({ day: 'numeric' }), month: part({ month: 'short' }).replace('.', '') };
}

/** A country's name from its ISO 3166 code (`CO` → `Colombia`), in the reader's language. */
export function countryName(code: string, locale: Locale): string {
  return new Intl.DisplayNames([INTL_LOCALE[locale]], { type: 'region' }).of(code) ?? code;
}

// ───────────────────────────── blog ─────────────────────────────

/** The blog's categories; their names are in the message catalogue (`content.blog.categories`). */
export const BLOG_CATEGORIES = ['selling', 'destinations', 'business', 'tools'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

/** What lists, sidebars and neighbours need to know about a post. */
export interface PostSummary {
  slug: string;
  title: string;
  description: string;
  date: Date;
  author: string;
  category: BlogCategory;
  tags: readonly string[];
  cover: string;
  minutes: number;
}

/** The four blog index pages (`/blog-<layout>`). */
export type BlogLayout = Parameters<(typeof paths)['blog']>[0];

/** How one blog index variant looks. */
export interface BlogLayoutSpec {
  /** Cards per row on a wide screen. */
  columns: 1 | 2 | 3;
  /** Show the sidebar (categories, recent posts, tags) beside the list. */
  sidebar: boolean;
  /** `classic`: image over text; `list`: image beside text; `standard`: large image, author and tags. */
  card: 'classic' | 'list' | 'standard';
}

/** The registry of blog index variants: one component renders them all from this data. */
export const BLOG_LAYOUTS: Readonly<Record<BlogLayout, BlogLayoutSpec>> = {
  'classic-grid': { columns: 3, sidebar: false, card: 'classic' },
  'classic-sidebar': { columns: 2, sidebar: true, card: 'classic' },
  'list-sidebar': { columns: 1, sidebar: true, card: 'list' },
  'standard-sidebar': { columns: 1, sidebar: true, card: 'standard' },
};

/** Minutes needed to read a markdown text (at least 1), ignoring markup, links' targets and code fences. */
export function readingMinutes(markdown: string, wordsPerMinute = 200): number {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|~-]+/g, ' ');
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return Math.max(1, Math.round(words / wordsPerMinute));
}

/** Items sorted newest first; equal dates fall back to the slug so the order never wobbles. */
export function newestFirst<T extends { date: Date; slug: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug));
}

/** How many posts each category holds, in the registry's order, leaving out empty ones. */
export function categoryCounts(posts: readonly Pick<PostSummary, 'category'>[]): { category: BlogCategory; count: number }[] {
  return BLOG_CATEGORIES.map((category) => ({ category, count: posts.filter((p) => p.category === category).length })).filter(
    (c) => c.count > 0,
  );
}

/** Every tag with how many posts carry it, most used first, then alphabetically. */
export function tagCounts(posts: readonly Pick<PostSummary, 'tags'>[], locale: Locale): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of posts) for (const tag of new Set(p.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag, INTL_LOCALE[locale]));
}

/**
 * The posts around `slug` in time: `previous` is the next older post, `next` the next newer one.
 * Both are undefined for an unknown slug.
 */
export function neighbours<T extends { date: Date; slug: string }>(posts: readonly T[], slug: string): { previous?: T; next?: T } {
  const ordered = newestFirst(posts);
  const i = ordered.findIndex((p) => p.slug === slug);
  if (i < 0) return {};
  const previous = ordered[i + 1];
  const next = ordered[i - 1];
  return { ...(previous ? { previous } : {}), ...(next ? { next } : {}) };
}

/**
 * Up to `limit` other posts most like `slug`: two points for the same category, one per shared tag;
 * ties go to the newer post. Posts with nothing in common come last, newest first, so the list is
 * never empty while other posts exist.
 */
export function relatedPosts<T extends Pick<PostSummary, 'slug' | 'date' | 'category' | 'tags'>>(
  posts: readonly T[],
  slug: string,
  limit = 3,
): T[] {
  const self = posts.find((p) => p.slug === slug);
  if (!self) return [];
  const score = (p: T) => (p.category === self.category ? 2 : 0) + p.tags.filter((t) => self.tags.includes(t)).length;
  return newestFirst(posts.filter((p) => p.slug !== slug))
    .map((p, order) => ({ p, s: score(p), order }))
    .sort((a, b) => b.s - a.s || a.order - b.order)
    .slice(0, limit)
    .map(({ p }) => p);
}

// ───────────────────────────── events ─────────────────────────────

/** Kinds of event; their names are in the catalogue (`content.events.kinds`). */
export const EVENT_KINDS = ['webinar', 'training', 'workshop'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** What the event list, the event page and the JSON-LD need from an event. */
export interface EventSummary {
  slug: string;
  title: string;
  description: string;
  kind: EventKind;
  host: string;
  start: Date;
  end: Date;
  timezone: string;
  mode: 'online' | 'in-person';
  /** Venue for in-person events. */
  venue?: { name: string; address: string; city: string; country: string } | undefined;
  cover: string;
}

/** True once an event has ended. */
export function hasEnded(event: Pick<EventSummary, 'end'>, now: Date): boolean {
  return event.end.getTime() < now.getTime();
}

/**
 * Splits events at `now`: `upcoming` (not yet ended, soonest first; one in progress counts as
 * upcoming) and `past` (most recent first).
 */
export function splitEvents<T extends Pick<EventSummary, 'slug' | 'start' | 'end'>>(
  events: readonly T[],
  now: Date,
): { upcoming: T[]; past: T[] } {
  const byStart = [...events].sort((a, b) => a.start.getTime() - b.start.getTime() || a.slug.localeCompare(b.slug));
  const upcoming = byStart.filter((e) => !hasEnded(e, now));
  const past = byStart.filter((e) => hasEnded(e, now)).reverse();
  return { upcoming, past };
}

/** The event `/events-details` shows: the next upcoming one, or the latest past one when none is left. */
export function featuredEvent<T extends Pick<EventSummary, 'slug' | 'start' | 'end'>>(events: readonly T[], now: Date): T | undefined {
  const { upcoming, past } = splitEvents(events, now);
  return upcoming[0] ?? past[0];
}

/** schema.org `Event` data for an event page (https://schema.org/Event). */
export function eventJsonLd(
  event: EventSummary,
  opts: { url: string; origin: string; organizer: string; locale: Locale },
): Record<string, unknown> {
  const location =
    event.mode === 'online' || !event.venue
      ? { '@type': 'VirtualLocation', url: opts.url }
      : {
          '@type': 'Place',
          name: event.venue.name,
          address: {
            '@type': 'PostalAddress',
            streetAddress: event.venue.address,
            addressLocality: event.venue.city,
            addressCountry: event.venue.country,
          },
        };
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.description,
    startDate: event.start.toISOString(),
    endDate: event.end.toISOString(),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode:
      event.mode === 'online' ? 'https://schema.org/OnlineEventAttendanceMode' : 'https://schema.org/OfflineEventAttendanceMode',
    location,
    image: [new URL(event.cover, opts.origin).href],
    inLanguage: opts.locale,
    isAccessibleForFree: true,
    url: opts.url,
    organizer: { '@type': 'Organization', name: opts.organizer, url: opts.origin },
    performer: { '@type': 'Person', name: event.host },
  };
}

/** JSON for an inline `<script>`: `<` is escaped so the text can never close the script element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

// ───────────────────────────── FAQ ─────────────────────────────

/** FAQ topics in the order the pages show them; their names are in the catalogue (`content.faq.topics`). */
export const FAQ_TOPICS = ['account', 'courses', 'payments', 'ibos'] as const;
export type FaqTopic = (typeof FAQ_TOPICS)[number];

/** The two FAQ pages (`/faq-1`, `/faq-2`). */
export type FaqLayout = 'accordion' | 'indexed';

/** How one FAQ variant looks. */
export interface FaqLayoutSpec {
  /** Show a list of topics that links to each group. */
  topicIndex: boolean;
  /** Open the first question of the page so the reader sees what an answer looks like. */
  openFirst: boolean;
  /** Questions per row inside a topic on a wide screen. */
  columns: 1 | 2;
}

/** The registry of FAQ variants: `/faq-1` is an accordion, `/faq-2` two columns with a topic index. */
export const FAQ_LAYOUTS: Readonly<Record<FaqLayout, FaqLayoutSpec>> = {
  accordion: { topicIndex: false, openFirst: true, columns: 1 },
  indexed: { topicIndex: true, openFirst: false, columns: 2 },
};

/** FAQ entries grouped by topic in `FAQ_TOPICS` order, each group sorted by `order`; empty topics are left out. */
export function groupFaq<T extends { topic: FaqTopic; order: number }>(entries: readonly T[]): { topic: FaqTopic; entries: T[] }[] {
  return FAQ_TOPICS.map((topic) => ({
    topic,
    entries: entries.filter((e) => e.topic === topic).sort((a, b) => a.order - b.order),
  })).filter((g) => g.entries.length > 0);
}

// ───────────────────────────── portfolio ─────────────────────────────

/** Portfolio categories; names in the catalogue (`content.portfolio.categories`). */
export const PORTFOLIO_CATEGORIES = ['trips', 'teams', 'events'] as const;
export type PortfolioCategory = (typeof PORTFOLIO_CATEGORIES)[number];

/**
 * The portfolio's filter panels: one per category that has items, then `all`. The page shows the
 * panel named in the URL fragment (`:target`) and `all` otherwise, so filtering needs no JavaScript.
 */
export function portfolioPanels<T extends { category: PortfolioCategory; order: number }>(
  items: readonly T[],
): { key: PortfolioCategory | 'all'; items: T[] }[] {
  const sorted = [...items].sort((a, b) => a.order - b.order);
  const panels = PORTFOLIO_CATEGORIES.map((key) => ({ key, items: sorted.filter((i) => i.category === key) })).filter(
    (p) => p.items.length > 0,
  );
  return [...panels, { key: 'all' as const, items: sorted }];
}
