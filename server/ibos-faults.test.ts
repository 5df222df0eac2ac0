/**
 * `kill -9` while staff create, edit or suspend an IBO (`backoffice-faults.child.ts` running `saveIbo`
 * or `setIboStatus` on a data folder, killing itself at a step): after the IBO's row is written, after
 * a suspension's sessions are ended and after the audit event is written, all inside one transaction.
 * The IBO is at every moment as it was, with no event, or changed with exactly one event; a creation
 * replayed after it succeeded is refused (the code is taken) with nothing doubled, and a suspension
 * replayed changes nothing. On PGlite, and on PostgreSQL when it answers (each a copy of the run's
 * seeded database; the kill points in turn, see `share`).
 */
import { describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import type { IboDraft } from '../src/lib/ibos/ibos';
import { expectNothingLeftAtEach, faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const DRAFT: IboDraft = {
  code: 'CAIDA2026',
  companyName: 'Viajes Caída',
  businessId: 1,
  contactName: 'Ana Ruiz',
  contactEmail: 'ana@example.com',
  contactPhone: '',
  accountEmail: 'buyer@academia.example',
  sponsorCode: 'HORIZONTE01',
};

describe.each(await faultDatabases())('kill -9 while an IBO is created, edited or suspended on $name', ({ name, up, share }) => {
  const target = useFaultTarget('ibos-faults', { name, up });

  it.skipIf(!up)('an IBO, its edit and its suspension are written with their audit event (and ended sessions), or not at all; a replay never doubles', async () => {
    const { actor, sponsor } = await withDb(target(), async ({ db }) => ({
      actor: (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id,
      sponsor: (await db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, 'HORIZONTE01')))[0]!.id,
    }));
    // The IBOs this test touches (the sponsor, and the new one by its code), their sessions and audit events.
    const state = () =>
      withDb(target(), async ({ db }) => {
        const rows = await db
          .select({ id: s.ibos.id, code: s.ibos.code, companyName: s.ibos.companyName, sponsor: s.ibos.sponsorIboId, userId: s.ibos.userId, status: s.ibos.status })
          .from(s.ibos)
          .where(inArray(s.ibos.code, ['HORIZONTE01', DRAFT.code]))
          .orderBy(asc(s.ibos.id));
        const ids = rows.map((r) => r.id);
        return {
          ibos: rows,
          sessions: (await db.select().from(s.sessions).where(inArray(s.sessions.iboId, ids))).length,
          events: (await db.select().from(s.auditEvents).where(inArray(s.auditEvents.subject, ids.map((id) => `ibo:${id}`))).orderBy(asc(s.auditEvents.id))).map((e) => [e.subject, e.action]),
        };
      });
    const before = await state();
    expect(before.ibos.map((i) => i.code)).toEqual(['HORIZONTE01']);

    // Created: killed at each step, no IBO and no event; then created once, audited once.
    const create = { actor, draft: DRAFT };
    await expectNothingLeftAtEach('ibo-save', target(), share(['ibo-written', 'audit-written']), { now: NOW, args: create }, state, before);
    const made = await runWrite('ibo-save', target(), { now: NOW, args: create });
    expect(made).toMatchObject({ end: 'done', result: { status: 'ok', created: true } });
    if (made.end !== 'done') throw new Error('the creation did not finish');
    const id = Number(made.result.id);
    const created = await state();
    expect(created.ibos).toContainEqual(expect.objectContaining({ id, code: DRAFT.code, companyName: DRAFT.companyName, sponsor, status: 'active' }));
    expect(created.events).toEqual([[`ibo:${id}`, 'ibo.create']]);
    // The same creation replayed (its answer lost with a crash after the commit): the code is taken, nothing doubled.
    expect(await runWrite('ibo-save', target(), { now: NOW + 1000, args: create })).toMatchObject({ end: 'done', result: { status: 'taken' } });
    expect(await state()).toEqual(created);

    // Edited: killed at each step, the old name; then the new one, audited once.
    const edit = { actor, ibo: id, draft: { ...DRAFT, companyName: 'Viajes Caída S.A.S.' } };
    await expectNothingLeftAtEach('ibo-save', target(), share(['ibo-written', 'audit-written']), { now: NOW, args: edit }, state, created);
    expect(await runWrite('ibo-save', target(), { now: NOW, args: edit })).toMatchObject({ end: 'done', result: { status: 'ok', created: false } });
    const edited = await state();
    expect(edited.ibos.find((i) => i.id === id)?.companyName).toBe('Viajes Caída S.A.S.');
    expect(edited.events).toEqual([...created.events, [`ibo:${id}`, 'ibo.update']]);

    // Suspended with two of its sessions open: killed at each step, still active with both open; then
    // suspended with both ended, audited once; suspending again changes nothing.
    await withDb(target(), async ({ db }) => {
      for (const h of ['a', 'b']) await db.insert(s.sessions).values({ tokenHash: `fault-ibo-session-${h}`, kind: 'ibo', iboId: id, expiresAt: new Date(NOW + 86_400_000) });
    });
    const open = await state();
    expect(open.sessions).toBe(2);
    const suspend = { actor, ibo: id, status: 'suspended' };
    await expectNothingLeftAtEach('ibo-status', target(), share(['status-written', 'sessions-deleted', 'audit-written']), { now: NOW, args: suspend }, state, open);
    expect(await runWrite('ibo-status', target(), { now: NOW, args: suspend })).toMatchObject({ end: 'done', result: { status: 'ok', unchanged: false, endedSessions: 2 } });
    const suspended = await state();
    expect(suspended.ibos.find((i) => i.id === id)?.status).toBe('suspended');
    expect(suspended).toMatchObject({ sessions: 0, events: [...edited.events, [`ibo:${id}`, 'ibo.suspend']] });
    expect(await runWrite('ibo-status', target(), { now: NOW + 1000, args: suspend })).toMatchObject({ end: 'done', result: { status: 'ok', unchanged: true, endedSessions: 0 } });
    expect(await state()).toEqual(suspended);
    // The sponsor was never touched.
    expect(suspended.ibos.find((i) => i.code === 'HORIZONTE01')).toEqual(before.ibos[0]);
  }, 900_000);
});
