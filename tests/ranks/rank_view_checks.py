# SPDX-License-Identifier: MIT
"""The rank view's checks for a run whose straggler was planted.

tests/ranks/mpi_ranks.c with MPI_RANKS_STRAGGLER=1 gives rank 0 1 ms of
rank_work_kernel and 4 launches of halo_exchange_kernel at 0.5 ms, and
rank 1 2 ms of rank_work_kernel and 7 launches of halo_exchange_kernel at
2 ms.  So, whatever launcher ran it and whichever collector measured it:
rank 1 is the slowest (16 ms against a mean of 9.5 ms: an imbalance of
6.5 ms, 68.4%), halo_exchange_kernel makes 6 ms of it (92.3%), and its
launches differ: "rank 1 launched 7, rank 0 launched 4" (and
rank_work_kernel's, 2 against 1: two mismatches in all).  Used by
check_ranks_mpi.py and check_ranks_slurm.py.
"""

import json
import os
import shutil
import subprocess

STRAGGLER_ENV = {"MPI_RANKS_STRAGGLER": "1"}
MISMATCH = "rank 1 launched 7, rank 0 launched 4"


def check_planted(run, collector, check, trials=1):
    """The planted straggler, its kernel and the mismatch in every output."""
    name = f"{collector} ({os.path.basename(run)})"
    with open(os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0.kernels.json")) as f:
        table = json.load(f)
    entry = table["collectors"].get(collector, {})
    ranks = {r["rank"]: dict(zip(r["names"], r["total_ms"])) for r in entry.get("ranks", [])}
    check(table["schema_version"] == 3 and sorted(ranks) == [0, 1],
          f"{name}: the trial's .kernels.json (schema 3) keeps rank 0's and rank 1's tables")
    check(abs(ranks.get(1, {}).get("halo_exchange_kernel", 0) - 14.0) < 1e-6
          and abs(ranks.get(0, {}).get("halo_exchange_kernel", 0) - 2.0) < 1e-6,
          f"{name}: each rank's table holds its own halo_exchange_kernel time (14 and 2 ms)")

    with open(os.path.join(run, "none-none", "kernels.json")) as f:
        cell = json.load(f)["collectors"].get(collector, {})
    per_rank = {r["rank"]: r["gpu_time_ms"]["mean"] for r in cell.get("ranks", [])}
    check(per_rank == {0: 3.0, 1: 16.0},
          f"{name}: <cell>/kernels.json aggregates per rank: {per_rank}")

    with open(os.path.join(run, "matrix.json")) as f:
        view = json.load(f)["cells"][0].get("ranks", {}).get(collector)
    check(view is not None, f"{name}: matrix.json has the cell's rank view")
    if view:
        check(view["slowest_rank"] == 1 and abs(view["imbalance_ms"] - 6.5) < 1e-6
              and abs(view["imbalance_pct"] - 68.421053) < 1e-3,
              f"{name}: matrix.json: slowest rank 1, imbalance 6.5 ms (68.4%): "
              f"{view['slowest_rank']}, {view['imbalance_ms']}, {view['imbalance_pct']}")
        top = view["kernels"][0]
        check(top["name"] == "halo_exchange_kernel" and abs(top["share_pct"] - 92.307692) < 1e-3,
              f"{name}: matrix.json: halo_exchange_kernel tops the shares ({top['name']}, "
              f"{top['share_pct']}%)")
        check(top["launch_mismatch"] == MISMATCH and view["launch_mismatches"] == 2,
              f"{name}: matrix.json flags the launch mismatch: {top['launch_mismatch']}")

    with open(os.path.join(run, "perf.md")) as f:
        perf = f.read()
    check(f"#### Ranks of none-none \u2014 {collector}" in perf
          and "Slowest rank **1**: 16.000 ms" in perf and "imbalance 6.500 ms (68.4%)" in perf,
          f"{name}: perf.md names rank 1 the straggler with its imbalance")
    check("Most of it: `halo_exchange_kernel` (92.3% of the imbalance" in perf,
          f"{name}: perf.md names the kernel that makes rank 1 late")
    check(f"- `halo_exchange_kernel`: {MISMATCH}" in perf, f"{name}: perf.md flags the mismatch")
    check_report_in_browser(run, name, check)


def check_report_in_browser(run, name, check):
    """report.html as headless Chromium sees it: the rank section, the bars,
    the heat table's rows and the mismatch."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    path = os.path.join(run, "report.html")
    if not chromium:
        with open(path) as f:
            dom = f.read()
        print("note: chromium not found; report.html read as text")
    else:
        result = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                 "--dump-dom", "file://" + os.path.abspath(path)],
                                capture_output=True, text=True, timeout=120)
        dom = result.stdout
    check('class="ranks"' in dom and "rank 1 (slowest)" in dom,
          f"{name}: report.html shows the ranks' bars with rank 1 the slowest")
    check('class="cmp heat"' in dom and dom.count('<tr class="slowest">') == 1,
          f"{name}: report.html has the rank x kernel heat table, one slowest row")
    check(MISMATCH in dom, f"{name}: report.html flags the launch mismatch")
