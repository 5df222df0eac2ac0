/**
 * Names that hold format characters (a right-to-left override, zero-width spaces), as rows saved before
 * such names were refused may: the built site shows them without those characters and inside `<bdi>`,
 * so they can neither reorder nor hide the text around them — on the public verify page, on the
 * certificate page and in the header's user menu. Skipped without a build (`npm run build`).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/lib/db/client';
import { certificates, users } from '../src/lib/db/schema';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The name-display tests are skipped: they need a build (`npm run build`).');

/** True when `html` shows `text` as the whole content of a `<bdi>` element (Astro may add its scoping attribute). */
const isolates = (html: string, text: string) => new RegExp(`<bdi(\\s[^>]*)?>${text}</bdi>`).test(html);

/** Every format character (category Cf). */
const FORMAT = /\p{Cf}/u;

describe.skipIf(!siteBuilt)('names with format characters are shown stripped and isolated', () => {
  let built: BuiltSite;
  let db: DbHandle;

  beforeAll(async () => {
    built = await startBuiltSite();
    ({ db } = built);
  });

  afterAll(() => built?.close());

  it('the public verify page shows an older certificate’s holder inside <bdi>, without the override or the zero-width space', async () => {
    const [cert] = await db.db.select().from(certificates).limit(1);
    expect(cert, 'the seed holds a certificate').toBeDefined();
    await db.db.update(certificates).set({ holderName: 'Mateo \u202eGutiérrez\u200b' }).where(eq(certificates.id, cert!.id));
    for (const path of [`/verify/${cert!.code}`, `/en/verify/${cert!.code}`]) {
      const r = await built.get(path);
      expect(r.status, path).toBe(200);
      const html = await r.text();
      expect(isolates(html, 'Mateo Gutiérrez'), path).toBe(true);
      expect(FORMAT.test(html), path).toBe(false);
    }
  });

  it('the header names a user whose stored name holds format characters inside <bdi>, without them', async () => {
    await db.db.update(users).set({ firstName: 'Laura\u202e', lastName: '\u2066Méndez\u2069' }).where(eq(users.email, 'learner@academia.example'));
    const cookie = await built.logIn('learner@academia.example', 'Aprende2026');
    for (const path of ['/courses', '/en/profile', '/mylearning']) {
      const html = await (await built.get(path, cookie)).text();
      expect(isolates(html, 'Laura'), path).toBe(true);
      expect(isolates(html, 'Laura Méndez'), path).toBe(true);
      // In running text (my learning's greeting) the name sits between isolate marks of its own.
      expect(FORMAT.test(html.replaceAll('\u2068Laura\u2069', 'Laura')), path).toBe(false);
    }
    expect(await (await built.get('/mylearning', cookie)).text()).toContain('\u2068Laura\u2069');
  });
});
