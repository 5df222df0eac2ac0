import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64url, calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString, type PDFObject } from 'pdf-lib';
import { openBadgeCredential, type CertificateFacts, type OpenBadgeCredential } from './certificates';
import { CERTIFICATE_FONT, certificatePdf } from './pdf.server';
import { qrPng, qrSvg } from './qr.server';
import { signCredential, verifyCredential } from './credentials.server';
import { jwks, loadOrCreateSigningKey, type SigningKey } from './signing.server';

const code = 'ACAD-7K2Q-9XRM-4TPH-B3WD';
const spanish: CertificateFacts = {
  code,
  holderName: 'José Núñez',
  courseName: 'Introducción a la programación: ¿por qué?',
  courseHours: 12,
  issuedAt: Date.UTC(2025, 2, 5, 10, 30),
  locale: 'es',
  verifyUrl: `https://academia.example/verify/${code}`,
  issuerName: 'Academia Ejemplo',
};
const english: CertificateFacts = { ...spanish, holderName: 'Begoña Ibáñez', courseName: 'Diseño ÁÉÍÓÚÜÑ ¡ya!', courseHours: 1, locale: 'en', verifyUrl: `https://academia.example/en/verify/${code}` };

/* ───────────── reading a PDF back ───────────── */

function streamText(obj: PDFObject | undefined): string {
  if (!(obj instanceof PDFRawStream)) throw new Error('expected a stream');
  return Buffer.from(decodePDFRawStream(obj).decode()).toString('latin1');
}

interface ReadBack {
  doc: PDFDocument;
  /** The page's text, one string per text-showing operator, decoded through the font's ToUnicode map. */
  lines: string[];
  /** The glyph ids shown (0 is .notdef: a character the font lacks). */
  glyphs: number[];
  /** Size of the embedded TrueType program, or 0 when the font is not embedded. */
  embeddedFontBytes: number;
  fontCount: number;
}

/** Loads a PDF made by `certificatePdf` with pdf-lib and extracts its text from the content stream. */
async function readBack(bytes: Uint8Array): Promise<ReadBack> {
  const doc = await PDFDocument.load(bytes);
  const page = doc.getPage(0);
  const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
  const fontDicts = new Set(fonts.entries().map(([, ref]) => doc.context.lookup(ref, PDFDict)));
  const toUnicode = new Map<number, string>();
  let embeddedFontBytes = 0;
  for (const font of fontDicts) {
    const cmap = streamText(font.lookup(PDFName.of('ToUnicode')));
    for (const [, cid, uni] of cmap.matchAll(/<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]+)>/g)) {
      toUnicode.set(parseInt(cid!, 16), String.fromCodePoint(...uni!.match(/.{4}/g)!.map((h) => parseInt(h, 16))));
    }
    const descendant = font.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
    const program = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict).lookup(PDFName.of('FontFile2'));
    if (program instanceof PDFRawStream) embeddedFontBytes = decodePDFRawStream(program).decode().length;
  }
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  const content = streams.map((s) => streamText(s)).join('\n');
  const lines: string[] = [];
  const glyphs: number[] = [];
  for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
    const ids = (hex!.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16));
    glyphs.push(...ids);
    lines.push(ids.map((id) => toUnicode.get(id) ?? '\uFFFD').join(''));
  }
  return { doc, lines, glyphs, embeddedFontBytes, fontCount: fontDicts.size };
}

