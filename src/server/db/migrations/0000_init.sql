CREATE TYPE "public"."mail_transport" AS ENUM('primary', 'backup');--> statement-breakpoint
CREATE TYPE "public"."one_time_token_kind" AS ENUM('register', 'change');--> statement-breakpoint
CREATE TYPE "public"."outbox_status" AS ENUM('pending', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."role_type" AS ENUM('admin', 'lowerAdmin', 'user');--> statement-breakpoint
CREATE TYPE "public"."item_status" AS ENUM('open', 'close');--> statement-breakpoint
CREATE TYPE "public"."board_status" AS ENUM('unpublish', 'open', 'close');--> statement-breakpoint
CREATE TYPE "public"."board_task_status" AS ENUM('normal', 'urgent', 'full', 'deleted', 'closed');--> statement-breakpoint
CREATE TYPE "public"."purchased_status" AS ENUM('init', 'match', 'unmatch');--> statement-breakpoint
CREATE TYPE "public"."task_status" AS ENUM('pending', 'open', 'closed', 'locked', 'processing', 'finished', 'deleted', 'unmatch');--> statement-breakpoint
CREATE TYPE "public"."scan_status" AS ENUM('init', 'scan', 'match', 'unmatch', 'wait2pay', 'payed');--> statement-breakpoint
CREATE TYPE "public"."payment_apply_status" AS ENUM('applied', 'agreed', 'withdrawing', 'paid', 'collected');--> statement-breakpoint
CREATE TYPE "public"."withdraw_status" AS ENUM('canceled', 'waited', 'paid', 'requestedCancel');--> statement-breakpoint
CREATE TYPE "public"."audit_entity" AS ENUM('task', 'tracking', 'purchased', 'board', 'boardTask', 'item', 'group', 'user', 'payment', 'withdraw', 'card');--> statement-breakpoint
CREATE TABLE "notices" (
	"id" integer PRIMARY KEY NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" "one_time_token_kind" NOT NULL,
	"token_hash" text NOT NULL,
	"mail_addr" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"transport" "mail_transport" DEFAULT 'primary' NOT NULL,
	"to_addr" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" "outbox_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"keep" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"mail_addr" text NOT NULL,
	"nick_name" text NOT NULL,
	"phone_no" text DEFAULT '' NOT NULL,
	"qq" text DEFAULT '' NOT NULL,
	"role_type" "role_type" DEFAULT 'user' NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_group_members" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_group_members_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "user_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_name" text NOT NULL,
	"upc" text,
	"url" text DEFAULT '' NOT NULL,
	"status" "item_status" DEFAULT 'open' NOT NULL,
	"product_id" text NOT NULL,
	"price" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "items_price_nonneg" CHECK ("items"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "board_groups" (
	"board_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "board_groups_pk" PRIMARY KEY("board_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "board_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"board_id" integer NOT NULL,
	"user_id" integer,
	"item_id" integer NOT NULL,
	"item_name" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"price" integer,
	"buy_in" integer NOT NULL,
	"show" integer NOT NULL,
	"need" integer NOT NULL,
	"average_cost" integer,
	"all_count" integer DEFAULT 0 NOT NULL,
	"address" text DEFAULT 'DEFAULT' NOT NULL,
	"status" "board_task_status" DEFAULT 'normal' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"item_source" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "board_tasks_amounts_nonneg" CHECK ("board_tasks"."price" >= 0 AND "board_tasks"."buy_in" >= 0 AND "board_tasks"."average_cost" >= 0),
	CONSTRAINT "board_tasks_counts_nonneg" CHECK ("board_tasks"."show" >= 0 AND "board_tasks"."need" >= 0 AND "board_tasks"."all_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "board_users" (
	"board_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "board_users_pk" PRIMARY KEY("board_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "boards" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"board_name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"status" "board_status" DEFAULT 'unpublish' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchased_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"tracking_id" text NOT NULL,
	"product_count" integer NOT NULL,
	"status" "purchased_status" DEFAULT 'init' NOT NULL,
	"msg" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchased_records_count_nonneg" CHECK ("purchased_records"."product_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"main_id" integer NOT NULL,
	"sub_id" integer DEFAULT 0 NOT NULL,
	"board_id" integer NOT NULL,
	"board_task_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"item_name" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"price" integer,
	"buy_in" integer NOT NULL,
	"bonus" integer DEFAULT 0 NOT NULL,
	"punish" integer DEFAULT 0 NOT NULL,
	"count" integer NOT NULL,
	"product_count" integer DEFAULT 0 NOT NULL,
	"status" "task_status" NOT NULL,
	"is_home" boolean DEFAULT false NOT NULL,
	"state" text,
	"zip_code" text,
	"label_count" integer,
	"upc" text,
	"can_split" boolean DEFAULT false NOT NULL,
	"tracking_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_claim_is_main" CHECK ("tasks"."sub_id" > 0 OR "tasks"."main_id" = "tasks"."id"),
	CONSTRAINT "tasks_sub_id_nonneg" CHECK ("tasks"."sub_id" >= 0),
	CONSTRAINT "tasks_counts_nonneg" CHECK ("tasks"."count" >= 0 AND "tasks"."product_count" >= 0 AND "tasks"."label_count" >= 0),
	CONSTRAINT "tasks_amounts_nonneg" CHECK ("tasks"."price" >= 0 AND "tasks"."buy_in" >= 0 AND "tasks"."bonus" >= 0 AND "tasks"."punish" >= 0)
);
--> statement-breakpoint
CREATE TABLE "scan_trackings" (
	"id" serial PRIMARY KEY NOT NULL,
	"tracking_id" text NOT NULL,
	"upc" text NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"item_id" integer,
	"item_name" text DEFAULT '' NOT NULL,
	"status" "scan_status" DEFAULT 'init' NOT NULL,
	"matched_user" text,
	"user_id" integer,
	"main_id" integer,
	"sub_id" integer,
	"task_id" integer,
	"op_uid" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scan_trackings_count_nonneg" CHECK ("scan_trackings"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bank_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"payment_type" text NOT NULL,
	"account_name_encrypt" text NOT NULL,
	"account_name_last4" text NOT NULL,
	"card_no_encrypt" text,
	"card_no_last4" text,
	"routing_number_encrypt" text,
	"routing_number_last4" text,
	"bank_info" text DEFAULT '' NOT NULL,
	"card_type" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_applies" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"main_id" integer NOT NULL,
	"sub_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"item_name" text NOT NULL,
	"price" integer,
	"buy_in" integer NOT NULL,
	"count" integer NOT NULL,
	"bonus" integer DEFAULT 0 NOT NULL,
	"punish" integer DEFAULT 0 NOT NULL,
	"income" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" "payment_apply_status" DEFAULT 'applied' NOT NULL,
	"exist_bonus" boolean DEFAULT false NOT NULL,
	"agreed_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"collected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_applies_amounts_nonneg" CHECK ("payment_applies"."price" >= 0 AND "payment_applies"."buy_in" >= 0 AND "payment_applies"."count" >= 0 AND "payment_applies"."bonus" >= 0 AND "payment_applies"."punish" >= 0)
);
--> statement-breakpoint
CREATE TABLE "withdraw_order_applies" (
	"order_id" text NOT NULL,
	"payment_apply_id" integer NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdraw_order_applies_pk" PRIMARY KEY("order_id","payment_apply_id")
);
--> statement-breakpoint
CREATE TABLE "withdraw_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdraw_orders_order_id_uq" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "withdraw_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"card_id" integer NOT NULL,
	"payment_type" text NOT NULL,
	"account_name_encrypt" text NOT NULL,
	"account_name_last4" text NOT NULL,
	"card_no_encrypt" text,
	"card_no_last4" text,
	"address" text DEFAULT '' NOT NULL,
	"withdraw_amount" integer NOT NULL,
	"user_note" text DEFAULT '' NOT NULL,
	"status" "withdraw_status" DEFAULT 'waited' NOT NULL,
	"cancel_flag" boolean DEFAULT true NOT NULL,
	"admin_note" text DEFAULT '' NOT NULL,
	"admin_note2" text DEFAULT '' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdraw_requests_amount_positive" CHECK ("withdraw_requests"."withdraw_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity" "audit_entity" NOT NULL,
	"entity_id" integer,
	"action" text NOT NULL,
	"op_uid" integer,
	"user_id" integer,
	"main_id" integer,
	"sub_id" integer,
	"upc" text,
	"count" integer,
	"item_name" text,
	"status" text,
	"tracking_id" text,
	"task_id" integer,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "download_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"resource_id" integer,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_group_id_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_groups" ADD CONSTRAINT "board_groups_board_id_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_groups" ADD CONSTRAINT "board_groups_group_id_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_tasks" ADD CONSTRAINT "board_tasks_board_id_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."boards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_tasks" ADD CONSTRAINT "board_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_tasks" ADD CONSTRAINT "board_tasks_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_users" ADD CONSTRAINT "board_users_board_id_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_users" ADD CONSTRAINT "board_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_records" ADD CONSTRAINT "purchased_records_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_records" ADD CONSTRAINT "purchased_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_board_id_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."boards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_board_task_id_board_tasks_id_fk" FOREIGN KEY ("board_task_id") REFERENCES "public"."board_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_main_id_fk" FOREIGN KEY ("main_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_trackings" ADD CONSTRAINT "scan_trackings_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_trackings" ADD CONSTRAINT "scan_trackings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_trackings" ADD CONSTRAINT "scan_trackings_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_trackings" ADD CONSTRAINT "scan_trackings_op_uid_users_id_fk" FOREIGN KEY ("op_uid") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_applies" ADD CONSTRAINT "payment_applies_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_applies" ADD CONSTRAINT "payment_applies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_order_applies" ADD CONSTRAINT "withdraw_order_applies_order_id_withdraw_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."withdraw_orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_order_applies" ADD CONSTRAINT "withdraw_order_applies_payment_apply_id_payment_applies_id_fk" FOREIGN KEY ("payment_apply_id") REFERENCES "public"."payment_applies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_orders" ADD CONSTRAINT "withdraw_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_requests" ADD CONSTRAINT "withdraw_requests_order_id_withdraw_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."withdraw_orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_requests" ADD CONSTRAINT "withdraw_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_requests" ADD CONSTRAINT "withdraw_requests_card_id_bank_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."bank_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_tokens_hash_uq" ON "one_time_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "one_time_tokens_mail_idx" ON "one_time_tokens" USING btree ("mail_addr","kind");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_uq" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_mail_addr_uq" ON "users" USING btree ("mail_addr");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "user_group_members_user_idx" ON "user_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_groups_created_at_idx" ON "user_groups" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "items_upc_idx" ON "items" USING btree ("upc");--> statement-breakpoint
CREATE INDEX "items_product_id_idx" ON "items" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "items_status_created_idx" ON "items" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "items_created_at_idx" ON "items" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "board_groups_group_idx" ON "board_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "board_tasks_board_created_idx" ON "board_tasks" USING btree ("board_id","created_at");--> statement-breakpoint
CREATE INDEX "board_tasks_item_idx" ON "board_tasks" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "board_users_user_idx" ON "board_users" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "boards_uuid_uq" ON "boards" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "boards_status_created_idx" ON "boards" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "boards_created_at_idx" ON "boards" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "purchased_records_task_tracking_uq" ON "purchased_records" USING btree ("task_id","tracking_id");--> statement-breakpoint
CREATE INDEX "purchased_records_tracking_idx" ON "purchased_records" USING btree ("tracking_id");--> statement-breakpoint
CREATE INDEX "purchased_records_user_created_idx" ON "purchased_records" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_main_sub_uq" ON "tasks" USING btree ("main_id","sub_id");--> statement-breakpoint
CREATE INDEX "tasks_user_created_idx" ON "tasks" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_status_created_idx" ON "tasks" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_created_idx" ON "tasks" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_board_task_idx" ON "tasks" USING btree ("board_task_id","status");--> statement-breakpoint
CREATE INDEX "tasks_board_user_idx" ON "tasks" USING btree ("board_id","user_id");--> statement-breakpoint
CREATE INDEX "tasks_item_idx" ON "tasks" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "tasks_tracking_idx" ON "tasks" USING btree ("tracking_id");--> statement-breakpoint
CREATE INDEX "scan_trackings_tracking_idx" ON "scan_trackings" USING btree ("tracking_id");--> statement-breakpoint
CREATE INDEX "scan_trackings_created_idx" ON "scan_trackings" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "scan_trackings_status_created_idx" ON "scan_trackings" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "scan_trackings_item_created_idx" ON "scan_trackings" USING btree ("item_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scan_trackings_task_idx" ON "scan_trackings" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "bank_cards_user_live_idx" ON "bank_cards" USING btree ("user_id","created_at") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_applies_task_uq" ON "payment_applies" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "payment_applies_user_created_idx" ON "payment_applies" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_applies_status_created_idx" ON "payment_applies" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "payment_applies_user_status_idx" ON "payment_applies" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "withdraw_order_applies_live_uq" ON "withdraw_order_applies" USING btree ("payment_apply_id") WHERE live;--> statement-breakpoint
CREATE INDEX "withdraw_orders_user_created_idx" ON "withdraw_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "withdraw_requests_order_card_uq" ON "withdraw_requests" USING btree ("order_id","card_id");--> statement-breakpoint
CREATE INDEX "withdraw_requests_user_created_idx" ON "withdraw_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdraw_requests_status_created_idx" ON "withdraw_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "withdraw_requests_card_status_idx" ON "withdraw_requests" USING btree ("card_id","status");--> statement-breakpoint
CREATE INDEX "audit_log_entity_created_idx" ON "audit_log" USING btree ("entity","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_user_created_idx" ON "audit_log" USING btree ("entity","user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_id_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "audit_log_tracking_idx" ON "audit_log" USING btree ("tracking_id");--> statement-breakpoint
CREATE INDEX "audit_log_task_idx" ON "audit_log" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "download_tokens_hash_uq" ON "download_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "download_tokens_expires_idx" ON "download_tokens" USING btree ("expires_at");