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

# Debian packages the project needs at build or test time, listed in one place. Those marked `before-npm` are what
# npm's native builds (better-sqlite3, serialport) compile with; the rest are needed only after npm ci.
before_npm=()
after_npm=()
if [ -f scripts/apt-packages.txt ]; then
  while read -r pkg when _; do
    case "$pkg" in ''|'#'*) continue ;; esac
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' && continue
    if [ "${when:-}" = before-npm ]; then before_npm+=("$pkg"); else after_npm+=("$pkg"); fi
  done < scripts/apt-packages.txt
fi
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
apt_updated=''
apt_install() {
  # Once: the install beside npm ci, started after the compilers', finds the lists already fetched.
  [ -n "$apt_updated" ] || "${sudo_cmd[@]}" apt-get update -qq
  apt_updated=1
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if [ "${#before_npm[@]}" -gt 0 ]; then
  say "installing Debian packages: ${before_npm[*]}"
  apt_install "${before_npm[@]}"
fi

# The other packages install while npm ci runs: on a fresh machine each keeps one core busy, apt for about 90 s
# (chromium, ffmpeg, openscad, PostgreSQL...) and npm ci for about 75 s (most of it compiling better-sqlite3's SQLite).
# Only where no password can be asked for (root, or sudo that needs none): a prompt must not hide behind npm's output.
apt_pid=''
apt_log=''
if [ "${#after_npm[@]}" -gt 0 ] && { [ "${#sudo_cmd[@]}" -eq 0 ] || sudo -n true 2>/dev/null; }; then
  say "installing Debian packages while npm installs: ${after_npm[*]}"
  apt_log=$(mktemp)
  apt_install "${after_npm[@]}" >"$apt_log" 2>&1 &
  apt_pid=$!
elif [ "${#after_npm[@]}" -gt 0 ]; then
  say "installing Debian packages: ${after_npm[*]}"
  apt_install "${after_npm[@]}"
fi
# However this script ends, it never leaves apt running on its own (an interrupted dpkg needs repair by hand).
apt_done() {
  [ -n "$apt_pid" ] || return 0
  local status=0
  wait "$apt_pid" || status=$?
  apt_pid=''
  if [ "$status" -ne 0 ]; then
    cat "$apt_log" >&2
    say "installing the Debian packages failed (apt-get exit code $status; output above): ${after_npm[*]}"
  fi
  rm -f "$apt_log"
  return "$status"
}
trap 'apt_done || true' EXIT

# npm dependencies, exactly as locked; skipped when the lock file has not changed since the last install.
stamp=node_modules/.dicerig-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

say "building"
npm run --silent build
apt_done
make -s -C firmware all sim hosttest  # firmware, emulator harness and host test of the protocol core; quick when up to date
