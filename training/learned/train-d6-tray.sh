#!/usr/bin/env bash
# The D6 network pre-trained on tray-look renders (src/camera/render3d/tray.ts; development time only, never part of
# npm test), then fine-tuned on d6-tray-photos 1..80 (by sorted name) as train-d6.sh does. Photos 81..100 (TUNE)
# watch both runs and set the per-class thresholds; photos 101..200 (TEST) are never read here.
#   SETS: render folders under RENDERS joined for pre-training (train split only)
#   PRE_EPOCHS, FINE_EPOCHS: epochs of the two runs; OUT: the module written (default a scratch file: the shipped
#   weights are src/vision/learned/weights/d6.ts, written only for a network that won on TUNE; none has, see
#   training/README.md "D6, tray-look renders").
# The defaults are the run with the fewest TUNE declines (learned-d6/4a2, 15.9 % at 100 % correct): tray look v1
# (train-d6-tray, seeds 510000..510599, renders data hash c798f3849166...), 120 + 300 epochs. Variants run:
#   SETS=train-d6-tray PRE_EPOCHS=60 (4a); SETS=train-d6-tray2 PRE_EPOCHS=60 (4b);
#   SETS="train-d6-tray train-d6-tray2 train-d6-tray3" PRE_EPOCHS=50 (4d); 4a2's pre-training with FINE_EPOCHS 150, 500.
# The tray sets' seeds and the commands that rendered them are in /work/data/renders/README.md.
# ~7 min alone on the 2-core machine (4a2 measured under load: pre-training ~3 s an epoch).
# Needs Debian's python3-torch (apt-get install -y python3-torch).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=training/learned/folders.sh
source training/learned/folders.sh
DATA=${DICERIG_DATASETS:-../shared/datasets}/d6-tray-photos
RENDERS=${RENDERS:-/work/data/renders}
WORK=${WORK:-$(mktemp -d)}
OUT=${OUT:-$WORK/d6.ts}
VERSION=${VERSION:-learned-d6/4a2}
SETS=${SETS:-train-d6-tray}
PRE_EPOCHS=${PRE_EPOCHS:-120}
FINE_EPOCHS=${FINE_EPOCHS:-300}
split d6-train 1 80
split d6-tune 81 100
# shellcheck disable=SC2086
join "$WORK/renders" $SETS
FACES=1,2,3,4,5,6
RHASH=$(npx tsx training/learned/exportInputs.ts --images "$WORK/renders" --out "$WORK/renders-train" --classes "$FACES" --context 64 | tee /dev/stderr | sed -n 's/.*data hash \(............\).*/\1/p')
npx tsx training/learned/exportInputs.ts --images "$WORK/d6-train" --out "$WORK/photos-train" --classes "$FACES" --context 64
npx tsx training/learned/exportInputs.ts --images "$WORK/d6-tune" --out "$WORK/photos-tune" --classes "$FACES" --jitters 0
# 1. Pre-training on renders (its module is thrown away; only the torch state is kept). Its last tune accuracy is the
#    renders-alone accuracy on TUNE photos (the gap measure).
/usr/bin/python3 training/learned/train.py --train "$WORK/renders-train" --tune "$WORK/photos-tune" --convs 12p,24p,48p,48 --epochs "$PRE_EPOCHS" --colour-invariant \
  --name d6 --version "$VERSION-pre" --out "$WORK/pre.ts" --save-torch "$WORK/pre.pt" --threads 1
# 2. Fine-tuning on photos 1..80; thresholds set on photos 81..100.
/usr/bin/python3 training/learned/train.py --train "$WORK/photos-train" --tune "$WORK/photos-tune" --convs 12p,24p,48p,48 --epochs "$FINE_EPOCHS" --colour-invariant \
  --load-torch "$WORK/pre.pt" --thresholds --name d6 --version "$VERSION" \
  --trained-on "renders $SETS (tray look; data hash $RHASH...), then d6-tray-photos 1..80 (by sorted name)" --out "$OUT" --threads 1
