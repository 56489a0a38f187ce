#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - build the fuzz harnesses with clang's libFuzzer (ASan + UBSan) and
# run each for a while.  `make fuzz` runs it from a configured build tree;
# by hand:
#
#   tests/fuzz/run.sh [-t SECONDS] [-B BUILDDIR] [-C CORPUSDIR] [TARGET...]
#
# SECONDS per target (default 60, or $FUZZ_SECONDS); BUILDDIR is a configured
# build tree (for config.h; default: the current directory, else ./build);
# TARGETs default to all of them.  Work goes to BUILDDIR/tests/fuzz/: the
# binaries, each target's growing corpus (work/TARGET/corpus, or
# CORPUSDIR/TARGET with -C or $FUZZ_CORPUS_DIR: kept from run to run, so
# each run starts where the last one stopped) and what it
# found (work/TARGET/crash-*, timeout-*, oom-*, leak-*; earlier runs'
# findings move to work/TARGET/earlier/).  Each run is
# seeded with tests/fuzz/corpus/TARGET and the fixtures the target reads.
# A finding is minimised and then belongs, fixed, in
# tests/fuzz/corpus/TARGET/, which `make check` replays.  Exit status: 0
# when nothing was found, 1 when something was, 2 on a usage or build error.
#
# Environment: CC (default clang), FUZZ_FLAGS (extra libFuzzer flags),
# ASAN_OPTIONS (default quarantine_size_mb=32), TMPDIR (where the harnesses write their scratch files; /dev/shm when it
# is writable).
set -eu

ALL_TARGETS="rocprof_csv rocprof_rocpd proton_hatchet recipe sidecar trial_json artifacts metrics_json load_check kernel_tables lane_chart"
seconds=${FUZZ_SECONDS:-60}
builddir=
corpus_dir=${FUZZ_CORPUS_DIR:-}

usage() {
    echo "usage: $0 [-t SECONDS] [-B BUILDDIR] [-C CORPUSDIR] [TARGET...]; targets: $ALL_TARGETS" >&2
    exit 2
}

while getopts t:B:C:h opt; do
    case $opt in
    t) seconds=$OPTARG ;;
    B) builddir=$OPTARG ;;
    C) corpus_dir=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
targets=${*:-$ALL_TARGETS}
for target in $targets; do
    case " $ALL_TARGETS " in
    *" $target "*) ;;
    *) echo "$0: unknown target '$target'" >&2; usage ;;
    esac
done
case $seconds in
'' | *[!0-9]*) echo "$0: -t takes whole seconds" >&2; usage ;;
esac

srcdir=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "$builddir" ]; then
    if [ -f config.h ]; then builddir=.; else builddir=build; fi
fi
if [ ! -f "$builddir/config.h" ]; then
    echo "$0: no config.h in '$builddir': configure a build tree first (-B BUILDDIR)" >&2
    exit 2
fi
builddir=$(cd "$builddir" && pwd)
out=$builddir/tests/fuzz
if [ -n "$corpus_dir" ]; then
    mkdir -p "$corpus_dir" || exit 2
    corpus_dir=$(cd "$corpus_dir" && pwd)
fi
CC=${CC:-clang}
# ASan's default quarantine (256 MB) alone would approach -rss_limit_mb.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}
export ASAN_OPTIONS
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    TMPDIR=/dev/shm
    export TMPDIR
fi

deps_cflags=$(pkg-config --cflags json-c yaml-0.1)
deps_libs="$(pkg-config --libs json-c yaml-0.1) -lltdl -ldl -lm -lpthread"
# rocprof reads rocpd databases when the build tree was configured with SQLite.
if grep -q '^#define HAVE_SQLITE3 1' "$builddir/config.h"; then
    deps_cflags="$deps_cflags $(pkg-config --cflags sqlite3)"
    deps_libs="$deps_libs $(pkg-config --libs sqlite3)"
fi
# proton reads hatchet_msgpack when the build tree was configured with msgpack-c.
if grep -q '^#define HAVE_MSGPACK 1' "$builddir/config.h"; then
    msgpack=msgpack-c
    pkg-config --exists msgpack-c || msgpack=msgpack
    deps_cflags="$deps_cflags $(pkg-config --cflags $msgpack)"
    deps_libs="$deps_libs $(pkg-config --libs $msgpack)"
fi
cflags="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined
    -fno-sanitize-recover=all -I$builddir -I$srcdir/include 
    -I$srcdir/core/libaorta -I$srcdir/core/common -I$srcdir/core/run -I$srcdir/plugins/common
    -I$srcdir/tests/fuzz -DAR_COLLECTORDIR=\"\" -DAR_XALLOC_WHO=\"aorta-run\" $deps_cflags"

