DROP INDEX "tasks_tracking_idx";--> statement-breakpoint
DROP INDEX "audit_log_entity_id_idx";