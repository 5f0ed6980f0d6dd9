#!/usr/bin/env bash
# Judges X-Wing readers as a gate does (training/README.md): each reader's checkout calibrates on one labelled set, as a
# user calibrates (`dicerig calibrate --from-labelled`), then reads every named set with that profile (`dicerig vision
# eval --json`), and `gate.py` sums them. Development time only, never part of npm test.
#
#   bash training/learned/judge-xwing.sh --calibrate-on tune-xwing-f3-s52 --sets dev7-xwing-f3,dev7-low-xwing-f3 \
#     --out /work/data/exp/gate7 shipped=/work/main candidate=/work/cand1
#
# Sets are names under $RENDERS (default /work/data/renders) or folders. Each NAME=CHECKOUT is a checkout holding the
# reader to judge (its own shipped weights modules); its dist/ is built when missing or older than its src/. Readers are
# judged one after another, in the order given (the first is the baseline the rule compares with). Outputs already in
# --out are kept, so a stopped run goes on where it stopped: NAME.profile.json, NAME.calibrate.log and NAME-SET.json.
set -euo pipefail
RENDERS=${RENDERS:-/work/data/renders}
usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

calibrate_on='' sets='' out=''
readers=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --calibrate-on) calibrate_on=${2:?--calibrate-on needs a set}; shift 2 ;;
    --sets) sets=${2:?--sets needs SET[,SET...]}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    -h | --help) usage ;;
    *=*) readers+=("$1"); shift ;;
    *) echo "judge-xwing.sh: '$1' is neither an option nor NAME=CHECKOUT" >&2; usage ;;
  esac
done
if [ -z "$calibrate_on" ] || [ -z "$sets" ] || [ -z "$out" ] || [ "${#readers[@]}" -eq 0 ]; then usage; fi

# set_dir NAME: a set's folder, named under $RENDERS or given as a path; a set that is not whole (no READY) is refused.
set_dir() {
  local dir=$1
  case "$dir" in */*) ;; *) dir="$RENDERS/$dir" ;; esac
  if [ ! -f "$dir/READY" ]; then
    echo "judge-xwing.sh: the set $1 is not whole at $dir (no READY); render it first: bash training/learned/render-xwing.sh $(basename "$1")" >&2
    exit 1
  fi
  echo "$dir"
}

calibrate_dir=$(set_dir "$calibrate_on")
IFS=, read -r -a set_names <<<"$sets"
for s in "${set_names[@]}"; do set_dir "$s" >/dev/null; done
for r in "${readers[@]}"; do
  checkout=${r#*=}
  if [ ! -f "$checkout/bin/dicerig.js" ]; then
    echo "judge-xwing.sh: ${r%%=*}'s checkout $checkout holds no bin/dicerig.js" >&2
    exit 1
  fi
done
mkdir -p "$out"

evals=()
for r in "${readers[@]}"; do
  name=${r%%=*} checkout=${r#*=}
  if [ ! -f "$checkout/dist/src/cli/main.js" ] || [ -n "$(find "$checkout/src" -newer "$checkout/dist/src/cli/main.js" -name '*.ts' -print -quit)" ]; then
    echo "judge-xwing.sh: $name: building $checkout/dist" >&2
    (cd "$checkout" && npx tsc -p tsconfig.build.json)
  fi
  profile="$out/$name.profile.json"
  if [ ! -f "$profile" ]; then
    echo "judge-xwing.sh: $name: calibrating on $calibrate_on ($(date +%H:%M:%S))" >&2
    # Written beside, then renamed, so a stopped calibration leaves no profile that looks whole.
    node "$checkout/bin/dicerig.js" calibrate --die xwing --from-labelled "$calibrate_dir" -o "$profile.part" >"$out/$name.calibrate.log" 2>&1 ||
      { echo "judge-xwing.sh: $name: calibrate failed; its output is in $out/$name.calibrate.log" >&2; exit 1; }
    mv "$profile.part" "$profile"
  fi
  files=()
  for s in "${set_names[@]}"; do
    json="$out/$name-$(basename "$s").json"
    if [ ! -f "$json" ]; then
      echo "judge-xwing.sh: $name: reading $s ($(date +%H:%M:%S))" >&2
      node "$checkout/bin/dicerig.js" vision eval --die xwing --calibration "$profile" --images "$(set_dir "$s")" --json >"$json.part" ||
        { echo "judge-xwing.sh: $name: vision eval failed on $s" >&2; exit 1; }
      mv "$json.part" "$json"
    fi
    files+=("$json")
  done
  evals+=("$name=$(IFS=,; echo "${files[*]}")")
done
python3 "$(dirname "$0")/gate.py" "${evals[@]}"
