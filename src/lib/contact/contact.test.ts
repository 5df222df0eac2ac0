import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import {
  CONTACT_FIELDS,
  COUNTRIES,
  DIAL_CODES,
  contactErrorText,
  contactErrorsFromFields,
  contactFormSchema,
  contactFormText,
  contactNotification,
  contactStateFromResult,
  contactValuesFrom,
  dialCodeOf,
  emptyContactValues,
  firstInvalidField,
  validateContactForm,
  type ContactErrors,
} from './contact';

/** A form a visitor could send, as the browser sends it (every value text, the checkbox 'on'). */
const valid = {
  name: 'Ana',
  lastName: 'Pérez',
  email: 'ana@example.com',
  countryCode: 'MX',
  countryPhoneCode: '+52',
  phone: '5512345678',
  type: '8',
  message: 'Quiero saber más sobre los cursos.',
  accepts: 'on',
  language: 'es',
};

const errorsOf = (patch: Record<string, unknown>): ContactErrors => {
  const r = validateContactForm({ ...valid, ...patch });
  return r.success ? {} : r.errors;
};

describe('contact form schema', () => {
  it('accepts a complete form and gives clean, typed values', () => {
    const r = contactFormSchema.safeParse({ ...valid, name: '  Ana   María ', message: '  Hola\r\nmundo  ' });
    expect(r.success).toBe(true);
    expect(r.data).toEqual({
      ...valid,
      name: 'Ana María',
      message: 'Hola\nmundo',
      type: 8,
      accepts: true,
    });
  });

  it('requires name, last name, email, phone and message (blank, missing or only spaces)', () => {
    for (const field of ['name', 'lastName', 'email', 'phone', 'message'] as const) {
      expect(errorsOf({ [field]: '' }), field).toEqual({ [field]: 'required' });
      expect(errorsOf({ [field]: '   ' }), field).toEqual({ [field]: 'required' });
      expect(errorsOf({ [field]: undefined }), field).toEqual({ [field]: 'required' });
      expect(errorsOf({ [field]: null }), field).toEqual({ [field]: 'required' });
    }
  });

  it('reports every missing field of an empty form, in page order', () => {
    const r = validateContactForm({});
    expect(r.success).toBe(false);
    const errors = r.success ? {} : r.errors;
    expect(errors).toEqual({
      name: 'required',
      lastName: 'required',
      email: 'required',
      countryCode: 'invalidOption',
      countryPhoneCode: 'invalidOption',
      phone: 'required',
      type: 'invalidOption',
      message: 'required',
      accepts: 'mustAcceptPrivacy',
    });
    expect(firstInvalidField(errors)).toBe('name');
    expect(firstInvalidField({ phone: 'phoneLength', email: 'invalidEmail' })).toBe('email');
    expect(firstInvalidField({})).toBeUndefined();
  });

  it('limits name and last name to 32 characters, email to 60 and the message to 2000', () => {
    expect(errorsOf({ name: 'a'.repeat(32), lastName: 'b'.repeat(32) })).toEqual({});
    expect(errorsOf({ name: 'a'.repeat(33) })).toEqual({ name: 'tooLong' });
    expect(errorsOf({ lastName: 'b'.repeat(33) })).toEqual({ lastName: 'tooLong' });
    const email60 = `${'a'.repeat(48)}@example.com`;
    expect(email60).toHaveLength(60);
    expect(errorsOf({ email: email60 })).toEqual({});
    expect(errorsOf({ email: `a${email60}` })).toEqual({ email: 'tooLong' });
    expect(errorsOf({ message: 'm'.repeat(2000) })).toEqual({});
    expect(errorsOf({ message: 'm'.repeat(2001) })).toEqual({ message: 'tooLong' });
  });

  it('counts length after trimming, so surrounding spaces never make a value too long', () => {
    expect(errorsOf({ name: `  ${'a'.repeat(32)}  ` })).toEqual({});
  });

  it('requires a valid email', () => {
    for (const email of ['ana', 'ana@', '@example.com', 'ana@example', 'ana example@x.com', 'ana@@example.com']) {
      expect(errorsOf({ email }), email).toEqual({ email: 'invalidEmail' });
    }
    expect(errorsOf({ email: ' Ana.Perez+cursos@Example.co ' })).toEqual({});
  });

  it('requires a phone of exactly 10 digits', () => {
    expect(errorsOf({ phone: '123456789' })).toEqual({ phone: 'phoneLength' });
    expect(errorsOf({ phone: '12345678901' })).toEqual({ phone: 'phoneLength' });
    expect(errorsOf({ phone: ' 5512345678 ' })).toEqual({});
  });

  it('refuses letters, signs and spaces in the phone, before counting its length', () => {
    for (const phone of ['55123456ab', 'abcdefghij', '555-123-45', '555 123 45', '+525512345', '٥٥١٢٣٤٥٦٧٨', 'abc']) {
      expect(errorsOf({ phone }), phone).toEqual({ phone: 'phoneDigits' });
    }
  });

  it('requires the privacy policy to be accepted', () => {
    expect(errorsOf({ accepts: undefined })).toEqual({ accepts: 'mustAcceptPrivacy' });
    expect(errorsOf({ accepts: '' })).toEqual({ accepts: 'mustAcceptPrivacy' });
    expect(errorsOf({ accepts: false })).toEqual({ accepts: 'mustAcceptPrivacy' });
    expect(errorsOf({ accepts: 'off' })).toEqual({ accepts: 'mustAcceptPrivacy' });
    expect(errorsOf({ accepts: true })).toEqual({});
    expect(errorsOf({ accepts: 'true' })).toEqual({});
  });

  it('only takes a message type that is a positive whole number in range', () => {
    expect(errorsOf({ type: 3 })).toEqual({});
    for (const type of ['', 'abc', '0', '-8', '8.5', '99999999999', undefined]) {
      expect(errorsOf({ type }), String(type)).toEqual({ type: 'invalidOption' });
    }
  });

  it('only takes countries and dialling codes from its lists', () => {
    expect(errorsOf({ countryCode: 'XX' })).toEqual({ countryCode: 'invalidOption' });
    expect(errorsOf({ countryCode: 'us' })).toEqual({ countryCode: 'invalidOption' });
    expect(errorsOf({ countryPhoneCode: '+999' })).toEqual({ countryPhoneCode: 'invalidOption' });
    expect(errorsOf({ countryPhoneCode: '52' })).toEqual({ countryPhoneCode: 'invalidOption' });
    for (const c of COUNTRIES) expect(errorsOf({ countryCode: c.code, countryPhoneCode: c.dial })).toEqual({});
  });

  it('offers +1, +52, +57 and +34 among the dialling codes, +1 first, each once', () => {
    expect(DIAL_CODES[0]).toBe('+1');
    for (const d of ['+1', '+52', '+57', '+34']) expect(DIAL_CODES).toContain(d);
    expect(new Set(DIAL_CODES).size).toBe(DIAL_CODES.length);
    expect(dialCodeOf('CO')).toBe('+57');
    expect(dialCodeOf('ES')).toBe('+34');
    expect(dialCodeOf('XX')).toBeUndefined();
  });

  it('drops unknown and forged fields', () => {
    const r = contactFormSchema.safeParse({ ...valid, id: 99, createdAt: '1999-01-01', isAdmin: 'true', typeId: 1 });
    expect(r.success).toBe(true);
    expect(Object.keys(r.data!).sort()).toEqual([...CONTACT_FIELDS, 'language'].sort());
  });

  it('reads any language but English as Spanish', () => {
    expect(contactFormSchema.parse({ ...valid, language: 'en' }).language).toBe('en');
    expect(contactFormSchema.parse({ ...valid, language: 'fr' }).language).toBe('es');
    expect(contactFormSchema.parse({ ...valid, language: undefined }).language).toBe('es');
  });

  it('refuses line breaks in names (they end up in e-mail headers)', () => {
    expect(errorsOf({ name: 'Ana\r\nBcc: x@evil.test' })).toEqual({ name: 'invalidCharacters' });
    expect(errorsOf({ lastName: 'Pérez\n' })).toEqual({ lastName: 'invalidCharacters' });
  });

  it('refuses format characters (a right-to-left override, zero-width spaces) in the name and last name', () => {
    for (const ch of ['\u202e', '\u200b', '\u200e', '\u200f', '\u2066', '\u2069', '\ufeff', '\u00ad', '\u2060']) expect(errorsOf({ name: `Ana${ch}`, lastName: `${ch}Pérez` }), JSON.stringify(ch)).toEqual({ name: 'invalidCharacters', lastName: 'invalidCharacters' });
  });

  it('refuses control characters in every text field before anything reaches the database, keeping line breaks in the message', () => {
    for (const ch of ['\u0000', '\u0007', '\u007f', '\u0085', '\ud800']) {
      expect(errorsOf({ name: `Ana${ch}`, lastName: `${ch}`, email: `ana${ch}@example.com`, phone: `55123${ch}5678`, message: `Hola${ch}` })).toEqual({
        name: 'invalidCharacters',
        lastName: 'invalidCharacters',
        email: 'invalidCharacters',
        phone: 'invalidCharacters',
        message: 'invalidCharacters',
      });
    }
    expect(errorsOf({ message: 'Hola,\r\n\tmundo' })).toEqual({});
  });
});

