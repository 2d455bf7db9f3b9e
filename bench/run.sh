#!/usr/bin/env bash
# make bench: the measurements of bench/, one after another. They are not
# tests (no number passes or fails); each step prints its results and
# appends a dated section with the machine to bench/RESULTS.md.
#
#   bash bench/run.sh              every step
#   bash bench/run.sh api client   only these steps
#
# Add a bench: write bench/<name>.ts, add a step_<name> function below and
# its name to STEPS. Steps get DATABASE_SERVER_URL and REDIS_SERVER_URL and
# must use a database of their own whose name ends in _bench. A bench sets
# its environment with benchEnv (bench-env.ts), describes the machine with
# machine() (machine.ts) and records with appendResults (results.ts).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/services.sh"
cd "$ROOT"

STEPS=(api client pdf rooms viewer video tiers invoices startup workers s3upload)

# API throughput: authenticated GET /api/notifications against a hand-written Koa + raw pg handler doing the same work (autocannon).
step_api() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_api_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-api-bench DATA_DIR=.data/api-bench npx tsx bench/api-bench.ts
}

# Client budget: initial JavaScript of /login, and page measurements in Chromium.
step_client() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-bench DATA_DIR=.data/bench npx tsx bench/client-perf.ts
}

# PDF plans to sheets: the sheet.from-pdf worker on 10- and 20-page A1 plan sets against pdftoppm alone.
step_pdf() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_pdf_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-pdf-bench DATA_DIR=.data/pdf-bench npx tsx bench/pdf-sheets-bench.ts
}

# 360 photos to viewer tiles: the room.tiles worker on an 8192 × 4096 panorama against vips dzsave alone.
step_rooms() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_rooms_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-rooms-bench DATA_DIR=.data/rooms-bench npx tsx bench/room-tiles-bench.ts
}

# 360 viewer: time to the low-resolution sphere and to the first sharp view of an 8192 × 4096 panorama in Chromium.
step_viewer() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_viewer_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-viewer-bench DATA_DIR=.data/viewer-bench npx tsx bench/viewer-perf.ts
}

# Video to placed walk: a generated 50 s 360 walk through plain COLMAP, tuned COLMAP and SiteWalk's pipeline.
# VIDEO_BENCH_FLAGS passes --quick, --skip-plain or --skip-tuned (plain COLMAP takes about 17 minutes).
step_video() {
  # shellcheck disable=SC2086
  DATA_DIR=.data/video-bench npx tsx bench/video-pipeline-bench.ts ${VIDEO_BENCH_FLAGS:-}
}

# Cost per minute of walk: generated 1- and 5-minute walks through the pipeline (rendering them takes long the first
# time; not in the default set). WALK_LENGTH_MINUTES=1,5,20 for the 20-minute walk too.
step_walklength() {
  npx tsx bench/walk-length-bench.ts --minutes "${WALK_LENGTH_MINUTES:-1,5}"
}

# Tiers: find-tier and the usage reports with 10,000 projects and 50 tiers, one request at a time, against the same SQL through raw pg.
# Invoice PDFs: the invoice.generate worker on 100 and 1,000 invoices against pdfkit alone drawing the same documents.
step_invoices() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_invoices_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-invoices-bench DATA_DIR=.data/invoices-bench npx tsx bench/invoices-bench.ts
}

step_tiers() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_tiers_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-tiers-bench DATA_DIR=.data/tiers-bench npx tsx bench/tiers-bench.ts
}

# The production server: cold start to a healthy API and idle memory of the API and the workers, compiled against tsx.
step_startup() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_startup_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-startup-bench DATA_DIR=.data/startup-bench npx tsx bench/startup-bench.ts
}

# Several workers processes: four walks queued at once on one and on two workers processes (compiled build).
step_workers() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_workers_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-workers-bench DATA_DIR=.data/workers-bench npx tsx bench/several-workers-bench.ts
}

# A 2 GiB walk uploaded to S3 through the API (tus) against the bucket server's own write speed.
step_s3upload() {
  DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_s3_upload_bench" REDIS_URL="$REDIS_SERVER_URL/1" \
    REDIS_PREFIX=sitewalk-s3-upload-bench DATA_DIR=.data/s3-upload-bench npx tsx bench/s3-upload-bench.ts
}

requested=("$@")
[ ${#requested[@]} -eq 0 ] && requested=("${STEPS[@]}")
for s in "${requested[@]}"; do
  declare -F "step_$s" >/dev/null || die "Unknown bench step '$s'. Steps: ${STEPS[*]}"
done

ensure_node_modules
bash "$ROOT/scripts/install-system-deps.sh" bench
# Also arms stopping, on any exit, whatever servers it starts here.
start_services

for s in "${requested[@]}"; do
  log "Bench: $s"
  "step_$s"
done
log "Results are in bench/RESULTS.md"
