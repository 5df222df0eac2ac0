/** Revoking a certificate so that every page showing it says so at once, in every process. */
import type { Db } from '../db/client';
import { revokeCertificate } from './certificates.server';

/** What a revocation needs: the database and the notice that drops every process's kept pages. */
export interface RevocationContext {
  db: Db;
  /** `runtime.catalogChanged`: kept pages (the public verification, the holder's certificate page) are dropped everywhere. */
  catalogChanged(): Promise<void>;
}

/**
 * Revokes a certificate and tells every process: its verification page and its holder's certificate
 * page are kept pages, which only a notice drops. False (and nothing told) when it was already revoked
 * or does not exist.
 */
export async function revokeEverywhere(ctx: RevocationContext, certificateId: number, now: number): Promise<boolean> {
  const revoked = await revokeCertificate(ctx.db, certificateId, now);
  if (revoked) await ctx.catalogChanged();
  return revoked;
}
