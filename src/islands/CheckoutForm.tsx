/**
 * The payment form of `/purchase-detail`. Server-rendered, it is a plain HTML form posting to the
 * `commerce.checkout` action, so it works without JavaScript. Hydrated, it checks each field with the
 * schema the server uses (Luhn, brand, expiry, CVV, birth year …), shows the card's brand as it is
 * typed, pays through the action without reloading and goes to the order's page. After a refusal that
 * used up its idempotency key (declined card, reused form), it asks the server for a new one, so the
 * buyer can try another card. The card number and CVV are never sent anywhere but the action.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ChangeEvent } from 'react';
import { actions } from 'astro:actions';
import { format, type Locale } from '~/i18n';
import {
  cardBrand,
  checkoutErrorsFromFields,
  checkoutErrorText,
  monthLabel,
  normalizeCardNumber,
  groupCardNumber,
  caretAfterDigits,
  validateCheckoutForm,
  CHECKOUT_FIELDS,
  CHECKOUT_LIMITS,
  CHECKOUT_FORM_ID,
  COUPON_CHANGED_EVENT,
  type CouponChanged,
  EXPIRY_MONTHS,
  type CheckoutErrors,
  type CheckoutField,
} from '~/lib/commerce/payment';
import type { CommerceTexts } from '~/lib/commerce/receipt';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { $cart } from '~/lib/stores/cart';
import { described, Field, fieldIds, FormStatus, useCheckedForm } from './forms/form-kit';
import { useSubmit } from './forms/useSubmit';
import '~/styles/forms.css';

/** What the server rendered after a post without JavaScript: each field's error, the refusal's sentence, the typed values it may show again (after a refused payment never the card number or CVV; after applying a coupon all of them). */
export interface CheckoutFormInitial {
  errors: CheckoutErrors;
  message: string | null;
  values: Record<string, string>;
}

interface Props {
  locale: Locale;
  t: Pick<CommerceTexts, 'checkout' | 'brands'> & { forms: FormMessages };
  /** Where the form posts without JavaScript. */
  action: string;
  idempotencyKey: string;
  /** The coupon applied in the summary (checked again by the server). */
  coupon: string | null;
  total: string;
  expiryYears: number[];
  birthYears: number[];
  identificationTypes: { id: number; name: string }[];
  countries: { code: string; name: string }[];
  privacyHref: string;
  /** The terms of purchase in the page's language (opened in a new tab so the form keeps what was typed). */
  termsHref: string;
  /** The embedded sandbox takes the payment: say which test cards to use. */
  sandbox: boolean;
  initial: CheckoutFormInitial;
}

const ids = (field: string) => fieldIds('checkout', field);
const STATUS_ID = 'checkout-status';
/** Answers after which the form's key was used: a new one lets the buyer try again. */
const KEY_SPENT = new Set([400, 402, 409]);

