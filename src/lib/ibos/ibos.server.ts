/**
 * The IBOs administrators manage: the list, one IBO's form, saving it, suspending and reinstating it,
 * its logo. Every change locks what it reads, writes its audit record in the same transaction and answers
 * what it changed: a suspension ends the IBO's sessions in the database and returns the session change
 * that makes every process forget the ones it kept (the action kit tells the bus), so links, typed codes
 * and open sessions refuse the IBO at once on every process.
 */
import { and, asc, count, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Locale } from '~/i18n';
import type { Db, Tx } from '../db/client';
import { businesses, ibos, sessions, users, USER_TYPE, type Ibo } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import type { PhotoRefusal } from '../identity/photo';
import { storeUploadedImage } from '../media/uploaded-images.server';
import type { Storage } from '../storage';
import { sessionChange, type Change } from '../runtime/changes';
import { containsPattern, IBO_PAGE_SIZE, iboFacts, iboRef, sponsorLoops, type IboDraft, type IboListFilter, type IboStatus } from './ibos';
import { noStep, type Step } from '../faults/step';

const sponsors = alias(ibos, 'sponsors');

/** One line of the list. */
export interface IboLine {
  id: number;
  code: string;
  companyName: string;
  contactName: string;
  contactEmail: string;
  business: string | null;
  sponsorCode: string | null;
  status: IboStatus;
}

export interface IboListPage {
  lines: IboLine[];
  total: number;
  page: number;
  pages: number;
}

const businessName = (locale: Locale) => (locale === 'en' ? businesses.nameEn : businesses.nameEs);

