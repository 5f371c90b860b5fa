#!/usr/bin/env bash
# System packages the browser and editor tests need (Debian). Idempotent: installs only what is missing.
#   chromium                                  the browser the editor benchmark and the screenshots drive (headless)
#   chromium-headless-shell                   the same engine without the browser around it: the tests
#   ripgrep                                   the editor's search binary (its npm package would download one)
#   libkrb5-dev libxkbfile-dev libsecret-1-dev headers the editor's native modules build against
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
for pkg in libkrb5-dev libxkbfile-dev libsecret-1-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing system packages: ${need[*]}; run: sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
  echo "installing system packages: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
