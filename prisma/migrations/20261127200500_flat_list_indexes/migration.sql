-- Lists that stay flat in the size of the calendar.
-- Venue and organizer lists are ordered newest first with undated drafts last
-- (ORDER BY "dateUtc" DESC NULLS LAST, "id" DESC): an index in exactly that order lets a page read its
-- rows from the front instead of sorting every venue. Prisma's schema cannot say NULLS LAST
-- (schema.prisma declares the same columns and directions; its diff does not see the difference).
-- The link tables' indexes carry the event ID: a list filtered by category, tag, venue or organizer
-- counts its matches (and joins them to the events) from the index alone, without reading the table.

-- DropIndex
DROP INDEX "EventCategory_categoryId_idx";

-- DropIndex
DROP INDEX "EventOrganizer_organizerId_idx";

-- DropIndex
DROP INDEX "EventTag_tagId_idx";

-- DropIndex
DROP INDEX "EventVenue_venueId_idx";

-- CreateIndex
CREATE INDEX "EventCategory_categoryId_eventId_idx" ON "EventCategory"("categoryId", "eventId");

-- CreateIndex
CREATE INDEX "EventOrganizer_organizerId_eventId_idx" ON "EventOrganizer"("organizerId", "eventId");

-- CreateIndex
CREATE INDEX "EventTag_tagId_eventId_idx" ON "EventTag"("tagId", "eventId");

-- CreateIndex
CREATE INDEX "EventVenue_venueId_eventId_idx" ON "EventVenue"("venueId", "eventId");

-- CreateIndex
CREATE INDEX "Organizer_dateUtc_id_idx" ON "Organizer"("dateUtc" DESC NULLS LAST, "id" DESC);

-- CreateIndex
CREATE INDEX "Venue_dateUtc_id_idx" ON "Venue"("dateUtc" DESC NULLS LAST, "id" DESC);
