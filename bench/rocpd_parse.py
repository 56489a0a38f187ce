#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark of the rocprof collector's rocpd parse against its CSV trace parse.

Writes the same dispatches (default 2,000,000, about 200 kernels, one
process) as a rocprofv3 kernel-trace CSV and as a rocpd database
(tests/collectors/rocprof/rocpd_fixtures.py: rocprofv3's schema, UUID-suffixed tables
and plain-name views), then, in one run and from page cache:

  * times `aorta-run --parse rocprof` on each (best of --repeat), with peak
    RSS as /usr/bin/time -f %M reports it, and checks both give the same
    metrics;
  * times the other ways to aggregate the same database: SQLite's own
    GROUP BY (through the sqlite3 shell when installed, else Python's
    sqlite3 module), and the shell stepping every row out (an upper bound
    of stepping rows: it prints them to /dev/null), next to the collector,
    which aggregates in the scan with an aggregate function of its own;
  * parses a database with a quarter of the dispatches, to show the
    collector's memory does not grow with them;
  * prints the verdict: the database parse within 1.5x of the CSV parse,
    and peak RSS within 8 MB between the two database sizes.

Usage (from the build directory): python3 ../bench/rocpd_parse.py [--dispatches N]
    [--builddir DIR] [--keep DIR] [--repeat K]
Needs /usr/bin/time (Debian package `time`).
"""

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "collectors", "rocprof"))
import rocpd_fixtures  # noqa: E402

BUDGET_RATIO = 1.5
BUDGET_RSS_GROWTH_KB = 8 * 1024

GROUP_BY = ("SELECT S.display_name, COUNT(*), SUM(K.`end` - K.`start`) "
            "FROM `rocpd_kernel_dispatch` K JOIN `rocpd_info_kernel_symbol` S "
            "ON S.id = K.kernel_id AND S.guid = K.guid "
            "WHERE K.`end` >= K.`start` GROUP BY K.guid, K.kernel_id")


def warm(path):
    for root, _, files in os.walk(path):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                while f.read(1 << 24):
                    pass


def timed(argv, repeat):
    """Best wall time of argv, its peak RSS (KB) and its stdout."""
    best, rss, out = None, 0, ""
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit("failed: %s\n%s" % (" ".join(argv), proc.stderr))
        rss = max(rss, int(proc.stderr.strip().splitlines()[-1]))
        out = proc.stdout
        best = elapsed if best is None else min(best, elapsed)
    return best, rss, out


def group_by(db, repeat):
    """SQLite aggregating the dispatches itself: seconds, peak RSS (KB, 0 when unknown)."""
    uri = "file:%s?mode=ro&immutable=1" % db
    shell = shutil.which("sqlite3")
    if shell:
        seconds, rss, _ = timed([shell, "-readonly", uri, GROUP_BY], repeat)
        return seconds, rss, "sqlite3 shell"
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        con = sqlite3.connect(uri, uri=True)
        con.execute(GROUP_BY).fetchall()
        con.close()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, 0, "Python sqlite3"


def stepping(db, repeat):
    """The sqlite3 shell stepping every dispatch out (None without the shell)."""
    shell = shutil.which("sqlite3")
    if not shell:
        return None
    uri = "file:%s?mode=ro&immutable=1" % db
    seconds, _, _ = timed([shell, "-readonly", uri, ".output /dev/null",
                           "SELECT guid, kernel_id, start, `end` FROM rocpd_kernel_dispatch"],
                          repeat)
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dispatches", type=int, default=2000000)
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--keep", help="generate into (and keep) this directory")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    aorta_run = os.path.join(args.builddir, "core", "aorta-run")
    plugins = os.path.join(args.builddir, "plugins")
    work = args.keep or tempfile.mkdtemp(prefix="aorta-bench-rocpd-")
    try:
        big = os.path.join(work, "big")
        small = os.path.join(work, "small")
        for path, count in ((big, args.dispatches), (small, args.dispatches // 4)):
            if not os.path.exists(os.path.join(path, "db")):
                print("writing %d dispatches as CSV and rocpd under %s ..." % (count, path),
                      flush=True)
                rocpd_fixtures.bench(path, count)
        warm(work)
        csv_dir, db_dir = os.path.join(big, "csv"), os.path.join(big, "db")
        db_file = os.path.join(db_dir, os.listdir(db_dir)[0])

        parse = [aorta_run, "--plugin-dir", plugins, "--parse", "rocprof"]
        csv_s, csv_rss, csv_out = timed(parse + [csv_dir], args.repeat)
        db_s, db_rss, db_out = timed(parse + [db_dir], args.repeat)
        small_s, small_rss, _ = timed(parse + [os.path.join(small, "db")], args.repeat)
        sql_s, sql_rss, sql_how = group_by(db_file, args.repeat)
        step_s = stepping(db_file, args.repeat)

        csv_m, db_m = json.loads(csv_out), json.loads(db_out)
        for m in (csv_m, db_m):
            m.pop("rocprof_artifact_dir", None)
        same = csv_m == db_m and csv_m.get("rocprof_kernel_count") == args.dispatches

        csv_mb = os.path.getsize(os.path.join(csv_dir, "aorta_kernel_trace.csv")) / 1e6
        db_mb = os.path.getsize(db_file) / 1e6
        ratio = db_s / csv_s
        growth = db_rss - small_rss
        print("dispatches: %d (CSV %.0f MB, database %.0f MB)" % (args.dispatches, csv_mb, db_mb))
        print("CSV trace parse:     %.3f s  peak RSS %6.1f MB" % (csv_s, csv_rss / 1024))
        print("rocpd parse:         %.3f s  peak RSS %6.1f MB  (%.2fx the CSV)"
              % (db_s, db_rss / 1024, ratio))
        print("rocpd parse, %d dispatches: %.3f s  peak RSS %6.1f MB"
              % (args.dispatches // 4, small_s, small_rss / 1024))
        print("SQLite GROUP BY (%s): %.3f s%s" % (sql_how, sql_s,
              "  peak RSS %6.1f MB" % (sql_rss / 1024) if sql_rss else ""))
        if step_s is not None:
            print("sqlite3 shell stepping the rows out: %.3f s" % step_s)
        print("metrics identical: %s" % same)
        ok = same and ratio <= BUDGET_RATIO and growth <= BUDGET_RSS_GROWTH_KB
        print("budget (<= %.1fx the CSV parse, RSS growth <= %d MB over 4x the dispatches): %s"
              % (BUDGET_RATIO, BUDGET_RSS_GROWTH_KB // 1024, "PASS" if ok else "FAIL"))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
