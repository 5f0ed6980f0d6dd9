#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine (run as root, or with sudo available).
# Idempotent: installs only what is missing, so the README lines and .ci/run can call it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }

# Node.js 20 or newer is required; Debian 12's own nodejs is 18, so say what to do rather than guess.
if ! command -v node >/dev/null 2>&1; then
  say "Node.js is not installed. Install Node.js 20 or newer (e.g. from NodeSource or nvm), then run this again."
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  say "Node.js $(node --version) is too old: dicerig needs Node.js 20 or newer."
  exit 1
fi

# Debian packages the project needs at build or test time, listed in one place.
apt_packages=()
if [ -f scripts/apt-packages.txt ]; then
  while read -r pkg _; do
    case "$pkg" in ''|'#'*) continue ;; esac
    apt_packages+=("$pkg")
  done < scripts/apt-packages.txt
fi
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm dependencies, exactly as locked; skipped when the lock file has not changed since the last install.
stamp=node_modules/.dicerig-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

make -s -C firmware all sim hosttest  # firmware, emulator harness and host test of the protocol core; quick when up to date
say "building"
npm run --silent build
