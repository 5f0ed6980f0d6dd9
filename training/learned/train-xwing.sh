#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/xwing.ts (development time only; never part of npm test).
# Pre-trains on the renderer's train split only (RENDERS/train-xwing); reports on tune-xwing; test-xwing is never used here.
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~10-15 min on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
RENDERS=${RENDERS:-/work/data/renders}
WORK=${WORK:-$(mktemp -d)}
EPOCHS=${EPOCHS:-20}
CLASSES=$(paste -sd, "$RENDERS/train-xwing/labels/classes.txt")
npx tsx training/learned/exportInputs.ts --images "$RENDERS/train-xwing" --out "$WORK/xwing-train" --classes "$CLASSES" --jitters 2 --height-ratio 0.77 --scale 0.8
npx tsx training/learned/exportInputs.ts --images "$RENDERS/tune-xwing" --out "$WORK/xwing-tune" --classes "$CLASSES" --jitters 0 --height-ratio 0.77 --scale 0.8 --last 150
/usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing-tune" --convs 8p,16p,32p,32 --epochs "$EPOCHS" --scale 0.8 \
  --height-ratio 0.77 --name xwing --version learned-xwing/1 --trained-on "renders train-xwing" --out src/vision/learned/weights/xwing.ts --threads 1
