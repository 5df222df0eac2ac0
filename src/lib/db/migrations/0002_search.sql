-- Course search: accent- and case-insensitive trigram matching on PGlite and PostgreSQL alike.
-- `unaccent` is a trusted contrib extension (PGlite ships it in contrib as well).
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- `unaccent(text)` is only STABLE (it looks its dictionary up through search_path), so it cannot be
-- used in an index. Naming the dictionary by schema makes the result depend on the input alone, so
-- this wrapper may be declared IMMUTABLE. Lower-casing after unaccent keeps 'Á' → 'a' in any locale.
CREATE OR REPLACE FUNCTION search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS courses_search_name_es_idx ON courses USING gin (search_fold(name_es) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS courses_search_name_en_idx ON courses USING gin (search_fold(name_en) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS courses_search_description_es_idx ON courses USING gin (search_fold(description_es) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS courses_search_description_en_idx ON courses USING gin (search_fold(description_en) gin_trgm_ops);
