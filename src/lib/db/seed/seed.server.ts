/**
 * Loads the demo catalogue and demo people. Idempotent: every row is upserted by its natural key
 * (id, code, email or position), so running it again updates content and never duplicates it.
 */
import { count, sql } from 'drizzle-orm';
import type { Db } from '../client';
import * as s from '../schema';
import { checkedDemoCatalogue } from './demo-catalogue.server';
import * as people from './people';
import { DEFAULT_COST, hashPassword } from '../../identity/password';
import { seedCourses } from './seed-courses.server';
import { seedExams } from './seed-exams.server';
import { seedProducts } from './seed-products.server';
import { seedAccounts } from './seed-accounts.server';
import { seedStaff } from '../../staff/staff.server';
import { seedBusiness } from './seed-business.server';
import { seedCommerce } from './seed-commerce.server';
import { seedCertificates, seedProgress } from './seed-progress.server';

/** True when the catalogue has no course yet (a new database). */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(s.courses);
  return (row?.n ?? 0) === 0;
}

/** What a seed run wrote, for the CLI's summary line. */
export interface SeedSummary {
  courses: number;
  lessons: number;
  questions: number;
  users: number;
  ibos: number;
}

/**
 * Seeds everything in one transaction. The demo courses are the archives of `assets/demo-catalogue`,
 * checked first as an import checks an archive; `mediaDir` holds the demo videos, captions and documents
 * they name. The demo accounts' passwords are hashed at `hashCost` (`PASSWORD_HASH_COST`).
 */
export async function seed(db: Db, mediaDir: string, hashCost = DEFAULT_COST): Promise<SeedSummary> {
  const hashes = new Map<string, string>();
  for (const u of people.users) hashes.set(u.email, await hashPassword(u.password, hashCost));
  const courses = await checkedDemoCatalogue(mediaDir);

  return db.transaction(async (tx) => {
    const lessons = await seedCourses(tx, courses);
    const { evaluationId, questionList } = await seedExams(tx, courses);
    await seedProducts(tx);
    const userId = await seedAccounts(tx, hashes);
    await seedCommerce(tx, userId, courses);
    await seedProgress(tx, { userId, lessons, evaluationId, courses });
    await seedCertificates(tx);
    await seedBusiness(tx, userId, lessons);
    for (const member of people.staff) await seedStaff(tx, userId.get(member.email)!, member.roles, member.factor);

    return {
      courses: courses.length,
      lessons: lessons.length,
      questions: questionList.length,
      users: people.users.length,
      ibos: people.ibos.length,
    };
  });
}

/** Drops every table (and the migration journal) so migrations and seed can start over. */
export async function dropEverything(db: Db): Promise<void> {
  await db.execute(sql`DROP SCHEMA IF EXISTS public CASCADE`);
  await db.execute(sql`DROP SCHEMA IF EXISTS drizzle CASCADE`);
  await db.execute(sql`CREATE SCHEMA public`);
}
