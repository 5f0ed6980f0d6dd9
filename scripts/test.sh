#!/usr/bin/env bash
# `npm test`: the checks (type-check, lint, layers: scripts/checks.sh) and the test files, side by side.
# The test files leave a fifth or more of the 2 cores of a CI machine idle (they wait on the emulated board's real
# time, Chromium, PostgreSQL, child processes); the checks, about 70 s of CPU, used to run first with the test files
# waiting for them. They now run at the lowest priority, taking only CPU the test files leave: the emulated board's
# real-time tests, which fell behind real time beside 3D renders at raised priority, keep the machine as before.
# The checks' output is printed after the tests'; either failing fails the line. Arguments go to vitest.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
# A session of their own, so that stopping the line stops every process of the checks.
setsid nice -n 19 bash scripts/checks.sh >"$out" 2>&1 &
checks=$!
# Ctrl-C or a kill of the line stops the checks too, and leaves no file behind.
trap 'kill -- "-$checks" 2>/dev/null; rm -f "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
npx vitest run "$@"
tests=$?
tests_done=$(date +%s)
wait "$checks"
checked=$?
cat "$out"
late=$(($(date +%s) - tests_done))
[ "$late" -gt 0 ] && printf 'test: the checks ended %d s after the test files\n' "$late" >&2
[ "$tests" -eq 0 ] && [ "$checked" -eq 0 ]
