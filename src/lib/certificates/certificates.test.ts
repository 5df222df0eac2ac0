import { afterEach, describe, expect, it } from 'vitest';
import {
  CODE_RANDOM_BYTES,
  CROCKFORD_ALPHABET,
  OB3_CONTEXT,
  VC_CONTEXT_V2,
  certificateFacts,
  certificateMail,
  certificateTexts,
  certificateUrls,
  courseHours,
  credentialDescribes,
  credentialOptions,
  issuerProfile,
  verificationStatus,
  isVerificationCode,
  linkedInAddCertificationUrl,
  newVerificationCode,
  normalizeCode,
  openBadgeCredential,
  type CertificateFacts,
} from './certificates';

const CANONICAL = /^ACAD(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

const facts: CertificateFacts = {
  code: 'ACAD-0123-4567-89AB-CDEF',
  holderName: 'José Núñez',
  courseName: 'Introducción a la programación',
  courseHours: 12,
  issuedAt: Date.UTC(2025, 2, 5, 10, 30, 15, 250),
  locale: 'es',
  verifyUrl: 'https://academia.example/verify/ACAD-0123-4567-89AB-CDEF',
  issuerName: 'Academia Ejemplo',
};

/** Switches the process to another time zone (restored after each test), so rules that used local time would show it. */
const savedTz = process.env['TZ'];
function inTimeZone(tz: string): void {
  process.env['TZ'] = tz;
}
afterEach(() => {
  if (savedTz === undefined) delete process.env['TZ'];
  else process.env['TZ'] = savedTz;
});

describe('verification codes', () => {
  it('draws well-formed codes that never repeat over 10,000 draws and use the whole alphabet', () => {
    const seen = new Set<string>();
    const used = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const code = newVerificationCode(crypto.getRandomValues(new Uint8Array(CODE_RANDOM_BYTES)));
      expect(code).toMatch(CANONICAL);
      expect(isVerificationCode(code)).toBe(true);
      expect(normalizeCode(code)).toBe(code);
      seen.add(code);
      for (const ch of code.slice(5).replace(/-/g, '')) used.add(ch);
    }
    expect(seen.size).toBe(10_000);
    expect([...used].sort().join('')).toBe(CROCKFORD_ALPHABET);
    expect(CROCKFORD_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('encodes 80 bits as 16 Crockford characters, most significant first, ignoring extra bytes', () => {
    const counting = Uint8Array.from([0x00, 0x44, 0x32, 0x14, 0xc7, 0x42, 0x54, 0xb6, 0x35, 0xcf]);
    expect(newVerificationCode(counting)).toBe('ACAD-0123-4567-89AB-CDEF');
    expect(newVerificationCode(new Uint8Array(10))).toBe('ACAD-0000-0000-0000-0000');
    expect(newVerificationCode(new Uint8Array(10).fill(0xff))).toBe('ACAD-ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    expect(newVerificationCode(Uint8Array.from([...counting, 1, 2, 3]))).toBe('ACAD-0123-4567-89AB-CDEF');
  });

  it('refuses fewer than 10 random bytes', () => {
    expect(() => newVerificationCode(new Uint8Array(9))).toThrow(RangeError);
  });

  it('normalises letter case, surrounding spaces and the letters Crockford reads as digits', () => {
    expect(normalizeCode('acad-0123-4567-89ab-cdef')).toBe('ACAD-0123-4567-89AB-CDEF');
    expect(normalizeCode('  Acad-0123-4567-89aB-cdEF ')).toBe('ACAD-0123-4567-89AB-CDEF');
    expect(normalizeCode('ACAD-O1IL-o1il-0000-0000')).toBe('ACAD-0111-0111-0000-0000');
    expect(isVerificationCode('acad-zzzz-zzzz-zzzz-zzzz')).toBe(true);
  });

  it('refuses junk', () => {
    const junk: unknown[] = [
      '',
      'ACAD',
      'ACAD-',
      'ACAD-0123-4567-89AB', // the old 12-character shape
      'ACAD-0123-4567-89AB-CDEF-0000',
      'ACAD-0123-4567-89AB-CDE',
      'ACAD-0123-4567-89AB-CDEFF',
      'ACAD-0123-4567-89AB-CDEU', // U is not Crockford
      'ACAD-0123-4567-89AB-CD!F',
      'ACAD01234567-89AB-CDEF',
      'ACAD 0123 4567 89AB CDEF',
      '0123-4567-89AB-CDEF',
      'XACAD-0123-4567-89AB-CDEF',
      'BCAD-0123-4567-89AB-CDEF',
      'ACAD-0123-4567-89AB-CDEF\u0000',
      'ACAD-0123-4567-89AB-\u0000DEF',
      'ACAD-0123-4567-89AB-CDEF\n',
      '\tACAD-0123-4567-89AB-CDEF',
      'ACAD-0123-4567-89AB-CDEF'.padEnd(100_000, ' '),
      'A'.repeat(100_000),
      'ＡCAD-0123-4567-89AB-CDEF', // full-width A
      'ACAD-ı111-1111-1111-1111', // dotless i upper-cases to I
      'ACAD-ſsss-0000-0000-0000', // long s upper-cases to S
      'ACAD-0123-4567-89AB-CDEF<script>',
      null,
      undefined,
      12345,
      {},
      ['ACAD-0123-4567-89AB-CDEF'],
    ];
    for (const j of junk) {
      expect(isVerificationCode(j), JSON.stringify(j)?.slice(0, 60)).toBe(false);
      expect(normalizeCode(j)).toBeNull();
    }
  });
});

describe('LinkedIn add-to-profile link', () => {
  const input = {
    name: 'Programación & diseño: ¿100% útil? a+b=c #1 / ñ',
    organizationName: 'Academia "Ejemplo" & Cía.',
    issuedAt: Date.UTC(2025, 2, 5, 12),
    certUrl: 'https://academia.example/verify/ACAD-0123-4567-89AB-CDEF?x=1&y=2',
    certId: 'ACAD-0123-4567-89AB-CDEF',
  };

  it('points at the certification form and every parameter decodes back to the input', () => {
    const raw = linkedInAddCertificationUrl(input);
    expect(raw).not.toMatch(/[\s"#]/);
    const url = new URL(raw);
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add');
    const p = url.searchParams;
    expect([...p.keys()]).toEqual(['startTask', 'name', 'organizationName', 'issueYear', 'issueMonth', 'certUrl', 'certId']);
    expect(p.get('startTask')).toBe('CERTIFICATION_NAME');
    expect(p.get('name')).toBe(input.name);
    expect(p.get('organizationName')).toBe(input.organizationName);
    expect(p.get('certUrl')).toBe(input.certUrl);
    expect(p.get('certId')).toBe(input.certId);
    expect(p.get('issueYear')).toBe('2025');
    expect(p.get('issueMonth')).toBe('3');
  });

  it('takes the month (1–12) in UTC, right at a year boundary, whatever the server time zone', () => {
    const at = (issuedAt: number) => {
      const p = new URL(linkedInAddCertificationUrl({ ...input, issuedAt })).searchParams;
      return `${p.get('issueYear')}-${p.get('issueMonth')}`;
    };
    for (const tz of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      inTimeZone(tz);
      expect(at(Date.UTC(2024, 11, 31, 23, 59, 59, 999)), tz).toBe('2024-12');
      expect(at(Date.UTC(2025, 0, 1, 0, 0, 0)), tz).toBe('2025-1');
    }
  });
});

describe('Open Badges 3.0 credential', () => {
  const options = {
    issuerId: 'https://academia.example/',
    issuerUrl: 'https://academia.example/',
    achievementId: 'https://academia.example/courses-details/7',
    credentialId: facts.verifyUrl,
    description: 'Aprende los fundamentos de la programación.',
  };

  it('has the fields Open Badges 3.0 and Verifiable Credentials 2.0 require', () => {
    const c = JSON.parse(JSON.stringify(openBadgeCredential(facts, options))) as Record<string, any>;
    expect(c['@context']).toEqual([VC_CONTEXT_V2, OB3_CONTEXT]);
    expect(c['@context'][0]).toBe('https://www.w3.org/ns/credentials/v2');
    expect(c['@context'][1]).toBe('https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json');
    expect(c['id']).toBe(facts.verifyUrl);
    expect(c['type']).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(c['issuer']).toEqual({ id: options.issuerId, type: ['Profile'], name: 'Academia Ejemplo', url: options.issuerUrl });
    expect(c['validFrom']).toBe('2025-03-05T10:30:15Z');
    expect(Date.parse(c['validFrom'])).toBe(Math.floor(facts.issuedAt / 1000) * 1000);
    expect(c['name']).toBe('Certificado de finalización: Introducción a la programación');
    expect(c).not.toHaveProperty('issuanceDate'); // VC 1.1, not 2.0

    const subject = c['credentialSubject'];
    expect(subject.type).toEqual(['AchievementSubject']);
    expect(subject.name).toBe('José Núñez');
    // Open Badges: either an id or at least one identifier.
    expect(subject.id ?? subject.identifier?.[0]).toBeTruthy();
    expect(subject.identifier).toEqual([{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: 'José Núñez' }]);
    expect(subject.achievement).toMatchObject({
      id: options.achievementId,
      type: ['Achievement'],
      name: 'Introducción a la programación',
      description: options.description,
      inLanguage: 'es',
    });
    expect(subject.achievement.criteria.narrative).toContain('12 horas');
  });

  it('states the criteria in the certificate language', () => {
    const c = openBadgeCredential({ ...facts, locale: 'en', courseHours: 1 }, options);
    expect(c.name).toBe('Certificate of Completion: Introducción a la programación');
    expect(c.credentialSubject.achievement.criteria.narrative).toBe('Complete every lesson of the course (1 hour) and pass its final exam.');
  });
});

describe('certificate wording', () => {
  it('has the Spanish strings', () => {
    const t = certificateTexts('es');
    expect(t.title).toBe('Certificado de finalización');
    expect(t.awardedTo).toBe('otorgado a');
    expect(t.forCompleting).toBe('por completar el curso');
    expect(t.verificationCode).toBe('Código de verificación');
    expect(t.verifyAt).toBe('Verifica este certificado en');
    expect(t.qrAlt).toBe('Código QR con el enlace de verificación');
    expect([t.hours(1), t.hours(2), t.hours(12), t.hours(0), t.hours(1.5)]).toEqual(['1 hora', '2 horas', '12 horas', '0 horas', '1,5 horas']);
  });

  it('has the English strings', () => {
    const t = certificateTexts('en');
    expect(t.title).toBe('Certificate of Completion');
    expect(t.awardedTo).toBe('awarded to');
    expect(t.forCompleting).toBe('for completing the course');
    expect(t.verificationCode).toBe('Verification code');
    expect(t.verifyAt).toBe('Verify this certificate at');
    expect(t.qrAlt).toBe('QR code with the verification link');
    expect([t.hours(1), t.hours(2), t.hours(12), t.hours(0), t.hours(1.5)]).toEqual(['1 hour', '2 hours', '12 hours', '0 hours', '1.5 hours']);
  });

  it('formats dates in long style in UTC, whatever the server time zone', () => {
    const lastMoment = Date.UTC(2024, 11, 31, 23, 30);
    for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
      inTimeZone(tz);
      expect(certificateTexts('es').date(lastMoment)).toBe('31 de diciembre de 2024');
      expect(certificateTexts('en').date(lastMoment)).toBe('December 31, 2024');
      expect(certificateTexts('es').date(Date.UTC(2025, 0, 1))).toBe('1 de enero de 2025');
    }
  });
});

describe('the academy’s certificates', () => {
  const cert = { courseId: 2, code: 'ACAD-GRAD-2026-0000-0002', holderName: 'Gabriela Núñez', issuedAt: new Date(Date.UTC(2026, 10, 20, 15, 0, 0, 123)) };
  const course = { nameEs: 'Fundamentos de viajes', nameEn: 'Travel fundamentals', descriptionEs: 'Lo esencial.', descriptionEn: '', durationSeconds: 5400 };
  const origin = 'https://academia.example';

  it('states a course’s length in tenths of an hour, never less than a tenth', () => {
    expect(courseHours(5400)).toBe(1.5);
    expect(courseHours(3600 * 12)).toBe(12);
    expect(courseHours(60)).toBe(0.1);
    expect(courseHours(0)).toBe(0.1);
    expect(courseHours(Number.NaN)).toBe(0.1);
  });

  it('says valid, revoked or unknown', () => {
    expect(verificationStatus(null)).toBe('unknown');
    expect(verificationStatus({ revokedAt: null })).toBe('valid');
    expect(verificationStatus({ revokedAt: new Date() })).toBe('revoked');
  });

  it('builds the facts and links of a stored certificate in each language, on the public origin', () => {
    expect(certificateFacts(cert, course, 'en', origin, 'Academia')).toEqual({
      code: cert.code,
      holderName: 'Gabriela Núñez',
      courseName: 'Travel fundamentals',
      courseHours: 1.5,
      issuedAt: cert.issuedAt.getTime(),
      locale: 'en',
      verifyUrl: `${origin}/en/verify/${cert.code}`,
      issuerName: 'Academia',
    });
    expect(certificateFacts(cert, course, 'es', origin, 'Academia').verifyUrl).toBe(`${origin}/verify/${cert.code}`);
    expect(certificateUrls(origin, 2, cert.code, 'en')).toEqual({
      verify: `${origin}/en/verify/${cert.code}`,
      certificate: `${origin}/en/course-certificate/2`,
      issuer: `${origin}/credentials/issuer.json`,
      home: `${origin}/`,
      achievement: `${origin}/courses-details/2`,
    });
    // A course without a description in that language is described by its name.
    expect(credentialOptions(cert, course, 'en', origin)).toMatchObject({ credentialId: `${origin}/verify/${cert.code}`, issuerId: `${origin}/credentials/issuer.json`, description: 'Travel fundamentals' });
    expect(credentialOptions(cert, course, 'es', origin).description).toBe('Lo esencial.');
  });

  it('recognises a credential that states this very certificate, and nothing else', () => {
    const facts = certificateFacts(cert, course, 'es', origin, 'Academia');
    const credential = openBadgeCredential(facts, credentialOptions(cert, course, 'es', origin));
    expect(credentialDescribes(credential, cert)).toBe(true);
    // Another origin the site had still names the same page.
    expect(credentialDescribes({ ...credential, id: `http://localhost:4321/verify/${cert.code}` }, cert)).toBe(true);
    expect(credentialDescribes(credential, { ...cert, holderName: 'Otra Persona' })).toBe(false);
    expect(credentialDescribes(credential, { ...cert, code: 'ACAD-0000-0000-0000-0000' })).toBe(false);
    expect(credentialDescribes(credential, { ...cert, issuedAt: new Date(cert.issuedAt.getTime() + 1000) })).toBe(false);
    expect(credentialDescribes({ ...credential, id: 'not a url' }, cert)).toBe(false);
  });

  it('publishes the issuer as an Open Badges profile at its own id', () => {
    expect(issuerProfile(origin, 'Academia', 'contacto@academia.example')).toEqual({
      '@context': [VC_CONTEXT_V2, OB3_CONTEXT],
      id: `${origin}/credentials/issuer.json`,
      type: ['Profile'],
      name: 'Academia',
      url: `${origin}/`,
      email: 'contacto@academia.example',
    });
  });

  it('writes the e-mail with both links, and a subject on one line whatever the course is called', () => {
    const texts = { subject: 'Tu certificado del curso «{course}»', greeting: 'Hola, {name}:', intro: 'Completaste «{course}»:', verify: 'Código {code}:' };
    const mail = certificateMail(
      { name: 'Gabriela Núñez', email: 'g@example.com' },
      { courseName: 'Viajes\r\nBcc: x@evil.example', code: cert.code, certificateUrl: `${origin}/course-certificate/2`, verifyUrl: `${origin}/verify/${cert.code}` },
      texts,
    );
    expect(mail.to).toBe('g@example.com');
    expect(mail.subject).toBe('Tu certificado del curso «Viajes Bcc: x@evil.example»');
    expect(mail.text.startsWith('Hola, Gabriela Núñez:\n')).toBe(true);
    expect(mail.text).toContain(`\n${origin}/course-certificate/2\n\nCódigo ${cert.code}:\n\n${origin}/verify/${cert.code}\n`);
  });
});
