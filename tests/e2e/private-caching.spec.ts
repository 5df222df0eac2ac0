/**
 * No shared cache (a CDN, a company proxy) may hand one person's page to another. Every address the
 * authorization matrix knows (each page in Spanish and English, endpoints, lesson media; the matrix is
 * held complete against `src/pages`) is asked once without cookies and once with each kind of cookie
 * the site reads: a cart, a referral, a learner's session, an IBO session. Wherever the answer with a
 * cookie differs from the answer without it, the answer with the cookie must be private (`private` or
 * `no-store`) and both must carry `Vary: Cookie`, so no cache serves the visitor's copy to the cookie
 * holder or the other way round. Plain `fetch`: no cookie jar, so no answer's cookies leak into the next.
 */
import { expect, test } from './fixtures';
import { matrix, RUN } from './support/matrix';
import { registrationForm } from './support/seed';

interface Answer {
  status: number;
  location: string;
  cacheControl: string;
  vary: string;
  body: string;
}

const cookiesOf = (r: Response) => r.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');

test('every answer that depends on a cookie is private and varies on Cookie', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const base = baseURL!;
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form), redirect: 'manual' });
  // A learner of this run (a new account: nothing these requests do touches another journey's people).
  const email = `cache.${RUN}@example.com`;
  const registered = await post('/_actions/auth.register', registrationForm(email, 'Cache'));
  expect(registered.status, await registered.clone().text()).toBe(200);
  const ibo = await post('/_actions/ibo.enter', { code: 'HORIZONTE01', lang: 'es' });
  expect(ibo.status).toBe(200);
  const cookieKinds: Record<string, string> = {
    'a cart': `cart=${encodeURIComponent(JSON.stringify([{ kind: 'book', id: 1 }, { kind: 'course', id: 6 }]))}`,
    'a referral': `ref=${RUN}`,
    "a learner's session": cookiesOf(registered),
    'an IBO session': cookiesOf(ibo),
  };
  for (const [kind, cookie] of Object.entries(cookieKinds)) expect(cookie, kind).not.toBe('');

  // Every address the matrix reads (without a row's own forged cookies), once; not the affiliate link,
  // which opens a session of its own for whoever follows it.
  const addresses = [...new Set(matrix().filter((r) => r.http?.method === 'GET' && !r.http.cookies && !r.last && !r.http.path.includes('{')).map((r) => r.http!.path))];
  expect(addresses.length).toBeGreaterThan(100);

  const ask = async (path: string, cookie?: string): Promise<Answer> => {
    const r = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    return {
      status: r.status,
      location: r.headers.get('location') ?? '',
      cacheControl: r.headers.get('cache-control') ?? '',
      vary: r.headers.get('vary') ?? '',
      body: await r.text(),
    };
  };
  const isPrivate = (a: Answer) => /(^|[\s,])(private|no-store)([\s,=]|$)/i.test(a.cacheControl);
  const variesOnCookie = (a: Answer) => a.vary.split(',').some((v) => v.trim().toLowerCase() === 'cookie' || v.trim() === '*');
  const same = (a: Answer, b: Answer) => a.status === b.status && a.location === b.location && a.body === b.body;

  const problems: string[] = [];
  let compared = 0;
  let differing = 0;
  const queue = [...addresses];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const plain = await ask(path);
        for (const [kind, cookie] of Object.entries(cookieKinds)) {
          const withCookie = await ask(path, cookie);
          compared++;
          if (same(plain, withCookie)) continue;
          differing++;
          if (!isPrivate(withCookie)) problems.push(`${path} with ${kind}: Cache-Control "${withCookie.cacheControl}" (its answer differs from a visitor's)`);
          if (!variesOnCookie(withCookie)) problems.push(`${path} with ${kind}: Vary "${withCookie.vary}"`);
          if (!variesOnCookie(plain)) problems.push(`${path} without cookies: Vary "${plain.vary}" (the answer with ${kind} differs)`);
        }
      }
    }),
  );
  test.info().annotations.push({ type: 'private caching', description: `${addresses.length} addresses, ${compared} comparisons, ${differing} differ with a cookie` });
  // Some answers do depend on each kind of cookie, so the walk compares something.
  expect(differing).toBeGreaterThan(50);
  expect([...new Set(problems)].sort()).toEqual([]);
});
