-- Tracking ids in one canonical form (decision 097). The app computes the key in TypeScript
-- (machines/tracking-id.ts); rows written before it are re-keyed here with the same steps for what
-- an old row can hold (old rows never hold a control character, so never GS1's separator): NFKC
-- (full-width to half-width), invisible characters removed, upper case, trimmed, AIM prefixes,
-- inner spaces and dashes removed, USPS 420+ZIP and FedEx's 96 barcodes reduced to the carrier's
-- number. tests/server/receiving/tracking-id.test.ts holds this function to the app's.
-- Nothing is refused: every re-keyed row is listed in tracking_id_rekeys (migration 0011), with a note when two
-- different stored ids now share one key ('collides'), or when a task already has a record of the
-- key, in which case that record is left as it was ('kept: ...').
CREATE FUNCTION canonical_tracking_id_step(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE
    WHEN s ~ '^420[0-9]+$' AND length(s) IN (28, 30, 32, 34) THEN right(s, CASE WHEN length(s) IN (28, 32) THEN 20 ELSE 22 END)
    WHEN s ~ '^96[0-9]{32}$' THEN CASE WHEN substr(s, 21, 2) = '00' THEN right(s, 12) ELSE right(s, 15) END
    WHEN s ~ '^96[0-9]{20}$' THEN right(s, 15)
    ELSE s
  END
  FROM (
    SELECT regexp_replace(
      regexp_replace(
        regexp_replace(
          regexp_replace(
            normalize(upper(regexp_replace(normalize(t, NFKC), '[\u00AD\u034F\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]', '', 'g')), NFKC),
            '^[\u0009-\u000D\u0020\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+|[\u0009-\u000D\u0020\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$', '', 'g'),
          '^(\][A-Za-z][0-9])+', ''),
        '[\u0001-\u001F\u007F-\u009F\u0020\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\u002D\u058A\u05BE\u1400\u1806\u2010-\u2015\u2212\u2E17\u2E1A\u2E3A\u2E3B\u2E40\u2E5D\u301C\u3030\u30A0\u30FC\uFE31\uFE32\uFE58\uFE63\uFF0D\uFF70]', '', 'g'),
      '^(\][A-Za-z][0-9])+', '') AS s
  ) AS x
$$;
--> statement-breakpoint
CREATE FUNCTION canonical_tracking_id(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE WHEN canonical_tracking_id_step(a) = a THEN a ELSE canonical_tracking_id_step(canonical_tracking_id_step(a)) END
  FROM (SELECT canonical_tracking_id_step(t) AS a) AS x
$$;
--> statement-breakpoint
UPDATE "purchased_records" SET "typed_tracking_id" = "tracking_id" WHERE "typed_tracking_id" IS NULL;
--> statement-breakpoint
INSERT INTO "tracking_id_rekeys" ("table_name", "row_id", "before", "after", "note")
WITH keyed AS (
  SELECT 'purchased_records' AS tbl, id, task_id, tracking_id AS before, canonical_tracking_id(tracking_id) AS after FROM purchased_records
  UNION ALL
  SELECT 'scan_trackings', id, NULL, tracking_id, canonical_tracking_id(tracking_id) FROM scan_trackings
)
SELECT c.tbl, c.id, c.before, c.after,
  CASE
    WHEN c.tbl = 'purchased_records' AND EXISTS (
      SELECT 1 FROM keyed o
      WHERE o.tbl = 'purchased_records' AND o.task_id = c.task_id AND o.id <> c.id AND o.after = c.after AND (o.before = o.after OR o.id < c.id)
    ) THEN 'kept: the task has a record of this key'
    WHEN EXISTS (SELECT 1 FROM keyed o WHERE o.after = c.after AND o.before <> c.before) THEN 'collides'
    ELSE ''
  END
FROM keyed c
WHERE c.before <> c.after
ORDER BY c.tbl, c.id;
--> statement-breakpoint
UPDATE "purchased_records" p SET "tracking_id" = r."after"
FROM "tracking_id_rekeys" r
WHERE r."table_name" = 'purchased_records' AND r."row_id" = p."id" AND r."note" NOT LIKE 'kept%';
--> statement-breakpoint
UPDATE "scan_trackings" s SET "tracking_id" = r."after"
FROM "tracking_id_rekeys" r
WHERE r."table_name" = 'scan_trackings' AND r."row_id" = s."id";
--> statement-breakpoint
UPDATE "tasks" SET "tracking_id" = canonical_tracking_id("tracking_id")
WHERE "tracking_id" IS NOT NULL AND "tracking_id" <> canonical_tracking_id("tracking_id");
