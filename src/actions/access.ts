/**
 * What every action declares, in one table: who may call it (`access`, see `lib/access/policy.ts`),
 * the rate limits it is counted against (`limits`, see `lib/http/action-limits.ts`) and where the
 * language of its answers comes from (`locale`: the input field naming it; `request` for an action with
 * no input, whose answers follow the page or browser that called it).
 *
 * The action kit (`kit.ts`) refuses to define an action missing here, and a test fails when the table
 * names an action the site does not define. Plain data with no imports that run, so the authorization
 * matrix's tests read the same table.
 */
import type { Access } from '../lib/access/policy';
import type { LimitRule } from '../lib/http/action-limits';

export interface ActionRule {
  access: Access;
  limits: readonly LimitRule[];
  locale: string;
}

export const ACTION_RULES = {
  'account.updateProfile': { access: 'learner', limits: [{ name: 'profileUpdatesPerAccount', per: 'user' }], locale: 'lang' },
  'account.changePassword': { access: 'learner', limits: [{ name: 'passwordChangesPerAccount', per: 'user' }], locale: 'lang' },
  'account.changeEmail': { access: 'learner', limits: [{ name: 'emailChangesPerAccount', per: 'user' }], locale: 'lang' },
  'account.endSession': { access: 'learner', limits: [{ name: 'sessionEndsPerAccount', per: 'user' }], locale: 'lang' },
  'account.endOtherSessions': { access: 'learner', limits: [{ name: 'sessionEndsPerAccount', per: 'user' }], locale: 'lang' },
  'account.resendVerification': { access: 'learner', limits: [{ name: 'verificationMailsPerAccount', per: 'user' }], locale: 'lang' },
  // The link is opened in whatever browser the mail is read in: no session needed, the token decides.
  'account.confirmEmail': { access: 'public', limits: [{ name: 'emailLinksPerAddress', per: 'address' }], locale: 'lang' },
  'account.setPhoto': { access: 'learner', limits: [{ name: 'photoUploadsPerAccount', per: 'user' }], locale: 'lang' },
  'account.removePhoto': { access: 'learner', limits: [{ name: 'photoRemovalsPerAccount', per: 'user' }], locale: 'lang' },
  // Only ever the caller's own row (the session names it); a person related to no IBO is refused in words.
  'account.setIboSharing': { access: 'learner', limits: [{ name: 'iboSharingChangesPerAccount', per: 'user' }], locale: 'lang' },
  'privacy.requestExport': { access: 'learner', limits: [{ name: 'dataExportsPerAccount', per: 'user' }], locale: 'lang' },
  'privacy.requestDeletion': { access: 'learner', limits: [{ name: 'deletionRequestsPerAccount', per: 'user' }], locale: 'lang' },
  'auth.login': {
    access: 'public',
    limits: [
      // Both counted up front (so parallel guesses cannot slip past); the right password gives the address
      // its attempt back (a classroom behind one router is never locked out) and forgives the pair's.
      { name: 'loginPerAddress', per: 'address' },
      { name: 'loginPerAccountAddress', per: ['input.email', 'address'] },
      // Wrong passwords from every address: never a refusal, only a slower login (counted on a wrong password).
      { name: 'loginPerAccount', per: 'input.email', counted: 'handler' },
    ],
    locale: 'lang',
  },
  'auth.logout': { access: 'public', limits: [], locale: 'lang' },
  'auth.register': { access: 'public', limits: [{ name: 'registerPerAddress', per: 'address' }], locale: 'lang' },
  'auth.requestReset': {
    access: 'public',
    limits: [
      { name: 'resetPerAddress', per: 'address' },
      { name: 'resetPerAccount', per: 'input.email' },
    ],
    locale: 'lang',
  },
  'auth.resetPassword': { access: 'public', limits: [{ name: 'resetPerAddress', per: 'address' }], locale: 'lang' },
  // Who the session is: islands of any kind of session ask; "nobody" is its 401, not the kit's.
  'auth.verify': { access: 'public', limits: [], locale: 'request' },
  'cart.view': { access: 'public', limits: [], locale: 'lang' },
  'cart.add': { access: 'public', limits: [], locale: 'lang' },
  'cart.remove': { access: 'public', limits: [], locale: 'lang' },
  'certificates.issue': { access: 'learner', limits: [], locale: 'lang' },
  // Revoking takes back what a learner earned and what third parties rely on, for good: administrators
  // only (support answers learners' questions, but a `support` declaration would let every support
  // account revoke; the policy grants by one access level, so the finer power stays with administrators).
  'certificates.revoke': { access: 'administrator', limits: [{ name: 'certificateRevocationsPerAccount', per: 'user' }], locale: 'lang' },
  'commerce.newKey': { access: 'learner', limits: [], locale: 'lang' },
  'commerce.checkout': {
    access: 'learner',
    limits: [
      // Taken before the card goes anywhere, given back unless the card is refused.
      { name: 'paymentFailuresPerAccount', per: 'user', counted: 'handler' },
      { name: 'paymentFailuresPerAddress', per: 'address', counted: 'handler' },
      // Taken before a coupon is looked up, given back when it exists.
      { name: 'couponGuessesPerAccount', per: 'user', counted: 'handler' },
      { name: 'couponGuessesPerAddress', per: 'address', counted: 'handler' },
    ],
    locale: 'lang',
  },
  'commerce.cancelMembership': { access: 'learner', limits: [], locale: 'lang' },
  'contact.send': { access: 'public', limits: [{ name: 'contactPerAddress', per: 'address' }], locale: 'language' },
  // Invalid codes only: counted by the code check (shared with affiliate links), given back for a valid code.
  'ibo.enter': { access: 'public', limits: [{ name: 'codePerAddress', per: 'address', counted: 'handler' }], locale: 'lang' },
  'ibo.lookup': { access: 'ibo', limits: [{ name: 'lookupPerAddress', per: 'address' }], locale: 'lang' },
  'ibo.confirmProspect': {
    access: 'ibo',
    limits: [
      { name: 'confirmPerSession', per: 'session' },
      { name: 'confirmPerAddress', per: 'address' },
    ],
    locale: 'lang',
  },
  'exams.start': { access: 'learner', limits: [], locale: 'lang' },
  'exams.answer': { access: 'learner', limits: [], locale: 'lang' },
  'exams.submit': { access: 'learner', limits: [], locale: 'lang' },
  // A logged-in account proves its second factor: learner-level (the roles come with the proof); the
  // handler refuses an account that holds no role. Right codes give their attempt back.
  'staff.proveCode': { access: 'learner', limits: [{ name: 'secondFactorPerAccount', per: 'user' }], locale: 'lang' },
  'staff.confirmSetup': { access: 'learner', limits: [{ name: 'secondFactorPerAccount', per: 'user' }], locale: 'lang' },
  'staff.grantRole': { access: 'administrator', limits: [{ name: 'staffChangesPerAccount', per: 'user' }], locale: 'lang' },
  'staff.revokeRole': { access: 'administrator', limits: [{ name: 'staffChangesPerAccount', per: 'user' }], locale: 'lang' },
  'staff.resetFactor': { access: 'administrator', limits: [{ name: 'staffChangesPerAccount', per: 'user' }], locale: 'lang' },
  // Question banks and exam settings: editors (and administrators, who hold every staff role).
  'questions.saveSettings': { access: 'editor', limits: [{ name: 'bankChangesPerAccount', per: 'user' }], locale: 'lang' },
  'questions.add': { access: 'editor', limits: [{ name: 'bankChangesPerAccount', per: 'user' }], locale: 'lang' },
  'questions.edit': { access: 'editor', limits: [{ name: 'bankChangesPerAccount', per: 'user' }], locale: 'lang' },
  'questions.retire': { access: 'editor', limits: [{ name: 'bankChangesPerAccount', per: 'user' }], locale: 'lang' },
  'questions.importCsv': { access: 'editor', limits: [{ name: 'bankChangesPerAccount', per: 'user' }], locale: 'lang' },
  'questions.regrade': { access: 'editor', limits: [{ name: 'bankChangesPerAccount', per: 'user' }], locale: 'lang' },
  // Books and membership plans: editors (and administrators, through the policy).
  'books.save': { access: 'editor', limits: [{ name: 'productChangesPerAccount', per: 'user' }], locale: 'lang' },
  'books.uploadPdf': { access: 'editor', limits: [{ name: 'productChangesPerAccount', per: 'user' }], locale: 'lang' },
  'plans.save': { access: 'editor', limits: [{ name: 'productChangesPerAccount', per: 'user' }], locale: 'lang' },
  // Coupons: finance staff (and administrators, through the policy).
  'coupons.save': { access: 'finance', limits: [{ name: 'couponChangesPerAccount', per: 'user' }], locale: 'lang' },
  'coupons.expire': { access: 'finance', limits: [{ name: 'couponChangesPerAccount', per: 'user' }], locale: 'lang' },
  // Memberships: finance staff (and administrators, through the policy).
  'memberships.extend': { access: 'finance', limits: [{ name: 'membershipChangesPerAccount', per: 'user' }], locale: 'lang' },
  'memberships.cancelNow': { access: 'finance', limits: [{ name: 'membershipChangesPerAccount', per: 'user' }], locale: 'lang' },
  'memberships.cancelAtEnd': { access: 'finance', limits: [{ name: 'membershipChangesPerAccount', per: 'user' }], locale: 'lang' },
  'memberships.resume': { access: 'finance', limits: [{ name: 'membershipChangesPerAccount', per: 'user' }], locale: 'lang' },
  // Orders: finance (and administrators). A refund goes through the gateway once per form (its key); a receipt sent again is a mail.
  'orders.refund': { access: 'finance', limits: [{ name: 'refundsPerAccount', per: 'user' }], locale: 'lang' },
  'orders.resendReceipt': { access: 'finance', limits: [{ name: 'receiptResendsPerAccount', per: 'user' }], locale: 'lang' },
  // Course authoring: editors (administrators hold the editor's grants); every change is a draft until published.
  'authoring.create': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.saveSettings': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.uploadThumbnail': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.addModule': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.renameModule': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.removeModule': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.stepModule': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.addLesson': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.editLesson': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.removeLesson': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.stepLesson': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.moveLesson': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.arrangeOutline': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.setVideo': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.addLink': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.removeResource': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.publish': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'authoring.discard': { access: 'editor', limits: [{ name: 'authoringChangesPerAccount', per: 'user' }], locale: 'lang' },
  'videos.saveCaption': { access: 'editor', limits: [{ name: 'videoChangesPerAccount', per: 'user' }], locale: 'lang' },
  // A course archive imported as a new hidden course with its draft (the export is a GET of the course's page).
  'courseArchive.import': { access: 'editor', limits: [{ name: 'courseArchivesPerAccount', per: 'user' }], locale: 'lang' },
  // IBOs: administrators only; a suspension is told to every process (the kit tells its session change).
  'ibos.save': { access: 'administrator', limits: [{ name: 'iboChangesPerAccount', per: 'user' }], locale: 'lang' },
  'ibos.uploadLogo': { access: 'administrator', limits: [{ name: 'iboChangesPerAccount', per: 'user' }], locale: 'lang' },
  'ibos.suspend': { access: 'administrator', limits: [{ name: 'iboChangesPerAccount', per: 'user' }], locale: 'lang' },
  'ibos.reinstate': { access: 'administrator', limits: [{ name: 'iboChangesPerAccount', per: 'user' }], locale: 'lang' },
  // IBO commissions: administrators only; a payout is recorded once per form (its key).
  'commissions.setRate': { access: 'administrator', limits: [{ name: 'commissionChangesPerAccount', per: 'user' }], locale: 'lang' },
  'commissions.recordPayout': { access: 'administrator', limits: [{ name: 'commissionChangesPerAccount', per: 'user' }], locale: 'lang' },
  // The support inbox: support staff (and administrators, through the policy); a reply is mailed once per form (its key).
  'support.setStatus': { access: 'support', limits: [{ name: 'supportChangesPerAccount', per: 'user' }], locale: 'lang' },
  'support.assign': { access: 'support', limits: [{ name: 'supportChangesPerAccount', per: 'user' }], locale: 'lang' },
  'support.note': { access: 'support', limits: [{ name: 'supportChangesPerAccount', per: 'user' }], locale: 'lang' },
  'support.reply': { access: 'support', limits: [{ name: 'supportChangesPerAccount', per: 'user' }], locale: 'lang' },
  // People (support staff, and administrators through the policy): every change in the audit trail.
  'people.resendVerification': { access: 'support', limits: [{ name: 'peopleMailsPerAccount', per: 'user' }], locale: 'lang' },
  'people.sendReset': { access: 'support', limits: [{ name: 'peopleMailsPerAccount', per: 'user' }], locale: 'lang' },
  'people.endSessions': { access: 'support', limits: [{ name: 'peopleChangesPerAccount', per: 'user' }], locale: 'lang' },
  'people.block': { access: 'support', limits: [{ name: 'peopleChangesPerAccount', per: 'user' }], locale: 'lang' },
  'people.unblock': { access: 'support', limits: [{ name: 'peopleChangesPerAccount', per: 'user' }], locale: 'lang' },
  'people.setType': { access: 'support', limits: [{ name: 'peopleChangesPerAccount', per: 'user' }], locale: 'lang' },
  'people.grantCourse': { access: 'support', limits: [{ name: 'peopleChangesPerAccount', per: 'user' }], locale: 'lang' },
  // The IBO's business: the owner of an active IBO (the handler reads the IBO fresh). A nudge is an e-mail
  // to a person: counted per account here, and per person and per IBO's day by the nudge's own rule.
  'business.nudge': { access: 'iboOwner', limits: [{ name: 'nudgesPerAccount', per: 'user' }], locale: 'lang' },
  // The stop link of a nudge's mail, opened in any browser: the token decides (counted per address against guessing).
  'business.stopNudges': { access: 'public', limits: [{ name: 'nudgeStopsPerAddress', per: 'address' }], locale: 'lang' },
} as const satisfies Record<string, ActionRule>;

export type ActionName = keyof typeof ACTION_RULES;

/** The declaration of `name`, or undefined for an action that declares none. */
export function ruleOf(name: string): ActionRule | undefined {
  return Object.hasOwn(ACTION_RULES, name) ? (ACTION_RULES as Record<string, ActionRule>)[name] : undefined;
}
