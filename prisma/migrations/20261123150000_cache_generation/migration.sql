-- The response cache's shared generation (src/server/cache-generation.ts): every acknowledged write
-- of any process takes nextval() before it answers; every cached read on PostgreSQL reads
-- last_value and serves only entries stored under that value. A sequence, not a row: nextval()
-- takes no row lock (concurrent writers never wait on each other) and leaves no dead tuples.
-- Standalone sequences are not representable in schema.prisma; the schema engine's diff ignores them.

-- CreateSequence
CREATE SEQUENCE "cache_generation";
