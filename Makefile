# SiteWalk: the two commands are `make start` and `make test`.
.PHONY: start dev test install build typecheck bench clean-data

start:
	@bash scripts/start.sh start

dev:
	@bash scripts/start.sh dev

test:
	@bash scripts/test.sh

install:
	@npm ci --no-audit --no-fund

build:
	@npm run build -w client

typecheck:
	@npm run typecheck

bench:
	@bash bench/run.sh

# Removes all local data (database cluster and files that make start created).
clean-data:
	@rm -rf .data
