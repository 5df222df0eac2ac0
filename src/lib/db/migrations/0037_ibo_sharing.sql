-- users.ibo_sharing: whether the person lets the IBOs they are related to (the one whose link they signed
-- up through, the one that registered them as a prospect) see them and their progress. Null: never
-- chosen, the default by relation (on for the IBO that registered them, off otherwise); true/false: the
-- person's own choice, at sign-up or on "My data". The rule: src/lib/business/consent.ts.
ALTER TABLE "users" ADD COLUMN "ibo_sharing" boolean;
