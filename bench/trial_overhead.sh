#!/bin/sh
# SPDX-License-Identifier: MIT
# Per-trial overhead of aorta-run with no collector (docs/design.md, Budgets: at
# most 5 ms over running the bare command; a 1000-trial sweep's
# bookkeeping grows linearly).
#
# In one run: a shell loop running `true` N times (fork + exec, as
# aorta-run does: the external binary, never the shell builtin), then an
# N-trial sweep of the same `true`, then an N/4-trial sweep to check that
# the cost per trial does not grow with the sweep.  Run it on an otherwise
# idle machine.
#
#   AORTA_RUN=build/core/aorta-run sh bench/trial_overhead.sh [N]
#   (REPEAT=3: each figure is the best of that many rounds)
set -eu

N=${1:-1000}
AORTA_RUN=${AORTA_RUN:-core/aorta-run}
BUDGET_MS=5
GROWTH_LIMIT=1.5
REPEAT=${REPEAT:-3}

[ -x "$AORTA_RUN" ] || { echo "trial_overhead: no aorta-run at $AORTA_RUN (set AORTA_RUN)" >&2; exit 2; }
TRUE_BIN=$(command -v true)
case $TRUE_BIN in
    /*) ;;
    *) TRUE_BIN=/bin/true ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

now_ns() { date +%s%N; }
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

# Each figure is the best of $REPEAT runs: the machine's other load only
# ever adds time.
QUARTER=$((N / 4))
loop_ns= sweep_ns= quarter_ns=
round=0
while [ "$round" -lt "$REPEAT" ]; do
    start=$(now_ns)
    i=0
    while [ "$i" -lt "$N" ]; do
        "$TRUE_BIN"
        i=$((i + 1))
    done
    loop_ns=$(min "$loop_ns" $(($(now_ns) - start)))

    # Fresh directories each round, removed only at the end: deleting
    # thousands of files meanwhile would load the disk during a sweep.
    start=$(now_ns)
    "$AORTA_RUN" --output "$work/quarter$round" --trials "$QUARTER" -- "$TRUE_BIN" > /dev/null
    quarter_ns=$(min "$quarter_ns" $(($(now_ns) - start)))

    start=$(now_ns)
    "$AORTA_RUN" --output "$work/full$round" --trials "$N" -- "$TRUE_BIN" > /dev/null
    sweep_ns=$(min "$sweep_ns" $(($(now_ns) - start)))
    round=$((round + 1))
done

passed=$(grep -c '"verdict": "pass"' "$work"/full0/_no_ticket_/none-none/trial_*/result.json | grep -c ':1$' || true)
[ "$passed" -eq "$N" ] || { echo "trial_overhead: only $passed of $N trials passed" >&2; exit 1; }

awk -v n="$N" -v q="$QUARTER" -v loop="$loop_ns" -v sweep="$sweep_ns" -v quarter="$quarter_ns" \
    -v budget="$BUDGET_MS" -v growth_limit="$GROWTH_LIMIT" 'BEGIN {
    bare_ms = loop / n / 1e6
    trial_ms = sweep / n / 1e6
    quarter_ms = quarter / q / 1e6
    overhead_ms = trial_ms - bare_ms
    growth = trial_ms / quarter_ms
    printf "bare command (shell loop):  %8.3f ms per run   (%d runs, %.2f s)\n", bare_ms, n, loop / 1e9
    printf "aorta-run sweep:            %8.3f ms per trial (%d trials, %.2f s)\n", trial_ms, n, sweep / 1e9
    printf "aorta-run sweep (N/4):      %8.3f ms per trial (%d trials, %.2f s)\n", quarter_ms, q, quarter / 1e9
    printf "per-trial overhead:         %8.3f ms (budget %d ms): %s\n", overhead_ms, budget, overhead_ms <= budget ? "PASS" : "FAIL"
    printf "growth, %d vs %d trials:  %8.3f x per trial (limit %.1f x): %s\n", n, q, growth, growth_limit, growth <= growth_limit ? "PASS" : "FAIL"
    exit (overhead_ms <= budget && growth <= growth_limit) ? 0 : 1
}'
