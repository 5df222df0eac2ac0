/**
 * Staff on the seeded database: the session carries an account's roles only once it proved the second
 * factor; codes work once; recovery codes work once; set-up hands out ten codes; roles granted, removed
 * and second factors reset are audited with their before and after, and reach the session at once.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDatabases } from '../db/testing';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { createSession, hashToken, readSession } from '../identity/session.server';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { tellChanges } from '../runtime/changes';
import { auditOf } from '../privacy/audit.server';
import * as people from '../db/seed/people';
import { readAuditFilter, readTypedCode, totpCode } from './staff';
import { SecretSeal } from './seal.server';
import { confirmSetup, factorState, grantRole, listStaff, pendingSecret, proveSecondFactor, resetFactor, revokeRole, rolesOf } from './staff.server';
import { readAuditLog } from './audit-log.server';
import { runDeletion } from '../privacy/deletion.server';
import { createLocalStorage } from '../storage/local.server';
import { useTempFolders } from '../testing/temp-folders';

const tempFolder = useTempFolders();

const databases = await testDatabases();
const demo = people.staff.find((m) => m.email === 'admin@academia.example')!.factor!;

describe.each(databases)('staff accounts on the seeded database ($name)', (database) => {
  let handle: DbHandle;
  let runtime: Runtime;
  const idOf = async (email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const session = async (userId: number) => {
    const { token } = await createSession(handle.db, { kind: 'user', userId });
    return { token, tokenHash: hashToken(token) };
  };
  const code = (raw: string) => readTypedCode(raw)!;
  /** The runtime's second factors: its database and the seal of its signing key. */
  const factors = () => runtime.factors;
  let clock = Date.parse('2026-11-27T10:00:00Z');
  /** A moment in a new 30-second step each time (a code works once per step). */
  const nextStep = () => new Date((clock += 30_000));

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    runtime = await testRuntime(handle);
  });
  afterAll(async () => {
    await runtime?.close();
    await handle?.close();
  });

  it('seeds an administrator with a second factor and an editor who sets one up', async () => {
    const admin = await idOf('admin@academia.example');
    const editor = await idOf('editor@academia.example');
    expect(await rolesOf(handle.db, admin)).toEqual(['administrator']);
    expect(await rolesOf(handle.db, editor)).toEqual(['editor']);
    expect(await factorState(handle.db, admin)).toBe('confirmed');
    expect(await factorState(handle.db, editor)).toBe('none');
  });

  it('gives the session its roles only after a right code, and takes each code once', async () => {
    const admin = await idOf('admin@academia.example');
    const { token, tokenHash } = await session(admin);
    const before = await readSession(handle.db, token);
    expect(before?.roles).toEqual([]);
    expect(before?.staff).toEqual({ roles: ['administrator'], secondFactor: 'code' });

    const at = nextStep();
    const right = totpCode(demo.secret, at);
    const wrong = String((Number(right) + 7) % 1_000_000).padStart(6, '0');
    expect((await proveSecondFactor(factors(), admin, tokenHash, code(wrong), at)).status).toBe('wrong');
    expect((await readSession(handle.db, token))?.roles).toEqual([]);
    expect((await proveSecondFactor(factors(), admin, tokenHash, code(right), at)).status).toBe('ok');
    expect((await readSession(handle.db, token))?.roles).toEqual(['administrator']);

    // The same code again, even from another session within its window: refused.
    const other = await session(admin);
    expect((await proveSecondFactor(factors(), admin, other.tokenHash, code(right), new Date(at.getTime() + 5_000))).status).toBe('replayed');
    expect((await readSession(handle.db, other.token))?.roles).toEqual([]);
  });

  it('takes a recovery code once', async () => {
    const admin = await idOf('admin@academia.example');
    const first = await session(admin);
    const used = await proveSecondFactor(factors(), admin, first.tokenHash, code(demo.recoveryCodes[0]!), nextStep());
    expect(used).toMatchObject({ status: 'ok', recoveryCodesLeft: 9 });
    const second = await session(admin);
    expect((await proveSecondFactor(factors(), admin, second.tokenHash, code(demo.recoveryCodes[0]!), nextStep())).status).toBe('recoveryUsed');
    expect((await proveSecondFactor(factors(), admin, second.tokenHash, code('zzzz-zzzz-zzzz-zzzz'), nextStep())).status).toBe('wrong');
    expect((await readSession(handle.db, second.token))?.roles).toEqual([]);
    expect((await auditOf(handle.db, `user:${admin}`, 'staff.recovery.used')).at(-1)?.after).toEqual({ recoveryCodes: 9 });
  });

  it('refuses a code to an account that is not staff', async () => {
    const learner = await idOf('learner@academia.example');
    const { token, tokenHash } = await session(learner);
    expect((await proveSecondFactor(factors(), learner, tokenHash, code('123456'), nextStep())).status).toBe('notEnrolled');
    expect((await readSession(handle.db, token))?.staff).toBeNull();
    expect((await confirmSetup(factors(), learner, tokenHash, '123456', nextStep())).status).toBe('notStaff');
  });

  it('sets up a second factor: the same secret until confirmed, then ten recovery codes', async () => {
    const editor = await idOf('editor@academia.example');
    const { token, tokenHash } = await session(editor);
    expect((await readSession(handle.db, token))?.staff?.secondFactor).toBe('setup');
    const secret = (await pendingSecret(factors(), editor))!;
    expect(await pendingSecret(factors(), editor)).toBe(secret);
    expect(await factorState(handle.db, editor)).toBe('pending');
    // Kept sealed: the database alone does not give the secret away.
    const [kept] = await handle.db.select({ secret: s.staffFactors.secret }).from(s.staffFactors).where(eq(s.staffFactors.userId, editor));
    expect(kept!.secret).toMatch(/^v1:/);
    expect(kept!.secret).not.toContain(secret);

    const at = nextStep();
    const right = totpCode(secret, at);
    expect((await confirmSetup(factors(), editor, tokenHash, String((Number(right) + 1) % 1_000_000).padStart(6, '0'), at)).status).toBe('wrong');
    const done = await confirmSetup(factors(), editor, tokenHash, right, at);
    expect(done.status).toBe('ok');
    if (done.status !== 'ok') return;
    expect(done.recoveryCodes).toHaveLength(10);
    expect((await readSession(handle.db, token))?.roles).toEqual(['editor']);
    expect(await pendingSecret(factors(), editor)).toBeNull();
    expect((await confirmSetup(factors(), editor, tokenHash, totpCode(secret, nextStep()))).status).toBe('alreadySet');
    // Only hashes are stored.
    const stored = await handle.db.select().from(s.staffRecoveryCodes).where(eq(s.staffRecoveryCodes.userId, editor));
    expect(stored).toHaveLength(10);
    for (const c of done.recoveryCodes) expect(JSON.stringify(stored)).not.toContain(c.replace(/-/g, ''));
  });

  it('grants a role by e-mail, audited with before and after, and the session reads it at once', async () => {
    const admin = await idOf('admin@academia.example');
    const learner = await idOf('learner@academia.example');
    expect((await grantRole(handle.db, admin, 'nobody@academia.example', 'editor')).status).toBe('unknownEmail');
    const { token } = await session(learner);
    expect((await runtime.sessions.read(token))?.staff).toBeNull();

    const granted = await grantRole(handle.db, admin, 'LEARNER@academia.example', 'support');
    expect(granted.status).toBe('ok');
    if (granted.status !== 'ok') return;
    await tellChanges(runtime, granted.changed);
    // The kept session was forgotten: the next read sees the role (to be used after setting up a second factor).
    expect((await runtime.sessions.read(token))?.staff).toEqual({ roles: ['support'], secondFactor: 'setup' });
    expect((await grantRole(handle.db, admin, 'learner@academia.example', 'support')).status).toBe('alreadyHeld');
    const [event] = await auditOf(handle.db, `user:${learner}`, 'staff.role.granted');
    expect(event).toMatchObject({ actor: `user:${admin}`, before: { roles: [] }, after: { roles: ['support'] } });
    expect((await listStaff(handle.db)).find((m) => m.userId === learner)).toMatchObject({ roles: ['support'], factor: 'none' });
  });

  it('never removes the last administrator, and removes a role otherwise', async () => {
    const admin = await idOf('admin@academia.example');
    const learner = await idOf('learner@academia.example');
    expect((await revokeRole(handle.db, admin, admin, 'administrator')).status).toBe('lastAdministrator');
    expect(await rolesOf(handle.db, admin)).toEqual(['administrator']);
    expect((await revokeRole(handle.db, admin, learner, 'finance')).status).toBe('notHeld');
    expect((await revokeRole(handle.db, admin, learner, 'support')).status).toBe('ok');
    expect(await rolesOf(handle.db, learner)).toEqual([]);
    const [event] = await auditOf(handle.db, `user:${learner}`, 'staff.role.revoked');
    expect(event).toMatchObject({ actor: `user:${admin}`, before: { roles: ['support'] }, after: { roles: [] } });

    // With a second administrator, either may lose the role.
    await grantRole(handle.db, admin, 'learner@academia.example', 'administrator');
    expect((await revokeRole(handle.db, admin, learner, 'administrator')).status).toBe('ok');
  });

  it("resets someone's second factor: their sessions lose the roles until they set it up again", async () => {
    const admin = await idOf('admin@academia.example');
    const editor = await idOf('editor@academia.example');
    const { token } = await session(editor);
    await handle.db.update(s.sessions).set({ secondFactorAt: new Date() }).where(eq(s.sessions.userId, editor));
    expect((await readSession(handle.db, token))?.roles).toEqual(['editor']);
    expect((await resetFactor(handle.db, admin, await idOf('buyer@academia.example'))).status).toBe('notStaff');
    expect((await resetFactor(handle.db, admin, editor)).status).toBe('ok');
    expect((await readSession(handle.db, token))?.staff).toEqual({ roles: ['editor'], secondFactor: 'setup' });
    expect(await handle.db.select().from(s.staffRecoveryCodes).where(and(eq(s.staffRecoveryCodes.userId, editor)))).toEqual([]);
    const [event] = await auditOf(handle.db, `user:${editor}`, 'staff.factor.reset');
    expect(event).toMatchObject({ actor: `user:${admin}`, before: { factor: 'confirmed', recoveryCodes: 10 }, after: { factor: 'none' } });
  });

  it('forgets the roles and second factor of a deleted account', async () => {
    const admin = await idOf('admin@academia.example');
    const [gone] = await handle.db.insert(s.users).values({ email: `se.va.${database.name}@test.example`, firstName: 'Se', lastName: 'Va' }).returning();
    await grantRole(handle.db, admin, gone!.email, 'finance');
    await pendingSecret(factors(), gone!.id);
    const dataDir = tempFolder('staff-deletion-');
    const told = async () => undefined;
    await runDeletion({ db: handle.db, storage: createLocalStorage(dataDir), sessionChanged: told, personChanged: told, catalogChanged: told }, { userId: gone!.id });
    expect(await rolesOf(handle.db, gone!.id)).toEqual([]);
    expect(await factorState(handle.db, gone!.id)).toBe('none');
    expect((await listStaff(handle.db)).map((m) => m.userId)).not.toContain(gone!.id);
  });

  it('reads the audit log newest first, filtered and paged', async () => {
    const admin = await idOf('admin@academia.example');
    const all = await readAuditLog(handle.db, readAuditFilter(new URLSearchParams()));
    expect(all.events.length).toBeGreaterThan(3);
    const times = all.events.map((e) => e.at.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const granted = await readAuditLog(handle.db, readAuditFilter(new URLSearchParams(`actor=user:${admin}&action=staff.role.granted`)));
    expect(granted.events.map((e) => e.action)).toEqual(['staff.role.granted', 'staff.role.granted', 'staff.role.granted']);
    const future = await readAuditLog(handle.db, readAuditFilter(new URLSearchParams('from=2099-01-01')));
    expect(future).toMatchObject({ events: [], total: 0, pages: 1 });
    const beyond = await readAuditLog(handle.db, readAuditFilter(new URLSearchParams('page=500')));
    expect(beyond.page).toBe(beyond.pages);
  });

  it('keeps the demo secret sealed from the first start, and a secret sealed under another key refuses codes in words, never a 500', async () => {
    const admin = await idOf('admin@academia.example');
    const [sealed] = await handle.db.select({ secret: s.staffFactors.secret }).from(s.staffFactors).where(eq(s.staffFactors.userId, admin));
    expect(sealed!.secret).toMatch(/^v1:/);
    expect(sealed!.secret).not.toContain(demo.secret);
    expect(runtime.factors.seal.open(sealed!.secret)).toBe(demo.secret);
    // A database restored into another academy (another signing key): codes are wrong, recovery codes still work.
    const elsewhere = { db: handle.db, seal: SecretSeal.fromSecret('another academy') };
    const { tokenHash } = await session(admin);
    const at = nextStep();
    expect((await proveSecondFactor(elsewhere, admin, tokenHash, code(totpCode(demo.secret, at)), at)).status).toBe('wrong');
    expect((await proveSecondFactor(elsewhere, admin, tokenHash, code(demo.recoveryCodes[5]!), nextStep())).status).toBe('ok');
  });
});

