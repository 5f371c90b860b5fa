#!/usr/bin/env bash
# Installs the editor that `npm start` and the end-to-end tests run: code-server (the editor's own workbench
# served over HTTP), at the version pinned in scripts/editor-tools/, into .tools/code-server. It stays out of
# the extension's dependencies so that `npm ci` for the extension stays small. Idempotent: a second run with
# the same lockfile does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
# The system packages come first, every time: the tests need Chromium even when the editor is already here.
bash scripts/install-system-deps.sh
tools=.tools/code-server
lock=scripts/editor-tools/package-lock.json
stamp="$tools/.installed-from"
want="$(sha256sum "$lock" | cut -d' ' -f1)"
if [ -x "$tools/node_modules/.bin/code-server" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi

# An install of the same lockfile kept in the user's cache (by an earlier clone on this machine) is copied instead
# of installed again: the same files, in seconds.
kept="${XDG_CACHE_HOME:-$HOME/.cache}/context-lens/code-server-$want"
if [ -x "$kept/node_modules/.bin/code-server" ] && [ "$(cat "$kept/.installed-from" 2>/dev/null)" = "$want" ]; then
  rm -rf "$tools"
  mkdir -p "$(dirname "$tools")"
  cp -a "$kept" "$tools.partial" && mv "$tools.partial" "$tools"
  echo "editor copied from $kept"
  exit 0
fi

echo "installing the editor (code-server) into $tools: about a minute, once"
rm -rf "$tools"
mkdir -p "$tools"
cp scripts/editor-tools/package.json "$lock" "$tools/"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# @vscode/ripgrep downloads its binary at postinstall unless it finds this tarball in its cache under TMPDIR:
# hand it Debian's rg (same major version the editor expects).
rg_cache="$scratch/vscode-ripgrep-cache-1.15.11"
mkdir -p "$rg_cache" "$scratch/rg"
cp "$(command -v rg)" "$scratch/rg/rg"
tar czf "$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$scratch/rg" rg

# unsafe_perm: as root npm would otherwise refuse the editor's postinstall; yes: node-pty runs `npx node-gyp`,
# which must not stop to ask. argon2's prebuilt download fails here and it builds from source by itself.
(
  cd "$tools"
  TMPDIR="$scratch" npm_config_unsafe_perm=true npm_config_yes=true \
    npm ci --no-audit --no-fund --loglevel=error
) >"$scratch/npm.log" 2>&1 || {
  tail -40 "$scratch/npm.log" >&2
  echo "editor install failed (log above); retry: bash scripts/install-editor.sh" >&2
  exit 1
}
if [ ! -x "$tools/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]; then
  echo "editor install incomplete: no ripgrep binary inside code-server; retry: bash scripts/install-editor.sh" >&2
  exit 1
fi
echo "$want" >"$stamp"
# Kept for the next clone: copied under a temporary name, then renamed, so a half copy is never taken for whole.
mkdir -p "$(dirname "$kept")"
rm -rf "$kept.partial"
if cp -a "$tools" "$kept.partial" 2>/dev/null; then
  rm -rf "$kept"
  mv "$kept.partial" "$kept"
else
  rm -rf "$kept.partial"
fi
echo "editor installed: code-server $(node -p "require('./$tools/node_modules/code-server/package.json').version")"
