#!/usr/bin/env bash
# Reproduces src/vision/learned/weights/xwingCocked.ts (the cocked check), xwing.ts (the face network) and xwingRadial.ts
# (its partner), development time only; never part of npm test. The shipped modules (learned-xwing/33, its partner /32 and
# the cocked check learned-xwing-cocked/16) are made on crops centred where the die lies, as the reader reads them, in two
# runs: `CENTRED=1 bash training/learned/train-xwing.sh` (the face networks, /29 with /28; their data hash ae0154e91be5...)
# then `KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1 bash training/learned/train-xwing.sh` (the check and the thresholds; data hash
# 1d2885997acf...), ~45 min on the shared 2-core machine. Without CENTRED=1 the same two runs make the uncentred ones shipped
# before (/9 with its check /5; then /26, /25 and cocked /13); KEEP_FACES=1 alone made /16, /15 and cocked /7.
# Trains on the renderer's train split only (seed ranges below), each set of renders joined into one labelled folder of
# links (the data hash is over that folder): the face network on train seeds 1..2895, the cocked check also on
# 2896..3495 (half of those dice cocked; on 3196..3495 they lean only 14..22 degrees, the leans the check missed).
# The shipped learned-xwing/6 and learned-xwing-cocked/4 also train on the random-art renders (every die its own icon
# style, so the networks learn what makes each symbol itself): seeds 5001..6500 to both networks, 6501..6800 (half
# cocked, leaning 14..22) to the cocked check. RANDOM_ART=0 leaves them out, as learned-xwing/5 and cocked/3 were made.
# learned-xwing/7's cocked check learned-xwing-cocked/5 (RADIAL=1, the default unless RANDOM_ART=0) reads each die turned
# so the direction from the optical centre to it points down (train.py --radial; its tune and check dice exported raw
# too), in 2 views (as is and mirrored across that direction); /7 is /6's face network with thresholds set with it.
# RADIAL=0 is /6's recipe.
# RADIAL_FACE=1 (opt-in, with RADIAL=1) makes learned-xwing/8, not shipped (training/README.md): the face network turned
# radial-down too (train.py --radial on raw context exports of the train, tune and check dice), read in the same 2 views,
# its thresholds set with /7's check. RADIAL_FACE=0, the default, is /7's recipe.
# PAIR=1 (the default, with RADIAL=1 and RADIAL_FACE=0) makes the shipped learned-xwing/9: /7's face network with /8's
# as its partner (OUT_RADIAL, xwingRadial.ts, version learned-xwing/8 with its own thresholds), both trained as above; the
# reader averages the two networks' probabilities, and /9's thresholds and cockedAt are set on that mean (train.py
# --partner, the partner's probabilities on the same tune and check dice saved by --save-face-probs). PAIR=0 is /7.
# The partner trains beside the face network, each on one thread (the same weights as one after the other).
# MORE_RANDOM=1 (opt-in, with PAIR=1; not shipped, training/README.md) trains both face networks on 1,200 more random-art
# renders too (seeds 12001..13200; learned-xwing/10 and its radial partner /11, read together as /12).
# KEEP_COCKED=1 (the default with MORE_RANDOM=1; needs RADIAL=1) keeps the shipped cocked check learned-xwing-cocked/5
# instead of training it again: its probabilities on the tune and check dice are recomputed from its module, and the
# cocked-heavy sets (2896..3495, 6501..6800) need not be rendered.
# KEEP_FACES=1 (with PAIR=1; the shipped recipe, training/README.md) keeps /9's two face networks (FACE_FROM, PARTNER_FROM:
# the shipped modules by default) and trains the cocked check again on its sets plus 300 more random-art renders with half
# their dice leaning 14..22 degrees (seeds 6801..7100), reading 32x32 (CHECK_PX=32, its default): learned-xwing-cocked/7,
# with the pair's thresholds set again with it (the partner as learned-xwing/15, the pair as /16). CHECK_PX=24 reads 24x24
# as before: learned-xwing-cocked/6 with /13 and /14 (tried, not shipped).
# CHECK_PAIR=1 (with KEEP_FACES=1, CHECK_PX=32 and MORE_CHECK_RANDOM=0) trains /7's check twice, alike but for the seed
# (1 and 2, beside each other on one thread each), and the reader averages the two (the first names the second as its
# partner): learned-xwing-cocked/11 (/7's weights) with /12 (OUT_COCKED_PARTNER), the pair's thresholds set again on that
# mean (the partner as learned-xwing/23, the pair as /24).
# LEAN_ON_DIE=1 (with KEEP_FACES=1, CHECK_PX=32, MORE_CHECK_RANDOM=0, and CHECK_PAIR=0 unless BAIZE=1) trains /7's check on 600 more renders
# whose cocked dice (half of all) lean 14..22 degrees on another die wherever one is near (--cocked-on-die 1; seeds
# 8001..8300 house art, 8301..8600 random art): learned-xwing-cocked/13, the partner as learned-xwing/25, the pair as /26
# (the shipped recipe, training/README.md).
# CENTRED=1 (with PAIR=1, MORE_RANDOM=0; with KEEP_FACES=1 only beside LEAN_ON_DIE=1) exports every die the frame's edge cut
# short centred where it lies, as the reader reads it since the edge-crop fix (exportInputs without --uncentred-edges).
# The default run with CENTRED=1 trains the face networks on centred crops (learned-xwing/29, partner /28, check /14); then
# KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1 from those modules trains the check as shipped (learned-xwing-cocked/16, the pair
# learned-xwing/33 with its partner /32); from /26's face networks instead it makes cocked/15 with /31 and /30.
# TONE=1 (with CENTRED=1) passes half of every network's training crops through a random camera tone curve (train.py
# --aug-tone 0.5): the default run makes learned-xwing/36 (partner /35, check /17); KEEP_FACES=1 LEAN_ON_DIE=1 from those
# makes /38 (partner /37, check learned-xwing-cocked/18). Tried on 2026-12-01 and not kept (training/README.md).
# LOW_LEAN=1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0: the shipped recipe) also trains the check on 600
# renders whose cocked dice (half of all) lean only 14..17 degrees, the ones it read as faces on foreign art (seeds
# 9601..9900 house art, 9901..10200 random art): learned-xwing-cocked/19, the partner as /39, the pair as /40. The
# candidate pre-registered at stop 58; it passed its gate but was not shipped (no gain on the shallow leans it was for, none on
# the test set; training/README.md).
# HIDE_TOP=1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0 and LOW_LEAN=0: the shipped recipe) trains and reads
# the check with each die's top face's middle hidden (exportInputs and train.py --hide-top 0.22: a disc of 0.22 die sizes
# painted in the body's colour, src/vision/learned/hideTop.ts), so the icon cannot sway it: learned-xwing-cocked/20, the
# partner as /41, the pair as /42. The candidate pre-registered at stop 61 (the shipped check's false alarms depend on
# the face); dropped on the tune sets (the foreign focus icon reaches past the disc). HIDE_TOP=2 hides a disc of 0.32 die
# sizes instead (the whole icon): learned-xwing-cocked/21, the partner as /43, the pair as /44.
# OFF_AXIS=1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0 and HIDE_TOP=0: the shipped recipe) tells
# the check where each die lies: a fourth input plane of its angle off the lens axis over 30 degrees (train.py
# --off-axis-plane 30; the reader adds it alike), so that it can learn how much of a flat die's sides the lens shows
# there: learned-xwing-cocked/22, the partner as /45, the pair as /46. The candidate pre-registered at stop 62 (flat dice
# far off the axis look tilted to the check; a level moved by where the die lies failed at stops 57 and 64); dropped on
# the tune sets at stop 64 (more flat foreign-art dice called tilted, training/README.md).
# WIDE_CHECK=1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0, HIDE_TOP=0 and OFF_AXIS=0: the shipped
# recipe) trains the check 1.5 times as wide (convolutions 24p,48p,96p,96 for 16p,32p,64p,64; 2.25 times the arithmetic):
# learned-xwing-cocked/23, the partner as /47, the pair as /48. The candidate written before its renders at stop 67
# (training/README.md: the check has been given more data, views and inputs, never more width of its own); trained from
# seeds 1 and 2 at stop 68 and dropped at its tune step (more flat foreign-art dice called tilted, not fewer).
# BAIZE=1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0, HIDE_TOP=0, OFF_AXIS=0 and WIDE_CHECK=0: the
# shipped recipe) also trains the check on 600 renders of dice on cloths the colour of the dice (the opt-in train
# platforms green-baize and red-baize; house and random art, 30 % cocked): learned-xwing-cocked/24, the partner as /49, the
# pair as /50. Written before its renders at stop 69 (training/README.md: on the tune split's green felt, the only platform
# of a die's colour any split had, the check called flat green dice tilted about six times as often as elsewhere);
# trained from seeds 1 and 2 the same session and dropped at its tune step (fewer flat dice called tilted, but seed 1's
# false alarms no less face-dependent: p 0.031 against /16's 0.066); judged again by its gate's whole cost on 2026-12-04
# and dropped there too (seed 1 passed; seed 2 read 22 cocked dice as faces against /33's 15).
# BAIZE=1 CHECK_PAIR=1 trains that check from both seeds side by side and reads their mean: learned-xwing-cocked/25 (seed 1)
# with /26 (seed 2, OUT_COCKED_PARTNER), the partner as learned-xwing/51, the pair as /52; dropped by its gate on 2026-12-04
# (training/README.md: half the flat dice declined, three more cocked dice read as faces). The reader reads such a check only
# once src/vision/learned/shipped.ts attaches its partner (withPartner); until then it refuses it, naming the partner.
# CHECK_SEED=N (default 1, as shipped; with KEEP_FACES=1 and CHECK_PAIR=0) trains the check from another seed; the check's,
# the partner's and the pair's versions say so (learned-xwing-cocked/23-seed2): a candidate check is judged from two seeds.
# SEED=N (default 1, as shipped) trains the face networks from another seed; their versions say so (learned-xwing/9-seed2).
# The cocked check sees 1.3 die sizes around the top face at 24x24 (CHECK_PX=32 or 48: 32x32 or 48x48; the die's outline
# and side faces); the face network 0.6 die sizes at 32x32.
# The face network's per-class thresholds, cockedAt and the cocked check's threshold are set together on tune-xwing,
# tune-xwing-351 and tune-xwing-501 (450 images, 1,822 dice) and checked on tune-xwing-151 (tune seeds
# 1000150..1000349, never used to choose anything); test-xwing is never read here.
# The top face's height ratio 0.77 (parallax) was fitted on the tune split's ground truth (training/learned/topFaceCheck.ts).
# The renders it reads, under $RENDERS, are made by training/learned/render-xwing.sh (its set_options gives each set's
# render options; with no names it renders the sets the shipped recipe's two runs read). A run that finds a set it reads
# missing stops before any work and names the command that renders it.
# Needs Debian's python3-torch (apt-get install -y python3-torch). ~19 min on the shared 2-core machine (learned-xwing/6).
set -euo pipefail
cd "$(dirname "$0")/../.."
RANDOM_ART=${RANDOM_ART:-1}
if [ "$RANDOM_ART" != 0 ] && [ "$RANDOM_ART" != 1 ]; then
  echo "RANDOM_ART=$RANDOM_ART: 1 (the default) trains on the random-art renders too, as learned-xwing/6; 0 leaves them out, as /5" >&2
  exit 2
