import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import { changeEmailSchema, changePasswordSchema, validate } from './account';
import { CHANGE_TTL_HOURS, deviceLabel, deviceOf, ipv4Of, placeName, emailChangeMail, emailChangeNotice, emailTokenTtlMs, keptUserAgent, maskAddress, maskEmail, sessionIdSchema, verificationMail, VERIFY_TTL_HOURS } from './security';

const UA = {
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  chromeMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  headlessLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
};

describe('the device of a session', () => {
  it.each([
    [UA.chromeAndroid, 'Chrome on Android', 'Chrome en Android'],
    [UA.safariIphone, 'Safari on iPhone', 'Safari en iPhone'],
    [UA.firefoxWindows, 'Firefox on Windows', 'Firefox en Windows'],
    [UA.edgeWindows, 'Edge on Windows', 'Edge en Windows'],
    [UA.chromeMac, 'Chrome on macOS', 'Chrome en macOS'],
    [UA.headlessLinux, 'Chrome on Linux', 'Chrome en Linux'],
  ])('names %s shortly, in both languages', (ua, en, es) => {
    expect(deviceLabel(ua, messages('en').security.sessions)).toBe(en);
    expect(deviceLabel(ua, messages('es').security.sessions)).toBe(es);
  });

  it('says what it knows, or that the device is unknown', () => {
    expect(deviceLabel('curl/8.5.0', messages('en').security.sessions)).toBe('curl');
    expect(deviceLabel(null, messages('en').security.sessions)).toBe('Unknown device');
    expect(deviceLabel('', messages('es').security.sessions)).toBe('Dispositivo desconocido');
    expect(deviceOf('x'.repeat(100_000))).toEqual({ browser: null, system: null });
  });

  it('keeps a User-Agent short and without control or format characters', () => {
    expect(keptUserAgent('  Firefox\u0000/1\u202E  ')).toBe('Firefox/1');
    expect(keptUserAgent('a'.repeat(1000))).toHaveLength(300);
    expect(keptUserAgent(undefined)).toBeNull();
    expect(keptUserAgent('\u0000')).toBeNull();
  });
});

