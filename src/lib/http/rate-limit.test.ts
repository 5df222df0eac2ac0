import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/error';
import { LIMITS, limitSpec, parseRateLimits } from './rate-limit';
import { forgive, hit } from './rate-limit.server';

describe('rate limit settings', () => {
  it('keeps the defaults when RATE_LIMITS is unset or empty', () => {
    expect(parseRateLimits(undefined)).toEqual({});
    expect(parseRateLimits('  ')).toEqual({});
    expect(limitSpec('loginPerAccount', {})).toEqual(LIMITS.loginPerAccount);
  });

  it('replaces the named limits only', () => {
    const env = { RATE_LIMITS: 'loginPerAddress=500/900, registerPerAddress = 40/3600' };
    expect(limitSpec('loginPerAddress', env)).toEqual({ points: 500, durationSeconds: 900 });
    expect(limitSpec('registerPerAddress', env)).toEqual({ points: 40, durationSeconds: 3600 });
    expect(limitSpec('loginPerAccount', env)).toEqual(LIMITS.loginPerAccount);
  });

  it.each(['nope=1/2', 'loginPerAddress', 'loginPerAddress=1', 'loginPerAddress=a/b', 'loginPerAddress=0/60', 'loginPerAddress=5/0', 'toString=1/1'])(
    'refuses %s with a fix-it sentence',
    (text) => {
      expect(() => parseRateLimits(text)).toThrow(ConfigError);
      expect(() => parseRateLimits(text)).toThrow(/use name=points\/seconds/);
    },
  );
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
});
