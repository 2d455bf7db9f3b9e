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
export DATABASE_URL="$DATABASE_SERVER_URL/sitewalk_test"
export REDIS_URL="$REDIS_SERVER_URL/${TEST_REDIS_DB:-1}"
export REDIS_PREFIX="sitewalk-test"
export DATA_DIR="$ROOT/.data/test"
export APP_SECRET="test-secret-not-for-production"
export TRUST_PROXY=1
export LOG_LEVEL="${LOG_LEVEL:-warn}"

bash "$ROOT/scripts/install-system-deps.sh" test

log "Type checking"
npm run typecheck

log "Unit, API and worker tests"
npx vitest run --config vitest.config.ts

log "Browser end-to-end tests"
npx vitest run --config e2e/vitest.config.ts
