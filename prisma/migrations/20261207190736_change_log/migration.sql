-- The change log (src/services/change-log.ts): one row per change, inserted in the writing
-- transaction. Readers order rows by (txid, seq) and read only those whose txid is below
-- pg_snapshot_xmin(pg_current_snapshot()): every transaction with a smaller ID has committed or
-- aborted, so no row can later appear before a position a reader has passed.

-- CreateTable
CREATE TABLE "ChangeLog" (
    "txid" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint,
    "seq" BIGSERIAL NOT NULL,
    "kind" VARCHAR(20) NOT NULL,
    "action" VARCHAR(10) NOT NULL,
    "recordId" INTEGER NOT NULL,
    "beforeStatus" VARCHAR(20),
    "beforeAuthorId" INTEGER,
    "committedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeLog_pkey" PRIMARY KEY ("txid","seq")
);

-- CreateTable
CREATE TABLE "ChangeLogPruned" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "txid" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "ChangeLogPruned_pkey" PRIMARY KEY ("id")
);
