#!/usr/bin/env bash
# Debian packages SiteWalk needs, installed when missing.
#   runtime: what the workers run (PDF rendering)
#   test:    runtime + Chromium for browser tests + qpdf for hostile-PDF fixtures
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/services.sh"
mode="${1:-runtime}"
missing=()
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
if [ "$mode" = test ]; then
  command -v chromium >/dev/null || missing+=(chromium)
  command -v qpdf >/dev/null || missing+=(qpdf)
fi
if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
