/**
 * Astro Actions: typed mutations, each a thin call into `src/lib`. Forms post to them directly
 * (`<form method="POST" action={actions.x}>`, which works without JavaScript), and islands call them.
 *
 * Errors carry codes, not sentences: an input error's `fields` map each field to error codes
 * (`required`, `tooLong` …) that the page or island turns into text in the page's language.
 */
import { ActionError } from 'astro:actions';
import { defineAction } from './define';
import { messages } from '~/i18n';
import { contactFormSchema, contactTypeExists, submitContactMessage } from '~/lib/contact';
import { inputError } from './input-error';
import { address, auth } from './auth';
import { cart } from './cart';
import { certificates } from './certificates';
import { commerce } from './commerce';
import { ibo } from './ibo';
import { exams } from './exams';

export const server = {
  auth,
  cart,
  certificates,
  commerce,
  ibo,
  exams,
  contact: {
    /**
     * The contact form: 400 with field codes for bad input (nothing stored), 429 once an address has
     * sent `contactPerAddress` messages (nothing stored, nothing sent), 502 when the message was stored
     * but the notification e-mail could not be sent, `{ sent: true }` otherwise.
     */
    send: defineAction({
      accept: 'form',
      input: contactFormSchema,
      handler: async (form, context) => {
        const { db, rateLimiter, mailer, config } = context.locals.runtime;
        // The chosen type must exist: the part of the form's rules that reads the database.
        if (!(await contactTypeExists(db, form.type))) throw inputError([{ path: ['type'], message: 'invalidOption' }]);
        const input = form;
        const counted = await rateLimiter.hit('contactPerAddress', address(context));
        if (!counted.ok) {
          context.locals.retryAfterSeconds = counted.retryAfterSeconds;
          throw new ActionError({ code: 'TOO_MANY_REQUESTS', message: messages(input.language).contact.tooMany });
        }
        const outcome = await submitContactMessage(db, input, { to: config.contactRecipient, send: (m) => mailer.send(m) });
        if (outcome.status === 'sent') return { sent: true as const };
        // 'invalid' here means the type vanished between the check and the insert.
        if (outcome.status === 'invalid') throw new ActionError({ code: 'BAD_REQUEST', message: 'invalid' });
        context.logger.error(`contact message #${outcome.id} stored, but its notification was not sent: ${outcome.reason}`);
        throw new ActionError({ code: 'BAD_GATEWAY', message: 'mail-failed' });
      },
    }),
  },
};
