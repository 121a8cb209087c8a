CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "audit_log_item_name_trgm_idx" ON "audit_log" USING gin ("item_name" gin_trgm_ops);