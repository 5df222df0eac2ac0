/**
 * Changing a person's own profile: name and last name, gender and birth date. The row changed is
 * always the caller's (`userId` comes from the session, never from the form).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contacts, users } from '../db/schema';
import { pagesChange, sessionChange, type Change } from '../runtime/changes';
import { birthDateOf, type ProfileForm } from './account';

export type ProfileUpdate = { status: 'ok'; changed: Change[] } | { status: 'unknownUser'; changed: Change[] };

/**
 * Stores a valid profile form on user `userId`. Its sessions are told (the header shows the new name
 * on the next page of every process), and so are the pages kept for its contact (the profile page).
 */
export async function updateProfile(db: Db, userId: number, form: ProfileForm): Promise<ProfileUpdate> {
  const updated = await db
    .update(users)
    .set({ firstName: form.name, lastName: form.lastName, gender: form.gender, birthDate: birthDateOf(form), locale: form.language })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  if (updated.length === 0) return { status: 'unknownUser', changed: [] };
  const own = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, userId));
  return { status: 'ok', changed: [sessionChange({ userId }), ...own.map((c) => pagesChange(c.id))] };
}