fi
# shellcheck source=training/learned/folders.sh
source training/learned/folders.sh
RADIAL=${RADIAL:-$RANDOM_ART}
if { [ "$RADIAL" != 0 ] && [ "$RADIAL" != 1 ]; } || { [ "$RADIAL" = 1 ] && [ "$RANDOM_ART" = 0 ]; }; then
  echo "RADIAL=$RADIAL: 1 (the default, with RANDOM_ART=1) trains the cocked check on dice turned radial-down, as learned-xwing/7; 0 does not, as /6 (and /5 with RANDOM_ART=0)" >&2
  exit 2
fi
RADIAL_FACE=${RADIAL_FACE:-0}
if { [ "$RADIAL_FACE" != 0 ] && [ "$RADIAL_FACE" != 1 ]; } || { [ "$RADIAL_FACE" = 1 ] && [ "$RADIAL" = 0 ]; }; then
  echo "RADIAL_FACE=$RADIAL_FACE: 1 (with RADIAL=1) trains the face network on dice turned radial-down too, as learned-xwing/8 (not shipped); 0 (the default) does not, as /7 (and /6 with RADIAL=0)" >&2
  exit 2
fi
PAIR=${PAIR:-$RADIAL}
if { [ "$PAIR" != 0 ] && [ "$PAIR" != 1 ]; } || { [ "$PAIR" = 1 ] && { [ "$RADIAL" = 0 ] || [ "$RADIAL_FACE" = 1 ]; }; }; then
  echo "PAIR=$PAIR: 1 (the default, with RADIAL=1 and RADIAL_FACE=0) makes learned-xwing/9, /7's face network read with /8's radial one; 0 makes /7 alone" >&2
  exit 2
