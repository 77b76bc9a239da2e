-- AlterTable
ALTER TABLE "Category" ADD COLUMN     "publishedCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Tag" ADD COLUMN     "publishedCount" INTEGER NOT NULL DEFAULT 0;

-- Published-event counts of categories and tags, kept exact by triggers so that reading a term's
-- count costs nothing (it used to be a GROUP BY over every published event of the term).
-- Lock order, to keep concurrent writers from deadlocking: the event row (FOR SHARE from a link,
-- FOR UPDATE from a status change), then categories, then tags, each in ascending ID.

UPDATE "Category" AS c SET "publishedCount" = (
  SELECT count(*) FROM "EventCategory" AS l JOIN "Event" AS e ON e."id" = l."eventId"
  WHERE l."categoryId" = c."id" AND e."status" = 'publish');

UPDATE "Tag" AS t SET "publishedCount" = (
  SELECT count(*) FROM "EventTag" AS l JOIN "Event" AS e ON e."id" = l."eventId"
  WHERE l."tagId" = t."id" AND e."status" = 'publish');

-- A link added or removed changes its term's count when the event is published. FOR SHARE makes a
-- concurrent status change of the same event wait (or be waited for), so the two never miss each
-- other. While an event is being deleted its links are removed by the cascade after the event row:
-- the event is no longer found and the event's own trigger below has already counted them.
CREATE FUNCTION "cal_event_category_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM "Event" WHERE "id" = OLD."eventId" AND "status" = 'publish' FOR SHARE) THEN
    UPDATE "Category" SET "publishedCount" = "publishedCount" - 1 WHERE "id" = OLD."categoryId";
  END IF;
  IF TG_OP <> 'DELETE' AND EXISTS (SELECT 1 FROM "Event" WHERE "id" = NEW."eventId" AND "status" = 'publish' FOR SHARE) THEN
    UPDATE "Category" SET "publishedCount" = "publishedCount" + 1 WHERE "id" = NEW."categoryId";
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "cal_event_tag_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM "Event" WHERE "id" = OLD."eventId" AND "status" = 'publish' FOR SHARE) THEN
    UPDATE "Tag" SET "publishedCount" = "publishedCount" - 1 WHERE "id" = OLD."tagId";
  END IF;
  IF TG_OP <> 'DELETE' AND EXISTS (SELECT 1 FROM "Event" WHERE "id" = NEW."eventId" AND "status" = 'publish' FOR SHARE) THEN
    UPDATE "Tag" SET "publishedCount" = "publishedCount" + 1 WHERE "id" = NEW."tagId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "EventCategory_count" AFTER INSERT OR UPDATE OR DELETE ON "EventCategory"
  FOR EACH ROW EXECUTE FUNCTION "cal_event_category_count"();
CREATE TRIGGER "EventTag_count" AFTER INSERT OR UPDATE OR DELETE ON "EventTag"
  FOR EACH ROW EXECUTE FUNCTION "cal_event_tag_count"();

-- An event entering or leaving `publish` (publishing, unpublishing, trash, restore) moves all of
-- its terms' counts; a published event deleted (directly or by cascade) takes its links with it.
CREATE FUNCTION "cal_event_status_count"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
  event_id integer;
  term integer;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD."status" <> 'publish' THEN RETURN OLD; END IF;
    delta := -1;
    event_id := OLD."id";
  ELSE
    IF (OLD."status" = 'publish') = (NEW."status" = 'publish') THEN RETURN NULL; END IF;
    delta := CASE WHEN NEW."status" = 'publish' THEN 1 ELSE -1 END;
    event_id := NEW."id";
  END IF;
  FOR term IN SELECT "categoryId" FROM "EventCategory" WHERE "eventId" = event_id ORDER BY "categoryId" LOOP
    UPDATE "Category" SET "publishedCount" = "publishedCount" + delta WHERE "id" = term;
  END LOOP;
  FOR term IN SELECT "tagId" FROM "EventTag" WHERE "eventId" = event_id ORDER BY "tagId" LOOP
    UPDATE "Tag" SET "publishedCount" = "publishedCount" + delta WHERE "id" = term;
  END LOOP;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Event_status_count" AFTER UPDATE OF "status" ON "Event"
  FOR EACH ROW EXECUTE FUNCTION "cal_event_status_count"();
CREATE TRIGGER "Event_delete_count" BEFORE DELETE ON "Event"
  FOR EACH ROW EXECUTE FUNCTION "cal_event_status_count"();
