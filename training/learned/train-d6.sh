#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/d6.ts (development time only; never part of npm test).
# Trains on d6-tray-photos 1..80 (by sorted name), reports on 81..100; 101..200 are never used.
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~5-10 min on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${DICERIG_DATASETS:-../shared/datasets}/d6-tray-photos
WORK=${WORK:-$(mktemp -d)}
split() { # name first last
  mkdir -p "$WORK/$1/images" "$WORK/$1/labels"
  cp "$DATA/labels/classes.txt" "$WORK/$1/labels/"
  ls "$DATA/images" | sort | sed -n "$2,$3p" | while read -r f; do
    ln -sf "$(realpath "$DATA/images/$f")" "$WORK/$1/images/$f"
    ln -sf "$(realpath "$DATA/labels/${f%.*}.txt")" "$WORK/$1/labels/${f%.*}.txt"
  done
}
split d6-train 1 80
split d6-tune 81 100
npx tsx training/learned/exportInputs.ts --images "$WORK/d6-train" --out "$WORK/d6-train" --jitters 5
npx tsx training/learned/exportInputs.ts --images "$WORK/d6-tune" --out "$WORK/d6-tune" --jitters 0
/usr/bin/python3 training/learned/train.py --train "$WORK/d6-train" --tune "$WORK/d6-tune" --convs 12p,24p,48p,48 --epochs 20 --colour-invariant \
  --name d6 --version learned-d6/2 --trained-on "d6-tray-photos 1..80 (by sorted name)" --out src/vision/learned/weights/d6.ts --threads 1