/** The IBOs `filter` selects (code, company, contact name or e-mail containing its text), by code, paged. */
export async function loadIboList(db: Db, filter: IboListFilter, locale: Locale): Promise<IboListPage> {
  const conditions: SQL[] = [];
  if (filter.q) {
    const like = containsPattern(filter.q);
    conditions.push(or(ilike(ibos.code, like), ilike(ibos.companyName, like), ilike(ibos.contactName, like), ilike(ibos.contactEmail, like))!);
  }
  if (filter.status) conditions.push(eq(ibos.status, filter.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(ibos).where(where);
  const pages = Math.max(1, Math.ceil(n / IBO_PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  const rows = await db
    .select({ ibo: ibos, business: businessName(locale), sponsorCode: sponsors.code })
    .from(ibos)
    .leftJoin(businesses, eq(businesses.id, ibos.businessId))
    .leftJoin(sponsors, eq(sponsors.id, ibos.sponsorIboId))
    .where(where)
    .orderBy(asc(ibos.code))
    .limit(IBO_PAGE_SIZE)
    .offset((page - 1) * IBO_PAGE_SIZE);
  const lines = rows.map((r) => ({
    id: r.ibo.id,
    code: r.ibo.code,
    companyName: r.ibo.companyName,
    contactName: r.ibo.contactName,
    contactEmail: r.ibo.contactEmail,
    business: r.business,
    sponsorCode: r.sponsorCode,
    status: r.ibo.status,
  }));
  return { lines, total: n, page, pages };
}

/** The business lines, for the form's list. */
export async function businessChoices(db: Db, locale: Locale): Promise<{ id: number; name: string }[]> {
  return db.select({ id: businesses.id, name: businessName(locale) }).from(businesses).orderBy(asc(businesses.position), asc(businesses.id));
}

/** One IBO as its form shows it. */
export interface IboEditor {
  ibo: Ibo;
  accountEmail: string;
  sponsorCode: string | null;
  /** The IBOs this one sponsors (its first line), by code. */
  sponsored: { id: number; code: string; companyName: string; status: IboStatus }[];
}

/** IBO `id` with its account's e-mail, its sponsor's code and the IBOs it sponsors; null when unknown. */
export async function loadIboEditor(db: Db, id: number): Promise<IboEditor | null> {
  const [row] = await db
    .select({ ibo: ibos, accountEmail: users.email, sponsorCode: sponsors.code })
    .from(ibos)
    .innerJoin(users, eq(users.id, ibos.userId))
    .leftJoin(sponsors, eq(sponsors.id, ibos.sponsorIboId))
    .where(eq(ibos.id, id));
  if (!row) return null;
  const sponsored = await db.select({ id: ibos.id, code: ibos.code, companyName: ibos.companyName, status: ibos.status }).from(ibos).where(eq(ibos.sponsorIboId, id)).orderBy(asc(ibos.code)).limit(200);
  return { ibo: row.ibo, accountEmail: row.accountEmail, sponsorCode: row.sponsorCode, sponsored };
}

export type SaveOutcome =
  | { status: 'ok'; created: boolean; ibo: Ibo; changed: Change[] }
  | { status: 'unknown' }
  | { status: 'taken'; code: string }
  | { status: 'unknownBusiness' }
  | { status: 'unknownAccount' }
  | { status: 'accountNotUsable' }
  | { status: 'unknownSponsor'; code: string }
  | { status: 'sponsorSelf' }
  | { status: 'sponsorLoop'; code: string };

/** Stops the transaction with an outcome (nothing written). */
class Refused extends Error {
  constructor(readonly outcome: Exclude<SaveOutcome, { status: 'ok' }>) {
    super(outcome.status);
  }
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

/** The sponsor line above IBO `sponsorId` (its sponsor, theirs …), as a map of each to its sponsor. */
async function sponsorLine(tx: Tx, sponsorId: number): Promise<Map<number, number | null>> {
  const result = (await tx.execute(sql`
    with recursive line(id, sponsor, depth) as (
      select ${ibos.id}, ${ibos.sponsorIboId}, 1 from ${ibos} where ${ibos.id} = ${sponsorId}
      union all
      select i.id, i.sponsor_ibo_id, line.depth + 1 from ${ibos} i join line on i.id = line.sponsor where line.depth < 10000
    ) select id, sponsor from line`)) as unknown as { rows: { id: number; sponsor: number | null }[] };
  return new Map(result.rows.map((r) => [Number(r.id), r.sponsor === null ? null : Number(r.sponsor)]));
}

/** Names the points of a write a fault test may kill the process at (`server/ibos-faults.test.ts`). */
/** The points a fault test may stop the IBO writes at. */
export type IboStep = Step<'ibo-written' | 'status-written' | 'sessions-deleted' | 'audit-written'>;

/**
 * Creates IBO `id === null`, or edits it. The code is unique whatever its case; the business line, the
 * IBO's own account (by e-mail: an existing account, not a prospect's or a refused one) and the sponsor
 * (by code) must exist, and the sponsor may not be the IBO itself or anyone it sponsors, however far
 * down. Sponsor changes are taken one at a time (a lock), so two edits at once cannot close a loop.
 */
export async function saveIbo(db: Db, actorId: number, id: number | null, draft: IboDraft, step: IboStep = noStep): Promise<SaveOutcome> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ibos.save'))`);
      let before: Ibo | undefined;
      if (id !== null) {
        [before] = await tx.select().from(ibos).where(eq(ibos.id, id)).for('update');
        if (!before) throw new Refused({ status: 'unknown' });
      }
      const [clash] = await tx
        .select({ id: ibos.id })
        .from(ibos)
        .where(and(sql`upper(${ibos.code}) = ${draft.code}`, id === null ? undefined : ne(ibos.id, id)))
        .limit(1);
      if (clash) throw new Refused({ status: 'taken', code: draft.code });
      if (draft.businessId !== null) {
        const [b] = await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, draft.businessId));
        if (!b) throw new Refused({ status: 'unknownBusiness' });
      }
      const [account] = await tx.select({ id: users.id, userType: users.userType }).from(users).where(sql`lower(${users.email}) = ${draft.accountEmail}`).limit(1);
      if (!account) throw new Refused({ status: 'unknownAccount' });
      if (account.userType === USER_TYPE.prospect || account.userType === USER_TYPE.refused) throw new Refused({ status: 'accountNotUsable' });
      let sponsorIboId: number | null = null;
      if (draft.sponsorCode !== null) {
        const [sponsor] = await tx.select({ id: ibos.id }).from(ibos).where(sql`upper(${ibos.code}) = ${draft.sponsorCode}`).limit(1);
        if (!sponsor) throw new Refused({ status: 'unknownSponsor', code: draft.sponsorCode });
        if (sponsor.id === id) throw new Refused({ status: 'sponsorSelf' });
        if (sponsorLoops(id, sponsor.id, await sponsorLine(tx, sponsor.id))) throw new Refused({ status: 'sponsorLoop', code: draft.sponsorCode });
        sponsorIboId = sponsor.id;
      }
      const values = {
        code: draft.code,
        companyName: draft.companyName,
        businessId: draft.businessId,
        contactName: draft.contactName,
        contactEmail: draft.contactEmail,
        contactPhone: draft.contactPhone,
        userId: account.id,
        sponsorIboId,
      };
      const [saved] = before ? await tx.update(ibos).set(values).where(eq(ibos.id, before.id)).returning() : await tx.insert(ibos).values(values).returning();
      await step('ibo-written');
      await recordAudit(tx, {
        action: before ? 'ibo.update' : 'ibo.create',
        actor: userRef(actorId),
        subject: iboRef(saved!.id),
        ...(before ? { before: iboFacts(before) } : {}),
        after: iboFacts(saved!),
      });
      await step('audit-written');
      // Open sessions of the IBO show its code, company and logo: every process reads them again.
      return { status: 'ok', created: !before, ibo: saved!, changed: before ? [sessionChange({ iboId: saved!.id })] : [] } as const;
    });
  } catch (err) {
    if (err instanceof Refused) return err.outcome;
    // Another request took the code between the check and the write.
    if (isUniqueViolation(err)) return { status: 'taken', code: draft.code };
    throw err;
  }
}

