#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/xwing.ts (development time only; never part of npm test).
# Pre-trains on the renderer's train split only (RENDERS/train-xwing, its first 210 images by name: what had been rendered when the shipped weights were made); reports on tune-xwing; test-xwing is never used here.
# The top face's height ratio 0.77 (parallax) was fitted on the tune split's ground truth (training/learned/topFaceCheck.ts).
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~10-15 min on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
RENDERS=${RENDERS:-/work/data/renders}
TRAIN=${TRAIN:-$RENDERS/train-xwing}
WORK=${WORK:-$(mktemp -d)}
EPOCHS=${EPOCHS:-22}
CLASSES=$(paste -sd, "$TRAIN/labels/classes.txt")
npx tsx training/learned/exportInputs.ts --images "$TRAIN" --out "$WORK/xwing-train" --classes "$CLASSES" --jitters 3 --height-ratio 0.77 --scale 0.8 --last 210
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing" --out "$WORK/xwing-tune" --classes "$CLASSES" --jitters 0 --height-ratio 0.77 --scale 0.8 --last 150
/usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing-tune" --convs 12p,24p,48p,48 --epochs "$EPOCHS" --scale 0.8 \
  --height-ratio 0.77 --name xwing --version learned-xwing/1 --trained-on "renders train-xwing images 1..210 (by sorted name)" --out src/vision/learned/weights/xwing.ts --threads 1
