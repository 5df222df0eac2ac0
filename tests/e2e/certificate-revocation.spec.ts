/**
 * Revoking a certificate from the back office, on a server of its own (the demo graduate's certificate
 * is revoked there, and stays valid for every other journey): the administrator finds it by the
 * holder's e-mail and revokes it with a reason; revoking it again is refused in words; the public
 * verification says revoked and since when (410, without the reason) in both languages, as does the
 * holder's own page; the published status list has its bit set, at the index its credential names; the
 * holder is e-mailed the reason; an editor is refused.
 */
import { decodeJwt } from 'jose';
import { expect, expectNoSeriousViolations, test, useOwnServer } from './fixtures';
import { waitForMail } from './support/outbox';
import { PEOPLE } from './support/seed';
import { browseAsAdministrator, EDITOR } from './support/staff';
import { decodeStatusList, STATUS_LIST_SIZE, statusBit } from '../../src/lib/certificates/status-list';
import { messages } from '../../src/i18n';

const CODE = 'ACAD-GRAD-2026-0000-0002';
const REASON = 'The final exam was taken by someone else.';

test.describe('revoking a certificate, on a server of its own', () => {
  const server = useOwnServer();
  const base = () => server().baseURL;

  test('the administrator revokes; verification, the holder’s page, the status list and the e-mail say so', async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext();
    await browseAsAdministrator(context, base(), server().dataDir);
    const page = await context.newPage();
    try {
      // Found by the holder's e-mail, valid, with the revocation form.
      await page.goto(`${base()}/en/admin/certificates`);
      await page.getByLabel('Certificate code or e-mail address').fill(PEOPLE.graduate.email);
      await page.getByRole('button', { name: 'Find certificates' }).click();
      const row = page.locator(`tr[data-certificate="${CODE}"]`);
      await expect(row).toContainText('Mateo Gutiérrez');
      await expect(row).toContainText('Valid');
      await expectNoSeriousViolations(page);

      // An empty reason: refused by the browser first; sent anyway, a 400 in words, nothing revoked.
      const empty = await context.request.post(`${base()}/_actions/certificates.revoke`, { form: { code: CODE, reason: '  ', lang: 'en' }, headers: { Origin: base() } });
      expect(empty.status()).toBe(400);

      await row.getByLabel('Reason for revoking').fill(REASON);
      await row.getByRole('button', { name: `Revoke certificate ${CODE}` }).click();
      await expect(page.getByRole('status').filter({ hasText: 'revoked' })).toHaveText(`Certificate ${CODE} revoked. Its holder was told by e-mail.`);
      await expect(page.locator(`tr[data-certificate="${CODE}"]`)).toContainText(/Revoked on \w+ \d+, \d{4}/);
      await expect(page.locator(`tr[data-certificate="${CODE}"]`)).toContainText(`Reason: ${REASON}`);

      // Again: a 409 in words, and nothing changes.
      const again = await context.request.post(`${base()}/_actions/certificates.revoke`, { form: { code: CODE, reason: 'Another reason', lang: 'es' }, headers: { Origin: base() } });
      expect(again.status()).toBe(409);
      expect(await again.text()).toContain('Ese certificado ya estaba revocado desde el');

      // The public verification: revoked, since when, in both languages; never the reason.
      const year = new Date().getUTCFullYear();
      const en = await page.goto(`${base()}/en/verify/${CODE}`);
      expect(en?.status()).toBe(410);
      await expect(page.getByRole('heading', { name: 'Revoked certificate' })).toBeVisible();
      await expect(page.getByText(new RegExp(`revoked it on \\w+ \\d+, ${year}: it is no longer valid`))).toBeVisible();
      // Its signature is genuine, and said so without calling the certificate valid.
      await expect(page.getByText(messages('en').certificates.verify.signatureRevoked)).toBeVisible();
      await expect(page.getByText(messages('en').certificates.verify.signatureValid)).toHaveCount(0);
      expect(await page.content()).not.toContain(REASON);
      const es = await page.goto(`${base()}/verify/${CODE}`);
      expect(es?.status()).toBe(410);
      await expect(page.getByRole('heading', { name: 'Certificado revocado' })).toBeVisible();
      await expect(page.getByText(new RegExp(`lo revocó el \\d+ de \\w+ de ${year}: ya no es válido`))).toBeVisible();
      expect(await page.content()).not.toContain(REASON);
      await expectNoSeriousViolations(page);

      // The holder is told, in Spanish (their profile chose no language), with the reason.
      const mail = await waitForMail(server().dataDir, [PEOPLE.graduate.email, CODE, REASON], 30_000);
      expect(mail).toContain(`Motivo: ${REASON}`);
    } finally {
      await context.close();
    }
  });

  test('the status list has the bit its credential names, and only that one', async ({ playwright }) => {
    const holder = await playwright.request.newContext({ baseURL: base() });
    try {
      const login = await holder.post('/_actions/auth.login', { form: { email: PEOPLE.graduate.email, password: PEOPLE.graduate.password, lang: 'en' }, headers: { Origin: base() } });
      expect(login.status()).toBe(200);
      // The holder's own page says it too.
      const own = await holder.get('/en/course-certificate/2');
      expect(own.status()).toBe(200);
      expect(await own.text()).toMatch(/The academy revoked this certificate on \w+ \d+, \d{4}/);
      // Its credential names its bit in list 1.
      const credential = await holder.get('/course-certificate/2/credential?lang=en');
      expect(credential.status()).toBe(200);
      const status = decodeJwt(await credential.text()).credentialStatus as { type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string };
      expect(status).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListCredential: `${base()}/credentials/status/1` });

      const list = await holder.get('/credentials/status/1');
      expect(list.status()).toBe(200);
      expect(list.headers()['content-type']).toBe('application/vc+jwt');
      const payload = decodeJwt(await list.text()) as { type: string[]; credentialSubject: { encodedList: string; statusPurpose: string } };
      expect(payload.type).toEqual(['VerifiableCredential', 'BitstringStatusListCredential']);
      const bits = decodeStatusList(payload.credentialSubject.encodedList);
      const ones: number[] = [];
      for (let i = 0; i < STATUS_LIST_SIZE; i++) if (statusBit(bits, i)) ones.push(i);
      expect(ones).toEqual([Number(status.statusListIndex)]);
    } finally {
      await holder.dispose();
    }
  });

  test('an editor, a learner and a visitor are refused in words', async ({ playwright }) => {
    const asks = async (who: { email: string; password: string } | null) => {
      const c = await playwright.request.newContext({ baseURL: base() });
      try {
        if (who) expect((await c.post('/_actions/auth.login', { form: { ...who, lang: 'en' }, headers: { Origin: base() } })).status()).toBe(200);
        const r = await c.post('/_actions/certificates.revoke', { form: { code: 'ACAD-0000-0000-0000-0000', reason: 'No', lang: 'en' }, headers: { Origin: base() } });
        return { status: r.status(), body: await r.text() };
      } finally {
        await c.dispose();
      }
    };
    const editor = await asks(EDITOR);
    expect(editor.status).toBe(403);
    expect(editor.body).toMatch(/[A-Z][a-z]+ [a-z]+/);
    expect((await asks(PEOPLE.learner)).status).toBe(403);
    expect((await asks(null)).status).toBe(401);
  });
});
