#!/bin/sh
# SPDX-License-Identifier: MIT
# The rules of docs/architecture.md, checked on the sources' #include lines
# (the build enforces most of them too, by the include paths each target
# gets):
#   a collector (plugins/*, the fake ones, the template) includes only
#   aorta/collector.h, its own folder's headers, config.h and, in this tree,
#   plugins/common/; collectors never include each other; every collector
#   target sets its own CPPFLAGS, none with a path into core/;
#   the SDK (core/libaorta) never includes aorta-run's headers (core/run);
#   aorta-run never includes the SDK's private header (sdk.h);
#   the SDK's suites (tests/sdk) build against include/ alone;
#   core/run keeps its stage order: a file includes only headers of its own
#   stage or of a stage below it, and within a stage no two modules
#   include each other, directly or around a circle;
#   only sys/child.c forks a helper (and sys/spawn.c a command);
#   a header of core/ is guarded by PREFIX_<FILE>_H (or PREFIX_<FOLDER>_<FILE>_H),
#   no two alike, PREFIX being AORTA for the SDK's and AR for the rest;
#   aorta_/AORTA_ names the ABI: nothing under core/run or core/common
#   defines a function, type or macro with that prefix (ar_/AR_ is theirs).
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
    [ -f "$file" ] || continue # a collector of a later ABI's suites, where there is one
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

# ---- the build flags: what a collector target and an SDK suite can see ----

# Every collector module target (plugins/, the fake ones) sets its own
# CPPFLAGS: automake's AM_CPPFLAGS, which the Check suites use, carries
# paths into core/run.
targets=0
for mk in plugins/*/Makefile.inc tests/fake-collectors/Makefile.inc; do
    for target in $(sed -n 's/^\([A-Za-z0-9_]*_la\)_SOURCES *=.*/\1/p' "$mk"); do
        targets=$((targets + 1))
        flags=$(sed -n "s/^${target}_CPPFLAGS *= *//p" "$mk")
        [ -n "$flags" ] || bad "$mk: $target sets no CPPFLAGS of its own (AM_CPPFLAGS reaches into core/)"
        case $flags in
        *core/* | *AM_CPPFLAGS* | *AORTA_TEST_CPPFLAGS* | *AORTA_RUN_CPPFLAGS*)
            bad "$mk: ${target}_CPPFLAGS reach into core/: $flags" ;;
        esac
    done
done
[ "$targets" -ge 10 ] || bad "only $targets collector targets found in the Makefile fragments"
# The SDK's suites: include/ and the plain test kit, nothing of core/.
for file in tests/sdk/*.c tests/lib/testutil.h; do
    for name in $(includes "$file"); do
        case $name in config.h | aorta/collector.h | testutil.h) continue ;; esac
        bad "$file includes \"$name\": the SDK's suites see include/ alone"
    done
done
for suite in $(sed -n 's/^[[:space:]]*tests\/sdk\/\(check_[a-z_]*\).*/\1/p' tests/sdk/Makefile.inc); do
    flags=$(sed -n "s/^tests_sdk_${suite}_CPPFLAGS *= *//p" tests/sdk/Makefile.inc)
    [ "$flags" = '$(AORTA_SDK_TEST_CPPFLAGS)' ] ||
        bad "tests/sdk/Makefile.inc: $suite does not build with AORTA_SDK_TEST_CPPFLAGS alone"
done

# ---- one child runner: sys/child.c forks helpers, sys/spawn.c commands ----
forks=$(grep -rln '\bfork *(' core --include='*.c' | grep -v -x -e core/run/sys/child.c -e core/run/sys/spawn.c)
[ -z "$forks" ] || bad "fork() outside sys/child.c (helpers) and sys/spawn.c (commands): $forks"
grep -q '\bfork *(' core/run/sys/child.c || bad "sys/child.c no longer forks: the pattern is stale"

