/**
 * An IBO's people, pure: the list's query (filters, pages, search, each refused with its reason), its
 * links, a person's standing on a course, and the nudge's rule (not the IBO's, opted out, too soon,
 * over the day's allowance), each refusal with its status.
 */
import { describe, expect, it } from 'vitest';
import { courseStage, NUDGE_COOLDOWN_DAYS, NUDGE_REFUSAL_STATUS, NUDGES_PER_DAY, nudgeFormSchema, nudgeStopSchema, nudgeVerdict, peopleQueryString, progressPercent, readPeopleQuery, utcDayEnd, utcDayStart } from './people';

const read = (q: string) => readPeopleQuery(new URLSearchParams(q));

describe("the people list's query", () => {
  it('reads everyone, page 1, no search by default; a filter, a page and a search when given', () => {
    expect(read('')).toEqual({ ok: true, query: { show: 'all', page: 1, q: '' } });
    expect(read('show=stuck&page=3&q=%20ana%20')).toEqual({ ok: true, query: { show: 'stuck', page: 3, q: 'ana' } });
    expect(read('show=&page=')).toEqual({ ok: true, query: { show: 'all', page: 1, q: '' } });
  });

  it('refuses an unknown filter, a page that is not a whole number from 1, control characters and a search over 100 characters', () => {
    expect(read('show=everyone')).toEqual({ ok: false, error: 'badShow' });
    expect(read('show=__proto__')).toEqual({ ok: false, error: 'badShow' });
    for (const page of ['0', '-1', '1.5', 'abc', '9999999']) expect(read(`page=${page}`)).toEqual({ ok: false, error: 'badPage' });
    expect(read('q=a%00b')).toEqual({ ok: false, error: 'badInput' });
    expect(read(`q=${'x'.repeat(101)}`)).toEqual({ ok: false, error: 'badInput' });
    expect(read(`q=${'x'.repeat(100_000)}`)).toEqual({ ok: false, error: 'badInput' });
  });

  it('writes the links of the list, leaving the defaults out', () => {
    expect(peopleQueryString({ show: 'all', page: 1, q: '' })).toBe('');
    expect(peopleQueryString({ show: 'bought', page: 2, q: 'a&b' })).toBe('?show=bought&q=a%26b&page=2');
  });
});

describe("a person's standing", () => {
  it('gives the share of lessons done and the furthest stage', () => {
    expect(progressPercent({ lessons: 3, lessonsDone: 1 })).toBe(33);
    expect(progressPercent({ lessons: 0, lessonsDone: 0 })).toBe(0);
    expect(progressPercent({ lessons: 2, lessonsDone: 5 })).toBe(100);
    const at = new Date();
    expect(courseStage({ lessons: 3, lessonsDone: 1, passedAt: null, certifiedAt: null })).toBe('learning');
    expect(courseStage({ lessons: 3, lessonsDone: 3, passedAt: null, certifiedAt: null })).toBe('finished');
    expect(courseStage({ lessons: 3, lessonsDone: 3, passedAt: at, certifiedAt: null })).toBe('passed');
    expect(courseStage({ lessons: 3, lessonsDone: 2, passedAt: at, certifiedAt: at })).toBe('certified');
  });
});

describe('the nudge rule', () => {
  const now = new Date('2033-05-20T12:00:00Z');
  const ok = { visible: true, stoppedAt: null, lastNudgeAt: null, sentToday: 0, now };

  it('lets a nudge go to one of the IBO\'s people who may get it', () => {
    expect(nudgeVerdict(ok)).toEqual({ ok: true });
    expect(nudgeVerdict({ ...ok, lastNudgeAt: new Date(now.getTime() - NUDGE_COOLDOWN_DAYS * 86_400_000), sentToday: NUDGES_PER_DAY - 1 })).toEqual({ ok: true });
  });

  it('refuses someone not the IBO\'s before anything else (404), an opted-out person (409), a second within the week and a full day (429)', () => {
    expect(nudgeVerdict({ ...ok, visible: false, stoppedAt: now, sentToday: 99 })).toEqual({ ok: false, reason: 'notYours' });
    expect(nudgeVerdict({ ...ok, stoppedAt: now })).toEqual({ ok: false, reason: 'stopped' });
    expect(nudgeVerdict({ ...ok, lastNudgeAt: new Date(now.getTime() - 86_400_000) })).toEqual({ ok: false, reason: 'recent' });
    expect(nudgeVerdict({ ...ok, sentToday: NUDGES_PER_DAY })).toEqual({ ok: false, reason: 'dailyLimit' });
    expect(NUDGE_REFUSAL_STATUS).toEqual({ notYours: 404, stopped: 409, recent: 429, dailyLimit: 429 });
    expect(utcDayStart(new Date('2033-05-20T23:59:59Z')).toISOString()).toBe('2033-05-20T00:00:00.000Z');
    // The day after, across a month's and a year's end.
    expect(utcDayEnd(new Date('2033-05-31T23:59:59Z')).toISOString()).toBe('2033-06-01T00:00:00.000Z');
    expect(utcDayEnd(new Date('2033-12-31T00:00:00Z')).toISOString()).toBe('2034-01-01T00:00:00.000Z');
  });

  it('reads the forms strictly: a person id, a key, a stop token', () => {
    expect(nudgeFormSchema.safeParse({ person: '12', key: 'a'.repeat(16), lang: 'xx' }).data).toEqual({ person: 12, key: 'a'.repeat(16), lang: 'es' });
    for (const person of ['0', '-3', '1.5', 'abc', '99999999999', "1' or 1=1"]) expect(nudgeFormSchema.safeParse({ person, key: 'a'.repeat(16) }).success).toBe(false);
    expect(nudgeFormSchema.safeParse({ person: '1', key: 'short' }).success).toBe(false);
    expect(nudgeStopSchema.safeParse({ c: '5', t: 'A'.repeat(43) }).success).toBe(true);
    expect(nudgeStopSchema.safeParse({ c: '5', t: 'A'.repeat(42) + '\u0000' }).success).toBe(false);
  });
});
