import { describe, expect, it } from 'vitest';
import { keyPart, limitKey, minutesToWait, partsAvailable, type KeyFacts } from './action-limits';

const facts = (over: Partial<KeyFacts> = {}): KeyFacts => ({ address: '10.0.0.1', sessionTokenHash: null, userId: null, contactId: null, input: {}, ...over });

describe('limit keys', () => {
  it('counts per address, session, account or contact under the keys the limiter has always used', () => {
    expect(limitKey({ per: 'address' }, facts())).toBe('10.0.0.1');
    expect(limitKey({ per: 'session' }, facts({ sessionTokenHash: 'abc' }))).toBe('abc');
    expect(limitKey({ per: 'user' }, facts({ userId: 7 }))).toBe('user:7');
    expect(limitKey({ per: 'contact' }, facts({ contactId: 9 }))).toBe('contact:9');
  });

  it('reads an input field (object or form), lower-cased, and combines parts as a JSON list', () => {
    expect(limitKey({ per: 'input.email' }, facts({ input: { email: 'Ana@Example.com' } }))).toBe('ana@example.com');
    const form = new FormData();
    form.set('email', 'ANA@example.com');
    expect(limitKey({ per: ['input.email', 'address'] }, facts({ input: form }))).toBe(JSON.stringify(['ana@example.com', '10.0.0.1']));
  });

  it('has no key when the call lacks a part (no session, no account, no field)', () => {
    expect(limitKey({ per: 'session' }, facts())).toBeNull();
    expect(limitKey({ per: ['user', 'address'] }, facts())).toBeNull();
    expect(keyPart('input.email', facts({ input: { email: 3 } }))).toBe('3');
    expect(keyPart('input.email', facts({ input: null }))).toBeNull();
  });

  it('says which parts each access level guarantees', () => {
    expect(partsAvailable('public')).not.toContain('user');
    expect(partsAvailable('ibo')).toContain('session');
    expect(partsAvailable('learner')).toContain('user');
    expect(partsAvailable('finance')).toContain('contact');
  });

  it('waits at least a minute, rounding up', () => {
    expect(minutesToWait(1)).toBe(1);
    expect(minutesToWait(60)).toBe(1);
    expect(minutesToWait(61)).toBe(2);
    expect(minutesToWait(3600)).toBe(60);
  });
});
