#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""aorta-run's own share of a profiled Python run (docs/design.md, Budgets).

A real case, measured on an H200: three trials of a Triton script under
Proton's CLI through `aorta-run --collect proton`, against the same three
`python -m triton.profiler.proton` runs by hand.  aorta-run adds the
environment snapshot's Triton probe (a Python start that imports Triton, a
second or more), the trial bookkeeping and the parse of each profile.

This benchmark replays that shape without a GPU, with a stand-in
interpreter (written to a temporary directory, first on PATH) whose
`import triton` takes --import-sec and whose script takes --trial-sec more:

  * `python3 -c 'import triton; print(triton.__version__)'` (the probe):
    sleeps --import-sec, prints a version;
  * `python3 -m triton.profiler.proton -n NAME script.py`: sleeps
    --import-sec + --trial-sec, writes NAME.hatchet (a copy of a real
    capture), as Proton's finalize() does.

In one run it times --trials such runs by hand, then the same trials through
aorta-run, best of --repeat each, and prints aorta-run's own share
(through aorta-run minus by hand, over by hand).  Budget: under 1%.  Exit
status 1 when it is missed.

Usage (from the build directory): python3 ../bench/run_overhead.py
    [--builddir DIR] [--trials 3] [--import-sec 1.0] [--trial-sec 4.0] [--repeat 3]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

BUDGET_SHARE = 0.01

STANDIN = r"""#!/bin/sh
# A Python interpreter with Triton whose import takes IMPORT_SEC.
if [ "$1" = -c ]; then
    sleep {import_sec}
    echo 3.6.0
    exit 0
fi
if [ "$1" = -m ] && [ "$2" = triton.profiler.proton ]; then
    shift 2
    name=proton
    while [ $# -gt 0 ]; do
        case $1 in
        -n) name=$2; shift 2 ;;
        -*) shift 2 ;;
        *) break ;;
        esac
    done
    sleep {total_sec}
    cp {hatchet} "$name.hatchet"
    exit 0
fi
sleep {total_sec}
"""


def timed(argv, cwd, env):
    started = time.monotonic()
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", default=".")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--import-sec", type=float, default=1.0)
    parser.add_argument("--trial-sec", type=float, default=4.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    builddir = os.path.abspath(args.builddir)
    srcdir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    hatchet = os.path.join(srcdir, "tests", "collectors", "proton", "fixtures", "h200_cli",
                           "proton.hatchet")
    # The binary itself, not the build tree's libtool wrapper script (whose
    # own start, a shell and a few sed runs, an installed aorta-run does not pay).
    aorta_run = os.path.join(builddir, "core", ".libs", "aorta-run")
    run_env_extra = {"LD_LIBRARY_PATH": os.path.join(builddir, "core", "libaorta", ".libs")}
    if not os.path.exists(aorta_run):
        aorta_run, run_env_extra = os.path.join(builddir, "core", "aorta-run"), {}
    plugins = os.path.join(builddir, "plugins")
    work = tempfile.mkdtemp(prefix="aorta-bench-")
    try:
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        python = os.path.join(bindir, "python3")
        with open(python, "w") as out:
            out.write(STANDIN.format(import_sec=args.import_sec,
                                     total_sec=args.import_sec + args.trial_sec,
                                     hatchet="'" + hatchet.replace("'", "'\\''") + "'"))
        os.chmod(python, 0o755)
        script = os.path.join(work, "softmax.py")
        with open(script, "w") as out:
            out.write("# the payload; the stand-in only sleeps\n")
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))

        by_hand, through = [], []
        for round_ in range(args.repeat):
            hand_dir = os.path.join(work, "hand%d" % round_)
            os.mkdir(hand_dir)
            started = time.monotonic()
            for _ in range(args.trials):
                timed(["python3", "-m", "triton.profiler.proton", "-n", "proton", script],
                      hand_dir, env)
            by_hand.append(time.monotonic() - started)
            through.append(timed([aorta_run, "--plugin-dir", plugins, "--collect", "proton",
                                  "--trials", str(args.trials), "-q", "--output",
                                  os.path.join(work, "runs"), "--ticket", "R%d" % round_,
                                  "--", "python3", script], work,
                                 dict(env, **run_env_extra)))
        hand, aorta = min(by_hand), min(through)
        share = (aorta - hand) / hand
        print("%d trials, import %.2f s + script %.2f s each" %
              (args.trials, args.import_sec, args.trial_sec))
        print("  by hand:          %.3f s (best of %d)" % (hand, args.repeat))
        print("  through aorta-run: %.3f s (best of %d)" % (aorta, args.repeat))
        verdict = "ok" if share < BUDGET_SHARE else "MISSED"
        print("  aorta-run's own share: %+.2f%% (budget < %.0f%%): %s" %
              (share * 100, BUDGET_SHARE * 100, verdict))
        return 0 if share < BUDGET_SHARE else 1
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
