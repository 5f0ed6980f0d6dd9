#!/usr/bin/env bash
# Builds the reference rig's files into hardware/build/ (not committed):
#   hardware/build/<preset>/<part>.stl   every printed part, for every preset
#   hardware/build/<preset>/<part>.png   a preview picture of each (and of the whole assembly)
#   hardware/build/<preset>/platform.dxf the clear acrylic platforms, flat, for laser cutting
# Usage: bash hardware/build.sh [preset...]      (default: every preset in hardware/presets.json)
# Needs openscad, and xvfb-run for the pictures (OpenSCAD draws PNGs through OpenGL, which needs
# an X display): bash scripts/setup.sh installs both. Stops on any OpenSCAD warning.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v openscad >/dev/null || { echo "build.sh: openscad is not installed (bash scripts/setup.sh, or apt-get install openscad)" >&2; exit 1; }
png=1
command -v xvfb-run >/dev/null || { echo "build.sh: xvfb-run not found: building STL and DXF only, no pictures (apt-get install xvfb xauth)" >&2; png=0; }

# The parameter include is generated from presets.json: refresh it (and the wiring diagram) first.
npx --no-install tsx scripts/hardware/generate.ts >/dev/null

if [ "$#" -gt 0 ]; then presets=("$@"); else mapfile -t presets < <(node -e 'console.log(Object.keys(JSON.parse(require("fs").readFileSync("hardware/presets.json","utf8")).presets).join("\n"))'); fi
parts=(tower end_frame platform servo_mount stepper_mount stepper_hub bearing_mount camera_mount switch_bracket led_holder)

jobs_file=$(mktemp)
trap 'rm -f "$jobs_file"' EXIT
for preset in "${presets[@]}"; do
  out="hardware/build/$preset"
  mkdir -p "$out"
  for part in "${parts[@]}"; do
    printf 'openscad -D %q -o %q hardware/parts/%s.scad\n' "preset=\"$preset\"" "$out/$part.stl" "$part" >>"$jobs_file"
    if [ "$png" = 1 ]; then
      extra=""
      [ "$part" = tower ] && extra="-D cutaway=true --camera=0,0,0,75,0,280,0"
      printf 'xvfb-run -a openscad -D %q %s --viewall --autocenter --imgsize=800,600 --colorscheme=Tomorrow -o %q hardware/parts/%s.scad\n' "preset=\"$preset\"" "$extra" "$out/$part.png" "$part" >>"$jobs_file"
    fi
  done
  printf 'openscad -D %q -D flat=true -o %q hardware/parts/platform.scad\n' "preset=\"$preset\"" "$out/platform.dxf" >>"$jobs_file"
  [ "$png" = 1 ] && printf 'xvfb-run -a openscad -D %q --viewall --autocenter --camera=0,0,0,65,0,35,0 --imgsize=1000,800 --colorscheme=Tomorrow -o %q hardware/parts/assembly.scad\n' "preset=\"$preset\"" "$out/assembly.png" >>"$jobs_file"
done

# Two at a time; each job's messages are checked for warnings.
fail=0
run_one() {
  local log
  log=$(bash -c "$1" 2>&1) || { printf 'FAILED: %s\n%s\n' "$1" "$log" >&2; return 1; }
  if grep -q 'WARNING' <<<"$log"; then printf 'WARNING in: %s\n%s\n' "$1" "$(grep WARNING <<<"$log")" >&2; return 1; fi
}
export -f run_one
xargs -P 2 -I{} -d '\n' bash -c 'run_one "$1"' _ {} <"$jobs_file" || fail=1
[ "$fail" = 0 ] || { echo "build.sh: some parts failed (see above)" >&2; exit 1; }
echo "built: $(find hardware/build -name '*.stl' | wc -l) STL, $(find hardware/build -name '*.png' | wc -l) PNG, $(find hardware/build -name '*.dxf' | wc -l) DXF in hardware/build/"
