import { describe, expect, it } from 'vitest';
import {
  acceptedStep,
  anyRoleGate,
  areasFor,
  auditQuery,
  auditRange,
  grantRoleSchema,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  readAuditFilter,
  readTypedCode,
  removalRefused,
  revokeRoleSchema,
  STAFF_AREAS,
  staffGate,
  totpCode,
  type StaffSession,
} from './staff';
import { accessVerdict } from '../access/policy';
import { ruleOf } from '../../actions/access';

const proved = (...roles: StaffSession['roles'] & object): StaffSession => ({ user: {}, ibo: null, roles, staff: { roles, secondFactor: 'proved' } });
const learner: StaffSession = { user: {}, ibo: null };

describe('the areas of the back office', () => {
  it('lists every area to an administrator, the content areas and reports to an editor, the inbox and people to support, coupons, orders, memberships and reports to finance, nothing to a learner', () => {
    expect(areasFor({ session: 'user', roles: ['administrator'] }).map((a) => a.key)).toEqual(['staff', 'audit', 'certificates', 'ibos', 'commissions', 'courses', 'videos', 'questions', 'books', 'plans', 'support', 'people', 'coupons', 'orders', 'memberships', 'reports']);
    expect(areasFor({ session: 'user', roles: ['editor'] }).map((a) => a.key)).toEqual(['courses', 'videos', 'questions', 'books', 'plans', 'reports']);
    expect(areasFor({ session: 'user', roles: ['support'] }).map((a) => a.key)).toEqual(['support', 'people']);
    expect(areasFor({ session: 'user', roles: ['finance'] }).map((a) => a.key)).toEqual(['coupons', 'orders', 'memberships', 'reports']);
    expect(areasFor({ session: 'user', roles: [] })).toEqual([]);
  });

  it('opens IBO commissions, their rates and payouts, to administrators only', () => {
    expect(STAFF_AREAS.find((a) => a.key === 'commissions')!.access).toBe('administrator');
    expect(ruleOf('commissions.setRate')!.access).toBe('administrator');
    expect(ruleOf('commissions.recordPayout')!.access).toBe('administrator');
  });

  it('opens coupons, and their changes, to finance (and administrators)', () => {
    expect(STAFF_AREAS.find((a) => a.key === 'coupons')!.access).toBe('finance');
    expect(ruleOf('coupons.save')!.access).toBe('finance');
    expect(ruleOf('coupons.expire')!.access).toBe('finance');
  });

  it('opens memberships, and their changes, to finance (and administrators) only', () => {
    expect(STAFF_AREAS.find((a) => a.key === 'memberships')!.access).toBe('finance');
    for (const name of ['memberships.extend', 'memberships.cancelNow', 'memberships.cancelAtEnd', 'memberships.resume'] as const) expect(ruleOf(name)!.access).toBe('finance');
    for (const roles of [['support'], ['editor']] as const) expect(areasFor({ session: 'user', roles: [...roles] }).map((a) => a.key)).not.toContain('memberships');
  });

  it('opens certificates, and their revocation, to administrators only', () => {
    const revoke = ruleOf('certificates.revoke')!;
    const area = STAFF_AREAS.find((a) => a.key === 'certificates')!;
    expect(area.access).toBe('administrator');
    expect(revoke.access).toBe('administrator');
    expect(accessVerdict(revoke.access, { session: 'user', roles: ['administrator'] })).toBe('allowed');
    for (const role of ['editor', 'support', 'finance'] as const) expect(accessVerdict(revoke.access, { session: 'user', roles: [role] })).toBe('forbidden');
    expect(accessVerdict(revoke.access, { session: 'user', roles: ['editor', 'support', 'finance'] })).toBe('forbidden');
    expect(accessVerdict(revoke.access, { session: 'user', roles: [] })).toBe('forbidden');
    expect(accessVerdict(revoke.access, { session: 'ibo', roles: [] })).toBe('unauthorized');
    expect(accessVerdict(revoke.access, { session: 'visitor', roles: [] })).toBe('unauthorized');
  });
});

describe('the gate of a staff page', () => {
  it('sends a visitor to the login, refuses a learner, and lets staff in only after the second factor', () => {
    expect(staffGate(null, 'administrator')).toBe('login');
    expect(staffGate({ user: null, ibo: { id: 1 } }, 'administrator')).toBe('login');
    expect(staffGate(learner, 'administrator')).toBe('forbidden');
    expect(staffGate(proved('administrator'), 'administrator')).toBe('allowed');
    expect(staffGate(proved('administrator'), 'editor')).toBe('allowed');
    expect(staffGate(proved('editor'), 'administrator')).toBe('forbidden');
    const waiting: StaffSession = { user: {}, ibo: null, roles: [], staff: { roles: ['administrator'], secondFactor: 'code' } };
    expect(staffGate(waiting, 'administrator')).toBe('code');
    expect(staffGate({ ...waiting, staff: { roles: ['editor'], secondFactor: 'setup' } }, 'editor')).toBe('setup');
    // The way on is offered only where the stored roles would open the page.
    expect(staffGate({ ...waiting, staff: { roles: ['editor'], secondFactor: 'code' } }, 'administrator')).toBe('forbidden');
  });

  it('opens the dashboard to any role', () => {
    expect(anyRoleGate(proved('finance'))).toBe('allowed');
    expect(anyRoleGate(learner)).toBe('forbidden');
    expect(anyRoleGate(null)).toBe('login');
    expect(anyRoleGate({ user: {}, ibo: null, staff: { roles: ['support'], secondFactor: 'code' } })).toBe('code');
  });
});

