/**
 * An IBO's business page (/mybusiness): who may see it, its sections, and the share kit's links and
 * messages. Pure: the server reads (`business.server.ts`) hand it the IBO and the published courses.
 */
import { format, LOCALES, messages, type Locale } from '~/i18n';
import { accessVerdict, type Caller } from '~/lib/access/policy';
import { localePath, paths } from '~/lib/paths';

/**
 * The business area's sections, in order: each its own page under /mybusiness, reached from the same
 * navigation (the share kit is the area's first page). A new section is a line here and its page.
 */
export const BUSINESS_SECTIONS = [
  { id: 'share', path: paths.myBusiness },
  { id: 'funnel', path: paths.myBusinessFunnel },
  { id: 'people', path: paths.myBusinessPeople },
  { id: 'sales', path: paths.myBusinessSales },
  { id: 'team', path: paths.myBusinessTeam },
] as const satisfies readonly { id: string; path: string }[];
export type BusinessSectionId = (typeof BUSINESS_SECTIONS)[number]['id'];

/** The navigation of the business area in `locale`, the section `current` marked. */
export function businessNav(locale: Locale, current: BusinessSectionId): { id: BusinessSectionId; href: string; label: string; current: boolean }[] {
  const t = messages(locale).business.sections;
  return BUSINESS_SECTIONS.map((s) => ({ id: s.id, href: localePath(locale, s.path), label: t[s.id], current: s.id === current }));
}

/** The IBO an account owns, as the business page reads it. */
export interface OwnedIbo {
  id: number;
  code: string;
  companyName: string;
  imageUrl: string | null;
  status: 'active' | 'suspended';
}

/**
 * Who gets the business page, read from the session (`caller`) and what the database says the account
 * owns now (`owned`, null when nothing): a visitor is sent to log in; an IBO session opened with a code
 * is not the IBO's account (401); a user owning no IBO is refused (403); a suspended IBO's owner gets
 * the notice only; an active IBO's owner gets the page.
 */
export type BusinessGate =
  | { kind: 'login' }
  | { kind: 'refused'; status: 401 | 403; reason: 'iboSession' | 'notOwner' }
  | { kind: 'suspended'; ibo: OwnedIbo }
  | { kind: 'owner'; ibo: OwnedIbo };

/** The gate of the business page and its downloads (see `BusinessGate`). */
export function businessGate(caller: Caller, owned: OwnedIbo | null): BusinessGate {
  if (caller.session === 'visitor') return { kind: 'login' };
  if (caller.session === 'ibo') return { kind: 'refused', status: 401, reason: 'iboSession' };
  // The session says whether the account owned an IBO when it was read; the database says whether it still does.
  if (accessVerdict('iboOwner', caller) !== 'allowed' || !owned) return { kind: 'refused', status: 403, reason: 'notOwner' };
  return owned.status === 'active' ? { kind: 'owner', ibo: owned } : { kind: 'suspended', ibo: owned };
}

/**
 * Whether an address names an IBO other than the page's own (`?ibo=`, any of them): every page of the
 * business area refuses it 403, since an IBO reads only its own business whatever the address says.
 */
export function namesOtherIbo(params: URLSearchParams, ownIboId: number): boolean {
  return params.getAll('ibo').some((v) => v !== '' && v !== String(ownIboId));
}

/** The highest page a list of the business area is asked for (a page past the end shows none, it is not an error). */
const MAX_PAGE = 100_000;

/** The page a list's address asks for (`page`; absent or empty: 1), or null when it is not a whole number from 1. */
export function readPage(params: URLSearchParams): number | null {
  const text = params.get('page') || '1';
  return /^[1-9]\d{0,5}$/.test(text) && Number(text) <= MAX_PAGE ? Number(text) : null;
}

/** An absolute address on this site: `origin` (no trailing slash) and a path in `locale`. */
function absolute(origin: string, locale: Locale, path: string): string {
  return `${origin.replace(/\/+$/, '')}${localePath(locale, path)}`;
}

/** The IBO's affiliate link in `locale` (`https://…/CODE`, `https://…/en/CODE`). */
export function affiliateUrl(origin: string, code: string, locale: Locale): string {
  return absolute(origin, locale, paths.affiliate(code));
}

/** A link that opens course `courseId` in `locale` with the IBO's code applied (`https://…/CODE?course=6`). */
export function courseShareUrl(origin: string, code: string, courseId: number, locale: Locale): string {
  return absolute(origin, locale, paths.affiliateCourse(code, courseId));
}

/** The ready message in `locale` (its subject, for e-mail, and its text with the link). */
export interface ReadyMessage {
  locale: Locale;
  url: string;
  subject: string;
  text: string;
}

/** The ready message of an IBO in `locale`, with its affiliate link in that language. */
export function readyMessage(origin: string, ibo: Pick<OwnedIbo, 'code' | 'companyName'>, locale: Locale): ReadyMessage {
  const t = messages(locale).business.ready;
  const url = affiliateUrl(origin, ibo.code, locale);
  return { locale, url, subject: format(t.subject, { company: ibo.companyName }), text: format(t.body, { company: ibo.companyName, url }) };
}

/** Where each share button goes for a message: WhatsApp, Facebook's sharer (the link only: it reads the page) and e-mail. */
export interface ShareTargets {
  whatsapp: string;
  facebook: string;
  email: string;
}

/** The share buttons' addresses for `message`. */
export function shareTargets(message: ReadyMessage): ShareTargets {
  const q = encodeURIComponent;
  return {
    whatsapp: `https://wa.me/?text=${q(message.text)}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${q(message.url)}`,
    // RFC 6068: the body's spaces as %20 (not +), which every mail client reads.
    email: `mailto:?subject=${q(message.subject)}&body=${q(message.text)}`,
  };
}

/** A published course with its name in the page's language. */
export interface ShareCourse {
  id: number;
  name: string;
}

/** The share kit: the IBO's link, ready message and buttons per message language, and a link per course in each. */
export interface ShareKit {
  code: string;
  messages: Record<Locale, ReadyMessage & { targets: ShareTargets }>;
  courses: { id: number; name: string; urls: Record<Locale, string> }[];
}

/** The share kit of an active IBO (`courses`: the published courses a visitor may open, in catalogue order). */
export function shareKit(origin: string, ibo: Pick<OwnedIbo, 'code' | 'companyName'>, courses: readonly ShareCourse[]): ShareKit {
  const perLocale = <T>(fn: (l: Locale) => T) => Object.fromEntries(LOCALES.map((l) => [l, fn(l)])) as Record<Locale, T>;
  return {
    code: ibo.code,
    messages: perLocale((l) => {
      const m = readyMessage(origin, ibo, l);
      return { ...m, targets: shareTargets(m) };
    }),
    courses: courses.map((c) => ({ id: c.id, name: c.name, urls: perLocale((l) => courseShareUrl(origin, ibo.code, c.id, l)) })),
  };
}

/** The QR code's formats, with their media types. */
export const QR_FORMATS = { png: 'image/png', svg: 'image/svg+xml' } as const;
export type QrFormat = keyof typeof QR_FORMATS;

/** The downloaded QR code's file name (`HORIZONTE01-qr.png`): the code is letters, digits, dash and underscore. */
export function qrFileName(code: string, qrFormat: QrFormat): string {
  return `${code.replace(/[^A-Za-z0-9_-]/g, '')}-qr.${qrFormat}`;
}
