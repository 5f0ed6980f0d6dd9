#!/usr/bin/env bash
# Names a guided calibration's groups as a careful person would (split a group showing two faces), from the truth the
# kept throws carry (the simulated camera's, or renderRigThrows.ts's), running the calibration again until every group
# is named. Development time only.
#
#   bash training/learned/name-groups-from-truth.sh THROWS OUT.json [calibrate options, e.g. --hfov 55.4]
#
# Each run names every group shown so far and one split's pieces: foreign-3 artwork with dice split from those they
# touch took over 30 runs, hence up to MAX_RUNS (default 80).
set -u
cd "$(dirname "$0")/../.."
THROWS=$1 OUT=$2; shift 2
STEM=${OUT%.json}
NAMES=$STEM.names.txt
: > "$NAMES"
for i in $(seq 1 "${MAX_RUNS:-80}"); do
  if node bin/dicerig.js calibrate --die xwing --camera "$THROWS" --labels-from "$NAMES" -o "$OUT" --created-at 2026-12-04T00:00:00Z "$@" > "$STEM.log" 2>&1; then echo "named in $i runs"; exit 0; fi
  grep -q "has no name" "$STEM.log" || { tail -5 "$STEM.log"; exit 1; }
  python3 - "$STEM.groups/groups.json" "$NAMES" <<'PY'
import json, sys
groups = json.load(open(sys.argv[1]))
lines = []
for g in groups:
    t = g.get('simulatorTruth') or {}
    if len(t) > 1 and g['dice'] > 1: name = 'split'
    elif len(t) >= 1: name = max(t.items(), key=lambda kv: kv[1])[0]
    else: name = 'skip'
    lines.append(f"{g['group']} {name}")
open(sys.argv[2], 'w').write('\n'.join(lines) + '\n')
PY
done
echo "not named after ${MAX_RUNS:-80} runs"; exit 1