describe('an address as the list shows it', () => {
  it.each([
    ['203.0.113.57', '203.0.113.x'],
    ['::ffff:198.51.100.7', '198.51.100.x'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:…'],
    ['fe80::1%eth0', 'fe80:…'],
    ['::1', '::…'],
  ])('hides the last part of %s', (address, shown) => expect(maskAddress(address)).toBe(shown));

  it('shows nothing for no address', () => {
    expect(maskAddress(null)).toBeNull();
    expect(maskAddress('unknown')).toBeNull();
    expect(maskAddress('not an address')).toBeNull();
  });
});

describe('the security forms', () => {
  const password = { currentPassword: 'Vieja2026', password: 'Nueva2026', confirmPassword: 'Nueva2026', lang: 'en' };

  it('takes a new password under the registration rules, twice the same', () => {
    expect(validate(changePasswordSchema, password).success).toBe(true);
    const cases: [Record<string, string>, string, string][] = [
      [{ password: 'abc', confirmPassword: 'abc' }, 'password', 'tooShort'],
      [{ password: 'x'.repeat(33), confirmPassword: 'x'.repeat(33) }, 'password', 'tooLong'],
      [{ confirmPassword: 'Otra2026' }, 'confirmPassword', 'passwordMismatch'],
      [{ currentPassword: '' }, 'currentPassword', 'required'],
      [{ currentPassword: 'x'.repeat(100_000) }, 'currentPassword', 'tooLong'],
      [{ password: 'Nue\u0000va2026', confirmPassword: 'Nue\u0000va2026' }, 'password', 'invalidCharacters'],
    ];
    for (const [patch, field, code] of cases) {
      const r = validate(changePasswordSchema, { ...password, ...patch });
      expect(r.success, JSON.stringify(patch).slice(0, 80)).toBe(false);
      if (!r.success) expect(r.errors[field as keyof typeof r.errors]).toBe(code);
    }
  });

  it('takes a new address under the registration rules', () => {
    expect(validate(changeEmailSchema, { email: ' nueva@example.com ', currentPassword: 'x', lang: 'es' })).toMatchObject({ success: true, data: { email: 'nueva@example.com' } });
    const r = validate(changeEmailSchema, { email: 'no-es-un-correo', currentPassword: '', lang: 'es' });
    expect(r.success ? {} : r.errors).toEqual({ email: 'invalidEmail', currentPassword: 'required' });
  });

  it('names a session by a 24-digit id only', () => {
    expect(sessionIdSchema.safeParse({ session: '0123456789abcdef01234567', lang: 'en' }).success).toBe(true);
    for (const session of ['', '1', 'g123456789abcdef01234567', '0123456789abcdef012345678', "' or 1=1 --"]) expect(sessionIdSchema.safeParse({ session, lang: 'en' }).success).toBe(false);
  });
});

describe('the e-mails of an address', () => {
  const mail = messages('es').security.mail;
  it('sends the confirmation link with how long it lasts', () => {
    const m = verificationMail({ name: 'Nora', email: 'nora@example.com' }, 'https://academia.example/confirm-email?token=abc', mail);
    expect(m).toMatchObject({ to: 'nora@example.com', subject: 'Confirma tu correo electrónico' });
    expect(m.text).toContain('Hola, Nora:');
    expect(m.text).toContain('https://academia.example/confirm-email?token=abc');
    expect(m.text).toContain(`${VERIFY_TTL_HOURS} horas`);
  });

  it('sends the change link to the new address, and tells the old one without the full new address', () => {
    const link = emailChangeMail({ name: 'Nora', email: 'nueva@example.com' }, 'https://academia.example/confirm-email?token=xyz', messages('en').security.mail);
    expect(link.to).toBe('nueva@example.com');
    expect(link.text).toContain(`${CHANGE_TTL_HOURS} hours`);
    const notice = emailChangeNotice({ name: 'Nora', email: 'vieja@example.com' }, 'nueva@example.com', messages('en').security.mail);
    expect(notice.to).toBe('vieja@example.com');
    expect(notice.text).toContain('nu•••@example.com');
    expect(notice.text).not.toContain('nueva@example.com');
    expect(notice.text).not.toContain('token');
  });

  it('hides most of an address', () => {
    expect(maskEmail('ana@example.com')).toBe('an•••@example.com');
    expect(maskEmail('a@example.com')).toBe('a•••@example.com');
    expect(maskEmail('broken')).toBe('•••');
  });

  it('lasts longer to confirm a new account than to move one', () => {
    expect(emailTokenTtlMs('verify')).toBe(VERIFY_TTL_HOURS * 3_600_000);
    expect(emailTokenTtlMs('change')).toBe(CHANGE_TTL_HOURS * 3_600_000);
  });
});

describe('the place of a session', () => {
  const t = messages('en').security.sessions;
  it('knows loopback, private and carrier NAT addresses as a local network, and IPv6 or nonsense as nothing', () => {
    for (const local of ['127.0.0.1', '10.1.2.3', '172.16.0.9', '172.31.255.1', '192.168.1.20', '169.254.1.1', '100.64.0.1', '::ffff:192.168.0.1']) expect(ipv4Of(local)?.local, local).toBe(true);
    for (const world of ['8.8.8.8', '172.32.0.1', '190.24.1.1', '::ffff:83.44.1.1']) expect(ipv4Of(world)?.local, world).toBe(false);
    for (const none of [null, '', 'unknown', '2001:db8::1', '300.1.1.1', '1.2.3', '1.2.3.4\u0000']) expect(ipv4Of(none), String(none)).toBeNull();
  });

  it('names the country in the reader’s language', () => {
    expect(placeName({ kind: 'country', code: 'CO' }, 'es', messages('es').security.sessions)).toBe('Colombia');
    expect(placeName({ kind: 'country', code: 'ES' }, 'en', t)).toBe('Spain');
    expect(placeName({ kind: 'country', code: 'ES' }, 'es', messages('es').security.sessions)).toBe('España');
    expect(placeName({ kind: 'local' }, 'en', t)).toBe('A local network');
    expect(placeName({ kind: 'unknown' }, 'es', messages('es').security.sessions)).toBe('Desconocido');
  });
});
