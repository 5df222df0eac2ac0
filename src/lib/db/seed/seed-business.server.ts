/**
 * Seeds HORIZONTE01's business (`people.business`): the IBO it sponsored, visits through its link, its
 * prospects at every stage and the people who came through its link with their choice to share. Runs
 * after the accounts and their progress; every write keeps what an earlier seed left (re-seeding never
 * moves a person's progress or a visit count back).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import * as s from '../schema';
import * as people from './people';
import type { Tx } from './seed-kit.server';

const DAY = 86_400_000;

export async function seedBusiness(tx: Tx, userId: Map<string, number>, lessons: readonly { courseId: number; id: number }[]) {
  const b = people.business;
  const ibos = new Map((await tx.select({ id: s.ibos.id, code: s.ibos.code }).from(s.ibos)).map((r) => [r.code, r.id]));
  const iboId = ibos.get(b.ibo)!;
  for (const link of b.sponsored) {
    await tx.update(s.ibos).set({ sponsorIboId: ibos.get(link.sponsor)! }).where(and(eq(s.ibos.code, link.code), isNull(s.ibos.sponsorIboId)));
  }
  // Visits through its link: a few a day, more at the weekends, over the last days.
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  await tx
    .insert(s.affiliateVisits)
    .values(Array.from({ length: b.visitDays }, (_, i) => ({ iboId, day: new Date(today - i * DAY).toISOString().slice(0, 10), visits: 2 + ((i * 7) % 5) + (new Date(today - i * DAY).getUTCDay() % 6 === 0 ? 4 : 0) })))
    .onConflictDoNothing();
  // Prospects it registered without an account; one began a course and has not come back.
  for (const p of b.prospects) {
    const [made] = await tx
      .insert(s.contacts)
      .values({ firstName: p.firstName, lastName: p.lastName, email: p.email, iboId, createdAt: new Date(Date.now() - p.daysAgo * DAY) })
      .onConflictDoNothing()
      .returning({ id: s.contacts.id });
    if (made && 'stuckOnCourse' in p) {
      const first = lessons.find((l) => l.courseId === p.stuckOnCourse)!;
      const at = new Date(Date.now() - p.stuckDaysAgo * DAY);
      await tx.insert(s.tracking).values({ contactId: made.id, courseId: p.stuckOnCourse, subtopicId: first.id, lastPosition: '30.00', furthestPosition: '30.00', playedSeconds: '30', createdAt: at, updatedAt: at }).onConflictDoNothing();
    }
  }
  // The accounts it registered as prospects, and those who came through its link (with their choice).
  const registered = b.registered.map((email) => userId.get(email)!);
  await tx
    .update(s.contacts)
    .set({ iboId, createdAt: new Date(Date.now() - 35 * DAY) })
    .where(and(inArray(s.contacts.userId, registered), isNull(s.contacts.iboId)));
  for (const p of b.signedUp) {
    await tx
      .update(s.users)
      .set({ referredByIboId: iboId, iboSharing: p.sharing, createdAt: sql`least(${s.users.createdAt}, ${new Date(Date.now() - p.daysAgo * DAY).toISOString()}::timestamptz)` })
      .where(and(eq(s.users.id, userId.get(p.email)!), isNull(s.users.referredByIboId)));
  }
}
