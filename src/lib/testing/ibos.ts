/**
 * IBOs for a test: each with an account of its own, its code, and optionally its sponsor (an IBO made
 * before it in the same list) and status. Returns each IBO's id by code.
 */
import type { Db } from '../db/client';
import * as s from '../db/schema';

export async function makeIbos(db: Db, specs: readonly { code: string; sponsor?: string; status?: 'active' | 'suspended' }[]): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const spec of specs) {
    const [owner] = await db.insert(s.users).values({ email: `${spec.code.toLowerCase()}.owner@example.com`, firstName: spec.code, lastName: 'Owner' }).returning({ id: s.users.id });
    const [ibo] = await db
      .insert(s.ibos)
      .values({ userId: owner!.id, code: spec.code, companyName: `${spec.code} S.A.`, status: spec.status ?? 'active', sponsorIboId: spec.sponsor ? ids[spec.sponsor]! : null })
      .returning({ id: s.ibos.id });
    ids[spec.code] = ibo!.id;
  }
  return ids;
}
