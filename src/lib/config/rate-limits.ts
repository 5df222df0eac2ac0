/**
 * The academy's rate limits (login, IBO code checks, prospect look-ups and confirmations, password
 * resets, sign-ups, contact messages, refused payments, coupon guesses, profile changes, consent to one's IBO, data archives, deletion requests) with their defaults, and the
 * `RATE_LIMITS` setting that changes them. The configuration owns them because `RATE_LIMITS` is checked
 * against their names at start; where each is counted is the rate limiter's (`http/rate-limit.ts`).
 * Pure.
 */
import { ConfigError, quoted } from './error';

/** A named limit: at most `points` attempts per `durationSeconds` for one key. */
export interface LimitSpec {
  points: number;
  durationSeconds: number;
}

/** The limits the academy applies, by purpose. */
export const LIMITS = {
  /**
   * Wrong passwords per account from all addresses. Never a refusal (anyone could lock the owner out):
   * past this many, each login to the account waits longer (`loginDelayMs`).
   */
  loginPerAccount: { points: 10, durationSeconds: 15 * 60 },
  /** Wrong passwords per account from one address: that pair is refused until the window passes. */
  loginPerAccountAddress: { points: 10, durationSeconds: 15 * 60 },
  /** Login attempts per address; the right password gives its attempt back, so only wrong ones use it up. */
  loginPerAddress: { points: 30, durationSeconds: 15 * 60 },
  /** Invalid IBO codes per address, typed (`ibo.enter`) and in affiliate links (`/{code}`) together. */
  codePerAddress: { points: 20, durationSeconds: 10 * 60 },
  /** Prospect e-mail look-ups per address. */
  lookupPerAddress: { points: 30, durationSeconds: 10 * 60 },
  /** Prospect confirmations per IBO session and per address. */
  confirmPerSession: { points: 10, durationSeconds: 10 * 60 },
  confirmPerAddress: { points: 30, durationSeconds: 10 * 60 },
  /** Contact messages per address. */
  contactPerAddress: { points: 5, durationSeconds: 10 * 60 },
  /** Password reset requests per account and per address. */
  resetPerAccount: { points: 3, durationSeconds: 60 * 60 },
  resetPerAddress: { points: 10, durationSeconds: 60 * 60 },
  /** Registrations per address. */
  registerPerAddress: { points: 10, durationSeconds: 60 * 60 },
  /**
   * Refused payments (declined, no funds, an invalid or expired card) per account and per address: past
   * this many, checkout answers 429 until the window passes, so nobody tests stolen cards through it.
   * Each payment takes one before its card reaches the gateway; a paid order (or a checkout that never
   * reached the gateway) gives it back.
   */
  paymentFailuresPerAccount: { points: 10, durationSeconds: 60 * 60 },
  paymentFailuresPerAddress: { points: 30, durationSeconds: 60 * 60 },
  /**
   * Coupon codes answered "does not exist" per account and per address: past this many, looking a
   * coupon up answers 429 until the window passes, so nobody finds the academy's codes by guessing.
   * A code that exists does not count.
   */
  couponGuessesPerAccount: { points: 10, durationSeconds: 60 * 60 },
  couponGuessesPerAddress: { points: 30, durationSeconds: 60 * 60 },
  /** Profile changes per account (name, gender, birth date). */
  profileUpdatesPerAccount: { points: 30, durationSeconds: 60 * 60 },
  /** Password changes per account, wrong current passwords included: guessing the current one from a stolen session stops here. */
  passwordChangesPerAccount: { points: 10, durationSeconds: 15 * 60 },
  /** Requests to move an account to another address (each sends two e-mails). */
  emailChangesPerAccount: { points: 5, durationSeconds: 60 * 60 },
  /** Confirmation links sent again per account. */
  verificationMailsPerAccount: { points: 5, durationSeconds: 60 * 60 },
  /** E-mail links opened per address (a guessed token finds nothing, but guessing is still bounded). */
  emailLinksPerAddress: { points: 30, durationSeconds: 60 * 60 },
  /** Sessions logged out from the security page per account. */
  sessionEndsPerAccount: { points: 60, durationSeconds: 60 * 60 },
  /** Profile photos sent per account (each one is decoded and re-encoded by the server). */
  photoUploadsPerAccount: { points: 20, durationSeconds: 60 * 60 },
  /** Profile photos removed per account (each deletes a file and tells the person's sessions). */
  photoRemovalsPerAccount: { points: 20, durationSeconds: 60 * 60 },
  /** Changes to one's consent to be shown to one's IBO per account (each is written to the audit trail). */
  iboSharingChangesPerAccount: { points: 30, durationSeconds: 60 * 60 },
  /** Archives of one's own data asked for per account (each is a background job building a zip). */
  dataExportsPerAccount: { points: 3, durationSeconds: 24 * 60 * 60 },
  /** Account deletion requests per account (each checks the password: a cap on guessing it). */
  deletionRequestsPerAccount: { points: 5, durationSeconds: 15 * 60 },
  /**
   * Second-factor codes tried per account (after the password, and at set-up): a right one gives its
   * attempt back, so only wrong, replayed or used-up codes count. Ten guesses in 15 minutes against the
   * three codes a window accepts out of a million: about one chance in 33,000 each window.
   */
  secondFactorPerAccount: { points: 10, durationSeconds: 15 * 60 },
  /** Changes to staff (roles, second factors) per administrator. */
  staffChangesPerAccount: { points: 60, durationSeconds: 60 * 60 },
  /** Certificates revoked per administrator (each e-mails a holder and rebuilds the published revocation list). */
  certificateRevocationsPerAccount: { points: 30, durationSeconds: 60 * 60 },
  /** Changes to question banks (questions, exam settings, imports, regrades) per editor: a morning of careful editing fits. */
  bankChangesPerAccount: { points: 300, durationSeconds: 60 * 60 },
  /** Books and plans saved, covers and PDFs uploaded per staff account (each upload is decoded or stored). */
  productChangesPerAccount: { points: 120, durationSeconds: 60 * 60 },
  /** Coupon changes (created, edited, expired) per finance account. */
  couponChangesPerAccount: { points: 120, durationSeconds: 60 * 60 },
  /** Membership changes (extended, cancelled, cancellation undone) per finance account. */
  membershipChangesPerAccount: { points: 120, durationSeconds: 60 * 60 },
  /** IBO changes (saved, logos uploaded, suspended, reinstated) per administrator. */
  iboChangesPerAccount: { points: 120, durationSeconds: 60 * 60 },
  /** Commission rates set and payouts recorded per administrator. */
  commissionChangesPerAccount: { points: 60, durationSeconds: 60 * 60 },
  /** Refunds asked per finance account. */
  refundsPerAccount: { points: 60, durationSeconds: 60 * 60 },
  /** Receipts sent again per finance account (each is a mail to a buyer). */
  receiptResendsPerAccount: { points: 20, durationSeconds: 60 * 60 },
  /** Course edits (drafts, publications, new courses) per editor: a course is built in many small steps. */
  authoringChangesPerAccount: { points: 600, durationSeconds: 60 * 60 },
  /** Video uploads started per editor (each reserves disk for a file of up to the size limit). */
  videoUploadsPerAccount: { points: 30, durationSeconds: 60 * 60 },
  /** Changes to the video library per editor (caption tracks, deletions). */
  videoChangesPerAccount: { points: 120, durationSeconds: 60 * 60 },
  /** Changes in the support inbox (statuses, assignments, notes, replies) per staff account: a busy day of answering fits. */
  supportChangesPerAccount: { points: 300, durationSeconds: 60 * 60 },
  /** Changes in the people area (blocks, grants, user types, ended sessions) per staff account. */
  peopleChangesPerAccount: { points: 200, durationSeconds: 60 * 60 },
  /** Verification and reset links staff mail to people, per staff account. */
  peopleMailsPerAccount: { points: 60, durationSeconds: 60 * 60 },
  /** Course archives imported or exported per editor (each reads or writes every file of a course). */
  courseArchivesPerAccount: { points: 30, durationSeconds: 60 * 60 },
  /** Nudge requests per IBO account (a burst of clicks): the nudge's own rule then allows one per person a week and 30 a day. */
  nudgesPerAccount: { points: 30, durationSeconds: 10 * 60 },
  /** Stop links of nudges confirmed per address (a wrong token is a guess). */
  nudgeStopsPerAddress: { points: 20, durationSeconds: 60 * 60 },
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
        `RATE_LIMITS ${quoted(part.trim())} is not a limit: use name=points/seconds with a name among ${Object.keys(LIMITS).join(', ')} (e.g. loginPerAddress=30/900), or unset it for the defaults.`,
      );
    }
    out[name] = { points: Number(m[2]), durationSeconds: Number(m[3]) };
  }
  return out;
}

