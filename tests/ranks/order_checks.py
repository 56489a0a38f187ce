# SPDX-License-Identifier: MIT
"""Trial order under a real launcher (docs/design.md, Trial order), shared by
check_ranks_mpi.py and check_ranks_slurm.py: a sweep of 3 cells x 3 trials
and a warm-up in the default (interleaved) order, every rank of the MPI
program logging the cell it runs in; every rank's log must be the order
matrix.json records (each cell's warm-up just before its first trial), on
every way of running under the launcher: as the recipe's launcher, around
aorta-run bare, around aorta-run --all-ranks.  Then one trial's result is
removed and the run repeated: every rank runs that cell's warm-up and that
trial again, and nothing else (the followers continue from the same prefix
as rank 0)."""

import json
import os

CELLS = ["none-none", "a-none", "b-none"]
# Each rank appends its cell's X ("-" in none-none) to <logdir>/rank<k>.log,
# then runs the program: the MPI program (whose Allreduce keeps the ranks in
# step) in the launcher's slot; a plain command where aorta-run itself is
# started per rank (a rank may call MPI_Init once per job, and each trial is
# a new process of it).
PAYLOAD = ('echo "${X:--}" >> "$0/rank${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}.log"; '
           'exec "$1"')


def write_recipe(work, name, launcher=None, extra=""):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write("schema_version: 1\nmode: probe\nticket: %s\ntrials: 3\nwarmup_trials: 1\n"
                "timeout_per_trial: 120\nmitigation_axis: [none, a, b]\n"
                "diagnostic_axis: [none]\nmitigations:\n  a: {X: \"a\"}\n  b: {X: \"b\"}\n%s"
                % (name, extra))
        if launcher:
            f.write("launcher: [%s]\n" % ", ".join(json.dumps(w) for w in launcher))
    return path


def command(logdir, program):
    os.makedirs(logdir, exist_ok=True)
    return ["sh", "-c", PAYLOAD, logdir, program]


def expected(run):
    """What each rank's log must hold: matrix.json's order.sequence, each
    cell's warm-up just before its first trial."""
    with open(os.path.join(run, "matrix.json")) as f:
        order = json.load(f)["order"]
    lines, begun = [], set()
    for cell, _trial in order["sequence"]:
        x = "-" if cell == "none-none" else cell[0]
        if cell not in begun:
            begun.add(cell)
            lines.append(x)
        lines.append(x)
    return order["mode"], lines


def logs(logdir, ranks):
    out = []
    for k in range(ranks):
        path = os.path.join(logdir, "rank%d.log" % k)
        out.append(open(path).read().split("\n")[:-1] if os.path.isfile(path) else None)
    return out


def check_order(run, logdir, check, how, ranks=2):
    mode, want = expected(run)
    check(mode == "interleaved", f"{how}: interleaved by default")
    got = logs(logdir, ranks)
    for k in range(ranks):
        check(got[k] == want, f"{how}: rank {k} ran the trials in matrix.json's order"
              + ("" if got[k] == want else f" (got {got[k]}, want {want})"))
    rounds_ok = True
    for cell in CELLS:
        for t in range(3):
            with open(os.path.join(run, cell, "_subprocess", "trial_d0_m0_t%d.json" % t)) as f:
                rounds_ok &= json.load(f).get("round") == t
    check(rounds_ok, f"{how}: each trial JSON's round is its index")


def check_resume(run, logdir, rerun, check, how, ranks=2):
    """Remove a-none's trial 2 result; rerun() runs the same sweep again."""
    os.remove(os.path.join(run, "a-none", "trial_2", "result.json"))
    before = logs(logdir, ranks)
    result = rerun()
    check(result.returncode == 0, f"{how}, resumed: exit 0")
    after = logs(logdir, ranks)
    for k in range(ranks):
        added = after[k][len(before[k]):] if after[k] and before[k] else None
        check(added == ["a", "a"], f"{how}, resumed: rank {k} ran a-none's warm-up and "
              f"trial 2 only (got {added})")
    with open(os.path.join(run, "matrix.json")) as f:
        cells = json.load(f)["cells"]
    check(all(c.get("passed_count") == 3 for c in cells), f"{how}, resumed: 3 passed a cell")
