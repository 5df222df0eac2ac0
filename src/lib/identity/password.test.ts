import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('Aprende2026');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('Aprende2026');
    expect(await verifyPassword('Aprende2026', hash)).toBe(true);
    expect(await verifyPassword('aprende2026', hash)).toBe(false);
  });

  it('makes new hashes at the cost it is given, and checks each at the cost stored with it', async () => {
    const cheap = await hashPassword('Aprende2026', 10);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('Aprende2026', cheap)).toBe(true);
    expect(await verifyPassword('Aprende2027', cheap)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('never matches a malformed stored hash', async () => {
    for (const bad of ['', 'plain', 'scrypt$1$2$3', 'bcrypt$a$b$c$d$e', 'scrypt$32768$8$1$c2FsdA==$']) {
      expect(await verifyPassword('x', bad)).toBe(false);
    }
  });
});
