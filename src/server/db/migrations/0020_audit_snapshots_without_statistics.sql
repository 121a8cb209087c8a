-- No statement filters or sorts on an audit entry's before/after snapshots (they are read back whole),
-- so the planner needs no statistics of them, and ANALYZE of the audit log spent a third of its time
-- detoasting and comparing them: on PGlite, where ANALYZE holds the one connection, 285 ms of 480 ms
-- at 174,000 entries (docs/decisions/180).
ALTER TABLE "audit_log" ALTER COLUMN "before" SET STATISTICS 0, ALTER COLUMN "after" SET STATISTICS 0;
