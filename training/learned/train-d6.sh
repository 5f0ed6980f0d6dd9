#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/d6.ts (learned-d6/3; development time only, never part of npm test).
# Pre-trained on the renderer's train-d6 split (RENDERS/train-d6, seeds 500000..500199, flat dice only), then
# fine-tuned on d6-tray-photos 1..80 (by sorted name). Photos 81..100 (TUNE) watch both runs and set the per-class
# thresholds; photos 101..200 (TEST) are never read here.
# Each die is exported once, raw, in a square 64/32 times the input's side: train.py turns it by any angle, scales,
# shifts, blurs, recolours and noises it, and with --colour-invariant also permutes its colour channels and swaps light
# and dark (pips on any die colour). The recorded data hash is the photos' (1..80); the renders' is printed by the
# first export and named in trainedOn.
# Other runs of the same recipe (train-d6-tray.sh) set:
#   SETS, RENDERS_DESC: render folders under RENDERS joined for pre-training (train split only), and how trainedOn
#   names them; PRE_EPOCHS, FINE_EPOCHS: epochs of the two runs; VERSION; OUT: the module written.
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~4 min on an idle 2-core machine, ~10 min under load.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=training/learned/folders.sh
source training/learned/folders.sh
DATA=${DICERIG_DATASETS:-../shared/datasets}/d6-tray-photos
RENDERS=${RENDERS:-/work/data/renders}
WORK=${WORK:-$(mktemp -d)}
OUT=${OUT:-src/vision/learned/weights/d6.ts}
VERSION=${VERSION:-learned-d6/3}
# The defaults are the shipped run's.
if [ -z "${SETS:-}" ]; then SETS=train-d6; RENDERS_DESC="train-d6 seeds 500000..500199"; fi
RENDERS_DESC=${RENDERS_DESC:-$SETS}
PRE_EPOCHS=${PRE_EPOCHS:-150}
FINE_EPOCHS=${FINE_EPOCHS:-300}
split d6-train 1 80
split d6-tune 81 100
# shellcheck disable=SC2086
join "$WORK/renders" $SETS
FACES=1,2,3,4,5,6
RHASH=$(npx tsx training/learned/exportInputs.ts --images "$WORK/renders" --out "$WORK/renders-train" --classes "$FACES" --uncentred-edges --context 64 | tee /dev/stderr | sed -n 's/.*data hash \(............\).*/\1/p')
npx tsx training/learned/exportInputs.ts --images "$WORK/d6-train" --out "$WORK/photos-train" --classes "$FACES" --uncentred-edges --context 64
npx tsx training/learned/exportInputs.ts --images "$WORK/d6-tune" --out "$WORK/photos-tune" --classes "$FACES" --uncentred-edges --jitters 0
# 1. Pre-training on renders (its module is thrown away; only the torch state is kept). Its last tune accuracy is the
#    renders-alone accuracy on TUNE photos (the gap measure).
/usr/bin/python3 training/learned/train.py --train "$WORK/renders-train" --tune "$WORK/photos-tune" --convs 12p,24p,48p,48 --epochs "$PRE_EPOCHS" --colour-invariant \
  --name d6 --version "$VERSION-pre" --out "$WORK/pre.ts" --save-torch "$WORK/pre.pt" --threads 1
# 2. Fine-tuning on photos 1..80; thresholds set on photos 81..100.
/usr/bin/python3 training/learned/train.py --train "$WORK/photos-train" --tune "$WORK/photos-tune" --convs 12p,24p,48p,48 --epochs "$FINE_EPOCHS" --colour-invariant \
  --load-torch "$WORK/pre.pt" --thresholds --name d6 --version "$VERSION" \
  --trained-on "renders $RENDERS_DESC (data hash $RHASH...), then d6-tray-photos 1..80 (by sorted name)" --out "$OUT" --threads 1