describe('TOTP codes', () => {
  const secret = newTotpSecret();
  const at = new Date('2026-11-27T10:00:10Z');
  const step = Math.floor(at.getTime() / 30_000);

  it('accepts the current code and the ones a step around it, with the step they belong to', () => {
    expect(acceptedStep(secret, totpCode(secret, at), at)).toBe(step);
    expect(acceptedStep(secret, totpCode(secret, new Date(at.getTime() - 30_000)), at)).toBe(step - 1);
    expect(acceptedStep(secret, totpCode(secret, new Date(at.getTime() + 30_000)), at)).toBe(step + 1);
  });

  it('refuses a wrong code and one two steps old', () => {
    const code = totpCode(secret, at);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(acceptedStep(secret, wrong, at)).toBeNull();
    expect(acceptedStep(secret, totpCode(secret, new Date(at.getTime() - 60_000)), at)).toBeNull();
  });

  it('names the account and the academy in the otpauth URI', () => {
    const uri = otpauthUri(secret, 'admin@academia.example');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Academia:admin%40academia\.example\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(new URL(uri).searchParams.get('digits')).toBe('6');
  });
});

describe('recovery codes', () => {
  it('hands out ten different codes, stored as hashes that ignore dashes, spaces and case', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const [c] = codes as [string];
    expect(hashRecoveryCode(c.toUpperCase().replace(/-/g, ' '))).toBe(hashRecoveryCode(c));
    expect(hashRecoveryCode(c)).not.toContain(c.replace(/-/g, ''));
  });

  it('reads what was typed as six digits, a recovery code, or nothing usable', () => {
    expect(readTypedCode(' 123 456 ')).toEqual({ kind: 'totp', token: '123456' });
    expect(readTypedCode('ABCD-efgh-2345-6789')).toEqual({ kind: 'recovery', code: 'abcdefgh23456789' });
    expect(readTypedCode('12345')).toBeNull();
    expect(readTypedCode('<script>')).toBeNull();
    expect(readTypedCode('')).toBeNull();
  });
});

describe('staff changes', () => {
  it('never removes the last administrator, nor a role not held', () => {
    expect(removalRefused('administrator', true, 1)).toBe('lastAdministrator');
    expect(removalRefused('administrator', true, 2)).toBeNull();
    expect(removalRefused('editor', true, 1)).toBeNull();
    expect(removalRefused('editor', false, 3)).toBe('notHeld');
  });

  it('refuses a role that does not exist and a malformed e-mail or account', () => {
    expect(grantRoleSchema.safeParse({ email: 'a@b.example', role: 'owner', lang: 'es' }).success).toBe(false);
    expect(grantRoleSchema.safeParse({ email: 'not-an-email', role: 'editor', lang: 'es' }).success).toBe(false);
    expect(grantRoleSchema.parse({ email: ' Ana@B.example ', role: 'editor', lang: 'xx' })).toEqual({ email: 'ana@b.example', role: 'editor', lang: 'es' });
    expect(revokeRoleSchema.safeParse({ userId: '-3', role: 'editor' }).success).toBe(false);
    expect(revokeRoleSchema.safeParse({ userId: '9999999999999', role: 'editor' }).success).toBe(false);
  });
});

describe("the audit log's filters", () => {
  it('keeps well-formed filters and ignores malformed ones', () => {
    const f = readAuditFilter(new URLSearchParams('actor=user:4&action=staff.role.granted&from=2026-11-01&to=2026-11-30&page=2'));
    expect(f).toEqual({ actor: 'user:4', action: 'staff.role.granted', from: '2026-11-01', to: '2026-11-30', page: 2 });
    const bad = readAuditFilter(new URLSearchParams("actor=' or 1=1&action=<b>&from=2026-13-45&to=yesterday&page=-1"));
    expect(bad).toEqual({ actor: undefined, action: undefined, from: undefined, to: undefined, page: 1 });
  });

  it('covers whole days, and writes the filter back as a query', () => {
    const f = readAuditFilter(new URLSearchParams('from=2026-11-01&to=2026-11-01'));
    expect(auditRange(f)).toEqual({ since: new Date('2026-11-01T00:00:00Z'), until: new Date('2026-11-02T00:00:00Z') });
    expect(auditQuery(f, 3)).toBe('?from=2026-11-01&to=2026-11-01&page=3');
    expect(auditQuery(readAuditFilter(new URLSearchParams()), 1)).toBe('');
  });
});