describe('certificate PDF', () => {
  let es: Uint8Array;
  let en: Uint8Array;
  beforeAll(async () => {
    [es, en] = await Promise.all([certificatePdf(spanish), certificatePdf(english)]);
  });

  it('is a small PDF of one A4 landscape page', async () => {
    for (const pdf of [es, en]) {
      expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBeLessThan(200 * 1024);
      const { doc } = await readBack(pdf);
      expect(doc.getPageCount()).toBe(1);
      const { width, height } = doc.getPage(0).getSize();
      expect(width).toBeCloseTo(841.89, 1);
      expect(height).toBeCloseTo(595.28, 1);
    }
  });

  it('prints the Spanish certificate with its accents', async () => {
    const { lines, glyphs } = await readBack(es);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Academia Ejemplo',
        'Certificado de finalización',
        'otorgado a',
        'José Núñez',
        'por completar el curso',
        'Introducción a la programación: ¿por qué?',
        '12 horas · 5 de marzo de 2025',
        `Código de verificación: ${code}`,
        'Verifica este certificado en:',
        spanish.verifyUrl,
      ]),
    );
    expect(glyphs).not.toContain(0);
  });

  it('prints the English certificate, Spanish capitals included', async () => {
    const { lines, glyphs } = await readBack(en);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Certificate of Completion',
        'awarded to',
        'Begoña Ibáñez',
        'for completing the course',
        'Diseño ÁÉÍÓÚÜÑ ¡ya!',
        '1 hour · March 5, 2025',
        `Verification code: ${code}`,
        'Verify this certificate at:',
        english.verifyUrl,
      ]),
    );
    expect(glyphs).not.toContain(0);
  });

  it('embeds one font, subset to the glyphs it uses', async () => {
    const fontFile = (await readFile(CERTIFICATE_FONT)).length;
    const { embeddedFontBytes, fontCount } = await readBack(es);
    expect(fontCount).toBe(1);
    expect(embeddedFontBytes).toBeGreaterThan(1000);
    expect(embeddedFontBytes).toBeLessThan(fontFile / 4);
  });

  it('sets the document title, author, subject, language and dates', async () => {
    const { doc } = await readBack(es);
    expect(doc.getTitle()).toBe('Certificado de finalización: Introducción a la programación: ¿por qué? – José Núñez');
    expect(doc.getAuthor()).toBe('Academia Ejemplo');
    expect(doc.getSubject()).toContain(code);
    expect(doc.catalog.lookup(PDFName.of('Lang'), PDFString).decodeText()).toBe('es');
    expect(doc.getCreationDate()?.getTime()).toBe(spanish.issuedAt);
    expect((await readBack(en)).doc.catalog.lookup(PDFName.of('Lang'), PDFString).decodeText()).toBe('en');
  });

  it('keeps long names on the page and drops control characters', async () => {
    const long = await certificatePdf({
      ...spanish,
      holderName: 'María\u0000del\nCarmen Fernández-Villaverde de la Concepción y Santísima Trinidad de los Ángeles Ñúñez',
      courseName: 'Curso '.repeat(80),
    });
    const { lines } = await readBack(long);
    expect(lines).toContain('María del Carmen Fernández-Villaverde de la Concepción y Santísima Trinidad de los Ángeles Ñúñez');
    expect(lines.filter((l) => l.startsWith('Curso')).length).toBe(3);
    expect(lines.some((l) => l.endsWith('…'))).toBe(true);
  });

  it('shows a character the font lacks as glyph 0, which the checks above would catch', async () => {
    const { glyphs } = await readBack(await certificatePdf({ ...spanish, holderName: '漢字' }));
    expect(glyphs).toContain(0);
  });
});

/* ───────────── QR codes ───────────── */

describe('QR codes', () => {
  it('renders a PNG that decodes back to the verification URL', async () => {
    const png = await qrPng(spanish.verifyUrl);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = PNG.sync.read(Buffer.from(png));
    const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(found?.data).toBe(spanish.verifyUrl);
  });

  it('renders a scalable SVG, optionally labelled with escaped text', async () => {
    const plain = await qrSvg(spanish.verifyUrl);
    expect(plain).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    expect(plain).toContain('<path');
    const labelled = await qrSvg(spanish.verifyUrl, 'Código QR <"&">');
    expect(labelled).toMatch(/^<svg role="img" aria-label="Código QR &lt;&quot;&amp;&quot;&gt;"/);
    expect(labelled).toContain('<title>Código QR &lt;&quot;&amp;&quot;&gt;</title>');
  });
});

/* ───────────── signing ───────────── */

const credentialOptions = {
  issuerId: 'https://academia.example/',
  issuerUrl: 'https://academia.example/',
  achievementId: 'https://academia.example/courses-details/7',
  credentialId: spanish.verifyUrl,
  description: 'Fundamentos de programación.',
};
const credential = openBadgeCredential(spanish, credentialOptions);

/** Re-assembles a compact JWS from JSON header and payload and a signature segment. */
function compact(header: object, payload: object, signature: string): string {
  const enc = (o: object) => base64url.encode(JSON.stringify(o));
  return `${enc(header)}.${enc(payload)}.${signature}`;
}

