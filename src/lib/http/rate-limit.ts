/**
 * The academy's rate limits (login, IBO code checks, prospect look-ups, password resets, sign-ups)
 * and the `RATE_LIMITS` setting that changes them. Pure: the counting is in `rate-limit.server.ts`.
 */
import { ConfigError } from '../config/error';

/** A named limit: at most `points` attempts per `durationSeconds` for one key. */
export interface LimitSpec {
  points: number;
  durationSeconds: number;
}

/** The limits the academy applies, by purpose. */
export const LIMITS = {
  /** Wrong passwords per account. */
  loginPerAccount: { points: 10, durationSeconds: 15 * 60 },
  /** Login attempts per address. */
  loginPerAddress: { points: 30, durationSeconds: 15 * 60 },
  /** IBO code checks per address. */
  codePerAddress: { points: 20, durationSeconds: 10 * 60 },
  /** Prospect e-mail look-ups per session or address. */
  lookupPerAddress: { points: 30, durationSeconds: 10 * 60 },
  /** Password reset requests per account and per address. */
  resetPerAccount: { points: 3, durationSeconds: 60 * 60 },
  resetPerAddress: { points: 10, durationSeconds: 60 * 60 },
  /** Registrations per address. */
  registerPerAddress: { points: 10, durationSeconds: 60 * 60 },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof LIMITS;

function isLimitName(name: string): name is LimitName {
  return Object.hasOwn(LIMITS, name);
}

/**
 * Reads `RATE_LIMITS`: comma-separated `name=points/seconds` pairs that replace the default of each
 * named limit, e.g. `loginPerAddress=100/900,registerPerAddress=50/3600`. Empty means no change.
 * Throws `ConfigError` with a fix-it sentence on a malformed value.
 */
export function parseRateLimits(text: string | undefined): Partial<Record<LimitName, LimitSpec>> {
  const out: Partial<Record<LimitName, LimitSpec>> = {};
  if (text === undefined || text.trim() === '') return out;
  for (const part of text.split(',')) {
    const m = /^\s*(\w+)\s*=\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*$/.exec(part);
    const name = m?.[1];
    if (!m || name === undefined || !isLimitName(name) || Number(m[2]) < 1 || Number(m[3]) < 1) {
      throw new ConfigError(
        `RATE_LIMITS "${part.trim()}" is not a limit: use name=points/seconds with a name among ${Object.keys(LIMITS).join(', ')} (e.g. loginPerAddress=30/900), or unset it for the defaults.`,
      );
    }
    out[name] = { points: Number(m[2]), durationSeconds: Number(m[3]) };
  }
  return out;
}

/** The limit in force for `name`: the `RATE_LIMITS` override, else the default. */
export function limitSpec(name: LimitName, env: Record<string, string | undefined> = process.env): LimitSpec {
  return parseRateLimits(env.RATE_LIMITS)[name] ?? LIMITS[name];
}
