/**
 * IBOs on the seeded database: created and edited with an audit record of each change, a code taken
 * whatever its case, an unknown account, business line or sponsor, a sponsor loop (however far down),
 * an unknown id: each refused with nothing written. A suspension ends the IBO's sessions and its code
 * no longer opens anything; reinstating opens it again. The logo: the server's own WebP; SVG, HTML and
 * a cut picture are refused with nothing stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import { createSession, readSession } from '../identity/session.server';
import { findActiveIbo } from '../identity/ibo.server';
import { createLocalStorage } from '../storage/local.server';
import { iboRef, type IboDraft } from './ibos';
import { loadIboEditor, loadIboList, saveIbo, setIboLogo, setIboStatus } from './ibos.server';

const databases = await testDatabases();
const png = await sharp({ create: { width: 900, height: 500, channels: 3, background: '#147' } }).png().toBuffer();
const upload = (bytes: Uint8Array) => ({ size: bytes.length, bytes });

describe.each(databases)('IBOs administered ($name)', (database) => {
  let handle: DbHandle;
  let adminId: number;
  const folder = mkdtempSync(join(tmpdir(), 'ibo-logos-'));
  const storage = createLocalStorage(folder);
  const draft = (over: Partial<IboDraft> = {}): IboDraft => ({
    code: 'NUEVO2026',
    companyName: 'Nuevo Viajes',
    businessId: 1,
    contactName: 'Ana Ruiz',
    contactEmail: 'ana@example.com',
    contactPhone: '',
    accountEmail: 'buyer@academia.example',
    sponsorCode: null,
    ...over,
  });
  const iboCount = async () => (await handle.db.select({ n: count() }).from(s.ibos))[0]!.n;
  const auditCount = async () => (await handle.db.select({ n: count() }).from(s.auditEvents))[0]!.n;
  const stored = async () => {
    const keys: string[] = [];
    for await (const k of storage.list('ibos/logos/')) keys.push(k);
    return keys;
  };
  const create = async (over: Partial<IboDraft>) => {
    const outcome = await saveIbo(handle.db, adminId, null, draft(over));
    if (outcome.status !== 'ok') throw new Error(outcome.status);
    return outcome.ibo;
  };

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    adminId = (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
  });
  afterAll(async () => {
    await handle?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('creates an IBO whose code works at once, lists it, edits it, each change audited', async () => {
    const made = await saveIbo(handle.db, adminId, null, draft({ sponsorCode: 'HORIZONTE01' }));
    expect(made).toMatchObject({ status: 'ok', created: true, ibo: { code: 'NUEVO2026', status: 'active' } });
    if (made.status !== 'ok') return;
    expect((await findActiveIbo(handle.db, 'nuevo2026'))?.id).toBe(made.ibo.id);
    const list = await loadIboList(handle.db, { q: 'nuevo', page: 1 }, 'es');
    expect(list.lines).toEqual([expect.objectContaining({ code: 'NUEVO2026', sponsorCode: 'HORIZONTE01', status: 'active' })]);
    expect((await loadIboList(handle.db, { q: 'ana@example', page: 1 }, 'en')).lines.map((l) => l.code)).toEqual(['NUEVO2026']);
    expect((await loadIboList(handle.db, { q: '%', page: 1 }, 'en')).total).toBe(0);

    const edited = await saveIbo(handle.db, adminId, made.ibo.id, draft({ code: 'nuevo2027'.toUpperCase(), companyName: 'Nuevo Viajes S.A.S.' }));
    expect(edited).toMatchObject({ status: 'ok', created: false, changed: [{ session: { iboId: made.ibo.id } }] });
    const editor = await loadIboEditor(handle.db, made.ibo.id);
    expect(editor).toMatchObject({ accountEmail: 'buyer@academia.example', sponsorCode: null, ibo: { code: 'NUEVO2027', companyName: 'Nuevo Viajes S.A.S.' } });
    const events = await auditOf(handle.db, iboRef(made.ibo.id));
    expect(events.map((e) => e.action)).toEqual(['ibo.create', 'ibo.update']);
    expect(events[1]).toMatchObject({ before: { code: 'NUEVO2026' }, after: { code: 'NUEVO2027', sponsor: null } });
    // No personal data in the trail: ids, codes and states only.
    expect(JSON.stringify(events)).not.toContain('ana@example.com');
  });

  it('refuses a taken code (any case), unknown references, a sponsor loop and an unknown id, writing nothing', async () => {
    const a = await create({ code: 'ARRIBA1' });
    const b = await create({ code: 'MEDIO1', sponsorCode: 'ARRIBA1' });
    const c = await create({ code: 'ABAJO1', sponsorCode: 'MEDIO1' });
    const before = { ibos: await iboCount(), audit: await auditCount(), a: await loadIboEditor(handle.db, a.id) };
    const refusals: [number | null, Partial<IboDraft>, string][] = [
      [null, { code: 'HORIZONTE01' }, 'taken'],
      [b.id, { code: 'ARRIBA1', sponsorCode: 'ARRIBA1' }, 'taken'],
      [null, { code: 'OTRO1', businessId: 999 }, 'unknownBusiness'],
      [null, { code: 'OTRO1', accountEmail: 'nadie@example.com' }, 'unknownAccount'],
      [null, { code: 'OTRO1', sponsorCode: 'NOEXISTE9' }, 'unknownSponsor'],
      [a.id, { code: 'ARRIBA1', sponsorCode: 'ARRIBA1' }, 'sponsorSelf'],
      [a.id, { code: 'ARRIBA1', sponsorCode: 'ABAJO1' }, 'sponsorLoop'],
      [a.id, { code: 'ARRIBA1', sponsorCode: 'MEDIO1' }, 'sponsorLoop'],
      [999_999, { code: 'OTRO1' }, 'unknown'],
    ];
    for (const [id, over, status] of refusals) expect((await saveIbo(handle.db, adminId, id, draft(over))).status, `${status} ${JSON.stringify(over)}`).toBe(status);
    expect(await iboCount()).toBe(before.ibos);
    expect(await auditCount()).toBe(before.audit);
    expect(await loadIboEditor(handle.db, a.id)).toEqual(before.a);
    // Two edits at once that would close a loop between them: one wins, the other is refused.
    const x = await create({ code: 'EQUIS1' });
    const y = await create({ code: 'YE1' });
    const both = await Promise.all([saveIbo(handle.db, adminId, x.id, draft({ code: 'EQUIS1', sponsorCode: 'YE1' })), saveIbo(handle.db, adminId, y.id, draft({ code: 'YE1', sponsorCode: 'EQUIS1' }))]);
    expect(both.map((o) => o.status).sort()).toEqual(['ok', 'sponsorLoop']);
    expect(c.sponsorIboId).toBe(b.id);
  });

  it('a suspension ends the IBO sessions and closes its code; reinstating opens the code again', async () => {
    const ibo = await create({ code: 'PAUSA7' });
    const { token } = await createSession(handle.db, { kind: 'ibo', iboId: ibo.id });
    expect((await readSession(handle.db, token))?.ibo?.code).toBe('PAUSA7');
    const suspended = await setIboStatus(handle.db, adminId, ibo.id, 'suspended');
    expect(suspended).toMatchObject({ status: 'ok', unchanged: false, endedSessions: 1, changed: [{ session: { iboId: ibo.id } }] });
    expect(await readSession(handle.db, token)).toBeNull();
    expect(await findActiveIbo(handle.db, 'PAUSA7')).toBeNull();
    expect(await setIboStatus(handle.db, adminId, ibo.id, 'suspended')).toMatchObject({ status: 'ok', unchanged: true, changed: [] });
    expect(await setIboStatus(handle.db, adminId, 999_999, 'suspended')).toEqual({ status: 'unknown' });
    await setIboStatus(handle.db, adminId, ibo.id, 'active');
    expect((await findActiveIbo(handle.db, 'pausa7'))?.id).toBe(ibo.id);
    // An ended session stays ended.
    expect(await readSession(handle.db, token)).toBeNull();
    expect((await auditOf(handle.db, iboRef(ibo.id))).map((e) => [e.action, e.after])).toEqual([
      ['ibo.create', expect.anything()],
      ['ibo.suspend', { status: 'suspended', endedSessions: 1 }],
      ['ibo.reinstate', { status: 'active', endedSessions: 0 }],
    ]);
  });

  it('keeps the server’s own WebP of a logo; SVG, HTML and a cut picture are refused with nothing stored', async () => {
    const ibo = await create({ code: 'LOGO5' });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = new TextEncoder().encode('<!doctype html><script>alert(1)</script>');
    const cut = png.subarray(0, Math.floor(png.length / 2));
    for (const [bytes, reason] of [
      [svg, 'notImage'],
      [html, 'notImage'],
      [cut, 'unreadable'],
    ] as const) {
      expect(await setIboLogo(handle.db, storage, adminId, ibo.id, upload(bytes))).toEqual({ status: 'refused', reason });
    }
    expect(await setIboLogo(handle.db, storage, adminId, ibo.id, null)).toEqual({ status: 'refused', reason: 'missing' });
    expect(await setIboLogo(handle.db, storage, adminId, 999_999, upload(png))).toEqual({ status: 'unknown' });
    expect(await stored()).toEqual([]);
    expect((await loadIboEditor(handle.db, ibo.id))?.ibo.imageUrl).toBeNull();
    const ok = await setIboLogo(handle.db, storage, adminId, ibo.id, upload(png));
    expect(ok).toMatchObject({ status: 'ok', url: expect.stringMatching(new RegExp(`^/media/ibo-logo/${ibo.id}-[0-9a-f]{20}\\.webp$`)) });
    const keys = await stored();
    expect(keys).toHaveLength(1);
    const found = await storage.get(keys[0]!);
    const chunks: Buffer[] = [];
    for await (const c of found!.body as AsyncIterable<Buffer>) chunks.push(c);
    const meta = await sharp(Buffer.concat(chunks)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 400, 400]);
    expect((await auditOf(handle.db, iboRef(ibo.id), 'ibo.logo')).length).toBe(1);
  });
});
