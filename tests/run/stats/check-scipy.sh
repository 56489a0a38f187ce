#!/bin/sh
# SPDX-License-Identifier: MIT
# The statistics module against scipy and Python's statistics module
# (scipy_reference.py), with a Python that has scipy: Debian's own
# /usr/bin/python3 first (the python3 first on PATH may be another
# interpreter), then python3; exit 77 when neither has it (CI installs
# python3-scipy).
set -u
builddir=${AORTA_TEST_BUILDDIR:?}
srcdir=${AORTA_TEST_SRCDIR:?}
for python in /usr/bin/python3 python3; do
    if "$python" -c 'import scipy' >/dev/null 2>&1; then
        exec "$python" "$srcdir/tests/run/stats/scipy_reference.py" \
            "$builddir/tests/run/stats/stats_driver"
    fi
done
echo "SKIP: no python3 with scipy (Debian: python3-scipy)"
exit 77
