#!/bin/sh
# `npm start` and `npm run demo`: the server process's node flags, then scripts/start.mjs (it builds
# what is stale and runs the built server). Arguments given replace scripts/start.mjs: the bench runs
# its bare routes with these same flags (sh scripts/start.sh --import tsx scripts/bench-bare.ts).
# - glibc malloc arenas 2 and an old generation of 384 MB (decision 062);
# - the young generation by the database (decision 190): semi-spaces capped at 4 MB on the embedded
#   database, whose engine holds ~160 MB of the same memory budget; V8's own 16 MB on PostgreSQL,
#   where a request's garbage then dies young instead of being copied by scavenges four times as
#   frequent. The upload worker keeps 4 MB either way (src/server/files/upload-jobs.ts).
young=--max-semi-space-size=4
if [ -n "$DATABASE_URL" ]; then young=; fi
if [ "$#" -eq 0 ]; then set -- scripts/start.mjs; fi
export MALLOC_ARENA_MAX=2
exec "${NODE:-node}" --max-old-space-size=384 $young "$@"
