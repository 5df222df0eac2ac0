import { describe, expect, it } from 'vitest';
import {
  BLOG_LAYOUTS,
  FAQ_LAYOUTS,
  categoryCounts,
  countryName,
  dateTile,
  eventJsonLd,
  featuredEvent,
  formatDate,
  formatEventRange,
  groupFaq,
  inLocale,
  jsonForScript,
  neighbours,
  newestFirst,
  portfolioPanels,
  readingMinutes,
  relatedPosts,
  splitEntryId,
  splitEvents,
  tagCounts,
  unpairedSlugs,
  type BlogCategory,
  type EventSummary,
} from './content';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

function post(slug: string, date: string, category: BlogCategory = 'selling', tags: string[] = []) {
  return { slug, date: day(date), category, tags };
}

describe('entries in two languages', () => {
  it('reads the language and slug from an entry id', () => {
    expect(splitEntryId('es/first-travel-sale')).toEqual({ locale: 'es', slug: 'first-travel-sale' });
    expect(splitEntryId('en/a1')).toEqual({ locale: 'en', slug: 'a1' });
    expect(splitEntryId('fr/post')).toBeNull();
    expect(splitEntryId('first-travel-sale')).toBeNull();
    expect(splitEntryId('es/nested/post')).toBeNull();
    expect(splitEntryId('es/Bad Slug')).toBeNull();
  });

  it('keeps the entries of one language and adds their slug', () => {
    const entries = [{ id: 'es/a' }, { id: 'en/a' }, { id: 'es/b' }, { id: 'stray' }];
    expect(inLocale(entries, 'es')).toEqual([
      { id: 'es/a', slug: 'a' },
      { id: 'es/b', slug: 'b' },
    ]);
    expect(inLocale(entries, 'en').map((e) => e.slug)).toEqual(['a']);
  });

  it('finds slugs written in only one language', () => {
    expect(unpairedSlugs(['es/a', 'en/a', 'es/b', 'en/c'])).toEqual(['b', 'c']);
    expect(unpairedSlugs(['es/a', 'en/a'])).toEqual([]);
  });
});

describe('dates', () => {
  it('formats a post date in each language without shifting the day', () => {
    expect(formatDate(day('2026-01-15'), 'es')).toBe('15 de enero de 2026');
    expect(formatDate(day('2026-01-15'), 'en')).toBe('15 January 2026');
  });

  it('reads the day and month of a date tile in the event’s time zone', () => {
    // 03:00 UTC on 1 March is still 28 February in Bogotá.
    const at = new Date('2027-03-01T03:00:00Z');
    expect(dateTile(at, 'America/Bogota', 'en')).toEqual({ day: '28', month: 'Feb' });
    expect(dateTile(at, 'Europe/Madrid', 'es')).toEqual({ day: '1', month: 'mar' });
  });

  it('names countries in the reader’s language', () => {
    expect(countryName('ES', 'es')).toBe('España');
    expect(countryName('ES', 'en')).toBe('Spain');
  });

  it('formats an event in its own time zone, with the zone', () => {
    const start = new Date('2026-12-10T19:00:00-06:00');
    const end = new Date('2026-12-10T20:00:00-06:00');
    const en = formatEventRange(start, end, 'America/Mexico_City', 'en');
    expect(en).toContain('Thursday');
    expect(en).toContain('10 December 2026');
    expect(en).toMatch(/19:00\s*[–-]\s*20:00/);
    expect(en).toMatch(/GMT-6|CST/);
    const es = formatEventRange(start, end, 'America/Mexico_City', 'es');
    expect(es).toContain('jueves');
    expect(es).toContain('diciembre');
  });
});

describe('blog', () => {
  const posts = [
    post('old', '2026-01-01', 'selling', ['clients', 'start']),
    post('mid', '2026-03-01', 'business', ['money']),
    post('new', '2026-05-01', 'selling', ['clients']),
    post('newest', '2026-07-01', 'tools', ['clients', 'start']),
  ];

  it('has a layout for every blog route, each with a card style', () => {
    expect(Object.keys(BLOG_LAYOUTS).sort()).toEqual(['classic-grid', 'classic-sidebar', 'list-sidebar', 'standard-sidebar']);
    expect(BLOG_LAYOUTS['classic-grid'].sidebar).toBe(false);
    for (const name of ['classic-sidebar', 'list-sidebar', 'standard-sidebar'] as const) expect(BLOG_LAYOUTS[name].sidebar).toBe(true);
    expect(new Set(Object.values(BLOG_LAYOUTS).map((l) => `${l.columns}-${l.card}-${l.sidebar}`)).size).toBe(4);
  });

  it('sorts newest first and breaks ties by slug', () => {
    const same = [post('b', '2026-01-01'), post('a', '2026-01-01'), post('c', '2026-02-01')];
    expect(newestFirst(same).map((p) => p.slug)).toEqual(['c', 'a', 'b']);
    expect(same.map((p) => p.slug)).toEqual(['b', 'a', 'c']); // the input is left alone
  });

  it('estimates reading time from words, not markup', () => {
    expect(readingMinutes('')).toBe(1);
    expect(readingMinutes('palabra '.repeat(400))).toBe(2);
    expect(readingMinutes('word '.repeat(1000), 250)).toBe(4);
    const noisy = `## Heading\n\n- **one** [two](https://example.com/a/long/path) ![img](/x.webp)\n\n\`\`\`\n${'code '.repeat(500)}\n\`\`\``;
    expect(readingMinutes(noisy)).toBe(1);
  });

  it('counts posts per category in registry order, without empty categories', () => {
    expect(categoryCounts(posts)).toEqual([
      { category: 'selling', count: 2 },
      { category: 'business', count: 1 },
      { category: 'tools', count: 1 },
    ]);
  });

  it('counts tags, most used first, then alphabetically, once per post', () => {
    const withRepeat = [...posts, { tags: ['money', 'money'] }];
    expect(tagCounts(withRepeat, 'en')).toEqual([
      { tag: 'clients', count: 3 },
      { tag: 'money', count: 2 },
      { tag: 'start', count: 2 },
    ]);
  });

  it('gives the older post as previous and the newer one as next', () => {
    expect(neighbours(posts, 'mid')).toEqual({ previous: posts[0], next: posts[2] });
    expect(neighbours(posts, 'newest')).toEqual({ previous: posts[2] });
    expect(neighbours(posts, 'old')).toEqual({ next: posts[1] });
    expect(neighbours(posts, 'missing')).toEqual({});
  });

  it('relates posts by category and shared tags, then by date', () => {
    expect(relatedPosts(posts, 'old').map((p) => p.slug)).toEqual(['new', 'newest', 'mid']);
    expect(relatedPosts(posts, 'mid', 2).map((p) => p.slug)).toEqual(['newest', 'new']);
    expect(relatedPosts(posts, 'missing')).toEqual([]);
    expect(relatedPosts([posts[0]!], 'old')).toEqual([]);
  });
});

