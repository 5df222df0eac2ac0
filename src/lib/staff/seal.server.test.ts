import { describe, expect, it } from 'vitest';
import { SecretSeal, UnreadableSecret } from './seal.server';

describe('the seal of second-factor secrets', () => {
  const seal = SecretSeal.fromSecret('this academy');
  const secret = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';

  it('seals a secret so it is not readable, differently each time, and opens it again', () => {
    const a = seal.seal(secret);
    const b = seal.seal(secret);
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(seal.open(a)).toBe(secret);
    expect(seal.open(b)).toBe(secret);
  });

  it('reads a secret stored before sealing as it is', () => {
    expect(SecretSeal.isSealed(secret)).toBe(false);
    expect(seal.open(secret)).toBe(secret);
  });

  it('refuses an altered value, a cut one and one sealed under another key', () => {
    const sealed = seal.seal(secret);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[14]! ^= 1;
    expect(() => seal.open(`v1:${raw.toString('base64url')}`)).toThrow(UnreadableSecret);
    expect(() => seal.open(sealed.slice(0, 20))).toThrow(UnreadableSecret);
    expect(() => SecretSeal.fromSecret('another academy').open(sealed)).toThrow(UnreadableSecret);
  });
});
