import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import {
  ACCOUNT_LIMITS,
  accountErrorText,
  accountErrorsFromFields,
  birthDateOf,
  birthYearOptions,
  forgotFormSchema,
  isProtectedPath,
  isRealDate,
  loginFormSchema,
  loginUrl,
  minutesFrom,
  monthNames,
  passwordResetMail,
  registerFormSchema,
  resetFormSchema,
  afterLogin,
  inPreferredLanguage,
  mailLocale,
  sessionSummary,
  storedUser,
  validate,
  type AccountErrors,
} from './account';

const NOW = new Date('2026-05-10T12:00:00Z');

const errorsOf = (schema: Parameters<typeof validate>[0], input: unknown): AccountErrors => {
  const r = validate(schema, input);
  return r.success ? {} : r.errors;
};

describe('login form', () => {
  const login = (patch: Record<string, unknown>) => errorsOf(loginFormSchema, { email: 'ana@example.com', password: 'secreto1', ...patch });

  it('accepts a valid e-mail and a password of at least 6 characters, trimming the e-mail only', () => {
    const r = validate(loginFormSchema, { email: '  Ana@Example.com ', password: ' abc12 ' });
    expect(r).toEqual({ success: true, data: { email: 'Ana@Example.com', password: ' abc12 ', lang: 'es', next: undefined } });
  });

  it('requires both fields, also when they are missing or only spaces', () => {
    expect(errorsOf(loginFormSchema, {})).toEqual({ email: 'required', password: 'required' });
    expect(login({ email: '   ', password: '' })).toEqual({ email: 'required', password: 'required' });
  });

  it('wants a valid e-mail', () => {
    for (const email of ['ana', 'ana@', '@example.com', 'ana@example', 'ana example@x.com', 'ana@exa mple.com']) {
      expect(login({ email }), email).toEqual({ email: 'invalidEmail' });
    }
  });

  it('wants at least 6 characters of password, and refuses overlong values', () => {
    expect(login({ password: '12345' })).toEqual({ password: 'tooShort' });
    expect(login({ password: '123456' })).toEqual({});
    expect(login({ password: 'x'.repeat(ACCOUNT_LIMITS.password + 1) })).toEqual({ password: 'tooLong' });
    expect(login({ email: `${'a'.repeat(50)}@example.com` })).toEqual({ email: 'tooLong' });
  });

  it('refuses values that are not text without throwing', () => {
    expect(login({ email: 42, password: ['a'] })).toEqual({ email: 'required', password: 'required' });
  });
});

