/**
 * The staff's actions: proving the second factor after the password, setting it up, and (administrators)
 * granting and removing roles and resetting someone's second factor. Each refusal is a sentence in the
 * page's language with a 4xx; every change by an administrator is in the audit trail. Access, limits and
 * language are declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action, type Refusals } from './kit';
import { plural } from '~/i18n';
import { afterLogin } from '~/lib/identity/account';
import { localePath, paths } from '~/lib/paths';
import { codeFormSchema, confirmSetup, grantRole, grantRoleSchema, proveSecondFactor, readTypedCode, resetFactor, resetFactorSchema, revokeRole, revokeRoleSchema, setupFormSchema } from '~/lib/staff';

const codeRefusals: Refusals = { tooMany: (t) => t.staff.code.tooMany };
const bad = (message: string) => new ActionError({ code: 'BAD_REQUEST', message });

export const staff = {
  /** The code after the password: a TOTP code (each works once) or an unused recovery code. The session gets the account's roles. */
  proveCode: action('staff.proveCode', {
    accept: 'form',
    input: codeFormSchema,
    refusals: codeRefusals,
    handler: async ({ code, lang, next }, { person, runtime, t, locale, limits }) => {
      const typed = readTypedCode(code);
      if (!typed) throw bad(t.staff.code.malformed);
      const outcome = await proveSecondFactor(runtime.factors, person.userId, person.session.tokenHash, typed);
      if (outcome.status === 'notEnrolled') throw new ActionError({ code: 'FORBIDDEN', message: t.staff.code.notEnrolled });
      if (outcome.status !== 'ok') throw bad(t.staff.code[outcome.status]);
      // A right code gives its attempt back: only wrong guesses use the account's limit up.
      await limits.limiter.refund('secondFactorPerAccount', limits.key('secondFactorPerAccount')).catch(() => undefined);
      const left = outcome.recoveryCodesLeft === null ? null : plural(locale, t.staff.code.recoveryLeft, outcome.recoveryCodesLeft);
      return { next: afterLogin(next, localePath(lang, paths.admin)), recoveryLeft: left, changed: outcome.changed };
    },
  }),

  /** Confirms the secret shown at set-up with its first code; answers the ten recovery codes, shown once. */
  confirmSetup: action('staff.confirmSetup', {
    accept: 'form',
    input: setupFormSchema,
    refusals: codeRefusals,
    handler: async ({ code }, { person, runtime, t, limits }) => {
      const typed = readTypedCode(code);
      if (typed?.kind !== 'totp') throw bad(t.staff.setup.wrong);
      const outcome = await confirmSetup(runtime.factors, person.userId, person.session.tokenHash, typed.token);
      if (outcome.status === 'notStaff') throw new ActionError({ code: 'FORBIDDEN', message: t.staff.setup.notStaff });
      if (outcome.status === 'alreadySet') throw new ActionError({ code: 'CONFLICT', message: t.staff.setup.alreadySet });
      if (outcome.status !== 'ok') throw bad(outcome.status === 'replayed' ? t.staff.code.replayed : t.staff.setup.wrong);
      await limits.limiter.refund('secondFactorPerAccount', limits.key('secondFactorPerAccount')).catch(() => undefined);
      return { recoveryCodes: outcome.recoveryCodes, changed: outcome.changed };
    },
  }),

  /** Grants a role to an existing account by e-mail. */
  grantRole: action('staff.grantRole', {
    accept: 'form',
    input: grantRoleSchema,
    handler: async ({ email, role }, { person, runtime, t }) => {
      const outcome = await grantRole(runtime.db, person.userId, email, role);
      if (outcome.status === 'unknownEmail') throw new ActionError({ code: 'NOT_FOUND', message: t.staff.people.unknownEmail });
      if (outcome.status === 'alreadyHeld') throw new ActionError({ code: 'CONFLICT', message: t.staff.people.alreadyHeld });
      return { message: t.staff.people.granted, userId: outcome.userId, changed: outcome.changed };
    },
  }),

  /** Removes a role from an account (never the last administrator's). */
  revokeRole: action('staff.revokeRole', {
    accept: 'form',
    input: revokeRoleSchema,
    handler: async ({ userId, role }, { person, runtime, t }) => {
      const outcome = await revokeRole(runtime.db, person.userId, userId, role);
      if (outcome.status === 'notHeld') throw new ActionError({ code: 'NOT_FOUND', message: t.staff.people.notHeld });
      if (outcome.status === 'lastAdministrator') throw new ActionError({ code: 'CONFLICT', message: t.staff.people.lastAdministrator });
      return { message: t.staff.people.revoked, changed: outcome.changed };
    },
  }),

  /** Forgets an account's second factor and recovery codes; it sets them up again at its next sign-in. */
  resetFactor: action('staff.resetFactor', {
    accept: 'form',
    input: resetFactorSchema,
    handler: async ({ userId }, { person, runtime, t }) => {
      const outcome = await resetFactor(runtime.db, person.userId, userId);
      if (outcome.status === 'notStaff') throw new ActionError({ code: 'NOT_FOUND', message: t.staff.people.notStaff });
      return { message: t.staff.people.factorReset, changed: outcome.changed };
    },
  }),
};
