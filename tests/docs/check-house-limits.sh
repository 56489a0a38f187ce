#!/bin/sh
# SPDX-License-Identifier: MIT
# The house limits (docs/architecture.md, Rules), checked on the sources:
#   no file in core/ is over 1,000 lines;
#   no command file (core/run/cmd_*.c) is over 200 lines;
#   no stage folder of core/run holds over 4,500 lines (its .c and .h);
# (no function over 80 lines is check-function-length.sh's; no aorta_
# definition under core/run is check-layering.sh's).  Each file that breaks
# a limit today is listed below by name, with the limit it breaks; an entry
# that no longer breaks its limit is itself a failure, so that the list only
# shrinks.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cd "$srcdir" || exit 99
status=0
bad() { echo "FAIL: $1"; status=1; }

FILE_MAX=1000
CMD_MAX=200
STAGE_MAX=4500
# Today's exceptions ("LIMIT PATH"), to be split by the house's next step.
EXCEPTIONS="
file core/run/cmd_check.c
cmd core/run/cmd_check.c
"

excepted() { # LIMIT PATH
    printf '%s\n' "$EXCEPTIONS" | grep -qx "$1 $2"
}
check() { # LIMIT PATH LINES MAX WHAT
    if [ "$3" -gt "$4" ]; then
        excepted "$1" "$2" || bad "$2 has $3 lines, over the $4 of $5"
    elif excepted "$1" "$2"; then
        bad "$2 ($3 lines) is within the $4 of $5 now: take it off the exceptions"
    fi
}

files=0
for file in $(find core -name '*.[ch]' | sort); do
    files=$((files + 1))
    lines=$(wc -l <"$file")
    check file "$file" "$lines" $FILE_MAX "a file in core/"
    case $file in
    core/run/cmd_*.c) check cmd "$file" "$lines" $CMD_MAX "a command file" ;;
    esac
done
[ "$files" -ge 150 ] || bad "only $files source files found in core/: the pattern no longer matches"

stages=0
for dir in core/run/*/; do
    dir=${dir%/}
    set -- "$dir"/*.[ch]
    [ -f "$1" ] || continue
    stages=$((stages + 1))
    lines=$(cat "$@" | wc -l)
    check stage "$dir" "$lines" $STAGE_MAX "a stage folder"
done
[ "$stages" -ge 8 ] || bad "only $stages stage folders found in core/run"

# Every exception names a file or folder that exists.
printf '%s\n' "$EXCEPTIONS" | while read -r limit path; do
    [ -n "$path" ] || continue
    [ -e "$path" ] || { echo "FAIL: the exception '$limit $path' names nothing"; exit 1; }
done || status=1

[ $status -eq 0 ] && echo "ok: $files files of core/ and $stages stage folders keep the house limits ($(printf '%s\n' "$EXCEPTIONS" | grep -c .) exceptions)"
exit $status