describe('registration form', () => {
  const valid = {
    name: 'Ana',
    lastName: 'Pérez',
    email: 'ana@example.com',
    confirmEmail: 'ANA@example.com ',
    gender: 'female',
    birthDay: '7',
    birthMonth: '4',
    birthYear: '1990',
    password: 'Secreto2026',
    confirmPassword: 'Secreto2026',
  };
  const schema = registerFormSchema(NOW);
  const register = (patch: Record<string, unknown>) => errorsOf(schema, { ...valid, ...patch });

  it('accepts a complete form and folds spaces in names', () => {
    const r = validate(schema, { ...valid, name: '  Ana   María ' });
    expect(r.success).toBe(true);
    if (r.success) {
      expect(r.data.name).toBe('Ana María');
      expect(r.data.birthYear).toBe(1990);
      expect(birthDateOf(r.data)).toBe('1990-04-07');
    }
  });

  it('requires every field', () => {
    expect(errorsOf(schema, {})).toEqual({
      name: 'required',
      lastName: 'required',
      email: 'required',
      confirmEmail: 'required',
      gender: 'required',
      birthDate: 'required',
      password: 'required',
      confirmPassword: 'required',
    });
    expect(register({ gender: '' })).toEqual({ gender: 'required' });
    expect(register({ birthMonth: '' })).toEqual({ birthDate: 'required' });
  });

  it('reports a mismatch in the same answer as a missing field, also when the form sends nothing for it', () => {
    expect(register({ lastName: '', confirmEmail: 'otra@example.com' })).toEqual({ lastName: 'required', confirmEmail: 'emailMismatch' });
    // Astro hands an empty form field over as null.
    expect(register({ lastName: null, gender: null, confirmPassword: 'otra-clave' })).toEqual({
      lastName: 'required',
      gender: 'required',
      confirmPassword: 'passwordMismatch',
    });
  });

  it('limits name and last name to 32 characters', () => {
    expect(register({ name: 'a'.repeat(32), lastName: 'b'.repeat(32) })).toEqual({});
    expect(register({ name: 'a'.repeat(33) })).toEqual({ name: 'tooLong' });
    expect(register({ lastName: 'b'.repeat(33) })).toEqual({ lastName: 'tooLong' });
  });

  it('wants valid e-mails of at most 60 characters that match', () => {
    const sixty = `${'a'.repeat(48)}@example.com`;
    expect(sixty).toHaveLength(60);
    expect(register({ email: sixty, confirmEmail: sixty })).toEqual({});
    expect(register({ email: `a${sixty}`, confirmEmail: `a${sixty}` })).toEqual({ email: 'tooLong', confirmEmail: 'tooLong' });
    expect(register({ email: 'ana@', confirmEmail: 'ana@' })).toEqual({ email: 'invalidEmail', confirmEmail: 'invalidEmail' });
    expect(register({ confirmEmail: 'otra@example.com' })).toEqual({ confirmEmail: 'emailMismatch' });
  });

  it('wants passwords of 6 to 32 characters that match', () => {
    expect(register({ password: 'x'.repeat(33), confirmPassword: 'x'.repeat(33) })).toEqual({ password: 'tooLong', confirmPassword: 'tooLong' });
    expect(register({ password: 'abc', confirmPassword: 'abc' })).toEqual({ password: 'tooShort' });
    expect(register({ confirmPassword: 'Secreto2027' })).toEqual({ confirmPassword: 'passwordMismatch' });
    // Passwords are compared exactly: case and spaces count.
    expect(register({ confirmPassword: 'secreto2026' })).toEqual({ confirmPassword: 'passwordMismatch' });
  });

  it('offers the genders of the list only', () => {
    expect(register({ gender: 'male' })).toEqual({});
    expect(register({ gender: 'other' })).toEqual({});
    expect(register({ gender: 'robot' })).toEqual({ gender: 'invalidOption' });
  });

  it('offers 81 birth years starting 18 years ago', () => {
    const years = birthYearOptions(NOW);
    expect(years).toHaveLength(81);
    expect(years[0]).toBe(2008);
    expect(years.at(-1)).toBe(1928);
    expect(register({ birthYear: '2008' })).toEqual({});
    expect(register({ birthYear: '1928' })).toEqual({});
    expect(register({ birthYear: '2009' })).toEqual({ birthDate: 'invalidOption' });
    expect(register({ birthYear: '1927' })).toEqual({ birthDate: 'invalidOption' });
    expect(register({ birthYear: '19x0' })).toEqual({ birthDate: 'invalidOption' });
  });

  it('refuses days that do not exist', () => {
    expect(register({ birthDay: '31', birthMonth: '4' })).toEqual({ birthDate: 'invalidDate' });
    expect(register({ birthDay: '29', birthMonth: '2', birthYear: '1990' })).toEqual({ birthDate: 'invalidDate' });
    expect(register({ birthDay: '29', birthMonth: '2', birthYear: '1992' })).toEqual({});
    expect(register({ birthDay: '32' })).toEqual({ birthDate: 'invalidOption' });
    expect(register({ birthMonth: '13' })).toEqual({ birthDate: 'invalidOption' });
    expect(isRealDate(2000, 2, 29)).toBe(true);
    expect(isRealDate(1900, 2, 29)).toBe(false);
  });
});

