-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "materializedUntil" TIMESTAMP(0),
ADD COLUMN     "recurrenceExdates" TIMESTAMP(0)[] DEFAULT ARRAY[]::TIMESTAMP(0)[],
ADD COLUMN     "recurrenceRdates" TIMESTAMP(0)[] DEFAULT ARRAY[]::TIMESTAMP(0)[],
ADD COLUMN     "recurrenceRule" TEXT,
ADD COLUMN     "recurrenceStart" TIMESTAMP(0);

-- CreateTable
CREATE TABLE "EventOccurrence" (
    "eventId" INTEGER NOT NULL,
    "seriesId" INTEGER NOT NULL,
    "recurrenceLocal" TIMESTAMP(0) NOT NULL,
    "startLocal" TIMESTAMP(0) NOT NULL,
    "endLocal" TIMESTAMP(0) NOT NULL,
    "startUtc" TIMESTAMP(0) NOT NULL,
    "endUtc" TIMESTAMP(0) NOT NULL,
    "overridden" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "EventOccurrence_pkey" PRIMARY KEY ("eventId")
);

-- CreateIndex
CREATE INDEX "EventOccurrence_seriesId_startLocal_idx" ON "EventOccurrence"("seriesId", "startLocal");

-- CreateIndex
CREATE UNIQUE INDEX "EventOccurrence_seriesId_recurrenceLocal_key" ON "EventOccurrence"("seriesId", "recurrenceLocal");

-- CreateIndex
CREATE INDEX "Event_materializedUntil_idx" ON "Event"("materializedUntil");

-- AddForeignKey
ALTER TABLE "EventOccurrence" ADD CONSTRAINT "EventOccurrence_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventOccurrence" ADD CONSTRAINT "EventOccurrence_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;
