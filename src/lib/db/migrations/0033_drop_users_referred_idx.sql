-- users_referred_idx (referred_by_ibo_id alone) goes: users_referred_created_idx (referred_by_ibo_id,
-- created_at, where referred_by_ibo_id is not null) serves every look-up by IBO, the foreign key's check
-- included, since `referred_by_ibo_id = $1` implies its predicate (EXPLAIN, generic plan, 115,000 users).
DROP INDEX "users_referred_idx";
