CREATE INDEX "purchased_records_tracking_tail_idx" ON "purchased_records" USING btree (right("tracking_id", 6));--> statement-breakpoint
CREATE INDEX "purchased_records_tracking_head_idx" ON "purchased_records" USING btree (left("tracking_id", -6));--> statement-breakpoint
CREATE INDEX "scan_trackings_tracking_tail_idx" ON "scan_trackings" USING btree (right("tracking_id", 6));--> statement-breakpoint
CREATE INDEX "scan_trackings_tracking_head_idx" ON "scan_trackings" USING btree (left("tracking_id", -6));