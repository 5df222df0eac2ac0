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
} from './session.server';
