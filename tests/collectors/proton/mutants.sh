#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/collectors/proton/mutants.sh - mutation testing of the streaming
# Proton readers (docs/collectors/proton.md, Mutation testing).
#
# Run by hand from a configured, built tree (in-tree build), never by
# `make check`:  sh tests/collectors/proton/mutants.sh [ID...]
# Each mutant is one line of plugins/proton/ changed; the suites that hold
# the readers are rebuilt and run, and the ones that fail are printed.  The
# file is restored after each mutant (and on interrupt).
set -u
top=$(pwd)
test -f plugins/proton/json_stream.c || { echo "run from the top of the tree" >&2; exit 2; }
MAKE=${MAKE:-make}
NICE=${NICE:-nice -n 15}
SUITES="tests/collectors/proton/check_proton_stream
tests/collectors/proton/check_proton_formats
tests/collectors/proton/check_proton_parse
tests/fuzz/replay_proton_hatchet"

AORTA_PLUGIN_SYSTEM_PATH=; export AORTA_PLUGIN_SYSTEM_PATH
unset AORTA_PLUGIN_PATH
AORTA_TEST_BUILDDIR=$top; export AORTA_TEST_BUILDDIR
AORTA_TEST_SRCDIR=$top; export AORTA_TEST_SRCDIR
CK_DEFAULT_TIMEOUT=120; export CK_DEFAULT_TIMEOUT
AORTA_TEST_CC=${CC:-cc}; export AORTA_TEST_CC
AORTA_TEST_MAKE=$MAKE; export AORTA_TEST_MAKE

# id @@ file @@ which of the lines of that text (1: the first) @@ the line @@ its mutant
MUTANTS=$(cat <<'EOF'
J1 @@ json_stream.c @@ 1 @@     ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f', @@     ['"'] = '"', ['\\'] = '\\', ['b'] = '\b', ['f'] = '\f',
J2 @@ json_stream.c @@ 1 @@         if (*p < '0' || *p > '9') @@         if (0)
J3 @@ json_stream.c @@ 1 @@     if (s->depth >= PROTON_JSON_DEPTH) @@     if (s->depth > PROTON_JSON_DEPTH)
J4 @@ json_stream.c @@ 1 @@     if (!end || !delimiter[*end] || s->depth >= PROTON_JSON_DEPTH) @@     if (!end || !delimiter[*end])
J5 @@ json_stream.c @@ 1 @@         if (i == 63) { @@         if (i == 62) {
J6 @@ json_stream.c @@ 1 @@         while (s->eof ? s->front < s->have : s->front + JSON_WINDOW + LOOKAHEAD <= s->have) { @@         while (s->eof ? s->front < s->have : s->front + JSON_WINDOW <= s->have) {
J7 @@ json_stream.c @@ 1 @@             if (cp >= 0xdc00 && cp <= 0xdfff) { @@             if (cp >= 0xdc00 && cp <= 0xdffe) {
J8 @@ json_stream.c @@ 1 @@                 hi = c == 0xed ? 0x9f : 0xbf; @@                 hi = 0xbf;
J9 @@ json_stream.c @@ 1 @@     if (w.control & inside) @@     if (w.control & inside & 0)
J10 @@ json_stream.c @@ 1 @@             const char *nul = memchr(value.text, '\0', value.len); @@             const char *nul = NULL;
J11 @@ json_stream.c @@ 1 @@         keep = s->token; @@         keep = s->token + 1;
J12 @@ json_stream.c @@ 1 @@     value->saturated = value->i64 == INT64_MIN || value->u64 == UINT64_MAX; @@     value->saturated = value->i64 == INT64_MIN;
J13 @@ json_stream.c @@ 1 @@     if (!s->sequence) @@     if (s->sequence)
T1 @@ hatchet_tree.c @@ 1 @@     if (node->children == C_NON_EMPTY || !node->frame_ok || !node->metrics_ok || !node->has_time) @@     if (node->children == C_EMPTY || !node->frame_ok || !node->metrics_ok || !node->has_time)
T2 @@ hatchet_tree.c @@ 1 @@                 break; @@                 ;
T3 @@ hatchet_tree.c @@ 1 @@     if (node->seen && node->committed) @@     if (node->seen && 0)
T4 @@ hatchet_tree.c @@ 1 @@         tree->name.len = 0; /* a list or an object names no kernel */ @@         ;
T5 @@ hatchet_tree.c @@ 1 @@     if (tree->ntimes == TIME_KEYS_MAX) @@     if (tree->ntimes == TIME_KEYS_MAX - 1)
C1 @@ trace_stream.c @@ 1 @@         || trace->cycles) @@         )
C2 @@ trace_stream.c @@ 1 @@         trace->has_time = proton_value_time(value, 1e-3, &trace->ms); @@         trace->has_time = proton_value_time(value, 1e-6, &trace->ms);
C3 @@ trace_stream.c @@ 1 @@         trace->kernel = trace->complete = trace->has_time = 0; @@         trace->kernel = trace->has_time = 0;
S1 @@ sessions.c @@ 1 @@     if (digits == 0 || digits > PHASE_DIGITS || at < sizeof part - 1 @@     if (digits == 0 || digits >= PHASE_DIGITS || at < sizeof part - 1
S2 @@ sessions.c @@ 1 @@         if (phase > next) @@         if (phase >= next)
S3 @@ sessions.c @@ 1 @@     if ((*runs)++ == 8) { @@     if ((*runs)++ == 7) {
EOF
)

want=" $* "
restore=""
trap 'test -n "$restore" && cp "$restore.orig" "$restore" && rm -f "$restore.orig"; exit 130' INT TERM

printf '%s\n' "$MUTANTS" | while IFS= read -r row; do
    id=${row%% @@ *}
    if [ "$want" != "  " ] && ! echo "$want" | grep -q " $id "; then
        continue
    fi
    rest=${row#* @@ }
    file=plugins/proton/${rest%% @@ *}
    cp "$file" "$file.orig"
    restore=$file
    if ! line=$(python3 - "$file" "$row" <<'PY'
import sys
path, row = sys.argv[1], sys.argv[2]
_, _, nth, old, new = row.split(' @@ ')
lines = open(path).read().split('\n')
hits = [i for i, l in enumerate(lines) if l == old]
if len(hits) < int(nth):
    sys.exit("no such line")
at = hits[int(nth) - 1]
lines[at] = new
open(path, 'w').write('\n'.join(lines))
print(at + 1)
PY
    ); then
        echo "$id: not applied"
        cp "$file.orig" "$file"; rm -f "$file.orig"; restore=""
        continue
    fi
    killed=""
    if ! $NICE $MAKE -j1 plugins/proton.la $SUITES >/dev/null 2>&1; then
        killed=" the build"
    else
        for t in $SUITES; do
            if ! $NICE "./$t" >"/tmp/mutant.$id.${t##*/}.log" 2>&1; then
                killed="$killed ${t##*/}"
            fi
        done
    fi
    cp "$file.orig" "$file"; rm -f "$file.orig"; restore=""
    echo "$id $file:$line killed by:${killed:- NONE (survived)}"
done
# Back to the unmutated build.
$NICE $MAKE -j1 plugins/proton.la $SUITES >/dev/null 2>&1
