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

# The browser suite waits on Chromium, page loads and polling much of its time,
# so it runs beside the other suites instead of after them (about a third off
# `make test` on two cores). It has a database, Redis prefix and data folder of
# its own; its report is printed once the other suites are done.
# Beside the record of the servers this run started (.data, or a test's own folder).
BROWSER_LOG="$SERVICES_DIR/test-browser.log"
mkdir -p "$SERVICES_DIR"
log "Browser end-to-end tests: started beside the other suites (report at the end; follow it in .data/test-browser.log)"
(
  export DATABASE_URL="$DATABASE_SERVER_URL/${TEST_BROWSER_DATABASE:-sitewalk_test_browser}"
  export REDIS_PREFIX="$REDIS_PREFIX-browser"
  export DATA_DIR="$ROOT/.data/test-browser"
  exec npx vitest run --config e2e/vitest.config.ts
) >"$BROWSER_LOG" 2>&1 &
browser_pid=$!
# Whatever ends this script also ends the browser suite, then the servers it started.
trap 'kill -- -$browser_pid 2>/dev/null || kill $browser_pid 2>/dev/null || true; stop_services' EXIT

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
cat "$BROWSER_LOG"
if [ "$browser_status" -ne 0 ]; then failed+=("Browser end-to-end tests"); failed_logs+=("$BROWSER_LOG"); fi

if [ ${#failed[@]} -gt 0 ]; then
  # The failed tests and their first error lines, last, where CI's tail shows them.
  for log_file in "${failed_logs[@]}"; do
    node "$ROOT/scripts/failed-tests.mjs" "$log_file" >&2 || true
  done
  printf '\033[1;31m[sitewalk]\033[0m failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
log "Every suite passed"
