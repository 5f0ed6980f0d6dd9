#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/xwingCocked.ts (the cocked check) and xwing.ts (the face network), development
# time only; never part of npm test.
# Trains on the renderer's train split only: RENDERS/train-xwing (seeds 1..400), train-xwing-401 (401..950) and
# train-xwing-951 (951..1500), joined into one labelled folder of links (the data hash is over that folder), for the face
# network; the cocked check also on train-xwing-1501 (1501..1695, a third of its dice cocked).
# The cocked check sees 1.3 die sizes around the top face (the die's outline and side faces); the face network 0.6.
# The face network's per-class thresholds, cockedAt and the cocked check's threshold are set together on the first 150
# images of tune-xwing and checked on tune-xwing-151 (tune seeds 1000150..1000349, never used to choose anything else);
# test-xwing is never read here.
# The top face's height ratio 0.77 (parallax) was fitted on the tune split's ground truth (training/learned/topFaceCheck.ts).
# Renders: npm run render -- --dice xwing --split train --count 550 --offset 400 --cocked-rate 0.12 --out $RENDERS/train-xwing-401
#          npm run render -- --dice xwing --split train --count 550 --offset 950 --cocked-rate 0.12 --out $RENDERS/train-xwing-951
#          npm run render -- --dice xwing --split train --count 195 --offset 1500 --cocked-rate 0.35 --out $RENDERS/train-xwing-1501
#          npm run render -- --dice xwing --split tune --count 200 --offset 150 --out $RENDERS/tune-xwing-151
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~7 min on an idle 2-core machine, ~15 min under load.
set -euo pipefail
cd "$(dirname "$0")/../.."
RENDERS=${RENDERS:-/work/data/renders}
WORK=${WORK:-$(mktemp -d)}
EPOCHS=${EPOCHS:-60}
SCALE=${SCALE:-0.6}
OUT=${OUT:-src/vision/learned/weights/xwing.ts}
OUT_COCKED=${OUT_COCKED:-src/vision/learned/weights/xwingCocked.ts}
join() { # join DIR SPLIT...: one labelled folder of links to the splits' images and labels
  local dir=$1; shift
  mkdir -p "$dir/images" "$dir/labels"
  cp "$RENDERS/train-xwing/labels/classes.txt" "$dir/labels/"
  for d in "$@"; do
    for f in "$RENDERS/$d"/images/*.jpg; do
      b=$(basename "$f" .jpg)
      ln -sf "$f" "$dir/images/$b.jpg"
      ln -sf "$RENDERS/$d/labels/$b.txt" "$dir/labels/$b.txt"
    done
  done
}
TRAIN=$WORK/xwing-train
join "$TRAIN" train-xwing train-xwing-401 train-xwing-951
join "$WORK/cocked-train" train-xwing train-xwing-401 train-xwing-951 train-xwing-1501
CLASSES=$(paste -sd, "$TRAIN/labels/classes.txt")
# The cocked check: flat or cocked, from a wider square around the top face.
npx tsx training/learned/exportInputs.ts --images "$WORK/cocked-train" --out "$WORK/cocked-train" --classes "$CLASSES" --context 48 --size 24 --height-ratio 0.77 --scale 1.3
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing" --out "$WORK/cocked-tune" --classes "$CLASSES" --jitters 0 --size 24 --height-ratio 0.77 --scale 1.3 --last 150
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing-151" --out "$WORK/cocked-check" --classes "$CLASSES" --jitters 0 --size 24 --height-ratio 0.77 --scale 1.3 --last 200
/usr/bin/python3 training/learned/train.py --train "$WORK/cocked-train" --tune "$WORK/cocked-tune" --binary-cocked --convs 12p,24p,48p,48 --epochs 60 --scale 1.3 \
  --class-weight cocked=2 --height-ratio 0.77 --save-probs "$WORK/cocked" --check "$WORK/cocked-check" --name xwingCocked --version learned-xwing-cocked/1 \
  --trained-on "renders train-xwing seeds 1..1695 (train-xwing, train-xwing-401, train-xwing-951, train-xwing-1501)" --out "$OUT_COCKED" --threads 1
# Each die once, raw, in a square 64/32 times the input's side: train.py turns, scales, shifts, blurs and recolours it.
npx tsx training/learned/exportInputs.ts --images "$TRAIN" --out "$WORK/xwing-train" --classes "$CLASSES" --context 64 --height-ratio 0.77 --scale "$SCALE"
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing" --out "$WORK/xwing-tune" --classes "$CLASSES" --jitters 0 --height-ratio 0.77 --scale "$SCALE" --last 150
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing-151" --out "$WORK/xwing-check" --classes "$CLASSES" --jitters 0 --height-ratio 0.77 --scale "$SCALE" --last 200
/usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing-tune" --convs 12p,24p,48p,48 --epochs "$EPOCHS" --scale "$SCALE" \
  --class-weight cocked=2 --class-weight red-crit=2 --thresholds --cocked-budget 0.015,0.02,0.03,0.04,0.05,0.06 --check "$WORK/xwing-check" \
  --height-ratio 0.77 --name xwing --version learned-xwing/3 \
  --cocked-check "$WORK/cocked" --cocked-check-version learned-xwing-cocked/1 --cocked-check-budget 0.01,0.02,0.03,0.04,0.05,0.06 --trained-on "renders train-xwing seeds 1..1500 (train-xwing, train-xwing-401, train-xwing-951)" --out "$OUT" --threads 1 ${SAVE_TORCH:+--save-torch "$SAVE_TORCH"}
