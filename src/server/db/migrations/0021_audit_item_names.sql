CREATE TABLE "audit_item_names" (
	"entity" "audit_entity" NOT NULL,
	"item_name" text NOT NULL,
	CONSTRAINT "audit_item_names_entity_item_name_pk" PRIMARY KEY("entity","item_name")
);
--> statement-breakpoint
-- Hand-written (drizzle-kit models no triggers): every statement that writes audit entries adds their
-- names not yet known, in one sorted order so that two writers of the same new names do not deadlock
-- (decision 183). CREATE TRIGGER locks audit_log against writers until this migration commits, so
-- the copy below sees every entry written before it and the trigger every one after.
CREATE FUNCTION "audit_item_names_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "audit_item_names" ("entity", "item_name")
	SELECT DISTINCT "entity", "item_name" FROM "added" WHERE "item_name" IS NOT NULL ORDER BY 1, 2
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_item_names_add" AFTER INSERT ON "audit_log" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "audit_item_names_add"();--> statement-breakpoint
INSERT INTO "audit_item_names" ("entity", "item_name") SELECT DISTINCT "entity", "item_name" FROM "audit_log" WHERE "item_name" IS NOT NULL;--> statement-breakpoint
DROP INDEX "audit_log_item_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "audit_item_names_trgm_idx" ON "audit_item_names" USING gin ("item_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_log_entity_item_name_created_idx" ON "audit_log" USING btree ("entity","item_name","created_at","id");
