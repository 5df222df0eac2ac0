/**
 * The rules of an account's security page, pure: how long e-mail links last, the short device label
 * of a session ("Chrome on Android"), how an address is shown (masked), and the e-mails that confirm
 * an address or a change of address. The forms' schemas live with the other account forms
 * (`account.ts`: `changePasswordSchema`, `changeEmailSchema`).
 */
import { z } from '../zod';
import { format, type Messages } from '~/i18n';
import { DEFAULT_LOCALE, LOCALES } from '~/i18n/locales';
import type { MailMessage } from '~/lib/mail/mail';
import { MAX_TOKEN_LENGTH } from './account';

/** The security section of the message catalogue. */
export type SecurityMessages = Messages['security'];

/** How long a link that confirms the address given at sign-up lasts. */
export const VERIFY_TTL_HOURS = 72;
/** How long a link that moves the account to a new address lasts. */
export const CHANGE_TTL_HOURS = 24;
/** The longest User-Agent a session keeps. */
export const MAX_USER_AGENT = 300;

/** What an e-mail link is for. */
export type EmailTokenPurpose = 'verify' | 'change';

/** How long a link of `purpose` lasts, in milliseconds. */
export function emailTokenTtlMs(purpose: EmailTokenPurpose): number {
  return (purpose === 'verify' ? VERIFY_TTL_HOURS : CHANGE_TTL_HOURS) * 60 * 60 * 1000;
}

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);

/** Opening an e-mail link: its token. */
export const emailTokenSchema = z.object({ token: z.string().trim().min(1).max(MAX_TOKEN_LENGTH), lang });

/** One session of the list, named by its public id (never its token or the token's hash). */
export const sessionIdSchema = z.object({ session: z.string().regex(/^[0-9a-f]{24}$/), lang });

/* ───────────── sessions as shown ───────────── */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrom(?:e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPod\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The browser and system a User-Agent names, each `null` when it names none we know. */
export function deviceOf(userAgent: string | null | undefined): { browser: string | null; system: string | null } {
  const ua = (userAgent ?? '').slice(0, MAX_USER_AGENT);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? null;
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null;
  return { browser, system };
}

/** A short label of a session's device in the reader's language ("Chrome on Android", "Unknown device"). */
export function deviceLabel(userAgent: string | null | undefined, t: SecurityMessages['sessions']): string {
  const { browser, system } = deviceOf(userAgent);
  if (browser && system) return format(t.device, { browser, system });
  return browser ?? system ?? t.unknownDevice;
}

/**
 * An address as the list shows it: the last part hidden (IPv4 `203.0.113.x`, IPv6 its first three
 * groups then `…`), enough for a person to tell home from elsewhere without the page naming a
 * household. `null` for no address.
 */
export function maskAddress(address: string | null | undefined): string | null {
  if (!address || address === 'unknown') return null;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.x`;
  if (address.includes(':')) {
    // The groups written before any `::` (the rest are zeros, or the part that names the device).
    const head = address.split('%')[0]!.split('::')[0]!;
    if (!head) return '::…';
    return `${head.split(':').slice(0, 3).join(':')}:…`;
  }
  return null;
}

/** The place of an address as the list shows it: a country, a local network, or not known. */
export type Place = { kind: 'country'; code: string } | { kind: 'local' } | { kind: 'unknown' };

/**
 * The IPv4 address (dotted, without an IPv6 `::ffff:` prefix) of `address`, and whether it belongs to
 * no country: loopback, private, link-local, carrier-grade NAT. `null` for anything else (IPv6 included).
 */
export function ipv4Of(address: string | null | undefined): { ip: string; local: boolean } | null {
  const m = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i.exec(address ?? '');
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  if ([a, b, Number(m[3]), Number(m[4])].some((n) => n > 255)) return null;
  const local = a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  return { ip: `${m[1]}.${m[2]}.${m[3]}.${m[4]}`, local };
}

/** A place in the reader's language: the country's name (`Intl.DisplayNames`), or the list's words. */
export function placeName(place: Place, locale: string, t: SecurityMessages['sessions']): string {
  if (place.kind === 'local') return t.localNetwork;
  if (place.kind === 'unknown') return t.unknownPlace;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(place.code) ?? t.unknownPlace;
  } catch {
    return t.unknownPlace;
  }
}

/** A User-Agent as a session keeps it: trimmed to `MAX_USER_AGENT`, `null` when none was sent. */
export function keptUserAgent(userAgent: string | null | undefined): string | null {
  const ua = (userAgent ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return ua ? ua.slice(0, MAX_USER_AGENT) : null;
}

/* ───────────── the e-mails ───────────── */

/** The e-mail with the link that confirms the address given at sign-up. */
export function verificationMail(to: { name: string; email: string }, link: string, t: SecurityMessages['mail']): MailMessage {
  const text = [format(t.greeting, { name: to.name }), '', t.verifyIntro, '', link, '', format(t.expires, { hours: VERIFY_TTL_HOURS }), t.verifyIgnore, ''].join('\n');
  return { to: to.email, subject: t.verifySubject, text };
}

/** The e-mail to the NEW address, with the link that moves the account there. */
export function emailChangeMail(to: { name: string; email: string }, link: string, t: SecurityMessages['mail']): MailMessage {
  const text = [format(t.greeting, { name: to.name }), '', t.changeIntro, '', link, '', format(t.expires, { hours: CHANGE_TTL_HOURS }), t.changeIgnore, ''].join('\n');
  return { to: to.email, subject: t.changeSubject, text };
}

/** The notice to the OLD address that a move to another one was asked for (the new address partly hidden). */
export function emailChangeNotice(to: { name: string; email: string }, newEmail: string, t: SecurityMessages['mail']): MailMessage {
  const text = [format(t.greeting, { name: to.name }), '', format(t.noticeIntro, { email: maskEmail(newEmail) }), '', t.noticeNotYou, ''].join('\n');
  return { to: to.email, subject: t.noticeSubject, text };
}

/** An address partly hidden (`an•••@example.com`): the owner recognises it, a stranger reading the old mailbox learns little. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, Math.min(2, at))}•••${email.slice(at)}`;
}
