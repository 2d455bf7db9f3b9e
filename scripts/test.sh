#!/usr/bin/env bash
# make test: every suite against real PostgreSQL, Redis and Chromium, in a
# database and Redis prefix of their own so a user's data is never touched.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/services.sh"
cd "$ROOT"

ensure_node_modules
# Also arms stopping, on any exit, whatever servers it starts here.
start_services

export NODE_ENV=test
export DATABASE_URL="$DATABASE_SERVER_URL/${TEST_DATABASE:-sitewalk_test}"
export REDIS_URL="$REDIS_SERVER_URL/${TEST_REDIS_DB:-1}"
export REDIS_PREFIX="${TEST_REDIS_PREFIX:-sitewalk-test}"
export DATA_DIR="$ROOT/.data/test"
export APP_SECRET="test-secret-not-for-production"
export TRUST_PROXY=1
export LOG_LEVEL="${LOG_LEVEL:-warn}"

bash "$ROOT/scripts/install-system-deps.sh" test

# The browser suite waits on Chromium, page loads and polling most of its time
# (about two thirds of a core on average), so it runs beside the other suites
# instead of after them, split in BROWSER_SHARDS parts that run at once (each a
# server, workers and Chromium of its own: about a third off `make test` on two
# cores again). Each part has a database, Redis prefix and data folder of its
# own; their reports are printed once the other suites are done. The client is
# built once for all parts, into a folder no part clears.
# Beside the record of the servers this run started (.data, or a test's own folder).
BROWSER_SHARDS="${BROWSER_SHARDS:-2}"
mkdir -p "$SERVICES_DIR"
BROWSER_LOGS=()
for ((i = 1; i <= BROWSER_SHARDS; i++)); do BROWSER_LOGS+=("$SERVICES_DIR/test-browser-$i.log"); done
log "Browser end-to-end tests: started beside the other suites in $BROWSER_SHARDS parts (report at the end; follow them in .data/test-browser-*.log)"
(
  shard_pids=()
  # Ending this part of the script (make test stopped, or failed early) ends the parts running.
  trap 'kill "${shard_pids[@]}" 2>/dev/null; exit 143' TERM INT
  CLIENT_DIST="$SERVICES_DIR/test-client-dist"
  # In the background, so that a stop interrupts the wait for it (bash runs a trap only between commands).
  NODE_ENV=production npm run build -w client -- --outDir "$CLIENT_DIST" --emptyOutDir --logLevel warn >"${BROWSER_LOGS[0]}" 2>&1 &
  shard_pids=($!)
  if ! wait "${shard_pids[0]}"; then
    echo "[e2e] the client did not build" >>"${BROWSER_LOGS[0]}"
    exit 1
  fi
  shard_pids=()
  for ((i = 1; i <= BROWSER_SHARDS; i++)); do
    suffix=$([ "$i" -gt 1 ] && echo "$i" || true)
    (
      export DATABASE_URL="$DATABASE_SERVER_URL/${TEST_BROWSER_DATABASE:-sitewalk_test_browser}$suffix"
      export REDIS_PREFIX="$REDIS_PREFIX-browser$suffix"
      export DATA_DIR="$ROOT/.data/test-browser$suffix"
      export E2E_CLIENT_DIST="$CLIENT_DIST"
      exec npx vitest run --config e2e/vitest.config.ts --shard="$i/$BROWSER_SHARDS"
    ) >>"${BROWSER_LOGS[$((i - 1))]}" 2>&1 &
    shard_pids+=($!)
  done
  status=0
  for pid in "${shard_pids[@]}"; do wait "$pid" || status=1; done
  exit "$status"
) &
browser_pid=$!
# Whatever ends this script also ends the browser suite, then the servers it started.
trap 'kill $browser_pid 2>/dev/null || true; wait $browser_pid 2>/dev/null || true; stop_services' EXIT

failed=()
failed_logs=()
# Each suite's output is shown as it runs and kept, so that the end of this
# script can name the failed tests: CI keeps only the last lines of a run.
STEP_LOGS="$SERVICES_DIR/test-steps"
rm -rf "$STEP_LOGS"; mkdir -p "$STEP_LOGS"
steps_run=0
step() {
  local name="$1"; shift
  steps_run=$((steps_run + 1))
  local log_file="$STEP_LOGS/step-$steps_run.log"
  log "$name"
  local status=0
  "$@" 2>&1 | tee "$log_file" || status=$?
  if [ "$status" -ne 0 ]; then failed+=("$name"); failed_logs+=("$log_file"); fi
}

step "Type checking" npm run typecheck
step "Unit, API and worker tests" npx vitest run --config vitest.config.ts
# Storage on both drivers (a local S3-compatible server is started by the tests) and the mail server switched off.
mapfile -t alone_tests < <(node -e 'for (const f of require("./test/alone-tests.json").files) console.log(f)')
step "Tests that change a site-wide setting (storage driver, mail server), alone, one file at a time" \
  env ALONE_TESTS=1 npx vitest run --config vitest.config.ts --no-file-parallelism "${alone_tests[@]}"
step "Features that store files, again with the files in a bucket (a local S3-compatible server started by the test setup)" \
  env STORAGE_DRIVER=s3 npx vitest run --config vitest.config.ts \
  api/test/user-images.test.ts api/test/visits.test.ts workers/test/sheet-from-pdf.test.ts workers/test/snag-exports.test.ts workers/test/invoice-generate.test.ts

log "Browser end-to-end tests: waiting for the suite started at the beginning"
browser_status=0
wait "$browser_pid" || browser_status=$?
for ((i = 1; i <= BROWSER_SHARDS; i++)); do
  log "Browser end-to-end tests, part $i of $BROWSER_SHARDS"
  cat "${BROWSER_LOGS[$((i - 1))]}"
done
if [ "$browser_status" -ne 0 ]; then failed+=("Browser end-to-end tests"); failed_logs+=("${BROWSER_LOGS[@]}"); fi

if [ ${#failed[@]} -gt 0 ]; then
  # The failed tests and their first error lines, last, where CI's tail shows them.
  for log_file in "${failed_logs[@]}"; do
    node "$ROOT/scripts/failed-tests.mjs" "$log_file" >&2 || true
  done
  printf '\033[1;31m[sitewalk]\033[0m failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
log "Every suite passed"