fi
MORE_RANDOM=${MORE_RANDOM:-0}
if { [ "$MORE_RANDOM" != 0 ] && [ "$MORE_RANDOM" != 1 ]; } || { [ "$MORE_RANDOM" = 1 ] && [ "$PAIR" != 1 ]; }; then
  echo "MORE_RANDOM=$MORE_RANDOM: 1 (opt-in, with PAIR=1) trains both face networks on 1,200 more random-art renders too (learned-xwing/10 and /11, read together as /12) and keeps the shipped cocked check; 0 (the default) is /9's recipe" >&2
  exit 2
fi
KEEP_COCKED=${KEEP_COCKED:-$MORE_RANDOM}
if { [ "$KEEP_COCKED" != 0 ] && [ "$KEEP_COCKED" != 1 ]; } || { [ "$KEEP_COCKED" = 1 ] && [ "$RADIAL" != 1 ]; }; then
  echo "KEEP_COCKED=$KEEP_COCKED: 1 (the default with MORE_RANDOM=1; with RADIAL=1) keeps the shipped cocked check learned-xwing-cocked/5 instead of training it; 0 trains it" >&2
  exit 2
fi
KEEP_FACES=${KEEP_FACES:-0}
if { [ "$KEEP_FACES" != 0 ] && [ "$KEEP_FACES" != 1 ]; } || { [ "$KEEP_FACES" = 1 ] && { [ "$PAIR" != 1 ] || [ "$MORE_RANDOM" = 1 ] || [ "$KEEP_COCKED" = 1 ]; }; }; then
  echo "KEEP_FACES=$KEEP_FACES: 1 (the shipped recipe; with PAIR=1, MORE_RANDOM=0 and KEEP_COCKED=0) keeps /9's two face networks (FACE_FROM, PARTNER_FROM) and trains the cocked check again with more leaning random-art dice (learned-xwing-cocked/7 at CHECK_PX=32, /6 at 24); 0 (the default) trains the face networks" >&2
  exit 2
fi
CHECK_PX=${CHECK_PX:-$([ "$KEEP_FACES" = 1 ] && echo 32 || echo 24)}
if { [ "$CHECK_PX" != 24 ] && [ "$CHECK_PX" != 32 ] && [ "$CHECK_PX" != 48 ]; } || { [ "$CHECK_PX" != 24 ] && [ "$KEEP_FACES" != 1 ]; }; then
  echo "CHECK_PX=$CHECK_PX: the cocked check's input side, 24 (as learned-xwing-cocked/5 and /6), 32 (the default with KEEP_FACES=1, as the shipped /7) or 48 (with KEEP_FACES=1: learned-xwing-cocked/10, tried)" >&2
  exit 2
