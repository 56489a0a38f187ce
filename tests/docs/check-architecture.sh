#!/bin/sh
# SPDX-License-Identifier: MIT
# Every file and folder docs/architecture.md names exists: a `path/with/dirs`
# as it is or below core/run/, core/, core/libaorta/, tests/, docs/ or
# examples/; a bare `name.c` somewhere in the tree.  What a run writes
# (`perf.md`, `<cell>/kernels.json`, ...) is not a file of the tree and is
# passed over, and so is config.h (generated).  debian/ is the repository's,
# never the tarball's (make distcheck runs this from the tarball): its names
# are checked where it is there.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cd "$srcdir" || exit 99
status=0
checked=0
bad() { echo "FAIL: $1"; status=1; }

names=$(grep -o '`[^`]*`' docs/architecture.md | tr -d '`' | sort -u |
    grep -E '^[A-Za-z0-9_./-]+(\.(c|h|md|sh|py|in|sym|inc|am|ac|1|7|png)|/)$' |
    grep -v -x -e 'perf.md' -e '_subprocess/' -e 'config.h')
for name in $names; do
    case $name in debian/*) [ -d debian ] || continue ;; esac
    checked=$((checked + 1))
    case $name in
    */)
        found=no
        for base in "" core/run/ core/ tests/ docs/ examples/; do
            [ -d "$base$name" ] && found=yes
        done
        [ $found = yes ] || bad "docs/architecture.md names the folder $name, which is not there" ;;
    */*)
        found=no
        for base in "" core/run/ core/ core/libaorta/ tests/ docs/ examples/; do
            [ -f "$base$name" ] && found=yes
        done
        [ $found = yes ] || bad "docs/architecture.md names $name, which is not there" ;;
    *)
        [ -n "$(find . -name "$name" -type f -print -quit)" ] ||
            bad "docs/architecture.md names $name, which is nowhere in the tree" ;;
    esac
done
[ "$checked" -ge 80 ] || bad "only $checked names read from docs/architecture.md"
[ $status -eq 0 ] && echo "ok: the $checked files and folders docs/architecture.md names exist"
exit $status