describe('characters no account field accepts', () => {
  const register = { name: 'Ana', lastName: 'Pérez', email: 'ana@example.com', confirmEmail: 'ana@example.com', gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Secreto2026', confirmPassword: 'Secreto2026' };

  it.each(['\u0000', '\u0001', '\t', '\n', '\u007f', '\u0090', '\udc00'])('refuses %j in login, registration and reset fields with its own code', (ch) => {
    expect(errorsOf(loginFormSchema, { email: `ana${ch}@example.com`, password: `Secreto${ch}2026` })).toEqual({ email: 'invalidCharacters', password: 'invalidCharacters' });
    expect(errorsOf(registerFormSchema(NOW), { ...register, name: `Ana${ch}`, lastName: `${ch}Pérez` })).toEqual({ name: 'invalidCharacters', lastName: 'invalidCharacters' });
    expect(errorsOf(forgotFormSchema, { email: `${ch}ana@example.com` })).toMatchObject({ email: 'invalidCharacters' });
    expect(validate(resetFormSchema, { token: `abc${ch}`, password: 'Nueva2026', confirmPassword: 'Nueva2026' }).success).toBe(false);
    expect(errorsOf(resetFormSchema, { token: 'abc', password: `Nueva${ch}2026`, confirmPassword: `Nueva${ch}2026` })).toEqual({
      password: 'invalidCharacters',
      confirmPassword: 'invalidCharacters',
    });
  });

  it.each(['\u202e', '\u200b', '\u200e', '\u200f', '\u2066', '\u2069', '\ufeff', '\u00ad', '\u2060'])('refuses the format character %j in the name and last name (it would reorder or hide the text around them)', (ch) => {
    expect(errorsOf(registerFormSchema(NOW), { ...register, name: `Ana${ch}`, lastName: `Pé${ch}rez` })).toEqual({ name: 'invalidCharacters', lastName: 'invalidCharacters' });
  });

  it('keeps accepting names in any script, accents and right-to-left letters included', () => {
    expect(errorsOf(registerFormSchema(NOW), { ...register, name: 'María José', lastName: 'عبد الله' })).toEqual({});
  });

  it('says which field, in both languages', () => {
    expect(accountErrorText({ ...messages('en').identity, forms: messages('en').forms }, 'name', 'invalidCharacters')).toBe('Name field contains characters that are not allowed');
    expect(accountErrorText({ ...messages('es').identity, forms: messages('es').forms }, 'email', 'invalidCharacters')).toBe('El campo Correo electrónico contiene caracteres no permitidos');
  });
});

describe('password reset forms', () => {
  it('asks for a valid e-mail', () => {
    expect(errorsOf(forgotFormSchema, { email: '' })).toEqual({ email: 'required' });
    expect(errorsOf(forgotFormSchema, { email: 'x@' })).toEqual({ email: 'invalidEmail' });
    expect(errorsOf(forgotFormSchema, { email: 'x@example.com' })).toEqual({});
  });

  it('wants a token and two equal passwords of 6 to 32 characters', () => {
    const ok = { token: 'abc', password: 'Nueva2026', confirmPassword: 'Nueva2026' };
    expect(errorsOf(resetFormSchema, ok)).toEqual({});
    expect(errorsOf(resetFormSchema, { ...ok, confirmPassword: 'Nueva2027' })).toEqual({ confirmPassword: 'passwordMismatch' });
    expect(errorsOf(resetFormSchema, { ...ok, password: '', confirmPassword: '' })).toEqual({ password: 'required', confirmPassword: 'required' });
    expect(errorsOf(resetFormSchema, { ...ok, password: 'x'.repeat(40), confirmPassword: 'x'.repeat(40) })).toEqual({
      password: 'tooLong',
      confirmPassword: 'tooLong',
    });
    expect(validate(resetFormSchema, { ...ok, token: 'x'.repeat(101) }).success).toBe(false);
  });
});

describe('error texts', () => {
  const es = { ...messages('es').identity, forms: messages('es').forms };
  const en = { ...messages('en').identity, forms: messages('en').forms };

  it("reads in the style '{field} field is required' in both languages", () => {
    expect(accountErrorText(en, 'email', 'required')).toBe('Email field is required');
    expect(accountErrorText(en, 'password', 'required')).toBe('Password field is required');
    expect(accountErrorText(es, 'email', 'required')).toBe('El campo Correo electrónico es obligatorio');
    expect(accountErrorText(es, 'birthDate', 'required')).toBe('El campo Fecha de nacimiento es obligatorio');
  });

  it('uses the exact English error texts', () => {
    expect(accountErrorText(en, 'name', 'tooLong')).toBe('This field must not contain more than 32 characters');
    expect(accountErrorText(en, 'email', 'tooLong')).toBe('This field must not contain more than 60 characters');
    expect(accountErrorText(en, 'confirmEmail', 'emailMismatch')).toBe('Emails No match');
    expect(accountErrorText(en, 'email', 'invalidEmail')).toBe('It has to be a valid email');
    expect(en.login.invalidCredentials).toBe('Oops! The username or password is not correct.');
    expect(en.login.infoTitle).toBe('Information');
    expect(accountErrorText(en, 'password', 'tooShort')).toBe('Password field must have at least 6 characters');
    expect(accountErrorText(es, 'password', 'tooShort')).toBe('El campo Contraseña debe tener al menos 6 caracteres');
  });

  it('maps an action’s field map, the three birth-date selects reporting as one field', () => {
    expect(accountErrorsFromFields({ email: ['invalidEmail', 'tooLong'], birthYear: ['invalidOption'], birthDay: ['required'], other: ['x'] })).toEqual({
      email: 'invalidEmail',
      birthDate: 'invalidOption',
    });
    expect(accountErrorsFromFields({ password: ['something new'] })).toEqual({ password: 'invalidOption' });
  });

  it('rounds waits up to whole minutes', () => {
    expect(minutesFrom(1)).toBe(1);
    expect(minutesFrom(60)).toBe(1);
    expect(minutesFrom(61)).toBe(2);
    expect(minutesFrom(900)).toBe(15);
  });
});

describe('where a login leads', () => {
  it('follows local paths, with their query and fragment', () => {
    expect(afterLogin('/mylearning', '/')).toBe('/mylearning');
    expect(afterLogin('/en/courses?category=2#top', '/')).toBe('/en/courses?category=2#top');
  });

  it('never leaves the site or lands on a form again', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'mylearning',
      '/mylearning\n',
      '/login',
      '/en/register',
      '/reset-password?token=x',
      '/?_action=auth.logout',
      `/${'a'.repeat(600)}`,
      '',
      undefined,
      42,
    ]) {
      expect(afterLogin(bad, '/en/'), String(bad)).toBe('/en/');
    }
  });

  it('protects the personal pages and what lies under them', () => {
    expect(isProtectedPath('/mylearning')).toBe(true);
    expect(isProtectedPath('/myshopping')).toBe(true);
    expect(isProtectedPath('/profile')).toBe(true);
    expect(isProtectedPath('/myshopping-detail/3')).toBe(true);
    expect(isProtectedPath('/course-generate')).toBe(true);
    expect(isProtectedPath('/course-certificate/2')).toBe(true);
    expect(isProtectedPath('/course-certificate/2/pdf')).toBe(true);
    expect(isProtectedPath('/book-download/1')).toBe(true);
    expect(isProtectedPath('/verify/ACAD-GRAD-2026-0000-0002')).toBe(false);
    expect(isProtectedPath('/mylearningx')).toBe(false);
    expect(isProtectedPath('/courses')).toBe(false);
    expect(isProtectedPath('/')).toBe(false);
  });

  it('builds the login address with where to come back', () => {
    expect(loginUrl('es')).toBe('/login');
    expect(loginUrl('en', '/en/mylearning')).toBe('/en/login?next=%2Fen%2Fmylearning');
    expect(loginUrl('es', undefined, 'passwordChanged')).toBe('/login?notice=passwordChanged');
  });
});