fi
MORE_CHECK_RANDOM=${MORE_CHECK_RANDOM:-0}
if { [ "$MORE_CHECK_RANDOM" != 0 ] && [ "$MORE_CHECK_RANDOM" != 1 ]; } || { [ "$MORE_CHECK_RANDOM" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$CHECK_PX" != 32 ]; }; }; then
  echo "MORE_CHECK_RANDOM=$MORE_CHECK_RANDOM: 1 (with KEEP_FACES=1 and CHECK_PX=32) also trains the cocked check on 600 more random-art renders, mostly flat (seeds 7251..7850: learned-xwing-cocked/9, tried); 0 (the default) does not" >&2
  exit 2
fi
CHECK_PAIR=${CHECK_PAIR:-0}
if { [ "$CHECK_PAIR" != 0 ] && [ "$CHECK_PAIR" != 1 ]; } || { [ "$CHECK_PAIR" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$CHECK_PX" != 32 ] || [ "$MORE_CHECK_RANDOM" = 1 ]; }; }; then
  echo "CHECK_PAIR=$CHECK_PAIR: 1 (with KEEP_FACES=1, CHECK_PX=32 and MORE_CHECK_RANDOM=0) trains the cocked check from two seeds and reads their mean (learned-xwing-cocked/11 with /12); 0 (the default) trains one" >&2
  exit 2
fi
LEAN_ON_DIE=${LEAN_ON_DIE:-0}
if { [ "$LEAN_ON_DIE" != 0 ] && [ "$LEAN_ON_DIE" != 1 ]; } || { [ "$LEAN_ON_DIE" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$CHECK_PX" != 32 ] || [ "$MORE_CHECK_RANDOM" = 1 ] || { [ "$CHECK_PAIR" = 1 ] && [ "${BAIZE:-0}" != 1 ]; }; }; }; then
  echo "LEAN_ON_DIE=$LEAN_ON_DIE: 1 (with KEEP_FACES=1, CHECK_PX=32, MORE_CHECK_RANDOM=0, and CHECK_PAIR=0 unless BAIZE=1) also trains the cocked check on 600 renders of dice leaning on dice (learned-xwing-cocked/13); 0 (the default) does not" >&2
  exit 2
fi
CENTRED=${CENTRED:-0}
if { [ "$CENTRED" != 0 ] && [ "$CENTRED" != 1 ]; } || { [ "$CENTRED" = 1 ] && { [ "$PAIR" != 1 ] || [ "$MORE_RANDOM" = 1 ] || { [ "$KEEP_FACES" = 1 ] && [ "$LEAN_ON_DIE" != 1 ]; }; }; }; then
  echo "CENTRED=$CENTRED: 1 (with PAIR=1 and MORE_RANDOM=0; with KEEP_FACES=1 only beside LEAN_ON_DIE=1) cuts every die the frame's edge cut short around where it lies, as the reader reads it, for the default run's networks (learned-xwing/29, partner /28, check /14) or the shipped recipe's check and thresholds; 0 (the default) cuts them around the crop's middle, as /26 and every network before it were trained" >&2
  exit 2
fi
TONE=${TONE:-0}
if { [ "$TONE" != 0 ] && [ "$TONE" != 1 ]; } || { [ "$TONE" = 1 ] && [ "$CENTRED" != 1 ]; }; then
  echo "TONE=$TONE: 1 (with CENTRED=1) trains every network with half its crops through a random camera tone curve (train.py --aug-tone 0.5: learned-xwing/36, partner /35, check /17; with KEEP_FACES=1 from them: /38, /37, check /18); 0 (the default, as /33 was trained) does not" >&2
  exit 2
fi
LOW_LEAN=${LOW_LEAN:-0}
if { [ "$LOW_LEAN" != 0 ] && [ "$LOW_LEAN" != 1 ]; } || { [ "$LOW_LEAN" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$LEAN_ON_DIE" != 1 ] || [ "$CENTRED" != 1 ] || [ "$TONE" != 0 ]; }; }; then
  echo "LOW_LEAN=$LOW_LEAN: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1 and TONE=0, the shipped recipe) also trains the cocked check on 600 renders of dice leaning 14..17 degrees (learned-xwing-cocked/19, the pair /40); 0 (the default, as shipped) does not" >&2
  exit 2
fi
HIDE_TOP=${HIDE_TOP:-0}
if { [ "$HIDE_TOP" != 0 ] && [ "$HIDE_TOP" != 1 ] && [ "$HIDE_TOP" != 2 ]; } || { [ "$HIDE_TOP" != 0 ] && { [ "$KEEP_FACES" != 1 ] || [ "$LEAN_ON_DIE" != 1 ] || [ "$CENTRED" != 1 ] || [ "$TONE" != 0 ] || [ "$LOW_LEAN" != 0 ]; }; }; then
  echo "HIDE_TOP=$HIDE_TOP: 1 or 2 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0 and LOW_LEAN=0, the shipped recipe) trains and reads the cocked check with the top face's middle hidden (learned-xwing-cocked/20, the pair /42; 2: a wider disc, cocked/21, the pair /44); 0 (the default, as shipped) does not" >&2
  exit 2
fi
OFF_AXIS=${OFF_AXIS:-0}
if { [ "$OFF_AXIS" != 0 ] && [ "$OFF_AXIS" != 1 ]; } || { [ "$OFF_AXIS" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$LEAN_ON_DIE" != 1 ] || [ "$CENTRED" != 1 ] || [ "$TONE" != 0 ] || [ "$LOW_LEAN" != 0 ] || [ "$HIDE_TOP" != 0 ]; }; }; then
  echo "OFF_AXIS=$OFF_AXIS: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0 and HIDE_TOP=0, the shipped recipe) tells the cocked check each die's angle off the lens axis (learned-xwing-cocked/22, the pair /46); 0 (the default, as shipped) does not" >&2
  exit 2
fi
OFF_AXIS_ARG=()
if [ "$OFF_AXIS" = 1 ]; then OFF_AXIS_ARG=(--off-axis-plane 30); fi
WIDE_CHECK=${WIDE_CHECK:-0}
if { [ "$WIDE_CHECK" != 0 ] && [ "$WIDE_CHECK" != 1 ]; } || { [ "$WIDE_CHECK" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$LEAN_ON_DIE" != 1 ] || [ "$CENTRED" != 1 ] || [ "$TONE" != 0 ] || [ "$LOW_LEAN" != 0 ] || [ "$HIDE_TOP" != 0 ] || [ "$OFF_AXIS" != 0 ]; }; }; then
  echo "WIDE_CHECK=$WIDE_CHECK: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0, HIDE_TOP=0 and OFF_AXIS=0, the shipped recipe) trains the cocked check 1.5 times as wide (24p,48p,96p,96: learned-xwing-cocked/23, the pair /48); 0 (the default, as shipped) does not" >&2
  exit 2
fi
CHECK_CONVS=16p,32p,64p,64
if [ "$WIDE_CHECK" = 1 ]; then CHECK_CONVS=24p,48p,96p,96; fi
BAIZE=${BAIZE:-0}
if { [ "$BAIZE" != 0 ] && [ "$BAIZE" != 1 ]; } || { [ "$BAIZE" = 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$LEAN_ON_DIE" != 1 ] || [ "$CENTRED" != 1 ] || [ "$TONE" != 0 ] || [ "$LOW_LEAN" != 0 ] || [ "$HIDE_TOP" != 0 ] || [ "$OFF_AXIS" != 0 ] || [ "$WIDE_CHECK" != 0 ]; }; }; then
  echo "BAIZE=$BAIZE: 1 (only beside KEEP_FACES=1 LEAN_ON_DIE=1 CENTRED=1, TONE=0, LOW_LEAN=0, HIDE_TOP=0, OFF_AXIS=0 and WIDE_CHECK=0, the shipped recipe) also trains the cocked check on 600 renders of dice on cloths the colour of the dice (learned-xwing-cocked/24, the pair /50); 0 (the default, as shipped) does not" >&2
  exit 2
fi
CHECK_SEED=${CHECK_SEED:-1}
if ! [[ "$CHECK_SEED" =~ ^[1-9][0-9]*$ ]] || { [ "$CHECK_SEED" != 1 ] && { [ "$KEEP_FACES" != 1 ] || [ "$CHECK_PAIR" = 1 ]; }; }; then
  echo "CHECK_SEED=$CHECK_SEED: the cocked check's training seed, a whole number from 1 (the default, as shipped); another seed only with KEEP_FACES=1 and CHECK_PAIR=0" >&2
  exit 2
fi
CHECK_SEED_ARG=()
if [ "$CHECK_SEED" != 1 ]; then CHECK_SEED_ARG=(--seed "$CHECK_SEED"); fi
# The check's inputs, cut alike for its training, tune and check dice (and said so to train.py, which refuses a mix).
HIDE_ARG=()
if [ "$HIDE_TOP" = 1 ]; then HIDE_ARG=(--hide-top 0.22); fi
if [ "$HIDE_TOP" = 2 ]; then HIDE_ARG=(--hide-top 0.32); fi
TONE_ARG=()
if [ "$TONE" = 1 ]; then TONE_ARG=(--aug-tone 0.5); fi
SEED=${SEED:-1}
if ! [[ "$SEED" =~ ^[1-9][0-9]*$ ]]; then
  echo "SEED=$SEED: the face networks' training seed, a whole number from 1 (the default, as shipped)" >&2
  exit 2
fi
# Only a seed other than the shipped one is written into the commands, so the shipped recipe records the same commands.
SEED_ARG=()
if [ "$SEED" != 1 ]; then SEED_ARG=(--seed "$SEED"); fi
RENDERS=${RENDERS:-/work/data/renders}
# (A WORK made here is removed again when the run only lists its sets.)
WORK_GIVEN=${WORK:+1}
WORK=${WORK:-$(mktemp -d)}
OUT=${OUT:-src/vision/learned/weights/xwing.ts}
OUT_COCKED=${OUT_COCKED:-src/vision/learned/weights/xwingCocked.ts}
OUT_RADIAL=${OUT_RADIAL:-src/vision/learned/weights/xwingRadial.ts}
OUT_COCKED_PARTNER=${OUT_COCKED_PARTNER:-src/vision/learned/weights/xwingCockedPartner.ts}
FACE_SETS="train-xwing train-xwing-401 train-xwing-951 train-xwing-1501 train-xwing-1696 train-xwing-1996 train-xwing-2296 train-xwing-2596"
COCKED_SETS="train-xwing-2896 train-xwing-3046 train-xwing-3196 train-xwing-3346"
FACE_ON="renders train-xwing seeds 1..2895"
COCKED_ON="renders train-xwing seeds 1..3495"
FACE_V=learned-xwing/4 READER_V=learned-xwing/5 COCKED_V=learned-xwing-cocked/3
if [ "$RANDOM_ART" = 1 ]; then
  FACE_SETS="$FACE_SETS train-xwing-rnd5001 train-xwing-rnd5601"
  COCKED_SETS="$COCKED_SETS train-xwing-rnd6501"
  FACE_ON="$FACE_ON and 5001..6500 (random art)"
  COCKED_ON="$COCKED_ON and 5001..6800 (random art)"
  FACE_V=learned-xwing/6 READER_V=learned-xwing/6 COCKED_V=learned-xwing-cocked/4
fi
if [ "$RADIAL" = 1 ]; then READER_V=learned-xwing/7 COCKED_V=learned-xwing-cocked/5; fi
if [ "$RADIAL_FACE" = 1 ]; then FACE_V=learned-xwing/8 READER_V=learned-xwing/8; fi
PARTNER_V=learned-xwing/8
if [ "$PAIR" = 1 ]; then READER_V=learned-xwing/9; fi
if [ "$MORE_RANDOM" = 1 ]; then
  FACE_SETS="$FACE_SETS train-xwing-rnd12001 train-xwing-rnd12601"
  FACE_ON="renders train-xwing seeds 1..2895, 5001..6500 and 12001..13200 (random art)"
  FACE_V=learned-xwing/10 PARTNER_V=learned-xwing/11 READER_V=learned-xwing/12
fi
if [ "$KEEP_FACES" = 1 ]; then
  COCKED_SETS="$COCKED_SETS train-xwing-rnd6801"
  COCKED_ON="renders train-xwing seeds 1..3495 and 5001..7100 (random art)"
  COCKED_V=learned-xwing-cocked/6 PARTNER_V=learned-xwing/13 READER_V=learned-xwing/14
  if [ "$CHECK_PX" = 32 ]; then COCKED_V=learned-xwing-cocked/7 PARTNER_V=learned-xwing/15 READER_V=learned-xwing/16; fi
  if [ "$CHECK_PX" = 48 ]; then COCKED_V=learned-xwing-cocked/10 PARTNER_V=learned-xwing/21 READER_V=learned-xwing/22; fi
  if [ "$MORE_CHECK_RANDOM" = 1 ]; then
    COCKED_SETS="$COCKED_SETS train-xwing-rnd7251"
    COCKED_ON="renders train-xwing seeds 1..3495 and 5001..7100, 7251..7850 (random art)"
    COCKED_V=learned-xwing-cocked/9 PARTNER_V=learned-xwing/19 READER_V=learned-xwing/20
  fi
  if [ "$CHECK_PAIR" = 1 ]; then COCKED_V=learned-xwing-cocked/11 PARTNER_V=learned-xwing/23 READER_V=learned-xwing/24; fi
  if [ "$LEAN_ON_DIE" = 1 ]; then
    COCKED_SETS="$COCKED_SETS train-xwing-8001 train-xwing-rnd8301"
    COCKED_ON="renders train-xwing seeds 1..3495, 8001..8300 and 5001..7100, 8301..8600 (random art)"
    COCKED_V=learned-xwing-cocked/13 PARTNER_V=learned-xwing/25 READER_V=learned-xwing/26
  fi
  if [ "$LOW_LEAN" = 1 ]; then
    COCKED_SETS="$COCKED_SETS train-xwing-low9601 train-xwing-rndlow9901"
    COCKED_ON="$COCKED_ON; 9601..9900 and 9901..10200 (random art) leaning 14..17 degrees"
  fi
  if [ "$BAIZE" = 1 ]; then
    COCKED_SETS="$COCKED_SETS train-xwing-baize15001 train-xwing-rndbaize15301"
    COCKED_ON="$COCKED_ON; 15001..15300 and 15301..15600 (random art) on green and red baize"
  fi
fi
# The cocked check's saved probabilities the thresholds are set with: with CHECK_PAIR=1, both networks' (their mean).
CHECK_PROBS="$WORK/cocked24wv4"
# The check's partner's version (CHECK_PAIR=1): /12, unless the recipe's versions below name another.
CHECK_PARTNER_V=learned-xwing-cocked/12
if [ "$CHECK_PAIR" = 1 ]; then CHECK_PROBS="$WORK/cocked24wv4,$WORK/cocked24wv4s2"; fi
# KEEP_FACES=1 starts from the face networks' weights in these modules (/9 and its partner /8, or a KEEP_FACES run's /14 and
# /13, /16 and /15, or /26 and /25; centred: /29 and /28, or /33 and /32 as shipped now: the same weights).
FACE_FROM=${FACE_FROM:-src/vision/learned/weights/xwing.ts}
PARTNER_FROM=${PARTNER_FROM:-src/vision/learned/weights/xwingRadial.ts}
# The kept face module's own version (its first version line; the partner's and the check's come after it), read once:
# whether its networks were trained on centred crops (CENTRED=1's default run, or the pair made from them) and with the
# tone curve (TONE=1's) follows from it.
FACES_CENTRED=0 FACES_TONED=0 KEPT_FACE_V=
if [ "$KEEP_FACES" = 1 ]; then
  # (A module that is missing, said so by sed, or not an X-Wing face module leaves it empty; the guard below names it.)
  KEPT_FACE_V=$(sed -n 's/^ *version: "\(learned-xwing\/[0-9]*\)",$/\1/p;T;q' "$FACE_FROM") || true
  case "$KEPT_FACE_V" in learned-xwing/29 | learned-xwing/33 | learned-xwing/36 | learned-xwing/38) FACES_CENTRED=1 ;; esac
  case "$KEPT_FACE_V" in learned-xwing/36 | learned-xwing/38) FACES_TONED=1 ;; esac
fi
if [ "$TONE" = 1 ]; then
  if [ "$KEEP_FACES" = 0 ]; then
    FACE_V=learned-xwing/34 PARTNER_V=learned-xwing/35 READER_V=learned-xwing/36 COCKED_V=learned-xwing-cocked/17
  else
    COCKED_V=learned-xwing-cocked/18 PARTNER_V=learned-xwing/37 READER_V=learned-xwing/38
  fi
elif [ "$CENTRED" = 1 ]; then
  if [ "$KEEP_FACES" = 0 ]; then
    FACE_V=learned-xwing/27 PARTNER_V=learned-xwing/28 READER_V=learned-xwing/29 COCKED_V=learned-xwing-cocked/14
  elif [ "$FACES_CENTRED" = 1 ]; then
    # From the face networks trained centred (the line above, or /33 made from them): the whole recipe on centred crops.
    COCKED_V=learned-xwing-cocked/16 PARTNER_V=learned-xwing/32 READER_V=learned-xwing/33
    if [ "$LOW_LEAN" = 1 ]; then COCKED_V=learned-xwing-cocked/19 PARTNER_V=learned-xwing/39 READER_V=learned-xwing/40; fi
    if [ "$HIDE_TOP" = 1 ]; then COCKED_V=learned-xwing-cocked/20 PARTNER_V=learned-xwing/41 READER_V=learned-xwing/42; fi
    if [ "$HIDE_TOP" = 2 ]; then COCKED_V=learned-xwing-cocked/21 PARTNER_V=learned-xwing/43 READER_V=learned-xwing/44; fi
    if [ "$OFF_AXIS" = 1 ]; then COCKED_V=learned-xwing-cocked/22 PARTNER_V=learned-xwing/45 READER_V=learned-xwing/46; fi
    if [ "$WIDE_CHECK" = 1 ]; then COCKED_V=learned-xwing-cocked/23 PARTNER_V=learned-xwing/47 READER_V=learned-xwing/48; fi
    if [ "$BAIZE" = 1 ]; then COCKED_V=learned-xwing-cocked/24 PARTNER_V=learned-xwing/49 READER_V=learned-xwing/50; fi
    if [ "$BAIZE" = 1 ] && [ "$CHECK_PAIR" = 1 ]; then
      COCKED_V=learned-xwing-cocked/25 CHECK_PARTNER_V=learned-xwing-cocked/26 PARTNER_V=learned-xwing/51 READER_V=learned-xwing/52
    fi
  else
    # From the shipped face networks (trained uncentred): only the check and the thresholds centred.
    COCKED_V=learned-xwing-cocked/15 PARTNER_V=learned-xwing/30 READER_V=learned-xwing/31
  fi
fi
# The check module names its partner once the versions are final.
CHECK_PARTNER_ARG=()
if [ "$CHECK_PAIR" = 1 ]; then CHECK_PARTNER_ARG=(--check-partner-version "$CHECK_PARTNER_V"); fi
if [ "$SEED" != 1 ]; then FACE_V="$FACE_V-seed$SEED" PARTNER_V="$PARTNER_V-seed$SEED" READER_V="$READER_V-seed$SEED"; fi
if [ "$CHECK_SEED" != 1 ]; then COCKED_V="$COCKED_V-seed$CHECK_SEED" PARTNER_V="$PARTNER_V-seed$CHECK_SEED" READER_V="$READER_V-seed$CHECK_SEED"; fi
if [ "$KEEP_FACES" = 1 ]; then
  if ! [[ "$KEPT_FACE_V" =~ ^learned-xwing/(9|14|16|26|29|33|36|38)$ ]] || ! grep -Eq 'version: "learned-xwing/(8|13|15|25|28|32|35|37)"' "$PARTNER_FROM"; then
    echo "KEEP_FACES=1 keeps learned-xwing/9's face networks, but $FACE_FROM is not /9 (or /14, /16, /26; centred: /29, /33; toned: /36, /38) or $PARTNER_FROM is not /8 (or /13, /15, /25; centred: /28, /32; toned: /35, /37)" >&2
    exit 2
  fi
  if [ "$TONE" != "$FACES_TONED" ]; then
    echo "KEEP_FACES=1 keeps $FACE_FROM's face networks, trained $([ "$FACES_TONED" = 1 ] && echo with || echo without) the tone curve: TONE=$FACES_TONED is needed so the check and thresholds are made alike" >&2
    exit 2
  fi
  if [ "$CENTRED" = 0 ] && [ "$FACES_CENTRED" = 1 ]; then
    echo "KEEP_FACES=1 keeps $FACE_FROM's face networks, trained on centred crops: CENTRED=1 is needed to set their thresholds and check on crops cut alike" >&2
    exit 2
  fi
fi
# Refused before anything is exported: a kept cocked check must be the one this recipe's thresholds are set with.
if [ "$KEEP_COCKED" = 1 ] && ! grep -q "version: \"$COCKED_V\"" "$OUT_COCKED"; then
  echo "KEEP_COCKED=1 keeps the shipped cocked check $COCKED_V, but $OUT_COCKED is another version" >&2
  exit 2
fi
# The rendered sets this run reads; LIST_SETS=1 prints them and stops (render-xwing.sh renders the shipped recipe's).
NEEDED=
if [ "$KEEP_FACES" = 0 ]; then NEEDED="$FACE_SETS"; fi
if [ "$KEEP_COCKED" = 0 ]; then NEEDED="$NEEDED $FACE_SETS $COCKED_SETS"; fi
NEEDED=$(echo "$NEEDED train-xwing tune-xwing tune-xwing-151 tune-xwing-351 tune-xwing-501" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | paste -sd' ')
if [ "${LIST_SETS:-0}" = 1 ]; then
  echo "$NEEDED"
  if [ -z "$WORK_GIVEN" ]; then rmdir "$WORK"; fi
  exit 0
fi
MISSING=
for d in $NEEDED; do
  if [ ! -e "$RENDERS/$d/READY" ]; then MISSING="$MISSING $d"; fi
done
if [ -n "$MISSING" ]; then
  echo "train-xwing.sh: these rendered sets are not whole in $RENDERS (no READY):$MISSING" >&2
  echo "render them first (a few seconds an image; the command can be stopped and run again): RENDERS=$RENDERS bash training/learned/render-xwing.sh$MISSING" >&2
  exit 2
fi
if [ "$KEEP_FACES" = 0 ]; then
  # shellcheck disable=SC2086
  join "$WORK/train2895" $FACE_SETS
fi
if [ "$KEEP_COCKED" = 0 ]; then
  # shellcheck disable=SC2086
  join "$WORK/train3495" $FACE_SETS $COCKED_SETS
fi
join "$WORK/tuneall" tune-xwing tune-xwing-351 tune-xwing-501
CLASSES=$(paste -sd, "$RENDERS/train-xwing/labels/classes.txt")
# --uncentred-edges (CENTRED=0): crops the frame's edge cut short read around their middle, as every network before /29
# was trained; CENTRED=1 (the shipped /33) reads them where the die lies, as the reader does.
X="npx tsx training/learned/exportInputs.ts --classes $CLASSES --height-ratio 0.77"
if [ "$CENTRED" = 0 ]; then X="$X --uncentred-edges"; fi
# await_training PID LOG WHAT: waits for a training run started in the background, then prints its log (on failure, says so).
await_training() {
  if ! wait "$1"; then
    cat "$2" >&2
    echo "$3 failed to train (its log is above, and in $2)" >&2
    exit 1
  fi
  cat "$2"
}
if [ "$KEEP_FACES" = 1 ]; then
  # /9's two networks, not trained again: their torch states rebuilt from the modules (each checked against its probe).
  # Before the check is trained: exportWeights loads the shipped models, which refuse a face module tuned with another
  # check than the one a new check module (written over OUT_COCKED) names.
  npx tsx training/learned/exportWeights.ts --module "$FACE_FROM" --out "$WORK/face-kept"
  /usr/bin/python3 training/learned/state_from_weights.py --weights "$WORK/face-kept" --out "$WORK/xwing.pt"
  npx tsx training/learned/exportWeights.ts --module "$PARTNER_FROM" --out "$WORK/partner-kept"
  /usr/bin/python3 training/learned/state_from_weights.py --weights "$WORK/partner-kept" --out "$WORK/xwing8.pt"
fi
# The cocked check: flat or cocked, from a wider square around the top face (1.3 die sizes at 24x24; a 32x32 input of
# the same stack caught fewer on house tune dice, but on foreign art it separates leaning dice better: CHECK_PX=32, the
# shipped /7). Then its probabilities of cocked on the tune and check dice in 4 views (the radial
# check: in its own 2, by the training run itself).
if [ "$KEEP_COCKED" = 0 ]; then
  $X --images "$WORK/train3495" --out "$WORK/ck24-train" --context $((2 * CHECK_PX)) --size "$CHECK_PX" --scale 1.3 "${HIDE_ARG[@]}"
fi
if [ "$RADIAL" = 1 ]; then
  $X --images "$WORK/tuneall" --out "$WORK/ck13-tuneall" --context $((2 * CHECK_PX)) --size "$CHECK_PX" --scale 1.3 "${HIDE_ARG[@]}"
  $X --images "$RENDERS/tune-xwing-151" --out "$WORK/ck13-check" --context $((2 * CHECK_PX)) --size "$CHECK_PX" --scale 1.3 --last 200 "${HIDE_ARG[@]}"
  if [ "$KEEP_COCKED" = 1 ]; then
    # The shipped cocked check, not trained again: its probabilities on the tune and check dice, as its own run saved them.
    npx tsx training/learned/exportWeights.ts --module "$OUT_COCKED" --out "$WORK/cocked-shipped"
    /usr/bin/python3 training/learned/state_from_weights.py --weights "$WORK/cocked-shipped" --out "$WORK/cocked24w.pt"
    /usr/bin/python3 training/learned/train.py --train "$WORK/ck13-tuneall" --tune "$WORK/ck13-tuneall" --binary-cocked --radial --views 2 --convs 16p,32p,64p,64 \
      --epochs 0 --scale 1.3 --height-ratio 0.77 --load-torch "$WORK/cocked24w.pt" --save-probs "$WORK/cocked24wv4" --check "$WORK/ck13-check" \
      --name xwingCocked --version "$COCKED_V" --out "$WORK/cocked-views.ts" --threads 1
  else
    # train_check PROBS NAME VERSION OUT TORCH [ARG...]: the radial check's training command (its partner's differs only in these).
    train_check() {
      /usr/bin/python3 training/learned/train.py --train "$WORK/ck24-train" --tune "$WORK/ck13-tuneall" --binary-cocked --radial --views 2 --convs "$CHECK_CONVS" \
        --epochs 60 --scale 1.3 --class-weight cocked=2 --height-ratio 0.77 --save-probs "$1" --check "$WORK/ck13-check" --name "$2" \
        --version "$3" --trained-on "$COCKED_ON" --out "$4" --threads 1 --save-torch "$5" "${TONE_ARG[@]}" "${HIDE_ARG[@]}" "${OFF_AXIS_ARG[@]}" "${CHECK_SEED_ARG[@]}" "${@:6}"
    }
    CHECK_PARTNER_TRAINING=
    if [ "$CHECK_PAIR" = 1 ]; then
      # The check's partner: the same command from seed 2, beside it.
      train_check "$WORK/cocked24wv4s2" xwingCockedPartner "$CHECK_PARTNER_V" "$OUT_COCKED_PARTNER" "$WORK/cocked24w-s2.pt" --seed 2 > "$WORK/check-partner-train.log" 2>&1 &
      CHECK_PARTNER_TRAINING=$!
      trap 'kill "$CHECK_PARTNER_TRAINING" 2>/dev/null || true' EXIT
    fi
    train_check "$WORK/cocked24wv4" xwingCocked "$COCKED_V" "$OUT_COCKED" "$WORK/cocked24w.pt" "${CHECK_PARTNER_ARG[@]}"
    if [ -n "$CHECK_PARTNER_TRAINING" ]; then await_training "$CHECK_PARTNER_TRAINING" "$WORK/check-partner-train.log" "the cocked check's partner"; fi
  fi
else
  $X --images "$WORK/tuneall" --out "$WORK/ck13-tuneall" --jitters 0 --size 24 --scale 1.3
  $X --images "$RENDERS/tune-xwing-151" --out "$WORK/ck13-check" --jitters 0 --size 24 --scale 1.3 --last 200
  /usr/bin/python3 training/learned/train.py --train "$WORK/ck24-train" --tune "$WORK/ck13-tuneall" --binary-cocked --convs 16p,32p,64p,64 --epochs 60 --scale 1.3 \
    --class-weight cocked=2 --height-ratio 0.77 --save-probs "$WORK/cocked24w" --check "$WORK/ck13-check" --name xwingCocked --version "$COCKED_V" \
    --trained-on "$COCKED_ON" --out "$OUT_COCKED" --threads 1 --save-torch "$WORK/cocked24w.pt"
  /usr/bin/python3 training/learned/train.py --train "$WORK/ck13-tuneall" --tune "$WORK/ck13-tuneall" --binary-cocked --convs 16p,32p,64p,64 --epochs 0 --scale 1.3 \
    --height-ratio 0.77 --load-torch "$WORK/cocked24w.pt" --save-probs "$WORK/cocked24wv4" --check "$WORK/ck13-check" --name xwingCocked \
    --version "$COCKED_V" --out "$WORK/cocked-views.ts" --threads 1 --views 4
fi
# The face network. Each die once, raw, in a square 64/32 times the input's side: train.py turns, scales, shifts, blurs and
# recolours it.
if [ "$KEEP_FACES" = 0 ]; then
  $X --images "$WORK/train2895" --out "$WORK/xwing-train" --context 64 --scale 0.6
fi
PARTNER_TRAINING=
if [ "$PAIR" = 1 ]; then
  # The partner: /8's radial face network (and its own thresholds, below, as the RADIAL_FACE branch sets them), trained
  # beside the face network (each run on one thread; neither reads the other), unless KEEP_FACES=1 keeps it; then its
  # probabilities on the tune and check dice for the pair's thresholds.
  $X --images "$WORK/tuneall" --out "$WORK/xwing8-tuneall" --context 64 --scale 0.6
  $X --images "$RENDERS/tune-xwing-151" --out "$WORK/xwing8-check" --context 64 --scale 0.6 --last 200
  if [ "$KEEP_FACES" = 0 ]; then
    /usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing8-tuneall" --radial --views 2 --convs 12p,24p,48p,48 --epochs 60 \
      --scale 0.6 --class-weight cocked=2 --class-weight red-crit=2 --height-ratio 0.77 --name xwing --version "$PARTNER_V" --trained-on "$FACE_ON" \
      --out "$WORK/xwing8-untuned.ts" --threads 1 --save-torch "$WORK/xwing8.pt" "${SEED_ARG[@]}" "${TONE_ARG[@]}" > "$WORK/partner-train.log" 2>&1 &
    PARTNER_TRAINING=$!
    # If anything below fails, the partner's training does not run on alone.
    trap 'kill "$PARTNER_TRAINING" 2>/dev/null || true' EXIT
  fi
  PARTNER=(--partner "$WORK/face8" --partner-version "$PARTNER_V")
else
  PARTNER=()
fi
# The partner's thresholds and saved probabilities, once its training is done (PAIR=1 only).
partner_thresholds() {
  if [ -n "$PARTNER_TRAINING" ]; then await_training "$PARTNER_TRAINING" "$WORK/partner-train.log" "the partner network"; fi
  /usr/bin/python3 training/learned/train.py --train "$WORK/xwing8-tuneall" --tune "$WORK/xwing8-tuneall" --radial --convs 12p,24p,48p,48 --epochs 0 --scale 0.6 \
    --load-torch "$WORK/xwing8.pt" --thresholds --no-guard-cocked --cocked-budget 0.015,0.02,0.03,0.04,0.05,0.06 --check "$WORK/xwing8-check" --height-ratio 0.77 \
    --name xwingRadial --version "$PARTNER_V" --trained-on "$FACE_ON" --cocked-check "$CHECK_PROBS" --cocked-check-version "$COCKED_V" \
    --cocked-check-budget 0.01,0.015,0.02,0.025,0.03,0.04,0.05,0.06 --wrong-cost 10 --out "$OUT_RADIAL" --threads 1 --views 2 --save-face-probs "$WORK/face8"
}
if [ "$RADIAL_FACE" = 1 ]; then
  # Raw context exports of the tune and check dice too (train.py turns them radial-down as the reader does); progress
  # while training is printed on all 450 tune images.
  $X --images "$WORK/tuneall" --out "$WORK/xwing-tuneall" --context 64 --scale 0.6
  $X --images "$RENDERS/tune-xwing-151" --out "$WORK/xwing-check" --context 64 --scale 0.6 --last 200
  /usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing-tuneall" --radial --views 2 --convs 12p,24p,48p,48 --epochs 60 \
    --scale 0.6 --class-weight cocked=2 --class-weight red-crit=2 --height-ratio 0.77 --name xwing --version "$FACE_V" --trained-on "$FACE_ON" \
    --out "$WORK/xwing-untuned.ts" --threads 1 --save-torch "$WORK/xwing.pt" "${SEED_ARG[@]}"
  # Thresholds as below, in the radial network's 2 views.
  /usr/bin/python3 training/learned/train.py --train "$WORK/xwing-tuneall" --tune "$WORK/xwing-tuneall" --radial --convs 12p,24p,48p,48 --epochs 0 --scale 0.6 \
    --load-torch "$WORK/xwing.pt" --thresholds --no-guard-cocked --cocked-budget 0.015,0.02,0.03,0.04,0.05,0.06 --check "$WORK/xwing-check" --height-ratio 0.77 \
    --name xwing --version "$READER_V" --trained-on "$FACE_ON" --cocked-check "$CHECK_PROBS" --cocked-check-version "$COCKED_V" \
    --cocked-check-budget 0.01,0.015,0.02,0.025,0.03,0.04,0.05,0.06 --wrong-cost 10 --out "$OUT" --threads 1 --views 2
else
  $X --images "$WORK/tuneall" --out "$WORK/xwing-tuneall" --jitters 0 --scale 0.6
  $X --images "$RENDERS/tune-xwing" --out "$WORK/xwing-tune" --jitters 0 --scale 0.6 --last 150
  $X --images "$RENDERS/tune-xwing-151" --out "$WORK/xwing-check" --jitters 0 --scale 0.6 --last 200
  # (--tune only prints progress while training: it was tune-xwing alone when the shipped weights were made.)
  if [ "$KEEP_FACES" = 0 ]; then
    /usr/bin/python3 training/learned/train.py --train "$WORK/xwing-train" --tune "$WORK/xwing-tune" --convs 12p,24p,48p,48 --epochs 60 --scale 0.6 \
      --class-weight cocked=2 --class-weight red-crit=2 --check "$WORK/xwing-check" --height-ratio 0.77 --name xwing --version "$FACE_V" \
      --trained-on "$FACE_ON" --out "$WORK/xwing-untuned.ts" --threads 1 --save-torch "$WORK/xwing.pt" "${SEED_ARG[@]}" "${TONE_ARG[@]}"
  fi
  if [ "$PAIR" = 1 ]; then partner_thresholds; fi
  # Thresholds from the saved weights (the module records both commands), both networks read in 4 turned/mirrored views (a radial check in its 2)
  # (the module says so; the reader reads with as many): only flat dice's wrong reads lift a face's threshold; cocked dice
  # read as a face count against the 99.8 % target among all tune dice read; among the rules meeting it, the cheapest wins,
  # a wrong read or a cocked die read as a face costing ten flat dice declined (--wrong-cost 10, the calibration's rule).
  # The face network trains on FACE_SETS only, not on the cocked check's extra sets (retrained on 1..3495, /4's face
  # network declined more tune dice: 5.0 against 3.8 %). With RANDOM_ART=0 this is /4's face network and /5's thresholds.
  /usr/bin/python3 training/learned/train.py --train "$WORK/xwing-tuneall" --tune "$WORK/xwing-tuneall" --convs 12p,24p,48p,48 --epochs 0 --scale 0.6 \
    --load-torch "$WORK/xwing.pt" --thresholds --no-guard-cocked --cocked-budget 0.015,0.02,0.03,0.04,0.05,0.06 --check "$WORK/xwing-check" --height-ratio 0.77 \
    --name xwing --version "$READER_V" --cocked-check "$CHECK_PROBS" --cocked-check-version "$COCKED_V" \
    --cocked-check-budget 0.01,0.015,0.02,0.025,0.03,0.04,0.05,0.06 --wrong-cost 10 --out "$OUT" --threads 1 --views 4 "${PARTNER[@]}"
fi
