/** Seeds the demo people: accounts (created once, never overwritten), their contacts and the IBOs. */
import { inArray } from 'drizzle-orm';
import * as s from '../schema';
import * as people from './people';
import { excluded, type Tx } from './seed-kit.server';

/** Writes the accounts with their password hashes (by email); returns each demo account's user id by email. */
export async function seedAccounts(tx: Tx, hashes: Map<string, string>) {
  await tx
    .insert(s.users)
    .values(
      people.users.map((u) => ({
        email: u.email,
        passwordHash: hashes.get(u.email)!,
        firstName: u.firstName,
        lastName: u.lastName,
        userType: u.userType,
        imageUrl: u.imageUrl,
        // The demo accounts' addresses count as confirmed: they buy and earn certificates at once.
        emailVerifiedAt: new Date('2026-01-01T00:00:00Z'),
      })),
    )
    .onConflictDoNothing();
  const userRows = await tx
    .select({ id: s.users.id, email: s.users.email, firstName: s.users.firstName, lastName: s.users.lastName })
    .from(s.users)
    .where(inArray(s.users.email, people.users.map((u) => u.email)));
  const userId = new Map(userRows.map((u) => [u.email, u.id]));
  await tx
    .insert(s.contacts)
    .values(userRows.map((u) => ({ userId: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email })))
    .onConflictDoNothing();
  await tx
    .insert(s.ibos)
    .values(people.ibos.map((i) => ({ code: i.code, companyName: i.companyName, userId: userId.get(i.userEmail)!, status: i.status, imageUrl: i.imageUrl })))
    .onConflictDoUpdate({ target: s.ibos.code, set: excluded(s.ibos, ['companyName', 'status', 'imageUrl']) });
  return userId;
}
