#!/usr/bin/env bash
# Installs code-server (VS Code served to a browser) into .cache/code-server for the e2e test,
# outside the project's node_modules so `npm ci` is unaffected. Idempotent: skipped when present.
#
# - Debian's ripgrep seeds the download cache of code-server's @vscode/ripgrep (its postinstall
#   would fetch rg from GitHub, which CI cannot reach); Debian's libkrb5-dev lets `kerberos` build.
# - npm >= 11.x runs dependency install scripts only when allowed ("allowScripts"). code-server's
#   own postinstall runs a nested `npm install` in lib/vscode whose package.json we must approve
#   first, so we install with code-server's script denied, approve the native modules VS Code
#   needs in lib/vscode/package.json, then run code-server's postinstall ourselves. Older npm
#   ignores allowScripts and runs everything in the first step; the second step is then skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=4.100.3
PREFIX="$PWD/.cache/code-server"
PKG="$PREFIX/node_modules/code-server"
STAMP="$PREFIX/.installed-$VERSION"
if [ -f "$STAMP" ] && [ -f "$PKG/out/node/entry.js" ]; then
  echo "code-server $VERSION: cached in $PREFIX"
  exit 0
fi
export npm_config_unsafe_perm=true npm_config_yes=true

rg_bin="$(command -v rg)" || { echo "ripgrep (Debian package ripgrep) is required" >&2; exit 1; }
cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
asset="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -s "$asset" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d)"
  cp "$rg_bin" "$tmp/rg"
  tar czf "$asset" -C "$tmp" rg   # download.js untars into its bin/ and expects bin/rg
  rm -rf "$tmp"
fi

rm -rf "$PREFIX"
mkdir -p "$PREFIX"
cat > "$PREFIX/package.json" <<JSON
{ "private": true, "allowScripts": { "argon2": true, "code-server": false } }
JSON
npm install --prefix "$PREFIX" --no-audit --no-fund --no-save "code-server@$VERSION"

if [ ! -e "$PKG/lib/vscode/node_modules.asar" ]; then
  # The postinstall did not run (npm's install-script policy): approve and run it.
  node -e '
    const fs = require("fs");
    const allow = { "@parcel/watcher": true, "@vscode/deviceid": true, "@vscode/ripgrep": true,
      "@vscode/spdlog": true, "kerberos": true, "native-watchdog": true, "node-pty": true };
    for (const f of process.argv.slice(1)) {
      const p = JSON.parse(fs.readFileSync(f, "utf8"));
      p.allowScripts = { ...allow, ...(p.allowScripts || {}) };
      fs.writeFileSync(f, JSON.stringify(p, null, 2));
    }' "$PKG/lib/vscode/package.json" "$PKG/lib/vscode/extensions/package.json"
  (cd "$PKG" && npm_config_user_agent="npm/$(npm -v) node/$(node -v) linux x64" sh ./postinstall.sh)
fi
test -e "$PKG/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
touch "$STAMP"
echo "code-server $VERSION: installed in $PREFIX"
