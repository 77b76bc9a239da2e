-- DropIndex
DROP INDEX "Event_status_startLocal_id_idx";

-- CreateIndex
CREATE INDEX "Event_status_startLocal_id_endLocal_hideFromListings_idx" ON "Event"("status", "startLocal", "id", "endLocal", "hideFromListings");
