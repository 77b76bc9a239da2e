-- Duplicate detection of venues and organizers compares names ignoring case (issue 14 item 1,
-- src/services/linked-posts.ts sameNameIds): `lower("name") = lower($1)`. Expression indexes are
-- not representable in schema.prisma; the schema engine's diff ignores them.

-- CreateIndex
CREATE INDEX "Venue_lower_name_idx" ON "Venue" (lower("name"));

-- CreateIndex
CREATE INDEX "Organizer_lower_name_idx" ON "Organizer" (lower("name"));
