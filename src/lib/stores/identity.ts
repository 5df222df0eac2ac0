/**
 * What the browser keeps about who is here (non-secret, for the header): the logged-in user, the IBO
 * session and the prospect (local-storage keys `user`, `ibo`, `contact`). The server session is the
 * authority; these only mirror it and are cleared on logout or on any 401/403.
 */
import { persistentAtom } from '@nanostores/persistent';
import { STORAGE_KEYS } from './keys';
import { $pendingAnswers } from './exams';

/** The logged-in user as the header shows them. */
export interface StoredUser {
  name: string;
  lastName: string;
  email: string;
  imageUrl: string | null;
  userType: number;
}

/** The IBO session's company as the header shows it. */
export interface StoredIbo {
  companyName: string;
  code: string;
  imageUrl: string | null;
}

/** The prospect an IBO session opens courses for (key `contact`). */
export interface StoredContact {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

/** A JSON value in localStorage; `null` removes the key (so "nothing stored" stays true), bad JSON reads as `null`. */
function stored<T extends object>(key: string) {
  return persistentAtom<T | null>(key, null, {
    encode: (v) => (v === null ? (undefined as unknown as string) : JSON.stringify(v)),
    decode: (raw) => {
      try {
        const v: unknown = JSON.parse(raw);
        return typeof v === 'object' && v !== null ? (v as T) : null;
      } catch {
        return null;
      }
    },
  });
}

export const $user = stored<StoredUser>(STORAGE_KEYS.user);
export const $ibo = stored<StoredIbo>(STORAGE_KEYS.ibo);
export const $contact = stored<StoredContact>(STORAGE_KEYS.contact);

/** Forgets every stored identity (logout, expired session, 401/403). */
export function clearIdentity(): void {
  $user.set(null);
  $ibo.set(null);
  $contact.set(null);
  // Unsent exam answers are the person's: nobody after them on this device may see or send them.
  $pendingAnswers.set({});
}

/** The server's word on who the session is, as server-rendered pages embed it. */
export type SessionSummary =
  | { kind: 'none' }
  | { kind: 'user'; user: StoredUser; unconfirmed?: true; staff?: true; business?: true }
  | { kind: 'ibo'; ibo: StoredIbo; contact: StoredContact | null };

/**
 * Makes the stores say what the server says (clearing what it no longer knows). With no session at
 * all, the user and the IBO go but a stored prospect (`contact`) stays: the footer shows its
 * sign-up link to a visitor who once gave prospect data. Logging out and any 401/403 clear it too.
 */
export function syncIdentity(summary: SessionSummary | null): void {
  if (!summary) return;
  if (summary.kind === 'none') {
    $user.set(null);
    $ibo.set(null);
    return;
  }
  if (summary.kind === 'user') {
    $user.set(summary.user);
    $ibo.set(null);
    $contact.set(null);
    return;
  }
  $user.set(null);
  $ibo.set(summary.ibo);
  $contact.set(summary.contact);
}
