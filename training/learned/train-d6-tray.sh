#!/usr/bin/env bash
# The D6 network pre-trained on tray-look renders (src/camera/render3d/tray.ts; development time only, never part of
# npm test), then fine-tuned on d6-tray-photos 1..80 (by sorted name): train-d6.sh's recipe with other renders and
# epochs. Photos 81..100 (TUNE) watch both runs and set the per-class thresholds; photos 101..200 (TEST) are never
# read here.
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
export WORK=${WORK:-$(mktemp -d)}
export SETS=${SETS:-train-d6-tray}
export RENDERS_DESC="$SETS, tray look"
export OUT=${OUT:-$WORK/d6.ts}
export VERSION=${VERSION:-learned-d6/4a2}
export PRE_EPOCHS=${PRE_EPOCHS:-120}
export FINE_EPOCHS=${FINE_EPOCHS:-300}
exec bash training/learned/train-d6.sh
