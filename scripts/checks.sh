#!/usr/bin/env bash
# The checks before the tests: type-check, lint and the layer rule. Each is a single process on a single core, so
# they run side by side; each one's output is printed whole once all are done, and any failure fails the line.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
checks=(typecheck lint layers)
pids=()
for c in "${checks[@]}"; do
  npm run --silent "$c" >"$dir/$c.out" 2>&1 &
  pids+=("$!")
done
failed=()
for i in "${!checks[@]}"; do
  c=${checks[$i]}
  wait "${pids[$i]}" || failed+=("$c")
  cat "$dir/$c.out"
done
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'checks: %s failed (npm run %s to see it alone)\n' "${failed[*]}" "${failed[0]}" >&2
  exit 1
fi
printf 'checks: typecheck, lint and layers passed\n' >&2
