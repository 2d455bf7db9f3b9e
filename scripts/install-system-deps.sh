#!/usr/bin/env bash
# Debian packages SiteWalk needs, installed when missing.
#   runtime: what the workers run (PDF rendering, 360 images, video: ffmpeg and COLMAP)
#   test:    runtime + Chromium for browser tests + qpdf for hostile-PDF fixtures
#            + PostgreSQL and Redis server programs for the dependency-restart test
#   bench:   test + libvips-tools (the `vips dzsave` reference)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/services.sh"
mode="${1:-runtime}"
missing=()
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
command -v colmap >/dev/null || missing+=(colmap)
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
if [ "$mode" = test ] || [ "$mode" = bench ]; then
  command -v chromium >/dev/null || missing+=(chromium)
  command -v qpdf >/dev/null || missing+=(qpdf)
  # api/test/dependency-restart.test.ts restarts servers of its own, even where PostgreSQL and Redis run elsewhere.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
fi
if [ "$mode" = bench ]; then
  command -v vips >/dev/null || missing+=(libvips-tools)
fi
if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
