ALTER TABLE "purchased_records" ADD COLUMN "missing_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchased_records" ADD COLUMN "lost_at" timestamp with time zone;