/** The revocation list's bits, positions and entries, as Bitstring Status List v1.0 states them. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeStatusList, encodeStatusList, parseStatusList, STATUS_LIST_SIZE, statusBit, statusEntry, statusListCredential, statusPosition } from './status-list';

const ORIGIN = 'https://academia.example';

describe('a certificate’s place in the lists', () => {
  it('is its row id: list 1 holds ids 1 … 131,071, list 2 starts again at bit 0', () => {
    expect(statusPosition(1)).toEqual({ list: 1, index: 1 });
    expect(statusPosition(131_071)).toEqual({ list: 1, index: 131_071 });
    expect(statusPosition(131_072)).toEqual({ list: 2, index: 0 });
    expect(() => statusPosition(0)).toThrow(RangeError);
    expect(() => statusPosition(1.5)).toThrow(RangeError);
  });

  it('is named by a BitstringStatusListEntry pointing at the list’s URL, the index as a decimal string', () => {
    expect(statusEntry(ORIGIN, 131_077)).toEqual({
      id: `${ORIGIN}/credentials/status/2#5`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: '5',
      statusListCredential: `${ORIGIN}/credentials/status/2`,
    });
  });

  it('reads a list number from the path, and nothing else', () => {
    expect(parseStatusList('1')).toBe(1);
    expect(parseStatusList('42')).toBe(42);
    for (const bad of [undefined, '', '0', '-1', '01', '1.0', 'abc', '1%00', '999999', '1e3']) expect(parseStatusList(bad)).toBeNull();
  });
});

describe('the encoded list', () => {
  it('is GZIP then multibase base64url ("u", no padding) of 16 KB, bit 0 the first byte’s highest bit', () => {
    const encoded = encodeStatusList([0, 9, 131_071]);
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/);
    const bits = decodeStatusList(encoded);
    expect(bits.length * 8).toBe(STATUS_LIST_SIZE);
    expect(bits[0]).toBe(0b1000_0000);
    expect(bits[1]).toBe(0b0100_0000);
    expect(bits[bits.length - 1]).toBe(0b0000_0001);
  });

  it('has a 1 exactly at the given indexes (ignoring any outside the list)', () => {
    const set = [3, 77, 4096, 99_999];
    const bits = decodeStatusList(encodeStatusList([...set, -1, STATUS_LIST_SIZE, 2.5]));
    const ones: number[] = [];
    for (let i = 0; i < STATUS_LIST_SIZE; i++) if (statusBit(bits, i)) ones.push(i);
    expect(ones).toEqual(set);
  });

  it('refuses what is not an encoded list, and a GZIP bomb', () => {
    expect(() => decodeStatusList('H4sIAAAA')).toThrow();
    expect(() => decodeStatusList('u!!')).toThrow();
    const bomb = `u${gzipSync(Buffer.alloc(17 * 1024 * 1024)).toString('base64url')}`;
    expect(() => decodeStatusList(bomb)).toThrow();
  });
});

describe('the list credential', () => {
  it('is a BitstringStatusListCredential of the revoked ids that fall in its list', () => {
    const now = Date.parse('2026-11-27T10:00:00.123Z');
    const list = statusListCredential(ORIGIN, `${ORIGIN}/credentials/issuer.json`, 1, [2, 7, 131_080], now);
    expect(list['@context']).toEqual(['https://www.w3.org/ns/credentials/v2']);
    expect(list.type).toEqual(['VerifiableCredential', 'BitstringStatusListCredential']);
    expect(list.id).toBe(`${ORIGIN}/credentials/status/1`);
    expect(list.validFrom).toBe('2026-11-27T10:00:00Z');
    expect(list.credentialSubject).toMatchObject({ id: `${ORIGIN}/credentials/status/1#list`, type: 'BitstringStatusList', statusPurpose: 'revocation' });
    const bits = decodeStatusList(list.credentialSubject.encodedList);
    expect([2, 7].every((i) => statusBit(bits, i))).toBe(true);
    // Id 131,080 is bit 8 of list 2, not of this one.
    expect(statusBit(bits, 8)).toBe(false);
  });
});
