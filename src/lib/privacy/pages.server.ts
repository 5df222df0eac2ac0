/** What the "My data" page shows: the person's archives, a pending deletion, and the certificates a deletion keeps verifiable. */
import type { Db } from '../db/client';
import type { DataExport } from '../db/schema';
import { keptCertificates, pendingDeletion } from './deletion.server';
import { exportsOf } from './export.server';

export interface MyDataPage {
  exports: DataExport[];
  deletionDueAt: Date | null;
  certificates: { code: string; courseId: number; issuedAt: Date }[];
}

/** The page of `userId`. */
export async function loadMyDataPage(db: Db, userId: number): Promise<MyDataPage> {
  const [exports, deletionDueAt, certificates] = await Promise.all([exportsOf(db, userId), pendingDeletion(db, userId), keptCertificates(db, userId)]);
  return { exports: exports.slice(0, 10), deletionDueAt, certificates };
}