export default function CheckoutForm(props: Props) {
  const { locale, t, initial } = props;
  const [key, setKey] = useState(props.idempotencyKey);
  // The summary applies a coupon in place: what this form posts and the total it shows follow it.
  const [applied, setApplied] = useState<CouponChanged>({ coupon: props.coupon, total: props.total });
  useEffect(() => {
    const follow = (e: Event) => setApplied((e as CustomEvent<CouponChanged>).detail);
    window.addEventListener(COUPON_CHANGED_EVENT, follow);
    return () => window.removeEventListener(COUPON_CHANGED_EVENT, follow);
  }, []);
  const form = useCheckedForm<CheckoutField, FormErrorCode>({
    order: CHECKOUT_FIELDS,
    initialValues: {
      cardholderName: '',
      cardNumber: '',
      expiryMonth: '',
      expiryYear: '',
      cvv: '',
      birthYear: '',
      identificationType: '',
      identificationNumber: '',
      country: '',
      acceptsTerms: '',
      ...initial.values,
    },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validateCheckoutForm({ ...v, idempotencyKey: key }, new Date());
      return r.success ? {} : r.errors;
    },
    idOf: (f) => ids(f).control,
  });

  const digits = normalizeCardNumber(form.values.cardNumber ?? '') ?? '';
  const cardNumberControl = form.control('cardNumber');
  const cardNumberInput = useRef<HTMLInputElement | null>(null);
  /** Where the caret goes once the regrouped number is on screen (before the next key is read). */
  const cardNumberCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const input = cardNumberInput.current;
    const at = cardNumberCaret.current;
    cardNumberCaret.current = null;
    if (input && at !== null && document.activeElement === input) input.setSelectionRange(at, at);
  });
  const brand = cardBrand(digits);

  const errorText = (f: CheckoutField): string | undefined => {
    const code = form.errors[f];
    if (!code) return undefined;
    return checkoutErrorText(t.forms.errors, t.checkout, f, code, brand);
  };

  const { busy, status, submit } = useSubmit({
    form,
    send: (data) => actions.commerce.checkout(data),
    fieldErrors: checkoutErrorsFromFields,
    statusId: STATUS_ID,
    connection: t.forms.errors.invalidKey,
    done: (data) => {
      // The server emptied the cart cookie: the header's count follows at once.
      $cart.set([]);
      location.assign(data.next);
    },
    refused: async (error) => {
      if (!KEY_SPENT.has(error.status)) return;
      const fresh = await actions.commerce.newKey({ lang: locale });
      if (fresh.data) setKey(fresh.data.idempotencyKey);
    },
    initial: initial.message ? { text: initial.message, ok: false } : null,
  });

  const text = (f: 'cardholderName' | 'identificationNumber', autoComplete: string, max: number) => (
    <Field ids={ids(f)} label={t.checkout[f]} error={errorText(f)}>
      <input id={ids(f).control} type="text" autoComplete={autoComplete} maxLength={max + 10} required {...form.control(f)} {...described(ids(f), false, errorText(f))} />
    </Field>
  );
  const select = (f: CheckoutField, options: { value: string; label: string }[], autoComplete: string, placeholder = t.checkout.choose) => (
    <Field ids={ids(f)} label={t.checkout[f as 'country']} error={errorText(f)}>
      <select id={ids(f).control} autoComplete={autoComplete} required {...form.control(f)} {...described(ids(f), false, errorText(f))}>
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
  const accepts = ids('acceptsTerms');

  return (
    <form
      id={CHECKOUT_FORM_ID}
      className="account-form checkout-form"
      aria-label={t.checkout.payment}
      method="post"
      action={props.action}
      noValidate
      onSubmit={submit}
      aria-busy={busy || undefined}
      data-enhanced={form.enhanced ? 'true' : undefined}
    >
      <input type="hidden" name="lang" value={locale} />
      <input type="hidden" name="idempotencyKey" value={key} />
      {applied.coupon && <input type="hidden" name="coupon" value={applied.coupon} />}
      <FormStatus id={STATUS_ID} status={status} />
      {props.sandbox && <p className="form-note">{t.checkout.sandbox}</p>}
      {text('cardholderName', 'cc-name', CHECKOUT_LIMITS.cardholderName)}
      <Field ids={ids('cardNumber')} label={t.checkout.cardNumber} hint={t.checkout.cardNumberHint} error={errorText('cardNumber')}>
        <input
          id={ids('cardNumber').control}
          type="text"
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={30}
          spellCheck={false}
          required
          {...cardNumberControl}
          ref={(element) => {
            cardNumberControl.ref(element);
            cardNumberInput.current = element;
          }}
          onChange={(e) => {
            // Grouped as printed on the card while typed; the caret stays after the same digit.
            const input = e.currentTarget;
            const digitsBefore = input.value.slice(0, input.selectionStart ?? input.value.length).replace(/[^0-9]/g, '').length;
            const grouped = groupCardNumber(input.value);
            cardNumberCaret.current = caretAfterDigits(grouped, digitsBefore);
            form.update('cardNumber', { cardNumber: grouped });
          }}
          {...described(ids('cardNumber'), true, errorText('cardNumber'))}
        />
        <span className="card-brand" aria-live="polite" data-brand={digits.length > 0 && brand !== 'unknown' ? brand : undefined}>
          {digits.length > 0 && brand !== 'unknown' ? format(t.checkout.brandDetected, { brand: t.brands[brand] }) : ''}
        </span>
      </Field>
      <div className="field-row field-row-expiry">
        {select('expiryMonth', EXPIRY_MONTHS.map((m) => ({ value: String(m), label: monthLabel(m) })), 'cc-exp-month', '—')}
        {select('expiryYear', props.expiryYears.map((y) => ({ value: String(y), label: String(y) })), 'cc-exp-year', '—')}
        <Field ids={ids('cvv')} label={t.checkout.cvv} hint={t.checkout.cvvHint} error={errorText('cvv')}>
          <input id={ids('cvv').control} type="password" inputMode="numeric" autoComplete="cc-csc" maxLength={4} required {...form.control('cvv')} {...described(ids('cvv'), true, errorText('cvv'))} />
        </Field>
      </div>
      <div className="field-row">
        {select('birthYear', props.birthYears.map((y) => ({ value: String(y), label: String(y) })), 'bday-year')}
        {select('country', props.countries.map((c) => ({ value: c.code, label: c.name })), 'country')}
      </div>
      <div className="field-row">
        {select('identificationType', props.identificationTypes.map((i) => ({ value: String(i.id), label: i.name })), 'off')}
        {text('identificationNumber', 'off', CHECKOUT_LIMITS.identificationNumber)}
      </div>
      <div className="field field-check">
        <input
          id={accepts.control}
          type="checkbox"
          name="acceptsTerms"
          checked={form.values.acceptsTerms === 'on'}
          onChange={(e: ChangeEvent<HTMLInputElement>) => {
            const next = { ...form.values, acceptsTerms: e.currentTarget.checked ? 'on' : '' };
            form.setValues(next);
          }}
          required
          {...described(accepts, false, errorText('acceptsTerms'))}
        />
        <label htmlFor={accepts.control}>
          {t.checkout.acceptsLead}{' '}
          <a href={props.termsHref} target="_blank" rel="noopener">
            {t.checkout.terms}
            <span className="sr-only"> {t.checkout.newTab}</span>
          </a>{' '}
          {t.checkout.acceptsJoin}{' '}
          <a href={props.privacyHref} target="_blank" rel="noopener">
            {t.checkout.privacy}
            <span className="sr-only"> {t.checkout.newTab}</span>
          </a>
          .
        </label>
        {errorText('acceptsTerms') && (
          <p className="field-error" id={accepts.error}>
            {errorText('acceptsTerms')}
          </p>
        )}
      </div>
      <p className="form-note">{t.checkout.secure}</p>
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.checkout.paying : format(t.checkout.pay, { total: applied.total })}
      </button>
    </form>
  );
}
