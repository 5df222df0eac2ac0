import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstErrors, FORM_ERROR_CODES, formErrorText, formText, hasForbiddenCharacters, hasForbiddenNameCharacters, INVALID_CHARACTERS, nameText } from './forms';
import { messages } from '~/i18n';
import { displayName } from './characters';

/** Characters no field accepts, named for the test titles. */
const FORBIDDEN = {
  NUL: '\u0000',
  'BEL (another C0 control)': '\u0007',
  'vertical tab': '\u000b',
  'form feed': '\u000c',
  'escape': '\u001b',
  DEL: '\u007f',
  'C1 control (NEL)': '\u0085',
  'C1 control (CSI)': '\u009b',
  'lone high surrogate': '\ud800',
  'lone low surrogate': '\udfff',
};

describe('characters no field accepts', () => {
  it.each(Object.entries(FORBIDDEN))('refuses %s in single-line and multi-line fields', (_name, ch) => {
    for (const text of [ch, `Ana${ch}`, `${ch}Ana`, `An${ch}a`]) {
      expect(hasForbiddenCharacters(text), JSON.stringify(text)).toBe(true);
      expect(hasForbiddenCharacters(text, true), JSON.stringify(text)).toBe(true);
    }
  });

  it('allows tab and line breaks in multi-line fields only', () => {
    for (const ch of ['\t', '\n', '\r']) {
      expect(hasForbiddenCharacters(`Hola${ch}mundo`)).toBe(true);
      expect(hasForbiddenCharacters(`Hola${ch}mundo`, true)).toBe(false);
    }
  });

  it('allows every language, emoji (surrogate pairs) and typographic spaces', () => {
    for (const text of ['José Núñez', 'Zoë O’Brien-Łukasz', '王小明', 'مرحبا', 'Ana 😀 👩‍💻', 'a\u00a0b', 'x\u2028y', '¡Hola! ¿Qué tal? €100']) {
      expect(hasForbiddenCharacters(text), text).toBe(false);
    }
  });

  it('agrees with a character-by-character reading of the rule (property)', () => {
    const forbidden = (text: string, multiline: boolean) => {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff) {
          const next = text.charCodeAt(i + 1);
          if (next >= 0xdc00 && next <= 0xdfff) {
            i++;
            continue;
          }
          return true;
        }
        if (c >= 0xdc00 && c <= 0xdfff) return true;
        if (multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
      }
      return false;
    };
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (text, multiline) => hasForbiddenCharacters(text, multiline) === forbidden(text, multiline)),
      { numRuns: 2000 },
    );
  });

  it('is the first check of a form field, before its own rules', () => {
    const name = formText({ error: 'required' }).trim().min(1, 'required').max(5, 'tooLong');
    const first = (v: unknown) => name.safeParse(v).error?.issues[0]?.message;
    expect(first('Ana\u0000')).toBe(INVALID_CHARACTERS);
    expect(first('\u0000'.repeat(9))).toBe(INVALID_CHARACTERS);
    expect(first('\u0000')).toBe(INVALID_CHARACTERS);
    expect(first('Ana')).toBeUndefined();
    expect(first(42)).toBe('required');
    expect(formText({ multiline: true }).safeParse('Hola\r\nmundo\tya').success).toBe(true);
  });
});

describe('characters no name accepts, and names shown safely', () => {
  it('refuses every format character (category Cf) as well as controls, and nothing a name in any script needs', () => {
    for (const ch of ['\u202e', '\u202a', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2066', '\u2067', '\u2068', '\u2069', '\ufeff', '\u0000', '\n']) {
      expect(hasForbiddenNameCharacters(`Ana${ch}`), JSON.stringify(ch)).toBe(true);
      expect(nameText().safeParse(`Ana${ch}`).error?.issues[0]?.message).toBe(INVALID_CHARACTERS);
    }
    for (const name of ['María José', "O'Brien-Núñez", 'عبد الله', 'שרה', '李小龙', 'Zoë Ångström']) expect(nameText().safeParse(name).success, name).toBe(true);
  });

  it('shows a stored name without format or control characters', () => {
    expect(displayName('Ana\u202eorP\u200b \u2066Ruiz\u2069\u0000')).toBe('AnaorP Ruiz');
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => !hasForbiddenNameCharacters(displayName(s))));
  });
});

describe('the one error vocabulary', () => {
  it('has a sentence for every code in both languages, and no sentence without a code', () => {
    for (const locale of ['es', 'en'] as const) {
      const table = messages(locale).forms.errors;
      expect(Object.keys(table).sort()).toEqual([...FORM_ERROR_CODES].sort());
      for (const code of FORM_ERROR_CODES) expect(table[code].length).toBeGreaterThan(0);
    }
  });

  it('names the field and its limits', () => {
    const en = messages('en').forms.errors;
    const es = messages('es').forms.errors;
    expect(formErrorText(en, 'required', { field: 'Card number' })).toBe('Card number field is required');
    expect(formErrorText(es, 'required', { field: 'Teléfono' })).toBe('El campo Teléfono es obligatorio');
    expect(formErrorText(en, 'tooLong', { max: 32 })).toBe('This field must not contain more than 32 characters');
    expect(formErrorText(es, 'cvvLength', { length: 4 })).toBe('El CVV de esta tarjeta tiene 4 dígitos');
    expect(formErrorText(en, 'invalidEmail')).toBe('It has to be a valid email');
  });

  it('reads a message outside the vocabulary as an invalid option, keeping the first code of each field', () => {
    const errors = firstErrors(
      [
        { path: ['a'], message: 'tooLong' },
        { path: ['a'], message: 'required' },
        { path: ['b'], message: 'Expected number, received nan' },
        { path: ['c'], message: 'required' },
      ],
      (key) => (key === 'a' || key === 'b' ? key : undefined),
    );
    expect(errors).toEqual({ a: 'tooLong', b: 'invalidOption' });
  });
});
