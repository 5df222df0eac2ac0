import { describe, expect, it } from 'vitest';
import { LIMITS, limitStore, loginDelayMs, MAX_LOGIN_DELAY_MS, type LimitName } from './rate-limit';
import { createRateLimiter } from './rate-limit.server';

const limiter = createRateLimiter({ spec: (name) => LIMITS[name] });
const { hit, forgive, used, refund } = {
  hit: limiter.hit.bind(limiter),
  forgive: limiter.forgive.bind(limiter),
  used: limiter.used.bind(limiter),
  refund: limiter.refund.bind(limiter),
};

describe('the limits the academy applies', () => {
  it('keep brute force slow without a lockout button, and limit what strangers can send', () => {
    // A pair (account, address) is refused after 10 wrong passwords; the account as a whole never is.
    expect(LIMITS.loginPerAccountAddress).toEqual({ points: 10, durationSeconds: 15 * 60 });
    expect(LIMITS.loginPerAccount.points).toBeLessThanOrEqual(LIMITS.loginPerAccountAddress.points);
    expect(LIMITS.codePerAddress).toEqual({ points: 20, durationSeconds: 10 * 60 });
    expect(LIMITS.confirmPerSession).toEqual({ points: 10, durationSeconds: 10 * 60 });
    expect(LIMITS.confirmPerAddress).toEqual(LIMITS.lookupPerAddress);
    expect(LIMITS.contactPerAddress).toEqual({ points: 5, durationSeconds: 10 * 60 });
  });

  it('hold logins to an account under attack longer and longer, up to a few seconds, never forever', () => {
    expect(loginDelayMs(0, 10)).toBe(0);
    expect(loginDelayMs(10, 10)).toBe(0);
    expect(loginDelayMs(11, 10)).toBe(250);
    expect(loginDelayMs(12, 10)).toBe(500);
    expect(loginDelayMs(13, 10)).toBe(1000);
    expect(loginDelayMs(1e9, 10)).toBe(MAX_LOGIN_DELAY_MS);
    expect(loginDelayMs(Number.NaN, 10)).toBe(0);
    let previous = 0;
    for (let n = 0; n < 100; n++) {
      const wait = loginDelayMs(n, 10);
      expect(wait).toBeGreaterThanOrEqual(previous);
      expect(wait).toBeLessThanOrEqual(MAX_LOGIN_DELAY_MS);
      previous = wait;
    }
  });
});

describe('where each limit is counted', () => {
  const money: LimitName[] = ['paymentFailuresPerAccount', 'paymentFailuresPerAddress', 'couponGuessesPerAccount', 'couponGuessesPerAddress'];

  it('guards money in the database on every layout: one process, several on PostgreSQL, with Redis up or down', () => {
    for (const name of money) {
      expect(limitStore(name, { redis: false, database: 'pglite' }), name).toBe('database');
      expect(limitStore(name, { redis: false, database: 'postgres' }), name).toBe('database');
      expect(limitStore(name, { redis: true, database: 'postgres' }), name).toBe('database');
    }
  });

  it('counts the other limits in Redis when configured, else in PostgreSQL (shared by processes), else in memory (one process)', () => {
    expect(limitStore('loginPerAddress', { redis: true, database: 'postgres' })).toBe('redis');
    expect(limitStore('loginPerAddress', { redis: false, database: 'postgres' })).toBe('database');
    expect(limitStore('loginPerAddress', { redis: false, database: 'pglite' })).toBe('memory');
    // A limiter without a database (a script, a unit test) counts in memory.
    expect(limitStore('paymentFailuresPerAccount', { redis: false, database: null })).toBe('memory');
  });

  it('limits coupon guesses per account and per address', () => {
    expect(LIMITS.couponGuessesPerAccount).toEqual({ points: 10, durationSeconds: 60 * 60 });
    expect(LIMITS.couponGuessesPerAddress).toEqual({ points: 30, durationSeconds: 60 * 60 });
  });
});

describe('hit', () => {
  it('refuses once the limit is used up, says when to retry, and forgives', async () => {
    const key = `test-${Math.random()}`;
    for (let i = 0; i < LIMITS.resetPerAccount.points; i++) expect(await hit('resetPerAccount', key)).toEqual({ ok: true });
    const refused = await hit('resetPerAccount', key);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThan(60 * 59);
    // Other keys are counted apart.
    expect(await hit('resetPerAccount', `${key}-other`)).toEqual({ ok: true });
    await forgive('resetPerAccount', key);
    expect(await hit('resetPerAccount', key)).toEqual({ ok: true });
  });

  it('reports the limit in force for each name', () => {
    expect(limiter.limit('codePerAddress')).toEqual(LIMITS.codePerAddress);
    const custom = createRateLimiter({ spec: (name) => (name === 'codePerAddress' ? { points: 3, durationSeconds: 60 } : LIMITS[name]) });
    expect(custom.limit('codePerAddress')).toEqual({ points: 3, durationSeconds: 60 });
  });

  it('says how many attempts a key used, and gives one back', async () => {
    const key = `test-${Math.random()}`;
    expect(await used('codePerAddress', key)).toBe(0);
    await hit('codePerAddress', key);
    await hit('codePerAddress', key);
    expect(await used('codePerAddress', key)).toBe(2);
    await refund('codePerAddress', key);
    expect(await used('codePerAddress', key)).toBe(1);
  });
});
