#!/bin/sh
# SPDX-License-Identifier: MIT
# aorta-collector(7)'s build lines work as written, against an SDK that is
# only staged (docs/packaging.md, "Building a collector against a staging
# tree"):
#   - `make install DESTDIR=STAGE` of this build; PKG_CONFIG_SYSROOT_DIR and
#     PKG_CONFIG_PATH set as the docs say; the staged aorta.pc keeps the
#     final prefix, and pkg-config prints the stage's -I and -L;
#   - the man page's C block (and its C++ block, with a C++ compiler) run
#     verbatim but for the collector's name, the compiler, and
#     -Wl,--as-needed in front, which a careless order of the libraries
#     would not survive;
#   - each module exports exactly one dynamic symbol,
#     aorta_collector_<name>_get, still needs libaorta.so.0, has no path to
#     the stage, and passes `aorta-run --check-collector`.
# Uses $AORTA_TEST_CC / $AORTA_TEST_CXX (configure's), pkg-config, nm and
# readelf; skips (77) where pkg-config or binutils are missing.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
builddir=${AORTA_TEST_BUILDDIR:?}
cc=${AORTA_TEST_CC:-cc}
cxx=${AORTA_TEST_CXX:-c++}
for tool in pkg-config nm readelf; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not found: skipping"; exit 77; }
done
page=$srcdir/docs/aorta-collector.7
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aorta-build.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
bad() { echo "FAIL: $1"; status=1; }

# Stage this build as a package build would.
stage=$tmp/stage
if ! (cd "$builddir" && MAKEFLAGS= MAKELEVEL= ${AORTA_TEST_MAKE:-make} -s install DESTDIR="$stage") \
    >"$tmp/install.log" 2>&1; then
    echo "FAIL: make install DESTDIR= failed:"
    tail -20 "$tmp/install.log"
    exit 1
fi
pc=$(find "$stage" -name aorta.pc -path '*/pkgconfig/*' | head -1)
[ -n "$pc" ] || { echo "FAIL: no aorta.pc under the stage"; exit 1; }
export PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_PATH="$(dirname "$pc")"
prefix=$(sed -n 's/^prefix=//p' "$pc")
case $prefix in
"$stage"* | '') bad "the staged aorta.pc's prefix is '$prefix', not the final one" ;;
*) [ -d "$stage$prefix" ] || bad "the stage has no $prefix below it" ;;
esac
cflags=$(pkg-config --cflags aorta)
libs=$(pkg-config --libs aorta)
case $cflags in "-I$stage"*) ;; *) bad "pkg-config --cflags gives '$cflags', not the stage's include directory" ;; esac
case $libs in "-L$stage"*"-laorta"*) ;; *) bad "pkg-config --libs gives '$libs', not the stage's libaorta" ;; esac
[ -f "$(echo "$cflags" | sed 's/^-I//; s/ *$//')/aorta/collector.h" ] || bad "no aorta/collector.h where $cflags points"
[ $status -eq 0 ] && echo "ok: staged under DESTDIR; aorta.pc keeps prefix=$prefix; pkg-config gives $cflags $libs"

# The man page block after the comment line naming LANG, as shell.
block() { # LANG
    awk -v marker="tests/docs/check-collector-build.sh runs this block ($1)." '
        index($0, marker) { on = 1; next }
        on && /^\.fi/ { exit }
        on { print }' "$page" |
        sed -e 's/\\-/-/g' -e 's/\\(aq/'"'"'/g' -e 's/\\(dq/"/g' -e 's/\\e$/\\/'
}
# Run LANG's block for collector NAME from SOURCE in a directory of its own.
build() { # LANG NAME SOURCE COMPILER WORD
    dir=$tmp/$2
    mkdir -p "$dir"
    cp "$3" "$dir/"
    block "$1" | sed -e "s/_name_/_$2_/g" -e "s/\\<name\\./$2./g" \
        -e "s|^$5 |$4 -Wl,--as-needed |" >"$dir/build.sh"
    grep -q -- "-Wl,--as-needed" "$dir/build.sh" || { bad "no '$5' command in the man page's $1 block"; return 1; }
    (cd "$dir" && sh -e ./build.sh) >"$dir/build.log" 2>&1 || {
        bad "the man page's $1 block failed:"
        sed 's/^/      /' "$dir/build.sh" "$dir/build.log"
        return 1
    }
}
# What a built module exports and needs, and that aorta-run takes it.
inspect() { # NAME
    so=$tmp/$1/$1.so
    exported=$(nm -D --defined-only "$so" | awk '{ print $NF }')
    [ "$exported" = "aorta_collector_$1_get" ] ||
        bad "$1.so exports $(echo "$exported" | grep -c .) symbols: $(echo "$exported" | head -5 | tr '\n' ' ')"
    readelf -d "$so" | grep -q 'NEEDED.*\[libaorta\.so\.0\]' ||
        bad "$1.so does not need libaorta.so.0 (dropped by --as-needed?)"
    if readelf -d "$so" | grep -q 'R.*PATH'; then bad "$1.so has a library path: $(readelf -d "$so" | grep 'R.*PATH')"; fi
    out=$("$builddir/core/aorta-run" --plugin-dir "$tmp/$1" --check-collector "$1" 2>&1) ||
        bad "aorta-run --check-collector $1 failed: $out"
    case $out in *"$1: 0 violations"*) ;; *) bad "--check-collector $1: $out" ;; esac
}

# The synopsis shows the same C line the test runs.
synopsis=$(awk '/^\.SH SYNOPSIS/ { on = 1; next } on && /^\.SH/ { exit } on && /^cc / { c = 1 } c && /^\.fi/ { exit } c { print }' "$page" |
    sed -e 's/\\-/-/g' -e 's/\\e$/\\/')
[ "$synopsis" = "$(block C)" ] || bad "the SYNOPSIS build line differs from the one BUILDING OUT OF TREE shows"

if build C mandemo "$srcdir/tests/docs/mandemo.c" "$cc" cc; then
    inspect mandemo
    [ $status -eq 0 ] && echo "ok: the C line under --as-needed: one symbol, needs libaorta.so.0, passes --check-collector"
fi

# The check has teeth: the libraries before the source, as the line once
# read, lose libaorta.so.0 under --as-needed.
mkdir "$tmp/old"
# shellcheck disable=SC2086
$cc -Wl,--as-needed -shared -fPIC $cflags $libs -o "$tmp/old/mandemo.so" "$srcdir/tests/docs/mandemo.c" 2>/dev/null &&
    ! readelf -d "$tmp/old/mandemo.so" | grep -q 'NEEDED.*libaorta' ||
    bad "with the libraries first, --as-needed kept libaorta.so.0: the check above proves nothing"

echo 'int main() { return 0; }' >"$tmp/probe.cc"
if $cxx -std=c++20 -o "$tmp/probe" "$tmp/probe.cc" >/dev/null 2>&1; then
    before=$status
    if build C++ cxxdemo "$srcdir/tests/sdk/cxxdemo.cc" "$cxx" c++; then
        inspect cxxdemo
        [ $status -eq "$before" ] && echo "ok: the C++ lines under --as-needed: one symbol, needs libaorta.so.0, passes --check-collector"
    fi
else
    echo "note: no C++20 compiler ('$cxx'): the C++ block is not run"
fi
exit $status
