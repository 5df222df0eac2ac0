import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  caretAfterDigits,
  groupCardNumber,
  birthYears,
  BIRTH_YEAR_COUNT,
  cardBrand,
  cardNumberError,
  checkoutErrorsFromFields,
  checkoutFormSchema,
  cvvError,
  cvvLength,
  expiryYears,
  EXPIRY_MONTHS,
  EXPIRY_YEAR_COUNT,
  firstInvalidCheckoutField,
  isExpired,
  luhnValid,
  maskedCard,
  monthLabel,
  normalizeCardNumber,
  storableCard,
  validateCheckoutForm,
} from './payment';

const NOW = new Date('2026-11-25T23:00:00Z');

describe('card numbers', () => {
  it('removes the spaces and hyphens people type, and refuses anything else', () => {
    expect(normalizeCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(normalizeCardNumber(' 4242\t4242 ')).toBe('42424242');
    expect(normalizeCardNumber('4242 424a')).toBeNull();
    expect(normalizeCardNumber('４２４２')).toBeNull(); // full-width digits are not ASCII digits
    expect(normalizeCardNumber('')).toBe('');
  });

  it.each(['4242424242424242', '4000000000000002', '4000000000009995', '4000000000000119', '378282246310005', '5555555555554444', '2223003122003222', '6011111111111117', '3056930009020004', '36227206271667', '3566002020360505', '79927398713'])(
    'passes the Luhn check: %s',
    (n) => expect(luhnValid(n)).toBe(true),
  );

  it.each(['4242424242424241', '79927398710', '1234567812345678', '', 'abcd'])('fails the Luhn check: %j', (n) => expect(luhnValid(n)).toBe(false));

  it('catches every single-digit typo (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (pos, delta) => {
        const good = '4242424242424242';
        const d = (Number(good[pos]) + delta) % 10;
        return !luhnValid(good.slice(0, pos) + String(d) + good.slice(pos + 1));
      }),
    );
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['4', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['2721000000000000', 'unknown'],
    ['2220990000000000', 'unknown'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'],
    ['6445644564456445', 'discover'],
    ['6500000000000002', 'discover'],
    ['6221260000000000', 'discover'],
    ['6229250000000000', 'discover'],
    ['6229260000000000', 'unknown'],
    ['30569309025904', 'diners'],
    ['36227206271667', 'diners'],
    ['3095000000000000', 'diners'],
    ['38520000023237', 'diners'],
    ['3530111333300000', 'jcb'],
    ['3589000000000000', 'jcb'],
    ['3590000000000000', 'unknown'],
    ['1234567812345670', 'unknown'],
    ['', 'unknown'],
  ] as const)('names the brand of %s: %s', (n, brand) => expect(cardBrand(n)).toBe(brand));

  it('reports the first problem of a number', () => {
    expect(cardNumberError('')).toBe('required');
    expect(cardNumberError('   ')).toBe('required');
    expect(cardNumberError('4242-4242-4242-424x')).toBe('cardDigits');
    expect(cardNumberError('9999 9999 9999 9995')).toBe('cardBrand');
    expect(cardNumberError('4242 4242 4242 42')).toBe('cardLength');
    expect(cardNumberError('3782 822463 1000')).toBe('cardLength'); // amex is 15 digits
    expect(cardNumberError('4242 4242 4242 4241')).toBe('cardLuhn');
    expect(cardNumberError('4242 4242 4242 4242')).toBeUndefined();
    expect(cardNumberError('3782 822463 10005')).toBeUndefined();
  });

  it('masks a number for receipts', () => expect(maskedCard('4242')).toBe('•••• 4242'));
});

describe('card numbers as typed', () => {
  it('group as printed on the card, whatever spacing was typed', () => {
    expect(groupCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('4242-4242 42424242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('424242')).toBe('4242 42');
    expect(groupCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(groupCardNumber('4242424242424242123')).toBe('4242 4242 4242 4242 123');
    expect(groupCardNumber('42424242424242421234567')).toBe('4242 4242 4242 4242 123 4567');
    expect(groupCardNumber('')).toBe('');
    expect(groupCardNumber('4242 abc')).toBe('4242 abc');
  });

  it('keep the caret after the same digit once regrouped', () => {
    expect(caretAfterDigits('4242 4242 4', 9)).toBe(11);
    expect(caretAfterDigits('4242 4242 4', 4)).toBe(4);
    expect(caretAfterDigits('4242 4242 4', 0)).toBe(0);
    expect(caretAfterDigits('3782 822463', 5)).toBe(6);
    expect(caretAfterDigits('4242', 9)).toBe(4);
  });

  it('never change the digits themselves', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9 -]{0,30}$/), (typed) => normalizeCardNumber(groupCardNumber(typed)) === normalizeCardNumber(typed)));
  });
});

