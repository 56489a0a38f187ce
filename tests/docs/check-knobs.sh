#!/bin/sh
# SPDX-License-Identifier: MIT
# Every AORTA_* variable aorta-run reads goes through the one knob reader
# (core/run/sys/knobs.h), and every one it reads has an entry in
# aorta-run(1)'s ENVIRONMENT section.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cd "$srcdir" || exit 99
status=0
bad() { echo "FAIL: $1"; status=1; }

# The section's text, from .SH ENVIRONMENT to the next .SH.
section=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH [^E]/p' docs/aorta-run.1)
[ -n "$section" ] || bad "docs/aorta-run.1 has no ENVIRONMENT section"

# Direct reads of the environment that bypass the reader.
direct=$(grep -rn 'getenv("AORTA_' core --include='*.c' --include='*.h' | grep -v '^core/run/sys/knobs\.c:')
[ -z "$direct" ] || bad "read without the knob reader: $direct"

# The knobs read: ar_knob_*("AORTA_...") calls (the literal may be on the
# call's next line).
knobs=$(find core -name '*.c' -exec cat {} + | tr '\n' ' ' |
    grep -o 'ar_knob_[a-z]*( *"AORTA_[A-Z0-9_]*"' | grep -o 'AORTA_[A-Z0-9_]*' | sort -u)
count=0
for knob in $knobs; do
    count=$((count + 1))
    printf '%s\n' "$section" | grep -q "^\.BR\? .*\b$knob\b" ||
        bad "$knob is read (core/) but has no entry in aorta-run(1), ENVIRONMENT"
done
# Not vacuous: the knobs of this tree are found.
[ "$count" -ge 10 ] || bad "only $count knob(s) found: the pattern no longer matches the sources"
[ $status -eq 0 ] && echo "ok: $count knobs, each read through sys/knobs.h and documented"
exit $status
