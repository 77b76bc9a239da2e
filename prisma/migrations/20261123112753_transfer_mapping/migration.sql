-- CreateTable
CREATE TABLE "TransferMapping" (
    "source" VARCHAR(500) NOT NULL,
    "kind" VARCHAR(20) NOT NULL,
    "sourceId" INTEGER NOT NULL,
    "localId" INTEGER NOT NULL,
    "hash" VARCHAR(64) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TransferMapping_pkey" PRIMARY KEY ("source","kind","sourceId")
);

-- CreateIndex
CREATE INDEX "TransferMapping_kind_localId_idx" ON "TransferMapping"("kind", "localId");
