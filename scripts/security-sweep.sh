#!/usr/bin/env bash
# The full security sweep (issue 24 item 9): every route of the OpenAPI document
# gets each bad input as anonymous, a stranger and the owner; it fails on any
# 5xx or any answer showing another user's data. It runs the same test file
# the suite runs on a sample, against a throw-away database of its own
# (recreated on each run) and a Redis prefix of its own. Takes a while.
set -euo pipefail
cd "$(dirname "$0")/.."
export DATABASE_URL="${SWEEP_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/sitewalk_test_sweep}"
export REDIS_PREFIX="${SWEEP_REDIS_PREFIX:-sitewalk-test-sweep}"
export DATA_DIR="${SWEEP_DATA_DIR:-$PWD/.data/test-sweep}"
export LOG_LEVEL="${LOG_LEVEL:-error}"
export SECURITY_SWEEP=full
exec npx vitest run --config vitest.config.ts api/test/security-sweep.test.ts "$@"
