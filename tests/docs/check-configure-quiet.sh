#!/bin/sh
# SPDX-License-Identifier: MIT
# configure speaks cleanly: autoconf's checks remove a core dump with
# "rm -f core ...", which meets the source folder core/ and used to print
# "rm: cannot remove 'core': Is a directory" once per check (32 lines).
# configure.ac's own rm() leaves a "core" directory alone; this runs the
# real configure in a build directory that holds a core/ folder, as an
# in-tree build does, and requires that no line mentions it.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The source tree may be configured in place, which refuses a build
# elsewhere: configure from a farm of links to its entries, without its
# config.status.
mkdir "$tmp/src" "$tmp/build" "$tmp/build/core"
for entry in "$srcdir"/* "$srcdir"/.[!.]*; do
    [ -e "$entry" ] || continue
    case ${entry##*/} in config.status | config.log | config.h | Makefile | libtool | stamp-h1 | .git) continue ;; esac
    ln -s "$entry" "$tmp/src/${entry##*/}"
done
(cd "$tmp/build" && ../src/configure --quiet >out.txt 2>&1) || { cat "$tmp/build/out.txt"; echo "FAIL: configure failed"; exit 1; }
if grep -n "cannot remove" "$tmp/build/out.txt"; then
    echo "FAIL: configure printed rm's complaint about core/ (above)"
    exit 1
fi
# Not vacuous: the generated configure still removes core dumps, and the
# folder it must not touch is still there.
grep -q 'rm -f core' "$srcdir/configure" || { echo "FAIL: configure no longer runs 'rm -f core': the test is stale"; exit 1; }
[ -d "$tmp/build/core" ] || { echo "FAIL: configure removed the core/ folder"; exit 1; }
echo "ok: configure said nothing about core/"
