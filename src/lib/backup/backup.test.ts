import { describe, expect, it } from 'vitest';
import { archiveName, asideStamp, parseManifest, sameSigningKey } from './backup';

const manifest = { format: 'academy-backup', version: 1, database: 'pglite', createdAt: '2026-11-26T15:45:00.000Z', signingKey: 'included', signingKeyId: 'abc' };

describe('backup archives', () => {
  it('are named by database and UTC time', () => {
    expect(archiveName('postgres', new Date('2026-11-26T15:45:07.123Z'))).toBe('academy-postgres-20261126-154507.tar.gz');
    expect(asideStamp(new Date('2026-11-26T15:45:07.123Z'))).toBe('20261126-154507');
  });

  it('read their manifest, and nothing else as one', () => {
    expect(parseManifest(JSON.stringify(manifest))).toEqual(manifest);
    expect(parseManifest(JSON.stringify({ ...manifest, signingKeyId: undefined }))?.signingKeyId).toBeNull();
    for (const bad of [{ ...manifest, format: 'other' }, { ...manifest, version: 2 }, { ...manifest, database: 'mysql' }, { ...manifest, signingKey: 'maybe' }, { ...manifest, createdAt: 'yesterday' }]) {
      expect(parseManifest(JSON.stringify(bad))).toBeNull();
    }
    expect(parseManifest('not json')).toBeNull();
    expect(parseManifest('null')).toBeNull();
  });

  it('compare signing keys by their key material, not their formatting', () => {
    const key = { kty: 'OKP', crv: 'Ed25519', x: 'x'.repeat(43), d: 'd'.repeat(43) };
    expect(sameSigningKey(JSON.stringify(key), JSON.stringify({ ...key, kid: 'k', use: 'sig' }, null, 2))).toBe(true);
    expect(sameSigningKey(JSON.stringify(key), JSON.stringify({ ...key, d: 'e'.repeat(43) }))).toBe(false);
    expect(sameSigningKey('{}', '{}')).toBe(false);
    expect(sameSigningKey('nope', JSON.stringify(key))).toBe(false);
  });
});
