import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { zip, zipNames, zipStream } from './zip';

/** Every file of an archive as another reader (yauzl) sees it. */
function readAll(archive: Uint8Array): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(archive), { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Record<string, string> = {};
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out[entry.fileName] = Buffer.concat(chunks).toString('utf8');
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('zip', () => {
  it('writes an archive another reader opens, deflated or stored, with UTF-8 names', async () => {
    const big = 'año,curso\n'.repeat(500);
    const archive = zip([
      { name: 'perfil.json', content: '{"nombre":"Ñandú"}' },
      { name: 'datos/progreso.csv', content: big },
      { name: 'x.bin', content: new Uint8Array([1, 2, 3]) },
    ]);
    expect(zipNames(archive)).toEqual(['perfil.json', 'datos/progreso.csv', 'x.bin']);
    const files = await readAll(archive);
    expect(files['perfil.json']).toBe('{"nombre":"Ñandú"}');
    expect(files['datos/progreso.csv']).toBe(big);
    expect(archive.length).toBeLessThan(big.length);
  });

  it('streams an archive of whole and chunked files that another reader opens, the same as one built whole', async () => {
    const at = new Date('2026-11-27T10:00:00Z');
    async function* chunks() {
      yield Buffer.from('primera parte, ');
      yield Buffer.from('segunda parte');
    }
    const parts: Uint8Array[] = [];
    for await (const part of zipStream([{ name: 'course.json', content: '{"a":1}' }, { name: 'media/1.mp4', content: async () => chunks() }], at)) parts.push(part);
    const archive = Buffer.concat(parts);
    expect(zipNames(archive)).toEqual(['course.json', 'media/1.mp4']);
    expect(await readAll(archive)).toEqual({ 'course.json': '{"a":1}', 'media/1.mp4': 'primera parte, segunda parte' });
    // Whole files come out byte for byte as `zip` writes them.
    const whole: Uint8Array[] = [];
    for await (const part of zipStream([{ name: 'a.txt', content: 'hola'.repeat(50) }], at)) whole.push(part);
    expect(Buffer.concat(whole).equals(Buffer.from(zip([{ name: 'a.txt', content: 'hola'.repeat(50) }], at)))).toBe(true);
  });

  it('refuses repeated and unsafe names', () => {
    expect(() => zip([{ name: 'a', content: '' }, { name: 'a', content: '' }])).toThrow();
    expect(() => zip([{ name: '../a', content: '' }])).toThrow();
    expect(() => zip([{ name: '/a', content: '' }])).toThrow();
  });

  it('is read by the unzip tool when there is one', () => {
    let unzip = true;
    try {
      execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    } catch {
      unzip = false;
    }
    if (!unzip) return;
    const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
    try {
      writeFileSync(join(dir, 'a.zip'), zip([{ name: 'a/b.txt', content: 'hola' }]));
      execFileSync('unzip', ['-q', 'a.zip'], { cwd: dir });
      expect(readFileSync(join(dir, 'a/b.txt'), 'utf8')).toBe('hola');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
