#!/usr/bin/env bash
# Finds PostgreSQL and Redis, or starts project-owned ones under .data/.
# Source it, then call start_services (or ensure_services after arming
# `trap stop_services EXIT` yourself); it exports DATABASE_SERVER_URL and
# REDIS_SERVER_URL (server URLs without a database name) and records what it
# started in $SERVICES_DIR/started-services so stop_services can stop exactly those.
set -euo pipefail

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
DATA_DIR="${DATA_DIR:-$ROOT/.data}"
# Where project-owned servers keep their data and where this run records what it
# started. Fixed here, once: the scripts point DATA_DIR elsewhere afterwards
# (make test uses .data/test), and stop_services must still find the record.
# Relative paths are taken from the project root, where the scripts run.
SERVICES_DIR="${SERVICES_DIR:-$DATA_DIR}"
case "$SERVICES_DIR" in /*) ;; *) SERVICES_DIR="$ROOT/$SERVICES_DIR" ;; esac
STARTED_SERVICES_FILE="$SERVICES_DIR/started-services"
# Where a PostgreSQL or Redis of the machine may already answer (tests point these at free ports).
SYSTEM_PG_PORT="${SYSTEM_PG_PORT:-5432}"
SYSTEM_REDIS_PORT="${SYSTEM_REDIS_PORT:-6379}"
OWN_PG_PORT="${OWN_PG_PORT:-54329}"
OWN_REDIS_PORT="${OWN_REDIS_PORT:-63799}"

log() { printf '\033[1;34m[sitewalk]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[sitewalk]\033[0m %s\n' "$*" >&2; exit 1; }

probe() { node "$ROOT/scripts/probe.mjs" "$1" "$2" >/dev/null 2>&1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1; fi
}

apt_install() {
  log "Installing Debian packages: $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { as_root apt-get update -qq >/dev/null 2>&1 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; } ||
    die "Could not install $* (run as root or with sudo, or install them yourself)."
}

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && { echo "$d"; return; }; done
  command -v pg_ctl >/dev/null && dirname "$(command -v pg_ctl)"
}

start_own_postgres() {
  local bin dir="$SERVICES_DIR/postgres"
  bin="$(pg_bin || true)"
  if [ -z "$bin" ]; then
    apt_install postgresql
    bin="$(pg_bin)" || die "PostgreSQL binaries not found after install."
  fi
  mkdir -p "$dir"
  local run=()
  if [ "$(id -u)" = 0 ]; then
    # initdb refuses to run as root: the cluster belongs to the postgres user,
    # who must also be able to pass through the folders above it.
    id postgres >/dev/null 2>&1 || useradd --system --home "$dir" postgres
    chown -R postgres "$dir"
    chmod o+x "$SERVICES_DIR"
    run=(su postgres -s /bin/sh -c)
  else
    run=(sh -c)
  fi
  if [ ! -f "$dir/PG_VERSION" ]; then
    log "Creating a PostgreSQL cluster in .data/postgres"
    "${run[@]}" "'$bin/initdb' -D '$dir' -U postgres -A trust -E UTF8" >"$SERVICES_DIR/postgres-init.log" 2>&1 || die "initdb failed: see $SERVICES_DIR/postgres-init.log"
  fi
  log "Starting PostgreSQL on 127.0.0.1:$OWN_PG_PORT"
  "${run[@]}" "'$bin/pg_ctl' -D '$dir' -l '$dir/server.log' -w -t 60 -o \"-p $OWN_PG_PORT -k /tmp -c listen_addresses=127.0.0.1\" start" >/dev/null ||
    die "PostgreSQL did not start: see $dir/server.log"
  echo "postgres $bin $dir" >>"$STARTED_SERVICES_FILE"
}

start_own_redis() {
  command -v redis-server >/dev/null || apt_install redis-server
  local dir="$SERVICES_DIR/redis"
  mkdir -p "$dir"
  log "Starting Redis on 127.0.0.1:$OWN_REDIS_PORT"
  redis-server --port "$OWN_REDIS_PORT" --bind 127.0.0.1 --dir "$dir" --appendonly yes \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >/dev/null ||
    die "Redis did not start: see $dir/redis.log"
  # Recorded before waiting, so a Redis that never answers is still stopped on exit.
  echo "redis $dir/redis.pid" >>"$STARTED_SERVICES_FILE"
  for _ in $(seq 1 50); do probe redis "redis://127.0.0.1:$OWN_REDIS_PORT" && break; sleep 0.1; done
}

# Server part of a URL (scheme, credentials, host, port), without the path.
server_of() { node -e 'const u=new URL(process.argv[1]); u.pathname=""; u.search=""; console.log(u.toString().replace(/\/$/,""))' "$1"; }

ensure_services() {
  mkdir -p "$SERVICES_DIR"
  if [ -n "${DATABASE_URL:-}" ]; then
    probe postgres "$DATABASE_URL" || die "DATABASE_URL is set but PostgreSQL does not answer there."
    DATABASE_SERVER_URL="$(server_of "$DATABASE_URL")"
  elif probe postgres "postgres://127.0.0.1:$SYSTEM_PG_PORT"; then
    DATABASE_SERVER_URL="postgres://postgres@127.0.0.1:$SYSTEM_PG_PORT"
  elif probe postgres "postgres://127.0.0.1:$OWN_PG_PORT"; then
    DATABASE_SERVER_URL="postgres://postgres@127.0.0.1:$OWN_PG_PORT"
  else
    start_own_postgres
    DATABASE_SERVER_URL="postgres://postgres@127.0.0.1:$OWN_PG_PORT"
  fi

  if [ -n "${REDIS_URL:-}" ]; then
    probe redis "$REDIS_URL" || die "REDIS_URL is set but Redis does not answer there."
    REDIS_SERVER_URL="$(server_of "$REDIS_URL")"
  elif probe redis "redis://127.0.0.1:$SYSTEM_REDIS_PORT"; then
    REDIS_SERVER_URL="redis://127.0.0.1:$SYSTEM_REDIS_PORT"
  elif probe redis "redis://127.0.0.1:$OWN_REDIS_PORT"; then
    REDIS_SERVER_URL="redis://127.0.0.1:$OWN_REDIS_PORT"
  else
    start_own_redis
    REDIS_SERVER_URL="redis://127.0.0.1:$OWN_REDIS_PORT"
  fi
  export DATABASE_SERVER_URL REDIS_SERVER_URL
}

# Whether a process runs (a zombie left for its parent to reap has stopped).
alive() { kill -0 "$1" 2>/dev/null && ! grep -qs '^State:[[:space:]]*Z' "/proc/$1/status"; }

# Stops only what ensure_services started in this run.
stop_services() {
  local f="$STARTED_SERVICES_FILE"
  [ -f "$f" ] || return 0
  local kind a b pid
  while read -r kind a b; do
    case "$kind" in
      postgres)
        if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "'$a/pg_ctl' -D '$b' -m fast -w stop" >/dev/null 2>&1 || true
        else "$a/pg_ctl" -D "$b" -m fast -w stop >/dev/null 2>&1 || true; fi
        log "Stopped PostgreSQL" ;;
      redis)
        pid="$(cat "$a" 2>/dev/null || true)"
        if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
          # Redis writes its append-only file on the way out: wait for it, so the
          # next start does not find the port or the files still taken.
          for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
        fi
        log "Stopped Redis" ;;
    esac
  done <"$f"
  rm -f "$f"
}

# What make start, make test and make bench call: forgets a stale record, arms
# stop_services for every way out (a failed step included), then finds or
# starts the servers. Armed first, so a PostgreSQL started before Redis fails
# to start is stopped too.
start_services() {
  rm -f "$STARTED_SERVICES_FILE"
  trap 'stop_services' EXIT
  ensure_services
}

ensure_node_modules() {
  cd "$ROOT"
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "Installing npm dependencies"
    npm ci --no-audit --no-fund || npm install --no-audit --no-fund
  fi
}