describe('error texts', () => {
  const es = contactFormText(messages('es'));
  const en = contactFormText(messages('en'));

  it('say which field is required, with its translated label', () => {
    expect(contactErrorText(en, 'name', 'required')).toBe('Name field is required');
    expect(contactErrorText(en, 'lastName', 'required')).toBe('Last name field is required');
    expect(contactErrorText(es, 'lastName', 'required')).toBe('El campo Apellido es obligatorio');
    expect(contactErrorText(es, 'email', 'required')).toBe('El campo Correo electrónico es obligatorio');
  });

  it('name the field that holds characters that are not allowed, in both languages', () => {
    expect(contactErrorText(en, 'message', 'invalidCharacters')).toBe('Message field contains characters that are not allowed');
    expect(contactErrorText(es, 'lastName', 'invalidCharacters')).toBe('El campo Apellido contiene caracteres no permitidos');
  });

  it('give the limit of a field that is too long', () => {
    expect(contactErrorText(en, 'name', 'tooLong')).toBe('This field must not contain more than 32 characters');
    expect(contactErrorText(en, 'email', 'tooLong')).toBe('This field must not contain more than 60 characters');
    expect(contactErrorText(es, 'message', 'tooLong')).toBe('Este campo no debe contener más de 2000 caracteres');
  });

  it('explain the phone, email, option and acceptance rules in both languages', () => {
    expect(contactErrorText(en, 'phone', 'phoneLength')).toBe('The phone must have exactly 10 digits');
    expect(contactErrorText(es, 'phone', 'phoneLength')).toBe('El teléfono debe tener exactamente 10 dígitos');
    expect(contactErrorText(en, 'phone', 'phoneDigits')).toBe('The phone may only contain numbers');
    expect(contactErrorText(en, 'email', 'invalidEmail')).toBe('It has to be a valid email');
    expect(contactErrorText(en, 'type', 'invalidOption')).toBe('Choose one of the options in the list');
    expect(contactErrorText(en, 'accepts', 'mustAcceptPrivacy')).toBe('You must accept the privacy policy');
    expect(contactErrorText(es, 'accepts', 'mustAcceptPrivacy')).toBe('Debes aceptar la política de privacidad');
  });

  it('use the exact English outcome texts', () => {
    expect(en.sent).toBe('Message sent');
    expect(en.sendFailed).toBe('Error sending message');
    expect(es.sent).toBe('Mensaje enviado');
  });

  it('hand the browser only the form’s texts', () => {
    const text = contactFormText(messages('en'));
    expect(text).not.toHaveProperty('mail');
    expect(text).not.toHaveProperty('countries');
    expect(text.sent).toBe('Message sent');
    expect(contactErrorText(text, 'phone', 'required')).toBe('Phone field is required');
  });

  it('name every country of the form in both languages', () => {
    for (const c of COUNTRIES) {
      expect(messages('es').contact.countries[c.code]).toBeTruthy();
      expect(messages('en').contact.countries[c.code]).toBeTruthy();
    }
  });
});

