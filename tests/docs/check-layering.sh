#!/bin/sh
# SPDX-License-Identifier: MIT
# The rules of docs/architecture.md, checked on the sources' #include lines
# (the build enforces them too, by the include paths each target gets):
#   a collector (plugins/*, the fake ones, the template) includes only
#   aorta/collector.h, its own folder's headers, config.h and, in this tree,
#   plugins/common/; collectors never include each other;
#   the SDK (core/libaorta) never includes aorta-run's headers (core/run);
#   aorta-run never includes the SDK's private header (sdk.h);
#   core/run/stats/ includes only its own headers and libc's and libm's.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cd "$srcdir" || exit 99
status=0
bad() { echo "FAIL: $1"; status=1; }

# Quoted includes of one file: the names between the quotes.
includes() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }

check_collector() { # FILE ALLOWED_DIR...
    file=$1
    shift
    for name in $(includes "$file"); do
        case $name in
        config.h | aorta/collector.h) continue ;;
        */*) bad "$file includes \"$name\", outside its own folder" ; continue ;;
        esac
        found=no
        for dir in "$(dirname "$file")" "$@"; do
            [ -f "$dir/$name" ] && found=yes
        done
        [ $found = yes ] || bad "$file includes \"$name\", which is not in its folder or plugins/common"
    done
}

for file in plugins/*/*.c plugins/*/*.h; do
    case $file in plugins/common/*) check_collector "$file" ;; *) check_collector "$file" plugins/common ;; esac
done
for file in tests/fake-collectors/*.c tests/fake-collectors/*.h examples/collector-template/*.c tests/abi/legacy10.c \
    tests/abi/legacy11.c tests/abi/target10.c tests/sdk/cxxdemo.cc tests/docs/mandemo.c; do
    check_collector "$file"
done
for file in core/libaorta/*.c core/libaorta/*.h; do
    for name in $(includes "$file"); do
        [ -f "core/run/$name" ] && bad "$file (the SDK) includes aorta-run's \"$name\""
    done
done
for file in $(find core/run -name '*.[ch]'); do
    for name in $(includes "$file"); do
        [ "$name" = sdk.h ] && bad "$file (aorta-run) includes the SDK's private sdk.h"
    done
done
# The statistics module is a leaf: libc, libm and its own headers.
for file in core/run/stats/*.c core/run/stats/*.h; do
    for name in $(includes "$file"); do
        case $name in config.h | stats/*) ;; *) bad "$file (a leaf) includes \"$name\"" ;; esac
    done
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$file" | while read -r name; do
        case $name in assert.h | float.h | math.h | stddef.h | stdint.h | stdio.h | stdlib.h | string.h) ;;
        *) echo "FAIL: $file (a leaf) includes <$name>, not of libc or libm" ;; esac
    done | grep . && status=1
done
[ $status -eq 0 ] && echo "ok: every #include keeps to its layer"
exit $status
