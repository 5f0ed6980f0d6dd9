#!/usr/bin/env bash
# Reproduces src/vision/d6/netWeights.ts, the D6 networks of the default D6 reader (development time only, never part
# of npm test). Needs Debian's python3-torch (apt-get install -y python3-torch).
#
# Photos 1..TRAIN_LAST of d6-tray-photos (by sorted name) train the networks (TRAIN_LAST 80 made d6-net/2, 100 d6-net/3;
# TRAIN_LAST 80 with HIGHLIGHT=0.3, a glossy highlight drawn on 30 % of the training uses, made d6-net/4; the same with
# VIEWS=8 made d6-net/5: the same networks, read and ruled in 8 views);
# photos TRAIN_LAST+1..100, if any, only watch them and check the rules; photos 101..200 (TEST) are never read here,
# unless TRAIN_EXTRA=FIRST..LAST names some of the second day's photos (101..150 at most) to train on as well: then
# only photos LAST+1..200 are TEST (TRAIN_EXTRA=101..150 with d6-net/5's settings made d6-net/6, shipped).
#  1. Every labelled die is exported once, raw, around the crop the reader cuts (exportCrops.ts --context CONTEXT, 40):
#     train_d6net.py turns it by any angle, scales, shifts, recolours it and makes the reader's SIZE x SIZE input
#     (32x32) itself. The reader takes each network's input size from its spec, so SIZE needs no code change.
#  2. Cross-validation by photo (FOLDS folds, each seed): every training die is read by networks that never saw its
#     photo. On those out-of-fold reads rule.py sets the combined reader's rule and the networks' own threshold,
#     choosing the lowest cost (dice declined plus ten per wrong read), and scores them on TUNE.
#     The reader reads the first view of every network first and stops there when their mean is at least EARLY_AT sure
#     (most dice: one pass per network); the rules are set on reads made that way.
#  3. One network per seed on all of photos 1..TRAIN_LAST; the module ships them as an ensemble with those rules.
# Seeds run two at a time (one thread each). ~30 min on an idle 2-core machine with the defaults.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=training/learned/folders.sh
source training/learned/folders.sh
DATA=${DICERIG_DATASETS:-../shared/datasets}/d6-tray-photos
WORK=${WORK:-$(mktemp -d)}
OUT=${OUT:-src/vision/d6/netWeights.ts}
VERSION=${VERSION:-d6-net/2}
CONVS=${CONVS:-16,16p,32,32p,64,64p,96}
EPOCHS=${EPOCHS:-240}
SEEDS=${SEEDS:-1 2}
FOLDS=${FOLDS:-4}
VIEWS=${VIEWS:-4}
EARLY_AT=${EARLY_AT:-0.99}
TRAIN_LAST=${TRAIN_LAST:-80}
TRAIN_EXTRA=${TRAIN_EXTRA:-}
HIGHLIGHT=${HIGHLIGHT:-0}
SIZE=${SIZE:-32}
CONTEXT=${CONTEXT:-40}
if [ "$TRAIN_LAST" -lt 1 ] || [ "$TRAIN_LAST" -gt 100 ]; then
  echo "TRAIN_LAST=$TRAIN_LAST: photos 1..TRAIN_LAST train the networks, so it must be 1..100 (101..200 are TEST)" >&2
  exit 2
