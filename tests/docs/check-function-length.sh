#!/bin/sh
# SPDX-License-Identifier: MIT
# No function in core/ is longer than 80 lines (decisions §10), counted
# from the first line of its declarator to its closing brace.
#
# The measure reads the sources' layout, which the whole tree keeps: a
# function body opens with "{" alone at the start of a line (or a
# declarator that ends in ") {" there) and closes with "}" at the start of
# a line; its declarator is the run of lines above the "{" up to a blank
# line, a comment's end, a preprocessor line or the end of a statement.
# So that a change of layout cannot let a long function through unseen,
# the measure is first run on a sample with one function of 80 lines and
# one of 81 (it must find exactly the second), every opening brace must
# find its closing one, and when universal-ctags is installed, every
# function it sees in core/ must be one the measure saw.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cd "$srcdir" || exit 99
LIMIT=80
status=0
bad() { echo "FAIL: $1"; status=1; }

# measure FILE...: "LINES FILE:FIRST:LAST NAME" per function, and
# "UNCLOSED FILE:LINE" for a body that never closes.
measure() {
    awk '
    function flush_unclosed() {
        if (open) print "UNCLOSED " FILENAME_prev ":" open_line
        open = 0
    }
    FNR == 1 { flush_unclosed(); n = 0; FILENAME_prev = FILENAME }
    { line[FNR] = $0 }
    !open && ($0 == "{" || ($0 ~ /^[A-Za-z_].*\) *\{$/ && $0 !~ /=/ && $0 !~ /^(struct|union|enum|typedef|do|if|for|while|switch)\b/)) {
        first = FNR
        if ($0 == "{") {
            first = FNR - 1
            while (first > 1) {
                above = line[first - 1]
                if (above ~ /^[ \t]*$/ || above ~ /;[ \t]*$/ || above ~ /\*\/[ \t]*$/ \
                    || above ~ /^#/ || above ~ /^\}/ || above ~ /\{[ \t]*$/)
                    break
                first--
            }
        }
        name = line[first]
        sub(/\(.*/, "", name)
        sub(/.*[ *]/, "", name)
        open = 1; open_line = FNR; start = first
        next
    }
    open && /^\}/ {
        print FNR - start + 1, FILENAME ":" start ":" FNR, name
        open = 0
    }
    END { flush_unclosed() }
    ' "$@"
}

# The measure on a sample: a function of LIMIT lines and one of LIMIT + 1.
sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
{
    echo "static int fits(int a,"
    echo "                int b)"
    echo "{"
    i=0; while [ $i -lt $((LIMIT - 4)) ]; do echo "    a++;"; i=$((i + 1)); done
    echo "}"
    echo
    echo "/* one too long */"
    echo "int too_long(void)"
    echo "{"
    i=0; while [ $i -lt $((LIMIT - 2)) ]; do echo "    b++;"; i=$((i + 1)); done
    echo "}"
} >"$sample"
found=$(measure "$sample" | awk -v limit=$LIMIT '$1 > limit { print $3 " " $1 }')
[ "$found" = "too_long $((LIMIT + 1))" ] ||
    bad "the measure is off: on its sample it reports '$found', not 'too_long $((LIMIT + 1))'"

files=$(find core -name '*.[ch]' | sort)
report=$(measure $files)
unclosed=$(printf '%s\n' "$report" | grep '^UNCLOSED' || true)
[ -z "$unclosed" ] || bad "function bodies the measure cannot close: $unclosed"
count=$(printf '%s\n' "$report" | grep -vc '^UNCLOSED')
[ "$count" -ge 700 ] || bad "only $count functions measured in core/: the layout changed"
long=$(printf '%s\n' "$report" | awk -v limit=$LIMIT '$1 ~ /^[0-9]+$/ && $1 > limit')
if [ -n "$long" ]; then
    printf '%s\n' "$long" | sort -rn | while read -r lines where name; do
        echo "FAIL: $where: $name is $lines lines (at most $LIMIT)"
    done
    status=1
fi

# A second opinion where universal-ctags is installed: each function it
# finds must be one the measure closed, at the same closing line.
if ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    ends=$(printf '%s\n' "$report" | awk '{ split($2, p, ":"); print p[1] ":" p[3] }' | sort -u)
    missed=$(ctags -x --kinds-C=f --fields=+e --_xformat='%F:%{end}' $files 2>/dev/null | sort -u |
        comm -23 - "$(printf '%s\n' "$ends" >"$sample.ends"; echo "$sample.ends")")
    rm -f "$sample.ends"
    [ -z "$missed" ] || bad "ctags sees functions the measure does not: $missed"
fi
[ $status -eq 0 ] && echo "ok: $count functions in core/, none longer than $LIMIT lines"
exit $status
