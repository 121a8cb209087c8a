DROP INDEX "audit_log_entity_user_created_idx";--> statement-breakpoint
CREATE INDEX "audit_log_entity_status_created_idx" ON "audit_log" USING btree ("entity","status","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_upc_created_idx" ON "audit_log" USING btree ("entity","upc","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_op_created_idx" ON "audit_log" USING btree ("entity","op_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_main_idx" ON "audit_log" USING btree ("main_id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_user_created_idx" ON "audit_log" USING btree ("entity","user_id","created_at","id");