-- A draft never edited since it was created has no UTC modification time in WordPress
-- ("0000-00-00 00:00:00"); an import keeps it so.
ALTER TABLE "Event" ALTER COLUMN "modifiedUtc" DROP NOT NULL;
ALTER TABLE "Organizer" ALTER COLUMN "modifiedUtc" DROP NOT NULL;
ALTER TABLE "Venue" ALTER COLUMN "modifiedUtc" DROP NOT NULL;
