/**
 * Astro Actions: typed mutations, each a thin call into `src/lib`. Forms post to them directly
 * (`<form method="POST" action={actions.x}>`, which works without JavaScript), and islands call them.
 *
 * Errors carry codes, not sentences: an input error's `fields` map each field to error codes
 * (`required`, `tooLong` …) that the page or island turns into text in the page's language.
 *
 * Every action is made with the kit (`kit.ts`) from its declaration in `access.ts`: who may call it,
 * its rate limits and its language.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { contactFormSchema, contactTypeExists, submitContactMessage } from '~/lib/contact';
import { inputError } from './input-error';
import { account } from './account';
import { auth } from './auth';
import { cart } from './cart';
import { certificates } from './certificates';
import { commerce } from './commerce';
import { ibo } from './ibo';
import { exams } from './exams';
import { privacy } from './privacy';
import { staff } from './staff';
import { questions } from './questions';
import { books, plans } from './products';
import { authoring } from './authoring';
import { videos } from './videos';
import { courseArchive } from './course-archive';
import { support } from './support';
import { coupons } from './coupons';
import { people } from './people';
import { memberships } from './memberships';
import { ibos } from './ibos';
import { orders } from './orders';
import { business } from './business';
import { commissions } from './commissions';

export const server = {
  account,
  business,
  auth,
  cart,
  certificates,
  commerce,
  ibo,
  exams,
  privacy,
  staff,
  questions,
  books,
  plans,
  authoring,
  videos,
  courseArchive,
  support,
  coupons,
  people,
  memberships,
  ibos,
  orders,
  commissions,
  contact: {
    /**
     * The contact form: 400 with field codes for bad input (nothing stored), 429 once an address has
     * sent `contactPerAddress` messages (nothing stored, nothing sent), 502 when the message was stored
     * but the notification e-mail could not be sent, `{ sent: true }` otherwise.
     */
    send: action('contact.send', {
      accept: 'form',
      input: contactFormSchema,
      refusals: { tooMany: (t) => t.contact.tooMany },
      handler: async (form, { runtime, ctx }) => {
        const { db, mailer, config } = runtime;
        // The chosen type must exist: the part of the form's rules that reads the database.
        if (!(await contactTypeExists(db, form.type))) throw inputError([{ path: ['type'], message: 'invalidOption' }]);
        const outcome = await submitContactMessage(db, form, { to: config.contactRecipient, send: (m) => mailer.send(m) });
        if (outcome.status === 'sent') return { sent: true as const };
        // 'invalid' here means the type vanished between the check and the insert.
        if (outcome.status === 'invalid') throw new ActionError({ code: 'BAD_REQUEST', message: 'invalid' });
        ctx.logger.error(`contact message #${outcome.id} stored, but its notification was not sent: ${outcome.reason}`);
        throw new ActionError({ code: 'BAD_GATEWAY', message: 'mail-failed' });
      },
    }),
  },
};