# Objects: the whole core but the programs' main() (aorta-run's and
# aorta-rank-exec's), each plugin and the helpers they share, the harness
# helpers.
compile_dir() { # NAME SOURCE...
    name=$1
    shift
    mkdir -p "$out/obj/$name"
    for source in "$@"; do
        # named by the whole path: report/summary.c and stats/summary.c are two
        object=$out/obj/$name/$(printf %s "${source#"$srcdir"/}" | tr / _ | sed 's/\.c$//').o
        # shellcheck disable=SC2086
        $CC $cflags -fsanitize=fuzzer-no-link -I"$(dirname "$source")" \
            -c "$source" -o "$object" || exit 2
    done
}

echo "building the harnesses with $CC in $out"
rm -rf "$out/obj"
compile_dir core $(ls "$srcdir"/core/libaorta/*.c "$srcdir"/core/common/*.c "$srcdir"/core/run/*.c \
    "$srcdir"/core/run/*/*.c | grep -v -e '/main\.c$' -e '/rank_exec\.c$')
compile_dir common "$srcdir"/plugins/common/*.c
compile_dir rocprof "$srcdir"/plugins/rocprof/*.c
compile_dir proton "$srcdir"/plugins/proton/*.c
compile_dir util "$srcdir/tests/fuzz/fuzz_util.c"

for target in $targets; do
    plugin=
    case $target in
    rocprof_csv | rocprof_rocpd) plugin=rocprof ;;
    proton_hatchet) plugin=proton ;;
    esac
    extra=
    [ -n "$plugin" ] && extra="$out/obj/$plugin/*.o $out/obj/common/*.o -I$srcdir/plugins/$plugin"
    # The CSV reader without its fast path, which the harness holds it to.
    [ "$target" = rocprof_csv ] && extra="$extra $srcdir/tests/collectors/rocprof/csv_reference.c"
    # shellcheck disable=SC2086
    $CC $cflags -fsanitize=fuzzer $extra "$srcdir/tests/fuzz/fuzz_$target.c" \
        "$out"/obj/core/*.o "$out"/obj/util/*.o $deps_libs -o "$out/fuzz_$target" || exit 2
done

found=0
for target in $targets; do
    work=$out/work/$target
    corpus=${corpus_dir:+$corpus_dir/$target}
    corpus=${corpus:-$work/corpus}
    mkdir -p "$work" "$corpus"
    seeds=$srcdir/tests/fuzz/corpus/$target
    # Inputs stay small (the large regression inputs are cut to this), but
    # the deep .hatchet seeds need their 10,000 levels.
    max_len=16384
    case $target in
    rocprof_csv) seeds="$seeds $srcdir/tests/collectors/rocprof/fixtures" ;;
    proton_hatchet) seeds="$seeds $srcdir/tests/collectors/proton/fixtures" max_len=80000 ;;
    recipe | sidecar) seeds="$seeds $srcdir/tests/run/recipe/fixtures" ;;
    esac
    dict=$srcdir/tests/fuzz/dict/$target.dict
    dict_flag=
    [ -f "$dict" ] && dict_flag=-dict=$dict
    echo "fuzzing $target for ${seconds}s (corpus $corpus, $(ls "$corpus" | wc -l) inputs; started $(date -u +%H:%M:%SZ))"
    # What earlier runs found stays in earlier/, out of this run's report.
    for finding in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-*; do
        [ -e "$finding" ] || continue
        mkdir -p "$work/earlier"
        mv "$finding" "$work/earlier/"
    done
    # shellcheck disable=SC2086
    "$out/fuzz_$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
        -rss_limit_mb=512 \
        -print_final_stats=1 -artifact_prefix="$work/" $dict_flag ${FUZZ_FLAGS:-} \
        "$corpus" $seeds >"$work/log" 2>&1 || true
    # The last status line (plain or -fork mode) and the final statistics.
    { grep -E '^#[0-9]+' "$work/log" | tail -1; grep -E '^stat::' "$work/log"; } |
        sed "s/^/  $target: /" || true
    echo "  $target: corpus $corpus now holds $(ls "$corpus" | wc -l) inputs"
    for finding in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-*; do
        [ -e "$finding" ] || continue
        echo "  $target: FOUND $finding (log: $work/log)"
        found=1
    done
done
if [ "$found" = 0 ]; then
    echo "fuzzing done $(date -u +%H:%M:%SZ): nothing found in $targets"
else
    echo "fuzzing done $(date -u +%H:%M:%SZ): findings, named by the FOUND lines above"
fi
exit $found
