export * from './staff';
export { rolesOf, listStaff, grantRole, revokeRole, resetFactor, factorState, pendingSecret, sealPlainSecrets, confirmSetup, proveSecondFactor, seedStaff, type StaffMember, type Factors, type GrantOutcome, type RevokeOutcome, type ResetOutcome, type SetupOutcome, type ProveOutcome } from './staff.server';
export { readAuditLog, auditActions, type AuditPage } from './audit-log.server';
export { SecretSeal, UnreadableSecret } from './seal.server';