describe('events', () => {
  const ev = (slug: string, start: string, end: string) => ({ slug, start: new Date(start), end: new Date(end) });
  const events = [
    ev('later', '2027-03-01T10:00:00Z', '2027-03-01T12:00:00Z'),
    ev('long-ago', '2026-01-01T10:00:00Z', '2026-01-01T12:00:00Z'),
    ev('soon', '2026-12-01T10:00:00Z', '2026-12-01T12:00:00Z'),
    ev('recent', '2026-10-01T10:00:00Z', '2026-10-01T12:00:00Z'),
  ];

  it('splits upcoming (soonest first) from past (latest first)', () => {
    const { upcoming, past } = splitEvents(events, new Date('2026-11-21T00:00:00Z'));
    expect(upcoming.map((e) => e.slug)).toEqual(['soon', 'later']);
    expect(past.map((e) => e.slug)).toEqual(['recent', 'long-ago']);
  });

  it('counts an event in progress as upcoming', () => {
    const { upcoming } = splitEvents(events, new Date('2026-12-01T11:00:00Z'));
    expect(upcoming[0]?.slug).toBe('soon');
  });

  it('features the next event, or the latest past one when none is left', () => {
    expect(featuredEvent(events, new Date('2026-11-21T00:00:00Z'))?.slug).toBe('soon');
    expect(featuredEvent(events, new Date('2030-01-01T00:00:00Z'))?.slug).toBe('later');
    expect(featuredEvent([], new Date())).toBeUndefined();
  });

  const base: EventSummary = {
    slug: 'workshop',
    title: 'Workshop',
    description: 'A morning of practice.',
    kind: 'workshop',
    host: 'Carmen Ibáñez',
    start: new Date('2027-02-20T14:00:00Z'),
    end: new Date('2027-02-20T18:00:00Z'),
    timezone: 'America/Bogota',
    mode: 'in-person',
    venue: { name: 'North Park Auditorium', address: 'Avenida 210', city: 'Bogotá', country: 'CO' },
    cover: '/images/events/workshop.webp',
  };
  const opts = { url: 'https://academy.test/en/events-details/workshop', origin: 'https://academy.test', organizer: 'Academia', locale: 'en' as const };

  it('describes an in-person event as a schema.org Event at a Place', () => {
    const ld = eventJsonLd(base, opts);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Workshop',
      startDate: '2027-02-20T14:00:00.000Z',
      endDate: '2027-02-20T18:00:00.000Z',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'North Park Auditorium', address: { addressLocality: 'Bogotá', addressCountry: 'CO' } },
      image: ['https://academy.test/images/events/workshop.webp'],
      organizer: { '@type': 'Organization', name: 'Academia' },
      performer: { '@type': 'Person', name: 'Carmen Ibáñez' },
    });
  });

  it('describes an online event at a virtual location', () => {
    const ld = eventJsonLd({ ...base, mode: 'online', venue: undefined }, opts);
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(ld.location).toEqual({ '@type': 'VirtualLocation', url: opts.url });
  });

  it('escapes JSON so it cannot close its script element', () => {
    const text = jsonForScript({ name: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});

describe('FAQ', () => {
  it('has the two layouts, only the second with a topic index', () => {
    expect(FAQ_LAYOUTS.accordion.topicIndex).toBe(false);
    expect(FAQ_LAYOUTS.indexed.topicIndex).toBe(true);
  });

  it('groups entries by topic in the fixed topic order, sorted inside, skipping empty topics', () => {
    const entries = [
      { id: 'p2', topic: 'payments' as const, order: 2 },
      { id: 'a1', topic: 'account' as const, order: 1 },
      { id: 'p1', topic: 'payments' as const, order: 1 },
    ];
    expect(groupFaq(entries)).toEqual([
      { topic: 'account', entries: [entries[1]] },
      { topic: 'payments', entries: [entries[2], entries[0]] },
    ]);
  });
});

describe('portfolio', () => {
  it('builds one panel per used category, then the full list last', () => {
    const items = [
      { id: 'x', category: 'teams' as const, order: 2 },
      { id: 'y', category: 'trips' as const, order: 3 },
      { id: 'z', category: 'trips' as const, order: 1 },
    ];
    const panels = portfolioPanels(items);
    expect(panels.map((p) => p.key)).toEqual(['trips', 'teams', 'all']);
    expect(panels[0]!.items.map((i) => i.id)).toEqual(['z', 'y']);
    expect(panels[2]!.items.map((i) => i.id)).toEqual(['z', 'x', 'y']);
  });
});
