import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_WINDOW_MS, GRACE_MS, announcementDue, answerWindow, attemptDeadline, formatRemaining, remainingMs, shouldAutoGrade, type Announcement } from './clock';

describe('deadline and grace', () => {
  const start = Date.UTC(2025, 0, 1, 10, 0, 0);
  const deadline = attemptDeadline(start, 20);

  it('ends an attempt its minutes after it started', () => {
    expect(deadline - start).toBe(20 * 60_000);
    expect(attemptDeadline(1000, 1)).toBe(61_000);
  });
  it('gives 15 seconds of grace', () => {
    expect(GRACE_MS).toBe(15_000);
  });
  it('is open up to the deadline included', () => {
    expect(answerWindow(deadline, start)).toBe('open');
    expect(answerWindow(deadline, deadline - 1)).toBe('open');
    expect(answerWindow(deadline, deadline)).toBe('open');
  });
  it('is in grace from 1 ms after the deadline to the end of the grace included', () => {
    expect(answerWindow(deadline, deadline + 1)).toBe('grace');
    expect(answerWindow(deadline, deadline + GRACE_MS - 1)).toBe('grace');
    expect(answerWindow(deadline, deadline + GRACE_MS)).toBe('grace');
  });
  it('closes 1 ms after the grace', () => {
    expect(answerWindow(deadline, deadline + GRACE_MS + 1)).toBe('closed');
    expect(answerWindow(deadline, deadline + 86_400_000)).toBe('closed');
  });
  it('grades automatically exactly once answers are closed', () => {
    expect(shouldAutoGrade(deadline, deadline)).toBe(false);
    expect(shouldAutoGrade(deadline, deadline + 1)).toBe(false);
    expect(shouldAutoGrade(deadline, deadline + GRACE_MS)).toBe(false);
    expect(shouldAutoGrade(deadline, deadline + GRACE_MS + 1)).toBe(true);
  });
  it('is closed for times that are not numbers', () => {
    expect(answerWindow(deadline, Number.NaN)).toBe('closed');
    expect(answerWindow(Number.NaN, start)).toBe('closed');
  });
  it('counts the time left down to zero, never below', () => {
    expect(remainingMs(deadline, start)).toBe(20 * 60_000);
    expect(remainingMs(deadline, deadline - 1)).toBe(1);
    expect(remainingMs(deadline, deadline)).toBe(0);
    expect(remainingMs(deadline, deadline + 5000)).toBe(0);
    expect(remainingMs(deadline, Number.NaN)).toBe(0);
  });
});

/* ───────────── countdown ───────────── */

describe('announcementDue', () => {
  const MIN = 60_000;
  const none = new Set<Announcement>();

  it('says nothing before five minutes remain', () => {
    expect(announcementDue(20 * MIN, none)).toBeNull();
    expect(announcementDue(5 * MIN + 1, none)).toBeNull();
  });
  it('announces five minutes at exactly five minutes, and on the first tick after', () => {
    expect(announcementDue(5 * MIN, none)).toBe(5);
    expect(announcementDue(5 * MIN - 400, none)).toBe(5);
    expect(announcementDue(5 * MIN - ANNOUNCEMENT_WINDOW_MS + 1, none)).toBe(5);
  });
  it('announces five minutes once', () => {
    expect(announcementDue(5 * MIN - 1000, new Set<Announcement>([5]))).toBeNull();
  });
  it('does not announce five minutes once that moment has passed', () => {
    expect(announcementDue(5 * MIN - ANNOUNCEMENT_WINDOW_MS, none)).toBeNull();
    expect(announcementDue(4 * MIN, none)).toBeNull();
    expect(announcementDue(3 * MIN, none)).toBeNull();
  });
  it('announces one minute at one minute, once', () => {
    expect(announcementDue(MIN + 1, new Set<Announcement>([5]))).toBeNull();
    expect(announcementDue(MIN, new Set<Announcement>([5]))).toBe(1);
    expect(announcementDue(MIN - 999, new Set<Announcement>([5]))).toBe(1);
    expect(announcementDue(MIN - 999, new Set<Announcement>([5, 1]))).toBeNull();
    expect(announcementDue(MIN - ANNOUNCEMENT_WINDOW_MS, new Set<Announcement>([5]))).toBeNull();
    expect(announcementDue(0, new Set<Announcement>([5]))).toBeNull();
  });
  it('opening the exam with 3 minutes left: five is never announced, one still is', () => {
    // The island ticks every second from the moment the page opens.
    const announced = new Set<Announcement>();
    const heard: Announcement[] = [];
    for (let left = 3 * MIN; left >= -2000; left -= 1000) {
      const due = announcementDue(left, announced);
      if (due !== null) {
        heard.push(due);
        announced.add(due);
      }
    }
    expect(heard).toEqual([1]);
  });
  it('a whole 20-minute exam ticking each second hears five then one, each once', () => {
    const announced = new Set<Announcement>();
    const heard: [Announcement, number][] = [];
    for (let left = 20 * MIN - 250; left >= 0; left -= 1000) {
      const due = announcementDue(left, announced);
      if (due !== null) {
        heard.push([due, left]);
        announced.add(due);
      }
    }
    expect(heard).toEqual([
      [5, 5 * MIN - 250],
      [1, MIN - 250],
    ]);
  });
  it('a tick that jumps past five minutes straight to one minute announces only one', () => {
    expect(announcementDue(MIN - 500, none)).toBe(1);
  });
  it('says nothing for a time that is not a number or is over', () => {
    expect(announcementDue(Number.NaN, none)).toBeNull();
    expect(announcementDue(-1, none)).toBeNull();
  });
});

describe('formatRemaining', () => {
  it.each([
    [20 * 60_000, '20:00'],
    [5 * 60_000, '05:00'],
    [65_000, '01:05'],
    [9_000, '00:09'],
    [59 * 60_000 + 59_000, '59:59'],
    [3_600_000, '1:00:00'],
    [3_600_000 + 61_000, '1:01:01'],
    [4 * 3_600_000, '4:00:00'],
    [0, '00:00'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatRemaining(ms)).toBe(text);
  });
  it('rounds seconds up, so 00:00 shows only when the time is over', () => {
    expect(formatRemaining(1)).toBe('00:01');
    expect(formatRemaining(999)).toBe('00:01');
    expect(formatRemaining(1001)).toBe('00:02');
    expect(formatRemaining(3_599_001)).toBe('1:00:00');
  });
  it('is never negative', () => {
    expect(formatRemaining(-1)).toBe('00:00');
    expect(formatRemaining(-3_600_000)).toBe('00:00');
    expect(formatRemaining(Number.NaN)).toBe('00:00');
    expect(formatRemaining(Number.NEGATIVE_INFINITY)).toBe('00:00');
  });
});

/* ───────────── answers ───────────── */

describe('the clock module', () => {
  it('imports nothing, so the exam island bundles it without zod or the exam schemas', () => {
    expect(readFileSync(new URL('./clock.ts', import.meta.url), 'utf8')).not.toMatch(/^\s*(import|export .* from)\b/m);
  });
});
