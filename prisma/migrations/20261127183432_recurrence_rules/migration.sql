-- A series may have several RRULEs (their union) or none (RDATEs only): the rule becomes a list,
-- and a series is told by its DTSTART (recurrenceStart), which every series already has.
ALTER TABLE "Event" ADD COLUMN "recurrenceRules" TEXT[] DEFAULT ARRAY[]::TEXT[];
UPDATE "Event" SET "recurrenceRules" = ARRAY["recurrenceRule"] WHERE "recurrenceRule" IS NOT NULL;
ALTER TABLE "Event" DROP COLUMN "recurrenceRule";

-- Where materialized occurrences begin (null: at DTSTART, what every existing series did).
ALTER TABLE "Event" ADD COLUMN "materializedFrom" TIMESTAMP(0);
