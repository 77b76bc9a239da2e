-- CreateTable
CREATE TABLE "EventListCount" (
    "categoryId" INTEGER NOT NULL,
    "startDay" DATE NOT NULL,
    "endDay" DATE NOT NULL,
    "events" INTEGER NOT NULL,

    CONSTRAINT "EventListCount_pkey" PRIMARY KEY ("categoryId","startDay","endDay")
);

-- CreateTable
CREATE TABLE "EventListState" (
    "eventId" INTEGER NOT NULL,
    "startDay" DATE,
    "endDay" DATE,
    "categories" INTEGER[] DEFAULT ARRAY[]::INTEGER[],

    CONSTRAINT "EventListState_pkey" PRIMARY KEY ("eventId")
);

-- The public list's total (published, not hidden from listings, within a window of event-local
-- start and end) read every matching entry of an index: it grew with the calendar. These counts by
-- (category, start day, end day) are kept exact by the triggers below, so the total sums the days
-- wholly inside the window and counts the events of its edge days exactly (src/services/event-list-count.ts).
-- Category 0 counts every listed event; a category counts the listed events linked to it or to a
-- descendant (the list's category filter takes the descendants along).
--
-- Every trigger does one thing: `cal_event_list_sync(event)` compares what the event counts in now
-- (its row, its links and their ancestors) with what it was counted in ("EventListState") and moves
-- the difference. It reads the current rows rather than OLD/NEW, so a statement writing several
-- links, a cascade, or a category moved under another all converge on the same exact counts.
-- Concurrent writers of one event take turns on its "EventListState" row (FOR UPDATE: each later
-- statement of the function then reads what the other committed; a row lock, unlike an advisory
-- one, costs no shared memory however many events one transaction writes). Count rows are written
-- in key order. "EventListState" has no foreign key: a cascade must not remove it before the
-- event's own trigger has taken its counts out.

CREATE FUNCTION "cal_event_list_sync"(event_id integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  was "EventListState"%ROWTYPE;
  listed boolean;
  start_day date;
  end_day date;
  cats integer[] := '{}';
BEGIN
  SELECT * INTO was FROM "EventListState" WHERE "eventId" = event_id FOR UPDATE;
  -- No row: the event is gone (its deletion already took its counts out).
  IF NOT FOUND THEN RETURN; END IF;
  SELECT "startLocal"::date, "endLocal"::date INTO start_day, end_day FROM "Event"
    WHERE "id" = event_id AND "status" = 'publish' AND NOT "hideFromListings";
  listed := FOUND;
  IF listed THEN
    WITH RECURSIVE up(id) AS (
      SELECT "categoryId" FROM "EventCategory" WHERE "eventId" = event_id
      UNION SELECT c."parentId" FROM "Category" c JOIN up ON c."id" = up.id WHERE c."parentId" IS NOT NULL)
    SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO cats FROM up;
  END IF;
  IF was."startDay" IS NOT DISTINCT FROM start_day AND was."endDay" IS NOT DISTINCT FROM end_day AND was."categories" = cats THEN
    RETURN;
  END IF;

  INSERT INTO "EventListCount" AS n ("categoryId", "startDay", "endDay", "events")
  SELECT k.category, k.start_day, k.end_day, sum(k.delta)
  FROM (
    SELECT unnest(ARRAY[0] || was."categories") AS category, was."startDay" AS start_day, was."endDay" AS end_day, -1 AS delta
    WHERE was."startDay" IS NOT NULL
    UNION ALL
    SELECT unnest(ARRAY[0] || cats), start_day, end_day, 1 WHERE listed
  ) AS k
  GROUP BY 1, 2, 3 HAVING sum(k.delta) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("categoryId", "startDay", "endDay") DO UPDATE SET "events" = n."events" + EXCLUDED."events";

  IF was."startDay" IS NOT NULL THEN
    DELETE FROM "EventListCount"
    WHERE "categoryId" = ANY(ARRAY[0] || was."categories") AND "startDay" = was."startDay" AND "endDay" = was."endDay" AND "events" = 0;
  END IF;
  UPDATE "EventListState" SET "startDay" = start_day, "endDay" = end_day, "categories" = cats WHERE "eventId" = event_id;
END $$;

CREATE FUNCTION "cal_event_list_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "EventListState" ("eventId") VALUES (NEW."id") ON CONFLICT DO NOTHING;
    PERFORM "cal_event_list_sync"(NEW."id");
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "cal_event_list_sync"(NEW."id");
  ELSE
    PERFORM "cal_event_list_sync"(OLD."id");
    DELETE FROM "EventListState" WHERE "eventId" = OLD."id";
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "cal_event_list_link"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "cal_event_list_sync"(OLD."eventId"); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."eventId" <> OLD."eventId") THEN PERFORM "cal_event_list_sync"(NEW."eventId"); END IF;
  RETURN NULL;
END $$;

-- A category moved under another parent (or left without one when its parent is deleted) changes
-- the ancestors of every event linked in its subtree: those events are counted again.
CREATE FUNCTION "cal_event_list_category"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_id integer;
BEGIN
  FOR event_id IN
    WITH RECURSIVE down(id) AS (
      SELECT NEW."id" UNION SELECT c."id" FROM "Category" c JOIN down ON c."parentId" = down.id)
    SELECT DISTINCT l."eventId" FROM "EventCategory" l JOIN down ON l."categoryId" = down.id ORDER BY 1
  LOOP
    PERFORM "cal_event_list_sync"(event_id);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER "Event_list_count" AFTER INSERT OR DELETE OR UPDATE OF "status", "hideFromListings", "startLocal", "endLocal" ON "Event"
  FOR EACH ROW EXECUTE FUNCTION "cal_event_list_event"();
CREATE TRIGGER "EventCategory_list_count" AFTER INSERT OR UPDATE OR DELETE ON "EventCategory"
  FOR EACH ROW EXECUTE FUNCTION "cal_event_list_link"();
CREATE TRIGGER "Category_list_count" AFTER UPDATE OF "parentId" ON "Category"
  FOR EACH ROW WHEN (OLD."parentId" IS DISTINCT FROM NEW."parentId") EXECUTE FUNCTION "cal_event_list_category"();

-- The counts of the events already there.
INSERT INTO "EventListState" ("eventId", "startDay", "endDay", "categories")
WITH RECURSIVE up(category, id) AS (
  SELECT "id", "id" FROM "Category"
  UNION SELECT up.category, c."parentId" FROM up JOIN "Category" c ON c."id" = up.id WHERE c."parentId" IS NOT NULL)
SELECT e."id", e."startLocal"::date, e."endLocal"::date, coalesce((
    SELECT array_agg(DISTINCT up.id ORDER BY up.id) FROM "EventCategory" l JOIN up ON up.category = l."categoryId" WHERE l."eventId" = e."id"), '{}')
FROM "Event" e WHERE e."status" = 'publish' AND NOT e."hideFromListings"
UNION ALL
SELECT e."id", NULL, NULL, '{}' FROM "Event" e WHERE NOT (e."status" = 'publish' AND NOT e."hideFromListings");

INSERT INTO "EventListCount" ("categoryId", "startDay", "endDay", "events")
SELECT k.category, s."startDay", s."endDay", count(*)
FROM "EventListState" s CROSS JOIN LATERAL unnest(ARRAY[0] || s."categories") AS k(category)
WHERE s."startDay" IS NOT NULL
GROUP BY 1, 2, 3;
