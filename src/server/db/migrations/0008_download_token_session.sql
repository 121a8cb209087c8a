-- Tokens issued before this belong to no session and live 5 minutes at most: they end here.
DELETE FROM "download_tokens";--> statement-breakpoint
ALTER TABLE "download_tokens" ADD COLUMN "session_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_tokens_session_idx" ON "download_tokens" USING btree ("session_id");