#!/usr/bin/env bash
# An experiment (development time only, never part of npm test; nothing it makes is shipped): a D6 network trained on
# the renderer's rig look alone, for a webcam above an open platform, which sessions do not support yet (README). It
# reads the faces 1..6 and `cocked`, each die cut around its top face by perspective and turned radial-down, as the
# X-Wing reader does; learned-d6/3's shape (12p,24p,48p,48, 32x32), colour-invariant (pips on any die colour).
# Thresholds and cockedAt are set on TUNE renders (a declined flat die costs 1, a wrong read or a cocked die read 10);
# TEST renders are read afterwards with `vision eval --die d6 --learned`, the module put in place of weights/d6.ts for
# that one build (training/README.md, "D6 under a webcam above an open platform: a network trained on renders").
#
#   SETS='train-d6web train-d6web2' TUNE=tune-d6web VERSION=learned-d6web/i bash training/learned/train-d6web.sh
#   SETS='train-d6web train-d6web2 train-d6web3' VERSION=learned-d6web/l bash training/learned/train-d6web.sh
#
# The sets, rendered under RENDERS (default /work/data/renders):
#   train-d6web:  npm run render -- --dice d6 --split train --count 600 --offset 2000 --cocked-rate 0.25 --out ...
#   train-d6web2: npm run render -- --dice d6 --split train --count 1800 --offset 2600 --cocked-rate 0.25 --out ...
#   train-d6web3: npm run render -- --dice d6 --split train --count 2400 --offset 4400 --cocked-rate 0.25 --out ...
#   tune-d6web:   npm run render -- --dice d6 --split tune --count 150 --offset 5500 --dice-per-image 1,3 --empty-platform --cocked-rate 0.3 --out ...
# Needs Debian's python3-torch (apt-get install -y python3-torch). H (train-d6web alone): ~3 min on a 2-core
# machine; I (the first two train sets): ~11 min; L (all three): ~25 min.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=training/learned/folders.sh
source training/learned/folders.sh
RENDERS=${RENDERS:-/work/data/renders}
WORK=${WORK:-$(mktemp -d)}
SETS=${SETS:-train-d6web}
TUNE=${TUNE:-tune-d6web}
VERSION=${VERSION:-learned-d6web/h}
OUT=${OUT:-$WORK/d6web.ts}
EPOCHS=${EPOCHS:-150}
CLASSES=1,2,3,4,5,6,cocked
for s in $SETS $TUNE; do
  [ -d "$RENDERS/$s/images" ] || { echo "$RENDERS/$s is missing: render it first (see this script's header)" >&2; exit 1; }
done
# shellcheck disable=SC2086
join "$WORK/train" $SETS
RHASH=$(npx tsx training/learned/exportInputs.ts --images "$WORK/train" --out "$WORK/train" --classes "$CLASSES" --uncentred-edges --context 64 | tee /dev/stderr | sed -n 's/.*data hash \(............\).*/\1/p')
npx tsx training/learned/exportInputs.ts --images "$RENDERS/$TUNE/images" --out "$WORK/tune" --classes "$CLASSES" --uncentred-edges --context 64 --jitters 0
/usr/bin/python3 training/learned/train.py --train "$WORK/train" --tune "$WORK/tune" --convs 12p,24p,48p,48 --epochs "$EPOCHS" --colour-invariant --radial \
  --thresholds --views 4 --wrong-cost 10 --name d6 --version "$VERSION" --save-torch "$WORK/d6web.pt" --threads 1 \
  --trained-on "renders $SETS (rig look, webcam above; data hash $RHASH...)" --out "$OUT"
echo "wrote $OUT (not shipped): read TEST renders with it by putting it in place of src/vision/learned/weights/d6.ts for one build" >&2
