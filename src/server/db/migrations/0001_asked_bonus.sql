ALTER TABLE "payment_applies" ADD COLUMN "asked_bonus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Before this column only a flag was kept: the asked bonus is known exactly where the admin has not
-- changed it yet (applied), else it reads as the agreed bonus, as it was shown before.
UPDATE "payment_applies" SET "asked_bonus" = "bonus" WHERE "exist_bonus";