describe.skipIf(!databases.some((d) => d.name === 'postgres'))('a role granted on one process', () => {
  const handles: DbHandle[] = [];
  const runtimes: Runtime[] = [];
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const made = await createPostgresDatabase({ prefix: 'academy_staff' });
    drop = made.drop;
    for (let i = 0; i < 2; i++) {
      const handle = await openDatabase({ databaseUrl: made.url, dataDir: 'unused' });
      handles.push(handle);
      if (i === 0) await migrate(handle);
      runtimes.push(await testRuntime(handle, { env: { DATABASE_URL: made.url, REDIS_URL: '' } }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const r of runtimes) await r.close().catch(() => undefined);
    for (const h of handles) await h.close().catch(() => undefined);
    await drop();
  });

  it('reaches a session another process keeps, at once', async () => {
    const [a, b] = runtimes as [Runtime, Runtime];
    const [admin, learner] = await a.db.insert(s.users).values([{ email: 'jefa@test.example', firstName: 'Je', lastName: 'Fa' }, { email: 'nuevo@test.example', firstName: 'Nu', lastName: 'Evo' }]).returning();
    await a.db.insert(s.staffRoles).values({ userId: admin!.id, role: 'administrator' });
    const { token } = await createSession(a.db, { kind: 'user', userId: learner!.id });
    // Process B keeps the session as a learner's.
    expect((await b.sessions.read(token))?.staff).toBeNull();
    const granted = await grantRole(a.db, admin!.id, 'nuevo@test.example', 'finance');
    if (granted.status !== 'ok') throw new Error(granted.status);
    await tellChanges(a, granted.changed);
    await expect.poll(async () => (await b.sessions.read(token))?.staff, { timeout: 1000, interval: 20 }).toEqual({ roles: ['finance'], secondFactor: 'setup' });
  });
});