fi
EXTRA=() EX="" ON="photos 1..$TRAIN_LAST" HELD=101..200
if [ -n "$TRAIN_EXTRA" ]; then
  if ! [[ "$TRAIN_EXTRA" =~ ^([0-9]+)\.\.([0-9]+)$ ]] || [ "${BASH_REMATCH[1]}" -lt 101 ] || [ "${BASH_REMATCH[2]}" -gt 150 ] ||
    [ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
    echo "TRAIN_EXTRA=$TRAIN_EXTRA: must be FIRST..LAST within 101..150 (the second day's photos; 151..200 stay TEST)" >&2
    exit 2
  fi
  EXTRA=("${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}") EX="TRAIN_EXTRA=$TRAIN_EXTRA " ON="photos 1..$TRAIN_LAST and $TRAIN_EXTRA"
  HELD=$((BASH_REMATCH[2] + 1))..200
fi
# The command recorded in the module (TRAIN_LAST only when not the default: d6-net/2's command is as it was).
LAST=""
if [ "$TRAIN_LAST" != 80 ]; then LAST="TRAIN_LAST=$TRAIN_LAST "; fi
# HIGHLIGHT (a share of training uses with a glossy highlight drawn on the die) likewise, and only then passed on.
GLOSS=() HL=""
if [ "$HIGHLIGHT" != 0 ]; then GLOSS=(--aug-highlight "$HIGHLIGHT"); HL="HIGHLIGHT=$HIGHLIGHT "; fi
# SIZE and CONTEXT (the input's side and the raw square's, 32 and 40 by default) likewise.
SZ=""
if [ "$SIZE" != 32 ] || [ "$CONTEXT" != 40 ]; then SZ="SIZE=$SIZE CONTEXT=$CONTEXT "; fi
COMMAND="CONVS='$CONVS' EPOCHS=$EPOCHS SEEDS='$SEEDS' FOLDS=$FOLDS VIEWS=$VIEWS EARLY_AT=$EARLY_AT ${LAST}${EX}${HL}${SZ}VERSION=$VERSION bash training/d6net/train-d6net.sh"
split d6-train 1 "$TRAIN_LAST"
if [ ${#EXTRA[@]} -gt 0 ]; then split d6-train "${EXTRA[0]}" "${EXTRA[1]}"; fi
npx tsx training/d6net/exportCrops.ts --images "$WORK/d6-train" --out "$WORK/train" --size "$SIZE" --context "$CONTEXT"
if [ "$TRAIN_LAST" -lt 100 ]; then
  split d6-tune "$((TRAIN_LAST + 1))" 100
  npx tsx training/d6net/exportCrops.ts --images "$WORK/d6-tune" --out "$WORK/tune" --size "$SIZE" --context "$CONTEXT"
  TUNE="$WORK/tune"
else
  TUNE="$WORK/train" # no photo left to check on: train_d6net.py only prints its progress on it, and no rule is checked
fi
train() { /usr/bin/python3 training/d6net/train_d6net.py --train "$WORK/train" --tune "$TUNE" --convs "$CONVS" --epochs "$EPOCHS" --views "$VIEWS" "${GLOSS[@]}" "$@"; }
oof=() oof1=() nets=() tune=() tune1=()
for s in $SEEDS; do
  train --seeds "$s" --folds "$FOLDS" --out "$WORK/cv-s$s" > "$WORK/cv-s$s.log" 2>&1 &
  oof+=("$WORK/cv-s$s-oof.npy")
  oof1+=("$WORK/cv-s$s-oof-v1.npy")
done
wait
for s in $SEEDS; do
  train --seeds "$s" --out "$WORK/full" > "$WORK/full-s$s.log" 2>&1 &
  nets+=("$WORK/full-s$s.json")
  tune+=("$WORK/full-s$s-tune.npy")
  tune1+=("$WORK/full-s$s-tune-v1.npy")
done
wait
tail -n 2 "$WORK"/cv-s*.log "$WORK"/full-s*.log
join_comma() { local IFS=,; echo "$*"; }
CHECK=""
if [ "$TRAIN_LAST" -lt 100 ]; then CHECK="$WORK/tune,$(join_comma "${tune[@]}");$(join_comma "${tune1[@]}")"; fi
/usr/bin/python3 training/d6net/rule.py --dice "$WORK/train" --probs "$(join_comma "${oof[@]}")" --first "$(join_comma "${oof1[@]}")" --early-at "$EARLY_AT" \
  ${CHECK:+--check "$CHECK"} --views "$VIEWS" --json "$WORK/rules.json"
HASH=$(sed -n 's/.*"dataHash": *"\([0-9a-f]*\)".*/\1/p' "$WORK/train.json" | cut -c1-12)
/usr/bin/python3 training/d6net/write_module.py --nets "$(join_comma "${nets[@]}")" --rules "$WORK/rules.json" --version "$VERSION" \
  --trained-on "$ON (by sorted name) of d6-tray-photos" --held-out "$HELD" --command "$COMMAND" --out "$OUT"
echo "data hash $HASH...; work files in $WORK"
