/**
 * Administrators' IBO commissions: set a product kind's rate (in force for orders paid from now on) and
 * record a payout of an IBO's approved commissions. Plain posts that work without JavaScript. Every
 * refusal is a sentence in the page's language with a 4xx and nothing written: a rate below 0 %, above
 * 100 %, not a number or finer than a hundredth of a percent 400 naming the field; an unknown IBO 404;
 * a suspended IBO, nothing approved to pay, a form key used for another IBO 409. The payout form's key
 * makes a double submit one payout, answered again. Access, limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format } from '~/i18n';
import { formatCents } from '~/lib/commerce/money';
import { payoutFormSchema, rateFormSchema, rateText, readRate, recordPayout, setCommissionRate } from '~/lib/commissions';

const STATUS = { unknown: 'NOT_FOUND', suspended: 'CONFLICT', nothingDue: 'CONFLICT', keyUsed: 'CONFLICT' } as const;

export const commissions = {
  /** Puts a new rate of a product kind in force from now on (the same rate again changes nothing). */
  setRate: action('commissions.setRate', {
    accept: 'form',
    input: rateFormSchema,
    handler: async ({ kind, rate }, { person, runtime, t, locale }) => {
      const words = t.commissions;
      const read = readRate(rate);
      if (!read.ok) throw new ActionError({ code: 'BAD_REQUEST', message: words.problems[read.problem] });
      const { unchanged } = await setCommissionRate(runtime.db, person.userId, kind, read.value);
      return { message: format(unchanged ? words.rateUnchanged : words.rateSet, { kind: words.kinds[kind].toLowerCase(), rate: rateText(read.value, locale) }), rateBp: read.value };
    },
  }),

  /** Pays an IBO every approved commission not yet paid, net of reversals, once per form. */
  recordPayout: action('commissions.recordPayout', {
    accept: 'form',
    input: payoutFormSchema,
    handler: async ({ ibo, reference, key }, { person, runtime, t, locale }) => {
      const words = t.commissions;
      const outcome = await recordPayout(runtime.db, person.userId, ibo, { key, reference: reference ?? '' });
      if (outcome.status === 'unknown') throw new ActionError({ code: STATUS.unknown, message: words.refusals.unknown });
      if (outcome.status === 'refused') throw new ActionError({ code: STATUS[outcome.refusal], message: words.refusals[outcome.refusal] });
      const facts = { amount: formatCents(outcome.payout.amountCents, locale), code: outcome.code };
      return { message: format(outcome.repeated ? words.payoutRepeated : words.payoutDone, facts), payoutId: outcome.payout.id };
    },
  }),
};
