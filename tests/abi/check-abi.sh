#!/bin/sh
# SPDX-License-Identifier: MIT
# The ABI guard: libaorta.so's exported functions and variables, and the
# collector ABI's types (through tests/abi/types/types.c), must be exactly those of
# the committed baselines tests/abi/libaorta.abi and tests/abi/types.abi.
# Any difference fails, additions included: a deliberate change regenerates
# the baselines with `make abi-baseline`, in the same commit as the header
# change and the ABI minor bump (docs/design.md, "The collector ABI").
# Needs abidiff (Debian: abigail-tools); skips (77) where it is missing.
set -u
if ! command -v abidiff >/dev/null 2>&1; then
    echo "abidiff not found (Debian package abigail-tools): skipping the ABI check"
    exit 77
fi
builddir=${AORTA_TEST_BUILDDIR:?}
srcdir=${AORTA_TEST_SRCDIR:?}
status=0
compare() { # BASELINE OBJECT
    if [ ! -e "$2" ]; then
        echo "FAIL: $2 was not built"
        status=1
        return
    fi
    abidiff "$1" "$2"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "ok: $2 matches $1"
    else
        echo "FAIL: $2 differs from the baseline $1 (abidiff exit $rc; see above)."
        echo "      If the change is deliberate and the ABI policy allows it, run"
        echo "      'make abi-baseline' and commit the new baseline with the version bump."
        status=1
    fi
}
compare "$srcdir/tests/abi/libaorta.abi" "$builddir/core/libaorta/.libs/libaorta.so"
compare "$srcdir/tests/abi/types.abi" "$builddir/tests/abi/types/.libs/abitypes.so"
# aorta.pc publishes the header's ABI version (configure reads it there).
header=$srcdir/include/aorta/collector.h
pc=$builddir/core/libaorta/aorta.pc
for part in MAJOR MINOR; do
    want=$(sed -n "s/^#define AORTA_COLLECTOR_ABI_$part  *\([0-9]*\)\$/\1/p" "$header")
    key=collector_abi_$(echo "$part" | tr A-Z a-z)
    got=$(sed -n "s/^$key=//p" "$pc")
    if [ -n "$want" ] && [ "$got" = "$want" ]; then
        echo "ok: aorta.pc's $key is the header's $want"
    else
        echo "FAIL: aorta.pc's $key is '$got', the header's AORTA_COLLECTOR_ABI_$part '$want'"
        status=1
    fi
done
# The Debian symbols file names every exported symbol with its version
# (a checkout carries debian/; a release tarball does not).
symbols=$srcdir/debian/libaorta0.symbols
if [ -f "$symbols" ] && command -v nm >/dev/null 2>&1; then
    exported=$(nm -D --defined-only --with-symbol-versions "$builddir/core/libaorta/.libs/libaorta.so" |
        awk '$3 !~ /^AORTA_/ { sub("@@", "@", $3); print $3 }' | sort)
    listed=$(sed -n 's/^ \(aorta_[^ ]*\) .*/\1/p' "$symbols" | sort)
    if [ "$exported" = "$listed" ]; then
        echo "ok: debian/libaorta0.symbols lists exactly the exported symbols"
    else
        echo "FAIL: debian/libaorta0.symbols and libaorta.so's exports differ:"
        printf '%s\n' "$exported" >"${TMPDIR:-/tmp}/aorta-exported.$$"
        printf '%s\n' "$listed" | diff - "${TMPDIR:-/tmp}/aorta-exported.$$" | sed 's/^/      /'
        rm -f "${TMPDIR:-/tmp}/aorta-exported.$$"
        status=1
    fi
fi
exit $status
