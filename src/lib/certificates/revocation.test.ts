/** The revocation form and the back office's search, pure. */
import { describe, expect, it } from 'vitest';
import { readCertificateSearch, revokedMail, revokeFormSchema } from './revocation';

const CODE = 'ACAD-GRAD-2026-0000-0002';
const errorOf = (input: Record<string, unknown>) => {
  const r = revokeFormSchema.safeParse(input);
  return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('the revocation form', () => {
  it('takes a code in any case and a trimmed reason, line breaks as spaces', () => {
    const r = revokeFormSchema.parse({ code: CODE.toLowerCase(), reason: '  Plagio en el\r\nexamen final.  ', lang: 'en' });
    expect(r).toEqual({ code: CODE, reason: 'Plagio en el examen final.', lang: 'en' });
  });

  it('refuses an empty reason, a NUL or another control character, and more than 500 characters', () => {
    expect(errorOf({ code: CODE, reason: '   ' })).toEqual(['reason:required']);
    expect(errorOf({ code: CODE })).toEqual(['reason:required']);
    expect(errorOf({ code: CODE, reason: 'a\u0000b' })).toEqual(['reason:invalidCharacters']);
    expect(errorOf({ code: CODE, reason: 'a\u0007b' })).toEqual(['reason:invalidCharacters']);
    expect(errorOf({ code: CODE, reason: 'x'.repeat(501) })).toEqual(['reason:tooLong']);
    expect(errorOf({ code: CODE, reason: 'x'.repeat(100_000) })).toEqual(['reason:tooLong']);
    expect(errorOf({ code: CODE, reason: 'x'.repeat(500) })).toBeNull();
  });

  it('refuses what is not a certificate code', () => {
    expect(errorOf({ code: "1' or 1=1", reason: 'Motivo' })).toEqual(['code:invalidOption']);
    expect(errorOf({ code: 'x'.repeat(100_000), reason: 'Motivo' })).toEqual(['code:invalidOption']);
  });
});

describe('the search box', () => {
  it('reads a code, else an e-mail address, else nothing', () => {
    expect(readCertificateSearch(` ${CODE.toLowerCase()} `)).toEqual({ by: 'code', code: CODE });
    expect(readCertificateSearch('Ana@Example.com')).toEqual({ by: 'email', email: 'ana@example.com' });
    for (const q of [null, '', 'ana', "' or 1=1 --", 'x'.repeat(300)]) expect(readCertificateSearch(q)).toEqual({ by: 'nothing' });
  });
});

describe('the e-mail to the holder', () => {
  it('says which certificate, since when and why, on one-line subject', () => {
    const mail = revokedMail(
      { name: 'Ana', email: 'ana@example.com' },
      { courseName: 'Ventas\nI', code: CODE, date: '27 de noviembre de 2026', reason: 'Plagio.', verifyUrl: `https://academia.example/verify/${CODE}` },
      { subject: 'Revocado: {course}', greeting: 'Hola, {name}:', intro: '{course} {code} {date}', reason: 'Motivo: {reason}', verify: 'Verificación:' },
    );
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toBe('Revocado: Ventas I');
    expect(mail.text).toContain(`${CODE} 27 de noviembre de 2026`);
    expect(mail.text).toContain('Motivo: Plagio.');
    expect(mail.text).toContain(`https://academia.example/verify/${CODE}`);
  });
});