export type StatusOutcome = { status: 'ok'; ibo: Ibo; unchanged: boolean; endedSessions: number; changed: Change[] } | { status: 'unknown' };

/**
 * Suspends or reinstates IBO `id`. A suspension ends the IBO's sessions (the rows go, so reinstating
 * does not bring them back) and answers the session change every process must hear; from then on its
 * links and typed code answer "suspended or doesn't exist". Doing it twice changes nothing the second time.
 */
export async function setIboStatus(db: Db, actorId: number, id: number, status: IboStatus, step: IboStep = noStep): Promise<StatusOutcome> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(ibos).where(eq(ibos.id, id)).for('update');
    if (!before) return { status: 'unknown' } as const;
    if (before.status === status) return { status: 'ok', ibo: before, unchanged: true, endedSessions: 0, changed: [] } as const;
    const [after] = await tx.update(ibos).set({ status }).where(eq(ibos.id, id)).returning();
    await step('status-written');
    const ended = status === 'suspended' ? await tx.delete(sessions).where(eq(sessions.iboId, id)).returning({ tokenHash: sessions.tokenHash }) : [];
    await step('sessions-deleted');
    await recordAudit(tx, {
      action: status === 'suspended' ? 'ibo.suspend' : 'ibo.reinstate',
      actor: userRef(actorId),
      subject: iboRef(id),
      before: { status: before.status },
      after: { status, endedSessions: ended.length },
    });
    await step('audit-written');
    return { status: 'ok', ibo: after!, unchanged: false, endedSessions: ended.length, changed: [sessionChange({ iboId: id })] } as const;
  });
}

export type LogoOutcome = { status: 'ok'; url: string; changed: Change[] } | { status: 'unknown' } | { status: 'refused'; reason: PhotoRefusal };

/**
 * Sets IBO `id`'s logo: the server's own 400×400 WebP of the upload (the course thumbnail's checks: JPEG,
 * PNG or WebP by its first bytes, size and pixel limits; SVG, HTML or a cut file are refused and nothing
 * is stored), stored under a name of its bytes, then set with its audit record.
 */
export async function setIboLogo(db: Db, storage: Storage, actorId: number, id: number, upload: { size: number; bytes: Uint8Array } | null): Promise<LogoOutcome> {
  const [exists] = await db.select({ id: ibos.id }).from(ibos).where(eq(ibos.id, id));
  if (!exists) return { status: 'unknown' };
  const stored = await storeUploadedImage(storage, 'ibo-logo', id, upload);
  if (!stored.ok) return { status: 'refused', reason: stored.reason };
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ imageUrl: ibos.imageUrl }).from(ibos).where(eq(ibos.id, id)).for('update');
    if (!before) return { status: 'unknown' } as const;
    await tx.update(ibos).set({ imageUrl: stored.url }).where(eq(ibos.id, id));
    await recordAudit(tx, { action: 'ibo.logo', actor: userRef(actorId), subject: iboRef(id), before: { logo: before.imageUrl }, after: { logo: stored.url } });
    return { status: 'ok', url: stored.url, changed: [sessionChange({ iboId: id })] } as const;
  });
}