describe('the browser’s copy of a user', () => {
  it('keeps only what the header shows', () => {
    const row = { id: 3, firstName: 'Laura', lastName: 'Méndez', email: 'l@example.com', imageUrl: null, userType: 1, passwordHash: 'scrypt$…' };
    expect(storedUser(row)).toEqual({ name: 'Laura', lastName: 'Méndez', email: 'l@example.com', imageUrl: null, userType: 1 });
  });
});

describe('the reset e-mail', () => {
  it('greets the person, carries the link and says how long it works, in the page language', () => {
    const link = 'https://academia.example/en/reset-password?token=abc';
    const mail = passwordResetMail({ name: 'Laura', email: 'l@example.com' }, link, messages('en').identity.reset.mail);
    expect(mail.to).toBe('l@example.com');
    expect(mail.subject).toBe('Choose a new password');
    expect(mail.text).toContain('Hello Laura,');
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain('60 minutes');
    expect(mail.html).toBeUndefined();
    const es = passwordResetMail({ name: 'Laura', email: 'l@example.com' }, link, messages('es').identity.reset.mail);
    expect(es.subject).toBe('Elige una nueva contraseña');
  });
});

describe('what the browser may know of a session', () => {
  const base = { tokenHash: 'h', identity: { kind: 'visitor' as const, userId: null, contactId: null }, user: null, ibo: null, prospect: null };
  it('says who the session is, without ids or secrets', () => {
    const user = { id: 1, firstName: 'Laura', lastName: 'Méndez', email: 'l@example.com', imageUrl: '/a.webp', userType: 1, emailVerified: true };
    expect(sessionSummary(null)).toEqual({ kind: 'none' });
    expect(sessionSummary({ ...base, user })).toEqual({ kind: 'user', user: { name: 'Laura', lastName: 'Méndez', email: 'l@example.com', imageUrl: '/a.webp', userType: 1 } });
    // An address not confirmed yet is said (the banner is a personal part of kept pages).
    expect(sessionSummary({ ...base, user: { ...user, emailVerified: false } })).toEqual({ kind: 'user', user: { name: 'Laura', lastName: 'Méndez', email: 'l@example.com', imageUrl: '/a.webp', userType: 1 }, unconfirmed: true });
    const ibo = { id: 7, code: 'HORIZONTE01', companyName: 'Viajes Horizonte S.A.S.', imageUrl: null };
    const prospect = { id: 9, firstName: 'P', lastName: 'Q', email: 'p@example.com' };
    expect(sessionSummary({ ...base, ibo, prospect })).toEqual({ kind: 'ibo', ibo: { companyName: 'Viajes Horizonte S.A.S.', code: 'HORIZONTE01', imageUrl: null }, contact: prospect });
  });
});

describe('month names', () => {
  it('names the twelve months in the page language', () => {
    expect(monthNames('es')[0]).toBe('Enero');
    expect(monthNames('es')[11]).toBe('Diciembre');
    expect(monthNames('en')[3]).toBe('April');
    expect(monthNames('en')).toHaveLength(12);
  });
});

describe('the preferred language', () => {
  it("chooses the language of a mail: the profile's, else the page's", () => {
    expect(mailLocale('en', 'es')).toBe('en');
    expect(mailLocale('es', 'en')).toBe('es');
    expect(mailLocale(null, 'en')).toBe('en');
    expect(mailLocale('fr', 'es')).toBe('es');
  });

  it('sends a person to the page after login in their language, keeping its query', () => {
    expect(inPreferredLanguage('/mylearning', 'en')).toBe('/en/mylearning');
    expect(inPreferredLanguage('/en/courses?category=2#top', 'es')).toBe('/courses?category=2#top');
    expect(inPreferredLanguage('/', 'en')).toBe('/en/');
    expect(inPreferredLanguage('/en/profile', null)).toBe('/en/profile');
  });
});
