export { hashPassword, verifyPassword } from './password';
export { shouldWelcome } from './welcome';
export {
  createSession,
  readSession,
  destroySession,
  destroyUserSessions,
  setSessionProspect,
  purgeExpiredSessions,
  sessionCookieOptions,
  hashToken,
  newToken,
  SESSION_TTL_MS,
  type SessionInfo,
  type SessionStart,
  type SessionOrigin,
} from './session.server';
export * from './ibo';
export * from './prospect';
export {
  findActiveIbo,
  checkIboCode,
  recordReferral,
  attributeReferral,
  customerExists,
  confirmProspect,
  enterThroughLink,
  type AffiliateEntry,
  type CodeCheck,
  type IboInfo,
  type ProspectOutcome,
} from './ibo.server';
export * from './account';
export { authenticate, registerAccount, createPasswordReset, resetTokenUsable, resetPassword, loadProfile, type Profile, type LoginOutcome, type RegisterOutcome, type ResetOutcome, type ResetRequest } from './account.server';
export { updateProfile, type ProfileUpdate } from './profile.server';
export * from './security';
export {
  changePassword,
  listSessions,
  endOwnSession,
  endOtherSessions,
  createVerification,
  emailVerified,
  requestEmailChange,
  emailTokenUsable,
  openEmailLink,
  sessionPublicId,
  type SessionRow,
  type EmailLink,
  type LinkOutcome,
} from './security.server';
export * from './photo';
export { savePhoto, readPhoto, reencodePhoto, removePhoto, photoFolder, photoKey, movePhotosIntoStorage, type PhotoOutcome } from './photo.server';
export { placeOf } from './place.server';
