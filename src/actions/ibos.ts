/**
 * Administrators' IBOs: save an IBO (created when the form has no id), upload its logo, suspend it and
 * reinstate it. Forms are posts that work without JavaScript. Every refusal is a sentence in the page's
 * language with a 4xx (bad input 400, a picture we do not take 415 or 413, an unknown id 404, a code
 * taken or a sponsor loop 409) and nothing is written; every change is in the audit trail. A suspension
 * returns the session change that the kit tells every process, so the IBO's links, typed code and open
 * sessions stop working everywhere at once. Access, limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format, DEFAULT_LOCALE, LOCALES } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { photoRefusalStatus } from '~/lib/identity/photo';
import { readId, readIboForm, saveIbo, setIboLogo, setIboStatus, type IboProblem } from '~/lib/ibos';
import { z } from '~/lib/zod';

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
/** Every field is read by the pure form reader (`ibos.ts`), which says what is wrong in the staff's words. */
const anything = z.unknown();

const saveSchema = z.object({
  id: anything,
  code: anything,
  companyName: anything,
  businessId: anything,
  contactName: anything,
  contactEmail: anything,
  contactPhone: anything,
  accountEmail: anything,
  sponsorCode: anything,
  lang,
});
const idSchema = z.object({ id: anything, lang });

/** The 400 of a form's problem, naming its field. */
function formError(t: Messages, p: IboProblem): ActionError {
  return new ActionError({ code: 'BAD_REQUEST', message: format(t.iboAdmin.problems[p.problem], { field: t.iboAdmin.fields[p.field] }) });
}

const notFound = (t: Messages) => new ActionError({ code: 'NOT_FOUND', message: t.iboAdmin.unknown });
const bad = (message: string) => new ActionError({ code: 'BAD_REQUEST', message });
const conflict = (message: string) => new ActionError({ code: 'CONFLICT', message });

/** The IBO an id field names, or a 404 for anything that is not an id. */
function idOf(t: Messages, raw: unknown): number {
  const id = readId(raw, 'id');
  if (!id.ok || id.value === null) throw notFound(t);
  return id.value;
}

export const ibos = {
  /** Creates an IBO (no id) or edits one: code, company, business line, contact, account, sponsor. */
  save: action('ibos.save', {
    accept: 'form',
    input: saveSchema,
    handler: async (input, { person, runtime, t }) => {
      const form = readIboForm(input);
      if (!form.ok) throw formError(t, form.problem);
      const r = t.iboAdmin.refusals;
      const outcome = await saveIbo(runtime.db, person.userId, form.value.id, form.value.draft);
      switch (outcome.status) {
        case 'unknown':
          throw notFound(t);
        case 'taken':
          throw conflict(format(r.taken, { code: outcome.code }));
        case 'unknownBusiness':
          throw bad(r.unknownBusiness);
        case 'unknownAccount':
          throw bad(r.unknownAccount);
        case 'accountNotUsable':
          throw bad(r.accountNotUsable);
        case 'unknownSponsor':
          throw bad(format(r.unknownSponsor, { code: outcome.code }));
        case 'sponsorSelf':
          throw bad(r.sponsorSelf);
        case 'sponsorLoop':
          throw conflict(format(r.sponsorLoop, { code: outcome.code }));
      }
      const message = format(outcome.created ? t.iboAdmin.created : t.iboAdmin.saved, { code: outcome.ibo.code });
      return { message, id: outcome.ibo.id, changed: outcome.changed };
    },
  }),

  /** The IBO's logo (a multipart form): re-encoded by the server as a 400×400 WebP. SVG, HTML or a cut file: refused, nothing stored. */
  uploadLogo: action('ibos.uploadLogo', {
    accept: 'form',
    input: idSchema.extend({ logo: z.unknown().optional() }),
    handler: async ({ id: rawId, logo }, { person, runtime, t }) => {
      const id = idOf(t, rawId);
      const file = logo instanceof File && logo.size > 0 ? { size: logo.size, bytes: new Uint8Array(await logo.arrayBuffer()) } : null;
      const outcome = await setIboLogo(runtime.db, runtime.storage, person.userId, id, file);
      if (outcome.status === 'unknown') throw notFound(t);
      if (outcome.status === 'refused') {
        const status = photoRefusalStatus(outcome.reason);
        throw new ActionError({ code: status === 413 ? 'CONTENT_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message: t.iboAdmin.logoRefusals[outcome.reason] });
      }
      return { message: t.iboAdmin.logoSaved, id, changed: outcome.changed };
    },
  }),

  /** Suspends an IBO: its links and code answer "suspended", its open sessions end, on every process. */
  suspend: action('ibos.suspend', {
    accept: 'form',
    input: idSchema,
    handler: async ({ id: rawId }, { person, runtime, t }) => {
      const outcome = await setIboStatus(runtime.db, person.userId, idOf(t, rawId), 'suspended');
      if (outcome.status === 'unknown') throw notFound(t);
      return { message: format(outcome.unchanged ? t.iboAdmin.alreadySuspended : t.iboAdmin.suspended, { code: outcome.ibo.code }), id: outcome.ibo.id, changed: outcome.changed };
    },
  }),

  /** Reinstates a suspended IBO: its links and code work again (ended sessions stay ended). */
  reinstate: action('ibos.reinstate', {
    accept: 'form',
    input: idSchema,
    handler: async ({ id: rawId }, { person, runtime, t }) => {
      const outcome = await setIboStatus(runtime.db, person.userId, idOf(t, rawId), 'active');
      if (outcome.status === 'unknown') throw notFound(t);
      return { message: format(outcome.unchanged ? t.iboAdmin.alreadyActive : t.iboAdmin.reinstated, { code: outcome.ibo.code }), id: outcome.ibo.id, changed: outcome.changed };
    },
  }),
};
