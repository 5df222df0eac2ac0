/**
 * Certificate actions: issuing the logged-in learner's certificate of a completed course (the
 * `/course-generate` form posts here, with or without JavaScript). A thin call into `lib/certificates`.
 */
import { ActionError } from 'astro:actions';
import { action, refusal } from './kit';
import { z } from '~/lib/zod';
import { format, LOCALES, messages as messagesIn } from '~/i18n';
// Not the domain's index: it loads the PDF and QR libraries, which no form but issuing needs.
import { certificateTexts } from '~/lib/certificates/certificates';
import { revokeFormSchema } from '~/lib/certificates/revocation';
import { revokeWithReason } from '~/lib/certificates/revoke.server';
import { catalogContext } from '~/lib/app.server';
import { isListed } from '~/lib/access';
import { emailVerified } from '~/lib/identity';
import { personChange } from '~/lib/runtime/changes';

export const certificates = {
  /**
   * Issues the certificate, or returns the one already issued (idempotent): `{ courseId }` to go on to
   * the certificate. 401 without a learner's session, 404 for a course the viewer may not know of,
   * 403 before the course is completed; nothing is stored then. The e-mail with the links goes out
   * when this call issued it.
   */
  issue: action('certificates.issue', {
    accept: 'form',
    refusals: { unauthorized: (t) => t.certificates.errors.login },
    input: z.object({
      course: z.coerce.number().int().positive().max(2_147_483_647),
      /** The page's language: messages and links in it, and the e-mail unless the learner chose a language in their profile. */
      lang: z.enum(LOCALES).default('es'),
    }),
    handler: async ({ course: courseId, lang }, { ctx, runtime, person, t: messages, unauthorized }) => {
      const t = messages.certificates;
      const { contactId } = person;
      if (contactId === null) throw unauthorized();
      const { db, catalog, viewer } = await catalogContext(ctx.locals);
      const course = catalog.byId.get(courseId);
      if (!course || !isListed(course, viewer)) throw new ActionError({ code: 'NOT_FOUND', message: t.errors.unknownCourse });
      // A certificate carries the person's address: it waits until they confirmed it.
      if (!(await emailVerified(db, person.userId))) throw new ActionError({ code: 'FORBIDDEN', message: messages.security.verify.needed });
      // Loaded on first use: the PDF and QR libraries it brings are not needed by any other form.
      const { issueAndNotify } = await import('~/lib/certificates/mail.server');
      const outcome = await issueAndNotify(
        {
          db,
          signingKey: runtime.signingKey,
          send: (m) => runtime.mailer.send(m),
          origin: runtime.siteOrigin(ctx.url),
          locale: lang,
          course,
          issuerName: messages.meta.siteName,
          mailTexts: (l) => messagesIn(l).certificates.mail,
          onMailError: (err) => runtime.logger.error({ err }, `certificate e-mail for contact #${contactId} not sent`),
        },
        contactId,
        course.id,
        Date.now(),
      );
      if (!outcome.ok) {
        // Refused, yet checking the completion may have graded an exam attempt whose time was up.
        const error = outcome.reason === 'not-completed' ? new ActionError({ code: 'FORBIDDEN', message: t.errors.notCompleted }) : new ActionError({ code: 'NOT_FOUND', message: t.errors.unknownCourse });
        throw refusal(error, outcome.changed);
      }
      // Pages kept for this person (my learning, the certificate's) show it from now on, and any exam
      // attempt graded on the way.
      return { courseId: course.id, code: outcome.certificate.code, created: outcome.created, changed: [...outcome.changed, ...(outcome.created ? [personChange({ contactId })] : [])] };
    },
  }),

  /**
   * Revokes a certificate with a reason (administrators, from the back office): audited, the holder
   * e-mailed, the verification page and the published revocation list changed in every process.
   * 404 for a code no certificate has; 409 when it was already revoked (two at once: one revocation).
   */
  revoke: action('certificates.revoke', {
    accept: 'form',
    input: revokeFormSchema,
    handler: async ({ code, reason }, { person, runtime, t, locale, ctx }) => {
      const outcome = await revokeWithReason(runtime.db, { code, reason, actorUserId: person.userId, origin: runtime.siteOrigin(ctx.url), now: new Date() });
      if (outcome.status === 'unknown') throw new ActionError({ code: 'NOT_FOUND', message: t.certificateAdmin.unknown });
      if (outcome.status === 'alreadyRevoked') throw new ActionError({ code: 'CONFLICT', message: format(t.certificateAdmin.alreadyRevoked, { date: certificateTexts(locale).date(outcome.revokedAt.getTime()) }) });
      return { message: format(t.certificateAdmin.revoked, { code }), code, revokedAt: outcome.revokedAt.toISOString(), changed: outcome.changed };
    },
  }),
};
