/**
 * Revocation as the W3C Bitstring Status List v1.0 states it: each certificate's credential carries a
 * `BitstringStatusListEntry` naming a bit of a published list, and the list (a
 * `BitstringStatusListCredential`) holds a 1 at the bit of every revoked certificate. Pure: positions,
 * the entry, the list's bits (GZIP, then multibase base64url) and the list credential before signing.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { paths } from '~/lib/paths';
import { VC_CONTEXT_V2 } from './certificates';

/** Bits in one list: 16 KB, the least the specification allows (so a list says little about any one holder). */
export const STATUS_LIST_SIZE = 131_072;
/** The only purpose the academy publishes. */
export const STATUS_PURPOSE = 'revocation';
/** Seconds a verifier (and the academy's own cache) may keep a list before asking again. */
export const STATUS_LIST_TTL_SECONDS = 60;

/** Where a certificate's bit lives: its list (from 1) and its index in it. */
export interface StatusPosition {
  list: number;
  index: number;
}

/**
 * The stable position of a certificate's bit, read from its row id (ids are never reused, so a bit
 * never passes to another certificate): id 5 is bit 5 of list 1, id 131,072 bit 0 of list 2.
 */
export function statusPosition(certificateId: number): StatusPosition {
  if (!Number.isSafeInteger(certificateId) || certificateId <= 0) throw new RangeError('A certificate id is a positive whole number.');
  return { list: Math.floor(certificateId / STATUS_LIST_SIZE) + 1, index: certificateId % STATUS_LIST_SIZE };
}

/** The list number in a path (`/credentials/status/{list}`), or null for anything else. */
export function parseStatusList(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,4}$/.test(raw)) return null;
  return Number(raw);
}

/** The URL of a list on the site's public origin. */
export function statusListUrl(origin: string, list: number): string {
  return new URL(paths.statusList(list), origin).href;
}

/** A credential's `credentialStatus` (Bitstring Status List v1.0, §2.1). */
export interface BitstringStatusListEntry {
  id: string;
  type: 'BitstringStatusListEntry';
  statusPurpose: typeof STATUS_PURPOSE;
  /** The bit's index, a decimal string as the specification asks. */
  statusListIndex: string;
  statusListCredential: string;
}

/** The status entry of a certificate's credential. */
export function statusEntry(origin: string, certificateId: number): BitstringStatusListEntry {
  const { list, index } = statusPosition(certificateId);
  const url = statusListUrl(origin, list);
  return { id: `${url}#${index}`, type: 'BitstringStatusListEntry', statusPurpose: STATUS_PURPOSE, statusListIndex: String(index), statusListCredential: url };
}

/**
 * The `encodedList` of a list whose set bits are `indexes` (others outside `0 … size-1` are ignored):
 * bit 0 is the most significant bit of the first byte; the bytes are GZIP-compressed, then written as
 * base64url without padding behind the multibase prefix `u`.
 */
export function encodeStatusList(indexes: Iterable<number>, size = STATUS_LIST_SIZE): string {
  const bytes = new Uint8Array(Math.ceil(size / 8));
  for (const i of indexes) {
    if (Number.isInteger(i) && i >= 0 && i < size) bytes[i >> 3]! |= 0x80 >> (i & 7);
  }
  return `u${gzipSync(bytes).toString('base64url')}`;
}

/** Longest list {@link decodeStatusList} inflates (16 MB of bits): a verifier's guard against a GZIP bomb. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;

/** The bits of an `encodedList` (the reverse of {@link encodeStatusList}); throws on anything malformed. */
export function decodeStatusList(encoded: string): Uint8Array {
  if (typeof encoded !== 'string' || !encoded.startsWith('u') || !/^u[A-Za-z0-9_-]+$/.test(encoded)) throw new TypeError('An encodedList is "u" and base64url.');
  return new Uint8Array(gunzipSync(Buffer.from(encoded.slice(1), 'base64url'), { maxOutputLength: MAX_LIST_BYTES }));
}

/** Whether bit `index` of decoded list `bits` is set. */
export function statusBit(bits: Uint8Array, index: number): boolean {
  const byte = bits[index >> 3];
  if (byte === undefined || index < 0) throw new RangeError(`Index ${index} is outside the list.`);
  return (byte & (0x80 >> (index & 7))) !== 0;
}

/** A published list, before it is signed (Bitstring Status List v1.0, §2.2). */
export interface BitstringStatusListCredential {
  '@context': [typeof VC_CONTEXT_V2];
  id: string;
  type: ['VerifiableCredential', 'BitstringStatusListCredential'];
  issuer: string;
  validFrom: string;
  credentialSubject: {
    id: string;
    type: 'BitstringStatusList';
    statusPurpose: typeof STATUS_PURPOSE;
    encodedList: string;
    /** Milliseconds a verifier may keep it. */
    ttl: number;
  };
}

/**
 * List `list` with a 1 at the index of each certificate id in `revokedIds` that falls in it; `issuerId`
 * is the academy's issuer profile (the one every credential names), `now` its `validFrom`.
 */
export function statusListCredential(origin: string, issuerId: string, list: number, revokedIds: Iterable<number>, now: number): BitstringStatusListCredential {
  const url = statusListUrl(origin, list);
  const indexes: number[] = [];
  for (const id of revokedIds) {
    const at = statusPosition(id);
    if (at.list === list) indexes.push(at.index);
  }
  return {
    '@context': [VC_CONTEXT_V2],
    id: url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: issuerId,
    validFrom: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: STATUS_PURPOSE, encodedList: encodeStatusList(indexes), ttl: STATUS_LIST_TTL_SECONDS * 1000 },
  };
}
