#!/usr/bin/env bash
# make start: everything SiteWalk needs, then the API (with the client and
# Socket.IO) and the workers on one port. Ctrl-C stops all it started.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/services.sh"
cd "$ROOT"

MODE="${1:-start}"   # start | dev

command -v node >/dev/null || die "Node.js 20 or newer is needed (apt-get install nodejs npm)."
ensure_node_modules
bash "$ROOT/scripts/install-system-deps.sh" runtime
# Also arms stopping, on any exit, whatever servers it starts here.
start_services

export DATABASE_URL="${DATABASE_URL:-$DATABASE_SERVER_URL/sitewalk}"
export REDIS_URL="${REDIS_URL:-$REDIS_SERVER_URL/0}"
export PORT="${PORT:-8080}"
export NODE_ENV="${NODE_ENV:-production}"

TSX="$ROOT/node_modules/.bin/tsx"
if [ "$MODE" = dev ]; then
  log "Preparing the database"
  node --import tsx api/src/cli/setup.ts
else
  # The compiled server (scripts/build-server.mjs): plain JavaScript, no TypeScript compiler in memory.
  if [ ! -f dist/server/server.js ] || [ -n "$(find api/src core/src workers/src proto/src scripts/build-server.mjs -newer dist/server/server.js -print -quit 2>/dev/null)" ]; then
    log "Building the server"
    node scripts/build-server.mjs >/dev/null
  fi
  log "Preparing the database"
  node dist/server/setup.js
fi

pids=()
cleanup() {
  trap - INT TERM
  log "Stopping SiteWalk"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap 'cleanup; exit 0' INT TERM

if [ "$MODE" = dev ]; then
  export NODE_ENV=development
  SITEWALK_SERVICE=workers "$TSX" watch workers/src/main.ts & pids+=($!)
  PORT=$((PORT + 1)) SITEWALK_SERVICE=api "$TSX" watch api/src/server.ts & pids+=($!)
  log "Development server with hot reload: http://localhost:${DEV_PORT:-5173} (API on :$((PORT + 1)))"
  (cd client && API_PORT=$((PORT + 1)) exec node_modules/.bin/vite --port "${DEV_PORT:-5173}" --strictPort) & pids+=($!)
else
  if [ ! -f client/dist/index.html ] || [ -n "$(find client/src client/index.html proto/src proto/translations -newer client/dist/index.html -print -quit 2>/dev/null)" ]; then
    log "Building the client"
    npm run build -w client >/dev/null
  fi
  # node itself (not npx): the recorded pid is the server, so stopping it stops it.
  # V8 flags from scripts/node-flags.json (why each: see there and the README's configuration table).
  node_flags() { node -p "require('./scripts/node-flags.json').$1.join(' ')"; }
  workers_flags="${WORKERS_NODE_FLAGS-$(node_flags workers)}"
  api_flags="${API_NODE_FLAGS-$(node_flags api)}"
  # shellcheck disable=SC2086
  SITEWALK_SERVICE=workers node $workers_flags dist/server/workers.js & pids+=($!)
  # shellcheck disable=SC2086
  SITEWALK_SERVICE=api node $api_flags dist/server/server.js & pids+=($!)
  log "SiteWalk runs on http://localhost:$PORT  (Ctrl-C stops it)"
  [ -f "$DATA_DIR/initial-admin.txt" ] && log "First sign-in: see .data/initial-admin.txt"
fi

# Ends when any part stops; then everything else is stopped too.
wait -n "${pids[@]}" || true
cleanup