describe('signed credentials', () => {
  let key: SigningKey;
  let other: SigningKey;
  let published: ReturnType<typeof jwks>;
  let jwt: string;
  beforeAll(async () => {
    key = await loadOrCreateSigningKey(null, undefined);
    other = await loadOrCreateSigningKey(null, undefined);
    published = jwks([key.publicJwk]);
    jwt = await signCredential(credential, key);
  });

  it('publishes only public members, with EdDSA, sig and the thumbprint as kid', async () => {
    expect(published.keys).toHaveLength(1);
    const [k] = published.keys;
    expect(Object.keys(k!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: key.kid });
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x }));
    // A private JWK passed by mistake loses its private part; a missing kid is computed.
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const priv = await exportJWK(privateKey);
    const [cleaned] = jwks([priv]).keys;
    expect(cleaned).not.toHaveProperty('d');
    expect(cleaned!.kid).toBe(await calculateJwkThumbprint(priv));
    expect(() => jwks([{ kty: 'RSA', x: 'abc' }])).toThrow(TypeError);
  });

  it('signs a VC-JWT whose header and claims follow the credential', () => {
    expect(jwt.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'EdDSA', typ: 'vc+jwt', kid: key.kid });
    const claims = decodeJwt(jwt);
    expect(claims.iss).toBe(credentialOptions.issuerId);
    expect(claims.jti).toBe(credential.id);
    expect(claims.nbf).toBe(spanish.issuedAt / 1000);
    expect(claims.iat).toBe(spanish.issuedAt / 1000);
    expect(claims['credentialSubject']).toEqual(credential.credentialSubject);
  });

  it('verifies with the published JWKS alone and returns the credential', async () => {
    const result = await verifyCredential(jwt, JSON.parse(JSON.stringify(published)));
    expect(result).toEqual({ ok: true, credential, kid: key.kid });
    // Rotation: the set may hold several keys.
    expect((await verifyCredential(jwt, jwks([other.publicJwk, key.publicJwk]))).ok).toBe(true);
  });

  it('refuses a token whose payload changed by one character', async () => {
    const [h, p, s] = jwt.split('.') as [string, string, string];
    const i = Math.floor(p.length / 2);
    const flipped = `${h}.${p.slice(0, i)}${p[i] === 'A' ? 'B' : 'A'}${p.slice(i + 1)}.${s}`;
    expect((await verifyCredential(flipped, published)).ok).toBe(false);

    const forged = { ...decodeJwt(jwt), credentialSubject: { ...credential.credentialSubject, name: 'José Núñex' } };
    expect(await verifyCredential(compact(decodeProtectedHeader(jwt), forged, s), published)).toEqual({ ok: false, reason: 'bad-signature' });
    const sig = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
    expect(await verifyCredential(`${h}.${p}.${sig}`, published)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a token signed with another key, whatever kid it claims', async () => {
    const foreign = await signCredential(credential, other);
    expect(await verifyCredential(foreign, published)).toEqual({ ok: false, reason: 'unknown-key' });
    const lying = await new SignJWT(decodeJwt(foreign)).setProtectedHeader({ alg: 'EdDSA', typ: 'vc+jwt', kid: key.kid }).sign(other.privateKey);
    expect(await verifyCredential(lying, published)).toEqual({ ok: false, reason: 'bad-signature' });
    // A key embedded in the token is never trusted.
    const embedded = await new SignJWT(decodeJwt(foreign))
      .setProtectedHeader({ alg: 'EdDSA', typ: 'vc+jwt', jwk: { kty: 'OKP', crv: 'Ed25519', x: other.publicJwk.x } })
      .sign(other.privateKey);
    expect((await verifyCredential(embedded, published)).ok).toBe(false);
  });

  it('refuses alg none and other algorithms', async () => {
    const [, p] = jwt.split('.') as [string, string];
    for (const alg of ['none', 'None', 'NONE']) {
      const unsigned = `${base64url.encode(JSON.stringify({ alg, typ: 'vc+jwt', kid: key.kid }))}.${p}.`;
      expect(await verifyCredential(unsigned, published), alg).toEqual({ ok: false, reason: expect.stringMatching(/unsupported-algorithm|malformed/) });
    }
    // The public key used as an HMAC secret (algorithm confusion).
    const hmac = await new SignJWT(decodeJwt(jwt)).setProtectedHeader({ alg: 'HS256', typ: 'vc+jwt', kid: key.kid }).sign(new TextEncoder().encode(key.publicJwk.x));
    expect(await verifyCredential(hmac, published)).toEqual({ ok: false, reason: 'unsupported-algorithm' });
  });

  it('refuses the wrong typ, a future nbf, claims that disagree with the credential, and junk', async () => {
    const claims = decodeJwt(jwt);
    const sign = (header: object, payload: object) => new SignJWT(payload as Record<string, unknown>).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, ...header }).sign(key.privateKey);
    expect(await verifyCredential(await sign({ typ: 'JWT' }, claims), published)).toEqual({ ok: false, reason: 'not-a-credential' });
    const later = Math.floor(Date.now() / 1000) + 3600;
    expect(await verifyCredential(await sign({ typ: 'vc+jwt' }, { ...claims, nbf: later }), published)).toEqual({ ok: false, reason: 'not-yet-valid' });
    expect(await verifyCredential(await sign({ typ: 'vc+jwt' }, { ...claims, iss: 'https://evil.example/' }), published)).toEqual({ ok: false, reason: 'not-a-credential' });
    expect(await verifyCredential(await sign({ typ: 'vc+jwt' }, { ...claims, jti: 'urn:uuid:other' }), published)).toEqual({ ok: false, reason: 'not-a-credential' });
    expect(await verifyCredential(await sign({ typ: 'vc+jwt' }, { iss: 'x', sub: 'y', nbf: claims.nbf }), published)).toEqual({ ok: false, reason: 'not-a-credential' });
    const expired = await signCredential({ ...credential, validUntil: '2025-03-06T00:00:00Z' } as OpenBadgeCredential, key);
    expect(await verifyCredential(expired, published)).toEqual({ ok: false, reason: 'expired' });
    for (const junk of ['', 'a.b.c', 'not a jwt', `${jwt}.extra`, 'x'.repeat(200_000)]) {
      expect(await verifyCredential(junk, published)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});

/* ───────────── key storage ───────────── */

describe('signing key storage', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'academy-cert-keys-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the key file once (mode 0600, folders created) and reuses it', async () => {
    const file = join(dir, 'nested', 'keys', 'certificates.jwk');
    const first = await loadOrCreateSigningKey(file, undefined);
    const text = await readFile(file, 'utf8');
    const stored = JSON.parse(text) as Record<string, string>;
    expect(stored).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: first.publicJwk.x, kid: first.kid });
    expect(stored['d']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await loadOrCreateSigningKey(file, undefined);
    expect(second.kid).toBe(first.kid);
    expect(await readFile(file, 'utf8')).toBe(text);
    // The reloaded private key signs what the first key's public half verifies.
    const jwt = await signCredential(credential, second);
    expect((await verifyCredential(jwt, jwks([first.publicJwk]))).ok).toBe(true);
    // A blank environment value does not count as given.
    expect((await loadOrCreateSigningKey(file, '  ')).kid).toBe(first.kid);
  });

  it('agrees on one key when several processes start at once', async () => {
    const file = join(dir, 'race', 'certificates.jwk');
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateSigningKey(file, undefined)));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
    expect(JSON.parse(await readFile(file, 'utf8')).kid).toBe(keys[0]!.kid);
  });

  it('prefers a private JWK from the environment and then writes no file', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const env = JSON.stringify(await exportJWK(privateKey));
    const file = join(dir, 'unused', 'certificates.jwk');
    const key = await loadOrCreateSigningKey(file, env);
    expect(key.kid).toBe(await calculateJwkThumbprint(await exportJWK(privateKey)));
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a malformed environment JWK with one sentence that does not reveal it', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const good = (await exportJWK(privateKey)) as Record<string, string>;
    const { privateKey: p2 } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const otherX = ((await exportJWK(p2)) as Record<string, string>)['x'];
    const malformed = [
      'not json',
      '{"kty":',
      'null',
      '"string"',
      '{}',
      JSON.stringify({ ...good, d: undefined }), // public only
      JSON.stringify({ ...good, kty: 'EC' }),
      JSON.stringify({ ...good, crv: 'Ed448' }),
      JSON.stringify({ ...good, d: good['d']!.slice(1) }),
      JSON.stringify({ ...good, x: otherX }), // halves of different keys
    ];
    for (const env of malformed) {
      const err = await loadOrCreateSigningKey(join(dir, 'never.jwk'), env).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, env).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toMatch(/^The certificate signing key given in the environment is not a JSON Ed25519 private JWK .*\.$/);
      expect(message.match(/\.(\s|$)/g)).toHaveLength(1);
      expect(message).not.toContain(good['d']);
    }
    expect(existsSync(join(dir, 'never.jwk'))).toBe(false);
  });

  it('refuses a damaged key file, naming it', async () => {
    const file = join(dir, 'damaged.jwk');
    await writeFile(file, '{"kty":"OKP"', { mode: 0o600 });
    await expect(loadOrCreateSigningKey(file, undefined)).rejects.toThrow(`The certificate signing key file ${file} does not hold a JSON Ed25519 private JWK; fix or remove it.`);
  });
});
