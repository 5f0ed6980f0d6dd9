#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/xwing.ts (development time only; never part of npm test).
# Pre-trains on the renderer's train split only: RENDERS/train-xwing (seeds 1..400), train-xwing-401 (401..950) and
# train-xwing-951 (951..1500), joined into one labelled folder of links (the data hash is over that folder);
# the per-class thresholds and cockedAt are set on the first 150 images of tune-xwing and checked on tune-xwing-151 (tune seeds
# 1000150..1000349, never used to choose anything else); test-xwing is never read here.
# The top face's height ratio 0.77 (parallax) was fitted on the tune split's ground truth (training/learned/topFaceCheck.ts).
# Renders: npm run render -- --dice xwing --split train --count 550 --offset 400 --cocked-rate 0.12 --out $RENDERS/train-xwing-401
#          npm run render -- --dice xwing --split train --count 550 --offset 950 --cocked-rate 0.12 --out $RENDERS/train-xwing-951
#          npm run render -- --dice xwing --split tune --count 200 --offset 150 --out $RENDERS/tune-xwing-151
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~4 min on an idle 2-core machine, ~8 min under load.
set -euo pipefail
cd "$(dirname "$0")/../.."
RENDERS=${RENDERS:-/work/data/renders}
WORK=${WORK:-$(mktemp -d)}
EPOCHS=${EPOCHS:-60}
SCALE=${SCALE:-0.6}
OUT=${OUT:-src/vision/learned/weights/xwing.ts}
TRAIN=$WORK/xwing-train
mkdir -p "$TRAIN/images" "$TRAIN/labels"
cp "$RENDERS/train-xwing/labels/classes.txt" "$TRAIN/labels/"
for d in train-xwing train-xwing-401 train-xwing-951; do
  for f in "$RENDERS/$d"/images/*.jpg; do
    b=$(basename "$f" .jpg)
    ln -sf "$f" "$TRAIN/images/$b.jpg"
    ln -sf "$RENDERS/$d/labels/$b.txt" "$TRAIN/labels/$b.txt"
  done
done
CLASSES=$(paste -sd, "$TRAIN/labels/classes.txt")
# Each die once, raw, in a square 64/32 times the input's side: train.py turns, scales, shifts, blurs and recolours it.
npx tsx training/learned/exportInputs.ts --images "$TRAIN" --out "$WORK/xwing-train" --classes "$CLASSES" --context 64 --height-ratio 0.77 --scale "$SCALE"
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing" --out "$WORK/xwing-tune" --classes "$CLASSES" --jitters 0 --height-ratio 0.77 --scale "$SCALE" --last 150
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing-151" --out "$WORK/xwing-check" --classes "$CLASSES" --jitters 0 --height-ratio 0.77 --scale "$SCALE" --last 200
/usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing-tune" --convs 12p,24p,48p,48 --epochs "$EPOCHS" --scale "$SCALE" \
  --class-weight cocked=2 --class-weight red-crit=2 --thresholds --cocked-budget 0.015,0.02,0.03,0.04,0.05,0.06 --check "$WORK/xwing-check" \
  --height-ratio 0.77 --name xwing --version learned-xwing/2 --trained-on "renders train-xwing seeds 1..1500 (train-xwing, train-xwing-401, train-xwing-951)" --out "$OUT" --threads 1 ${SAVE_TORCH:+--save-torch "$SAVE_TORCH"}