# ---- header guards: PREFIX_<FILE>_H or PREFIX_<FOLDER>_<FILE>_H, none alike
guards=
for file in $(find core -name '*.h' | sort); do
    stem=$(basename "$file" .h | tr 'a-z' 'A-Z')
    folder=$(basename "$(dirname "$file")" | tr 'a-z' 'A-Z')
    case $file in core/libaorta/*) prefix=AORTA ;; *) prefix=AR ;; esac
    guard=$(sed -n 's/^#ifndef \([A-Z0-9_]*\)$/\1/p' "$file" | head -n 1)
    case $guard in
    "${prefix}_${stem}_H" | "${prefix}_${folder}_${stem}_H") guards="$guards $guard" ;;
    *) bad "$file is guarded by '$guard', not ${prefix}_${stem}_H (or ${prefix}_${folder}_${stem}_H)" ;;
    esac
done
same=$(printf '%s\n' $guards | sort | uniq -d)
[ -z "$same" ] || bad "headers of core/ share a guard: $same"

# ---- aorta_ means the ABI: the runner's own names are ar_/AR_ ---------------
# A definition: a macro, a type (typedef, struct/enum/union tag), a function
# or object at the start of a line, or an enumerator.
defs=$(grep -rnE --include='*.[ch]' \
    -e '^[[:space:]]*#[[:space:]]*define[[:space:]]+(aorta|AORTA)_' \
    -e '^(typedef[[:space:]].*[[:space:]]|[[:space:]]*)(aorta|AORTA)_[A-Za-z0-9_]*[[:space:]]*;' \
    -e '^[[:space:]]*(typedef[[:space:]]+)?(struct|enum|union)[[:space:]]+(aorta|AORTA)_[A-Za-z0-9_]*[[:space:]]*(\{|$)' \
    -e '^(static[[:space:]]+)?[a-z_][a-z0-9_ ]*[ *]+(aorta|AORTA)_[A-Za-z0-9_]*[[:space:]]*\(' \
    -e '^(aorta|AORTA)_[A-Za-z0-9_]*[[:space:]]*\(' \
    -e '^[[:space:]]+(AORTA)_[A-Z0-9_]+[[:space:]]*(=[^=]|,$)' \
    core/run core/common | grep -v -e ':[0-9]*:[[:space:]]*return ' || true)
[ -z "$defs" ] || bad "aorta_/AORTA_ (the ABI's prefix) defined under core/run or core/common; use ar_/AR_: $defs"
grep -q 'ar_child_run' core/run/sys/child.h || bad "sys/child.h no longer declares ar_child_run: the prefix check is stale"

# ---- core/run's stage order -------------------------------------------------
# From the top down; a stage may include its own headers and those of the
# stages after it (docs/architecture.md, Rules).  "top" is core/run itself
# (main.c, cli.c, the cmd_*.c files), "common" core/common/, "include" the
# installed header.  stats/ is a leaf: libc and libm, nothing of core/.
ORDER="top sweep report history compare kernels record stats recipe registry sys common include"

rank_of() { # STAGE -> its position, or nothing
    position=0
    for stage in $ORDER; do
        [ "$stage" = "$1" ] && { echo $position; return; }
        position=$((position + 1))
    done
}

stage_of_file() { # core/run/... -> stage
    rel=${1#core/run/}
    case $rel in
    */*/*) echo nested ;;
    */*) echo "${rel%%/*}" ;;
    *) echo top ;;
    esac
}

stage_of_include() { # NAME -> stage, or "config", or "missing"
    case $1 in
    config.h) echo config ;;
    aorta/*) [ -f "include/$1" ] && echo include || echo missing ;;
    */*) [ -f "core/run/$1" ] && echo "${1%%/*}" || echo missing ;;
    *) if [ -f "core/common/$1" ]; then echo common
       elif [ -f "core/run/$1" ]; then echo top
       else echo missing; fi ;;
    esac
}

module_of() { # a path -> its stem ("sweep/trial.h" -> trial)
    name=${1##*/}
    echo "${name%.[ch]}"
}

for dir in core/run/*/; do
    stage=$(basename "$dir")
    [ -n "$(rank_of "$stage")" ] || bad "core/run/$stage/ is in no stage of the order ($ORDER)"
done

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
arrows=0
for file in $(find core/run -name '*.[ch]' | sort); do
    from=$(stage_of_file "$file")
    [ "$from" = nested ] && { bad "$file is nested below a stage folder"; continue; }
    from_rank=$(rank_of "$from")
    for name in $(includes "$file"); do
        to=$(stage_of_include "$name")
        arrows=$((arrows + 1))
        case $to in
        config) continue ;;
        missing) bad "$file includes \"$name\", which is no header of core/run, core/common or include/"; continue ;;
        esac
        if [ "$from" = stats ] && [ "$to" != stats ]; then
            bad "$file (stats/, a leaf: libc and libm only) includes \"$name\""
            continue
        fi
        if [ "$to" = "$from" ]; then
            # A sibling: an edge between two modules of the stage.
            a=$(module_of "$file")
            b=$(module_of "$name")
            [ "$a" != "$b" ] && echo "$from:$a $from:$b" >>"$edges"
            continue
        fi
        to_rank=$(rank_of "$to")
        [ "$to_rank" -gt "$from_rank" ] ||
            bad "$file ($from) includes \"$name\" ($to): an arrow back up the stage order"
    done
done
# stats/ is a leaf below: of the system, libc's and libm's headers only.
for file in $(find core/run/stats -name '*.[ch]' 2>/dev/null | sort); do
    for name in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$file"); do
        case $name in
        assert.h | float.h | math.h | stddef.h | stdint.h | stdio.h | stdlib.h | string.h) ;;
        *) bad "$file (stats/, a leaf) includes <$name>, not of libc or libm" ;;
        esac
    done
done
[ "$arrows" -ge 300 ] || bad "only $arrows #include lines read in core/run: the pattern no longer matches"
# Siblings: no circle among the modules of a stage.
if [ -s "$edges" ] && ! tsort "$edges" >/dev/null 2>"$edges.loop"; then
    bad "modules of one stage include each other around a circle: $(tr '\n' ' ' <"$edges.loop")"
fi
rm -f "$edges.loop"
[ $status -eq 0 ] && echo "ok: every #include keeps to its layer; core/run's $arrows keep to the stage order ($ORDER)"
exit $status