describe('the form lists', () => {
  it('offers 30 expiry years from the current one', () => {
    const years = expiryYears(NOW);
    expect(years).toHaveLength(EXPIRY_YEAR_COUNT);
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(2055);
    expect(EXPIRY_MONTHS.map(monthLabel)).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
  });

  it('offers 81 birth years starting 18 years ago, newest first', () => {
    const years = birthYears(NOW);
    expect(years).toHaveLength(BIRTH_YEAR_COUNT);
    expect(years[0]).toBe(2008);
    expect(years.at(-1)).toBe(1928);
  });

  it('reads the year in UTC, so a browser and the server agree on New Year’s Eve', () => {
    expect(expiryYears(new Date('2026-12-31T23:59:59Z'))[0]).toBe(2026);
    expect(expiryYears(new Date('2027-01-01T00:00:00Z'))[0]).toBe(2027);
  });

  it('counts a card good through the last day of its expiry month', () => {
    expect(isExpired(11, 2026, NOW)).toBe(false);
    expect(isExpired(10, 2026, NOW)).toBe(true);
    expect(isExpired(12, 2025, NOW)).toBe(true);
    expect(isExpired(1, 2027, NOW)).toBe(false);
    expect(isExpired(11, 2026, new Date('2026-12-01T00:00:00Z'))).toBe(true);
  });
});

describe('CVV', () => {
  it('takes 4 digits on amex and 3 on other cards, digits only', () => {
    expect(cvvLength('amex')).toBe(4);
    expect(cvvLength('visa')).toBe(3);
    expect(cvvError('123', 'visa')).toBeUndefined();
    expect(cvvError('1234', 'amex')).toBeUndefined();
    expect(cvvError('123', 'amex')).toBe('cvvLength');
    expect(cvvError('1234', 'mastercard')).toBe('cvvLength');
    expect(cvvError('12a', 'visa')).toBe('cvvDigits');
    expect(cvvError('１２３', 'visa')).toBe('cvvDigits');
    expect(cvvError('', 'visa')).toBe('required');
  });
});

const valid = {
  cardholderName: '  Ana   María Pérez ',
  cardNumber: '4242 4242 4242 4242',
  expiryMonth: '12',
  expiryYear: '2030',
  cvv: '123',
  birthYear: '1990',
  identificationType: '1',
  identificationNumber: 'AB-123456',
  country: 'US',
  acceptsTerms: 'on',
  idempotencyKey: '6f1c2b1e-3c1a-4b7e-9d2f-1a2b3c4d5e6f',
};

