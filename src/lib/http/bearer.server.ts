/** The check of a bearer token (`Authorization: Bearer …`), in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * True when `authorization` is `Bearer <token>`. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or the first differing character of what was sent.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization ?? '');
  const sent = m?.[1] ?? '';
  // Compared even when nothing was sent, so a missing header takes as long as a wrong one.
  return timingSafeEqual(digest(sent), digest(token)) && m !== null;
}
