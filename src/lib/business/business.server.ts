/**
 * The reads of an IBO's business page: the IBO an account owns (read fresh, so a suspension counts at
 * once whatever a kept session says), the published courses its share kit links, and the QR code of
 * its link.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ibos } from '../db/schema';
import { listCards, type CatalogSnapshot } from '../catalog';
import { VISITOR } from '../access/access';
import { qrPng, qrSvg } from '../certificates/qr.server';
import { format, messages, type Locale } from '~/i18n';
import { callerOf } from '../access/policy';
import type { SessionInfo } from '../identity/session.server';
import { affiliateUrl, businessGate, shareKit, type BusinessGate, type OwnedIbo, type QrFormat, type ShareKit } from './business';

/** The IBO the account `userId` owns (the first one when it owns several), or null. */
export async function ownedIbo(db: Db, userId: number): Promise<OwnedIbo | null> {
  const [row] = await db
    .select({ id: ibos.id, code: ibos.code, companyName: ibos.companyName, imageUrl: ibos.imageUrl, status: ibos.status })
    .from(ibos)
    .where(eq(ibos.userId, userId))
    .orderBy(asc(ibos.id))
    .limit(1);
  return row ?? null;
}

/**
 * The share kit of an active IBO: its links under `origin`, and a link per course a visitor may open
 * (the people it is sent to arrive as visitors; courses for buyers only and unpublished ones are left
 * out), named in `locale`.
 */
export function loadShareKit(catalog: CatalogSnapshot, origin: string, ibo: OwnedIbo, locale: Locale): ShareKit {
  const courses = listCards(catalog, VISITOR, locale).map((c) => ({ id: c.id, name: c.name }));
  return shareKit(origin, ibo, courses);
}

/** The QR code of the IBO's link in `locale`, as a PNG (bytes) or an SVG (text). */
export async function iboQr(origin: string, ibo: Pick<OwnedIbo, 'code'>, locale: Locale, qrFormat: QrFormat): Promise<Uint8Array | string> {
  const url = affiliateUrl(origin, ibo.code, locale);
  return qrFormat === 'png' ? qrPng(url) : qrSvg(url);
}

/** The gate of every page of the business area for `session`, read with the IBO its account owns now (see `businessGate`). */
export async function loadBusinessGate(db: Db, session: SessionInfo | null | undefined): Promise<BusinessGate> {
  const userId = session?.user?.id;
  return businessGate(callerOf(session), userId === undefined ? null : await ownedIbo(db, userId));
}

/** What the business page shows: who gets it (`gate`), and for an active IBO's owner the share kit and the QR code (inline SVG). */
export interface BusinessPageView {
  gate: BusinessGate;
  kit: ShareKit | null;
  qrSvg: string | null;
}

/**
 * The business page for `gate` (`loadBusinessGate`) in `locale`: for an active IBO's owner its share kit
 * (courses from `catalog`, read only then) and QR code. A suspended IBO's owner gets no link, no course
 * and no code.
 */
export async function businessPageView(gate: BusinessGate, catalog: () => Promise<CatalogSnapshot>, origin: string, locale: Locale): Promise<BusinessPageView> {
  if (gate.kind !== 'owner') return { gate, kit: null, qrSvg: null };
  const kit = loadShareKit(await catalog(), origin, gate.ibo, locale);
  const url = kit.messages[locale].url;
  return { gate, kit, qrSvg: await qrSvg(url, format(messages(locale).business.qr.alt, { url })) };
}
