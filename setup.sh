#!/usr/bin/env bash
# Installs the Debian packages ADV needs, skipping those already present. Idempotent.
#   libjavascriptcoregtk-4.1-dev  JavaScriptCore (Safari's engine) and its C API headers
#   node-domino                   Mozilla's DOM in pure JavaScript, run inside JavaScriptCore
#   node-cssom                    the CSS object model
#   node-css-select               the selector engine (Selectors 4) for scripts and style sheets
#   node-acorn                    the ECMAScript parser the module loader rewrites modules with
#   pkg-config                    lets SwiftPM find JavaScriptCore
set -euo pipefail

packages=(libjavascriptcoregtk-4.1-dev node-domino node-cssom node-css-select node-acorn pkg-config)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "setup: need root to install: ${missing[*]} (run: apt-get install -y ${missing[*]})" >&2
    exit 2
  fi
fi

echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