describe('the checkout form', () => {
  it('accepts a complete form and cleans it', () => {
    const r = validateCheckoutForm({ ...valid, extra: 'dropped', price: '0.01' }, NOW);
    expect(r).toEqual({
      success: true,
      data: {
        cardholderName: 'Ana María Pérez',
        cardNumber: '4242424242424242',
        expiryMonth: 12,
        expiryYear: 2030,
        cvv: '123',
        birthYear: 1990,
        identificationType: 1,
        identificationNumber: 'AB-123456',
        country: 'US',
        acceptsTerms: true,
        idempotencyKey: valid.idempotencyKey,
      },
    });
  });

  it('accepts an amex with its 4-digit CVV', () => {
    expect(validateCheckoutForm({ ...valid, cardNumber: '3782 822463 10005', cvv: '1234' }, NOW).success).toBe(true);
  });

  it('reports "required" for every missing field, except the terms box which must be accepted', () => {
    const r = validateCheckoutForm({}, NOW);
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.errors).toEqual({
      cardholderName: 'required',
      cardNumber: 'required',
      expiryMonth: 'required',
      expiryYear: 'required',
      cvv: 'required',
      birthYear: 'required',
      identificationType: 'required',
      identificationNumber: 'required',
      country: 'required',
      acceptsTerms: 'mustAcceptTerms',
      idempotencyKey: 'invalidKey',
    });
    expect(firstInvalidCheckoutField(r.errors)).toBe('cardholderName');
  });

  it.each([
    [{ cardNumber: '4242 4242 4242 4241' }, 'cardNumber', 'cardLuhn'],
    [{ cardNumber: '4242 4242 4242 424x' }, 'cardNumber', 'cardDigits'],
    [{ cardNumber: '9999 9999 9999 9995' }, 'cardNumber', 'cardBrand'],
    [{ expiryMonth: '10', expiryYear: '2026' }, 'expiryMonth', 'expired'],
    [{ expiryMonth: '13' }, 'expiryMonth', 'invalidOption'],
    [{ expiryMonth: '1.5' }, 'expiryMonth', 'invalidOption'],
    [{ expiryYear: '2025' }, 'expiryYear', 'invalidOption'],
    [{ expiryYear: '2056' }, 'expiryYear', 'invalidOption'],
    [{ cvv: '12a' }, 'cvv', 'cvvDigits'],
    [{ cvv: '1234' }, 'cvv', 'cvvLength'],
    [{ cardNumber: '378282246310005', cvv: '123' }, 'cvv', 'cvvLength'],
    [{ birthYear: '2009' }, 'birthYear', 'invalidOption'],
    [{ birthYear: '1927' }, 'birthYear', 'invalidOption'],
    [{ birthYear: 'abc' }, 'birthYear', 'invalidOption'],
    [{ identificationType: '0' }, 'identificationType', 'invalidOption'],
    [{ identificationType: '99999999999' }, 'identificationType', 'invalidOption'],
    [{ identificationNumber: 'AB 12' }, 'identificationNumber', 'identificationCharacters'],
    [{ identificationNumber: 'A'.repeat(21) }, 'identificationNumber', 'tooLong'],
    [{ cardholderName: 'Ana\u0000' }, 'cardholderName', 'invalidCharacters'],
    [{ cardholderName: 'A'.repeat(61) }, 'cardholderName', 'tooLong'],
    [{ country: 'XX' }, 'country', 'invalidOption'],
    [{ acceptsTerms: 'off' }, 'acceptsTerms', 'mustAcceptTerms'],
    [{ idempotencyKey: 'not-a-uuid' }, 'idempotencyKey', 'invalidKey'],
  ] as const)('refuses %j with %s: %s', (change, field, code) => {
    const r = validateCheckoutForm({ ...valid, ...change }, NOW);
    expect(r.success).toBe(false);
    if (!r.success) expect(r.errors).toEqual({ [field]: code });
  });

  it('reports the card checks together with other fields’ errors', () => {
    const r = validateCheckoutForm({ ...valid, cardholderName: '', expiryMonth: '1', expiryYear: '2026', cvv: '1' }, NOW);
    expect(r.success ? {} : r.errors).toEqual({ cardholderName: 'required', expiryMonth: 'expired', cvv: 'cvvLength' });
  });

  it('checks the CVV even before the card number is right', () => {
    const bad = (change: object) => {
      const r = validateCheckoutForm({ ...valid, cardNumber: '4242', ...change }, NOW);
      return r.success ? {} : r.errors;
    };
    expect(bad({ cvv: '' })).toEqual({ cardNumber: 'cardLength', cvv: 'required' });
    expect(bad({ cvv: '1x' })).toEqual({ cardNumber: 'cardLength', cvv: 'cvvDigits' });
    expect(bad({ cvv: '12' })).toEqual({ cardNumber: 'cardLength', cvv: 'cvvLength' });
    expect(bad({ cvv: '1234' })).toEqual({ cardNumber: 'cardLength' });
  });

  it('moves its lists with the date: a birth year valid today is refused a year later', () => {
    expect(checkoutFormSchema(NOW).safeParse({ ...valid, birthYear: '2008' }).success).toBe(true);
    expect(checkoutFormSchema(new Date('2025-06-01T00:00:00Z')).safeParse({ ...valid, birthYear: '2008' }).success).toBe(false);
  });

  it('reads the errors an action sends back', () => {
    expect(checkoutErrorsFromFields({ cvv: ['cvvDigits'], cardNumber: ['something else'], nope: ['required'] })).toEqual({ cvv: 'cvvDigits', cardNumber: 'invalidOption' });
  });

  it('never puts the card number or the CVV in its error messages', () => {
    const parsed = checkoutFormSchema(NOW).safeParse({ ...valid, cardNumber: '4242 4242 4242 4241', cvv: '98x' });
    expect(parsed.success).toBe(false);
    const messages = JSON.stringify(parsed.error?.issues.map((i) => [i.path, i.message]));
    expect(messages).not.toContain('4241');
    expect(messages).not.toContain('98x');
  });
});

describe('what may be kept about a card', () => {
  it('keeps brand, last 4 and expiry, never the number or the CVV', () => {
    const r = validateCheckoutForm(valid, NOW);
    if (!r.success) throw new Error('valid form refused');
    const kept = storableCard(r.data);
    expect(kept).toEqual({ brand: 'visa', last4: '4242', expiryMonth: 12, expiryYear: 2030 });
    expect(JSON.stringify(kept)).not.toContain('4242424242424242');
    expect(JSON.stringify(kept)).not.toContain('123');
    expect(Object.keys(kept).sort()).toEqual(['brand', 'expiryMonth', 'expiryYear', 'last4']);
  });
});
