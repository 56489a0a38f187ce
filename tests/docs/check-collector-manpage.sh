#!/bin/sh
# SPDX-License-Identifier: MIT
# aorta-collector(7) names every function a collector author meets: each
# function of include/aorta/collector.h that the collector template or an
# in-tree collector calls, and every function libaorta.so exports
# (core/libaorta/libaorta.sym).
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
cd "$srcdir" || exit 99
page=docs/aorta-collector.7
status=0
declared=$(grep -o 'aorta_[a-z0-9_]*(' include/aorta/collector.h | tr -d '(' | sort -u)
called=$(cat examples/collector-template/*.c plugins/*/*.c plugins/*/*.h 2>/dev/null |
    grep -o 'aorta_[a-z0-9_]*' | sort -u)
used=0
for name in $called; do
    printf '%s\n' "$declared" | grep -qx "$name" || continue
    case $name in aorta_collector_*_get) continue ;; esac
    used=$((used + 1))
    grep -qw "$name" "$page" || { echo "FAIL: $page does not name $name, which the template or a collector calls"; status=1; }
done
[ "$used" -gt 20 ] || { echo "FAIL: only $used header functions found in the template and plugins/"; status=1; }
exported=0
for name in $(grep -o 'aorta_[a-z0-9_]*' core/libaorta/libaorta.sym | sort -u); do
    exported=$((exported + 1))
    grep -qw "$name" "$page" || { echo "FAIL: $page does not name $name, which libaorta.so exports"; status=1; }
done
[ $status -eq 0 ] && echo "ok: $page names the $used functions the template and the collectors call, and all $exported exported"
exit $status
