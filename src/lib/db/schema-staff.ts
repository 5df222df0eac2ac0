/**
 * The staff of the back office: the roles each account holds, its second factor (a TOTP secret) and its
 * single-use recovery codes. Part of the one schema (`schema.ts` re-exports it).
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './schema';

/** One staff role held by one account (an account may hold several). */
export const staffRoles = pgTable(
  'staff_roles',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: ['administrator', 'editor', 'support', 'finance'] }).notNull(),
    grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] }), index('staff_roles_role_idx').on(t.role)],
);
export type StaffRoleRow = typeof staffRoles.$inferSelect;

/**
 * A staff account's TOTP secret (base32). Unconfirmed until the first right code; `lastStep` is the
 * 30-second step of the last code accepted, so a code is never accepted twice. The secret is never
 * logged nor shown again after set-up.
 */
export const staffFactors = pgTable('staff_factors', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp({ withTimezone: true }),
  lastStep: integer().notNull().default(0),
});
export type StaffFactor = typeof staffFactors.$inferSelect;

/** A recovery code of a staff account: only its SHA-256 is stored, and it works once. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_recovery_codes_uq').on(t.userId, t.codeHash), index('staff_recovery_unused_idx').on(t.userId).where(sql`${t.usedAt} is null`)],
);
