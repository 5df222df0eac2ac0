/**
 * What the "My data" page shows: the person's archives, a pending deletion, the certificates a deletion
 * keeps verifiable, and their consent to be shown to the IBOs they are related to.
 */
import type { Db } from '../db/client';
import type { DataExport } from '../db/schema';
import { keptCertificates, pendingDeletion } from './deletion.server';
import { exportsOf } from './export.server';
import { iboSharingOf, type IboSharing } from '../business/consent.server';

export interface MyDataPage {
  exports: DataExport[];
  deletionDueAt: Date | null;
  certificates: { code: string; courseId: number; issuedAt: Date }[];
  /** The person's choice and the IBOs it applies to (none: the page shows no consent section). */
  iboSharing: IboSharing;
}

/** The page of `userId`. */
export async function loadMyDataPage(db: Db, userId: number): Promise<MyDataPage> {
  const [exports, deletionDueAt, certificates, iboSharing] = await Promise.all([exportsOf(db, userId), pendingDeletion(db, userId), keptCertificates(db, userId), iboSharingOf(db, userId)]);
  return { exports: exports.slice(0, 10), deletionDueAt, certificates, iboSharing };
}
