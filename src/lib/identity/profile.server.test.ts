import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '~/lib/db';
import { contacts, users } from '~/lib/db/schema';
import { testDatabases } from '~/lib/db/testing';
import { profileFormSchema, validate } from './account';
import { updateProfile } from './profile.server';

const databases = await testDatabases();
const year = String(new Date().getFullYear() - 40);
const valid = { name: 'Nora', lastName: 'Quintero', gender: 'female', birthDay: '3', birthMonth: '11', birthYear: year, language: 'en' };

describe('profile form', () => {
  it('accepts the registration rules and tidies the names', () => {
    const parsed = profileFormSchema().parse({ ...valid, name: '  Ana   María ' });
    expect(parsed.name).toBe('Ana María');
    expect(parsed.birthYear).toBe(Number(year));
  });

  it.each([
    ['a format character', { name: 'Ana\u202Eevil' }, 'name'],
    ['a NUL', { lastName: 'Qu\u0000intero' }, 'lastName'],
    ['100 KB', { name: 'x'.repeat(100_000) }, 'name'],
    ['an unknown gender', { gender: 'robot' }, 'gender'],
    ['31 April', { birthDay: '31', birthMonth: '4' }, 'birthDate'],
    ['an unknown language', { language: 'fr' }, 'language'],
    ['no language', { language: '' }, 'language'],
  ])('refuses %s with a field error', (_, patch, field) => {
    const result = validate(profileFormSchema(), { ...valid, ...patch });
    expect(result.success).toBe(false);
    if (!result.success) expect(Object.keys(result.errors)).toContain(field);
  });
});

describe.each(databases)('updating a profile on $name', ({ create }) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => {
    await handle.close();
  });

  it("changes only the caller's row and tells its sessions", async () => {
    const db = handle.db;
    const [me, other] = await db.select().from(users).orderBy(users.id).limit(2);
    const form = profileFormSchema().parse({ ...valid, name: 'Renombrada' });
    const outcome = await updateProfile(db, me!.id, form);
    const [contact] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, me!.id));
    expect(outcome).toEqual({ status: 'ok', changed: [{ session: { userId: me!.id } }, { pages: contact!.id }] });
    const [mine] = await db.select().from(users).where(eq(users.id, me!.id));
    expect(mine).toMatchObject({ firstName: 'Renombrada', lastName: 'Quintero', gender: 'female', birthDate: `${year}-11-03`, locale: 'en' });
    const [theirs] = await db.select().from(users).where(eq(users.id, other!.id));
    expect(theirs).toEqual(other);
  });

  it('reports an unknown user and stores nothing', async () => {
    const outcome = await updateProfile(handle.db, 2_000_000_000, profileFormSchema().parse(valid));
    expect(outcome).toEqual({ status: 'unknownUser', changed: [] });
  });
});