describe('form state', () => {
  const submitted = { ...emptyContactValues(), name: 'Ana', phone: '123' };

  it('starts empty with the defaults: type 8, United States, +1', () => {
    expect(contactStateFromResult(undefined, submitted)).toEqual({
      values: { ...emptyContactValues(), type: '8', countryCode: 'US', countryPhoneCode: '+1' },
      errors: {},
      status: 'idle',
    });
  });

  it('empties the form and says sent after a success', () => {
    expect(contactStateFromResult({ data: { sent: true } }, submitted)).toEqual({ values: emptyContactValues(), errors: {}, status: 'sent' });
  });

  it('keeps the values and flags each field after an input error', () => {
    const state = contactStateFromResult({ error: { status: 400, fields: { phone: ['phoneLength', 'x'], bogus: ['required'] } } }, submitted);
    expect(state).toEqual({ values: submitted, errors: { phone: 'phoneLength' }, status: 'idle' });
  });

  it('keeps the values and says to wait after too many messages', () => {
    expect(contactStateFromResult({ error: { status: 429 } }, submitted)).toEqual({ values: submitted, errors: {}, status: 'tooMany' });
    expect(messages('en').contact.tooMany).toBe('Too many messages were sent from your connection. Wait a few minutes and try again.');
    expect(messages('es').contact.tooMany).toBe('Se enviaron demasiados mensajes desde tu conexión. Espera unos minutos e inténtalo de nuevo.');
  });

  it('keeps the values and says it failed after any other error', () => {
    expect(contactStateFromResult({ error: { status: 502 } }, submitted)).toEqual({ values: submitted, errors: {}, status: 'failed' });
    expect(contactStateFromResult({ error: { status: 400, fields: {} } }, submitted).status).toBe('failed');
  });

  it('maps unknown error codes to a generic option error', () => {
    expect(contactErrorsFromFields({ type: ['something new'] })).toEqual({ type: 'invalidOption' });
  });

  it('reads posted values back, ignoring unknown names and capping their length', () => {
    const data = new FormData();
    data.set('name', 'Ana');
    data.set('phone', '55-12');
    data.set('accepts', 'on');
    data.set('evil', 'x');
    data.set('message', 'm'.repeat(10_000));
    const values = contactValuesFrom(data);
    expect(values).toMatchObject({ name: 'Ana', phone: '55-12', accepts: true, type: '8', countryPhoneCode: '+1' });
    expect(values.message.length).toBeLessThanOrEqual(4000);
    expect(values.message.length).toBeGreaterThan(2000);
    expect(values).not.toHaveProperty('evil');
    expect(contactValuesFrom(null)).toEqual(emptyContactValues());
  });
});

describe('notification e-mail', () => {
  const form = contactFormSchema.parse({ ...valid, language: 'en' });

  it('lists every stored field and replies to the visitor', () => {
    const mail = contactNotification({ id: 42, form, typeName: 'Información sobre cursos' }, 'staff@example.com', messages('es').contact);
    expect(mail.to).toBe('staff@example.com');
    expect(mail.replyTo).toEqual({ name: 'Ana Pérez', address: 'ana@example.com' });
    expect(mail.subject).toBe('Nuevo mensaje de contacto: Información sobre cursos — Ana Pérez');
    for (const part of ['#42', 'Ana Pérez', 'ana@example.com', '+52 5512345678', 'México (MX)', 'Inglés', 'Sí', valid.message]) {
      expect(mail.text, part).toContain(part);
    }
    expect(mail.html).toBeUndefined();
  });
});
