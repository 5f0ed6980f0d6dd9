#!/usr/bin/env bash
# Regenerates the shipped default calibration profiles from the simulated camera.
#
#   bash calibration/regenerate.sh
#
# Each profile is built from a seeded labelled folder rendered under the four
# tuning lighting presets (studio, desk-lamp, dim, window). The held-out preset
# `evening` and the seeds the tests use (50000 and up) are never used here.
# The creation time is fixed, so a rerun on the same versions reproduces the
# same files and hashes (check with `git diff calibration/`).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
npm run build --silent
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
created="2025-01-01T00:00:00.000Z"
lighting="studio,desk-lamp,dim,window"
# Run inside the work folder so the profiles record a relative source (same bytes on every machine).
cd "$work"
for spec in red:1000 green:2000 xwing:3000; do
  dice="${spec%%:*}"
  seed="${spec##*:}"
  node "$root/bin/dicerig.js" vision simulate --dice "$dice" --out "sim-$dice" --seed "$seed" \
    --frames 1600 --frames-per-session 5 --lighting "$lighting"
  node "$root/bin/dicerig.js" calibrate --die "$dice" --reader ring --from-labelled "sim-$dice" \
    --out "$root/calibration/default-$dice.json" --name "default-$dice" --created-at "$created"
done
