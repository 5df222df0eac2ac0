import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, accessVerdict, callerOf, accessRefusalStatus, STAFF_ROLES, type Caller } from './policy';

const visitor: Caller = { session: 'visitor', roles: [] };
const ibo: Caller = { session: 'ibo', roles: [] };
const learner: Caller = { session: 'user', roles: [] };
const staff = (...roles: Caller['roles']): Caller => ({ session: 'user', roles });

describe('the access rule', () => {
  it('lets anyone use what is public', () => {
    for (const c of [visitor, ibo, learner, staff('finance')]) expect(accessVerdict('public', c)).toBe('allowed');
  });

  it('asks for an IBO session (401) from anyone without one, a logged-in user included', () => {
    expect(accessVerdict('ibo', ibo)).toBe('allowed');
    expect(accessVerdict('ibo', visitor)).toBe('unauthorized');
    expect(accessVerdict('ibo', learner)).toBe('unauthorized');
  });

  it('asks a visitor or an IBO session to log in (401) for what needs a user', () => {
    for (const access of ACCESS_LEVELS.filter((a) => a !== 'public' && a !== 'ibo')) {
      expect(accessVerdict(access, visitor), access).toBe('unauthorized');
      expect(accessVerdict(access, ibo), access).toBe('unauthorized');
    }
    expect(accessVerdict('learner', learner)).toBe('allowed');
  });

  it('refuses a logged-in user without the staff role (403); the role, or administrator, is allowed', () => {
    for (const role of STAFF_ROLES) {
      expect(accessVerdict(role, learner), role).toBe('forbidden');
      expect(accessVerdict(role, staff(role)), role).toBe('allowed');
      expect(accessVerdict(role, staff('administrator')), role).toBe('allowed');
    }
    expect(accessVerdict('finance', staff('editor'))).toBe('forbidden');
    expect(accessVerdict('administrator', staff('editor', 'support', 'finance'))).toBe('forbidden');
    // Staff are logged-in users: what a learner may do, they may.
    expect(accessVerdict('learner', staff('support'))).toBe('allowed');
  });

  it("lets only a logged-in account that owns an IBO into the IBO owner's pages (an IBO session 401, a learner 403)", () => {
    const owner: Caller = { session: 'user', roles: [], ownsIbo: true };
    expect(accessVerdict('iboOwner', owner)).toBe('allowed');
    expect(accessVerdict('iboOwner', learner)).toBe('forbidden');
    expect(accessVerdict('iboOwner', staff('administrator'))).toBe('forbidden');
    expect(accessVerdict('iboOwner', ibo)).toBe('unauthorized');
    expect(accessVerdict('iboOwner', visitor)).toBe('unauthorized');
    expect(callerOf({ user: { id: 1 }, ibo: null, ownIbo: { id: 1 } })).toEqual(owner);
    expect(callerOf({ user: null, ibo: { id: 1 }, ownIbo: { id: 1 } })).toEqual(ibo);
  });

  it('answers 401 for a missing session and 403 for a missing role', () => {
    expect(accessRefusalStatus('unauthorized')).toBe(401);
    expect(accessRefusalStatus('forbidden')).toBe(403);
  });

  it('reads the caller from a session: a user, else an IBO, else a visitor', () => {
    expect(callerOf(null)).toEqual(visitor);
    expect(callerOf({ user: null, ibo: { id: 1 } })).toEqual(ibo);
    expect(callerOf({ user: { id: 1 }, ibo: null })).toEqual(learner);
    expect(callerOf({ user: { id: 1 }, ibo: null, roles: ['editor'] })).toEqual(staff('editor'));
    // Roles count only with a user's session.
    expect(callerOf({ user: null, ibo: { id: 1 }, roles: ['administrator'] })).toEqual(ibo);
  });
});
