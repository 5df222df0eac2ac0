-- Trigram matching for accent- and typo-tolerant course search (available in PGlite and PostgreSQL).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
