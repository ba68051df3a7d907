-- Trigram indexes on listings need pg_trgm before any table exists.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
