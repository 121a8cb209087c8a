-- UPCs an older tracking import stored without their leading zero (decision 075). A sheet saved by
-- office software turns UPC 045496883386 into the number 45496883386; since decision 074 the import
-- gives the zero back (machines/product-code.ts restoreLeadingZeros: an 11-digit code whose
-- zero-padded 12 digits pass the GS1 check digit is that UPC-A), and this gives it back to the rows
-- written before. Matching compares productCodeKey, so these rows match either way; the zero makes
-- them read, list and export as the product's code. restored_upc implements restoreLeadingZeros for
-- what a stored upc holds (trimmed when written); tests/server/matching/product-codes.test.ts holds
-- it to the app's function. Every restored row is listed in tracking_id_rekeys (table_name
-- 'scan_trackings.upc'), noted 'same product' when its tracking id has another row of that product
-- (an import announced it and a scan saw it under the other written form, so the announcement was
-- never confirmed): an admin decides which row stays. Nothing is refused.
CREATE FUNCTION gs1_check_digit_ok(t text) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT t ~ '^([0-9]{8}|[0-9]{12,14})$' AND (
    10 - (SELECT sum(substr(t, length(t) - i, 1)::int * CASE WHEN i % 2 = 1 THEN 3 ELSE 1 END) FROM generate_series(1, length(t) - 1) AS i) % 10
  ) % 10 = right(t, 1)::int
$$;
--> statement-breakpoint
CREATE FUNCTION restored_upc(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE WHEN t ~ '^[0-9]{11}$' AND gs1_check_digit_ok('0' || t) THEN '0' || t ELSE t END
$$;
--> statement-breakpoint
INSERT INTO "tracking_id_rekeys" ("table_name", "row_id", "before", "after", "note")
SELECT 'scan_trackings.upc', s.id, s.upc, restored_upc(s.upc),
  CASE WHEN EXISTS (
    SELECT 1 FROM scan_trackings o
    WHERE o.tracking_id = s.tracking_id AND o.id <> s.id AND o.upc ~ '^[0-9]+$' AND ltrim(o.upc, '0') = ltrim(s.upc, '0')
      AND gs1_check_digit_ok(restored_upc(o.upc))
  ) THEN 'same product' ELSE '' END
FROM scan_trackings s
WHERE s.upc ~ '^[0-9]{11}$' AND s.upc <> restored_upc(s.upc)
ORDER BY s.id;
--> statement-breakpoint
UPDATE "scan_trackings" SET "upc" = restored_upc("upc")
WHERE "upc" ~ '^[0-9]{11}$' AND "upc" <> restored_upc("upc");
