-- Trigram operators for the search indexes (PGlite loads the extension at open; see src/db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "Event_title_idx" ON "Event" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Event_excerpt_idx" ON "Event" USING GIN ("excerpt" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Event_content_idx" ON "Event" USING GIN ("content" gin_trgm_ops);
