/**
 * Finance staff's coupons (and administrators, through the policy): save a coupon (created when the form
 * has no id) and expire one now. Forms are posts that work without JavaScript. Every refusal is a
 * sentence in the page's language with a 4xx (bad input 400, an unknown id 404, a code taken or a limit
 * below the uses so far 409) and nothing is written; every change is in the audit trail. Access, limits
 * and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format, DEFAULT_LOCALE, LOCALES } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { readCouponForm, type CouponProblem } from '~/lib/commerce/coupon-form';
import { expireCoupon, saveCoupon } from '~/lib/commerce/coupons.server';
import { readProductId } from '~/lib/commerce/products';
import { z } from '~/lib/zod';

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
/** Every field is read by the pure form reader (`coupon-form.ts`), which says what is wrong in the staff's words. */
const anything = z.unknown();

const saveSchema = z.object({ id: anything, code: anything, kind: anything, percent: anything, amount: anything, startsAt: anything, endsAt: anything, maxUses: anything, lang });
const expireSchema = z.object({ id: anything, lang });

/** The 400 of a form's problem, naming its field. */
function formError(t: Messages, p: CouponProblem): ActionError {
  const field = (t.couponAdmin.fields as Record<string, string>)[p.field] ?? p.field;
  return new ActionError({ code: 'BAD_REQUEST', message: format(t.couponAdmin.problems[p.problem], { field }) });
}

const notFound = (t: Messages) => new ActionError({ code: 'NOT_FOUND', message: t.couponAdmin.unknown });
const conflict = (message: string) => new ActionError({ code: 'CONFLICT', message });

export const coupons = {
  /** Creates a coupon (no id) or edits one; orders that used it keep their discount. */
  save: action('coupons.save', {
    accept: 'form',
    input: saveSchema,
    handler: async (input, { person, runtime, t }) => {
      const id = readProductId(input.id);
      if (!id.ok) throw formError(t, { field: 'id', problem: 'invalidId' });
      const now = new Date();
      const form = readCouponForm(input, now);
      if (!form.ok) throw formError(t, form.problem);
      const outcome = await saveCoupon(runtime.db, person.userId, id.value, form.value, now);
      if (outcome.status === 'unknown') throw notFound(t);
      if (outcome.status === 'taken') throw conflict(format(t.couponAdmin.taken, { code: outcome.code }));
      if (outcome.status === 'codeLocked') throw conflict(format(t.couponAdmin.codeLocked, { code: outcome.code }));
      if (outcome.status === 'belowUses') throw conflict(format(t.couponAdmin.belowUses, { uses: outcome.uses }));
      return { message: format(outcome.created ? t.couponAdmin.created : t.couponAdmin.saved, { code: outcome.coupon.code }), id: outcome.coupon.id };
    },
  }),

  /** Ends a coupon now: checkout refuses it from this moment. */
  expire: action('coupons.expire', {
    accept: 'form',
    input: expireSchema,
    handler: async (input, { person, runtime, t }) => {
      const id = readProductId(input.id);
      if (!id.ok || id.value === null) throw notFound(t);
      const outcome = await expireCoupon(runtime.db, person.userId, id.value);
      if (outcome.status === 'unknown') throw notFound(t);
      return { message: format(outcome.status === 'expired' ? t.couponAdmin.expired : t.couponAdmin.alreadyExpired, { code: outcome.coupon.code }), id: outcome.coupon.id };
    },
  }),
};
