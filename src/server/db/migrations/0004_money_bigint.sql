-- Money columns int4 -> bigint (cents; the contract's 99,999,999.99 does not fit in int4). One ALTER per table, so each table is rewritten once.
ALTER TABLE "items" ALTER COLUMN "price" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "board_tasks" ALTER COLUMN "price" SET DATA TYPE bigint, ALTER COLUMN "buy_in" SET DATA TYPE bigint, ALTER COLUMN "average_cost" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "price" SET DATA TYPE bigint, ALTER COLUMN "buy_in" SET DATA TYPE bigint, ALTER COLUMN "bonus" SET DATA TYPE bigint, ALTER COLUMN "punish" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "payment_applies" ALTER COLUMN "price" SET DATA TYPE bigint, ALTER COLUMN "buy_in" SET DATA TYPE bigint, ALTER COLUMN "bonus" SET DATA TYPE bigint, ALTER COLUMN "punish" SET DATA TYPE bigint, ALTER COLUMN "income" SET DATA TYPE bigint, ALTER COLUMN "asked_bonus" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "withdraw_requests" ALTER COLUMN "withdraw_amount" SET DATA TYPE bigint;
