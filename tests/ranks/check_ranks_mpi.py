#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Multi-rank runs under a real launcher: Open MPI's mpirun, 2 ranks.

A real MPI program (tests/ranks/mpi_ranks.c, built here with mpicc) gives
rank r (r + 1) ms of GPU work and joins an MPI_Allreduce.  Checked:
  * mpirun as the recipe's launcher, through the rocprofv3 stand-in (which
    learns each rank's dispatches from the program), Proton mode env (the
    program writes the hatchet, as a payload calling proton.start() would)
    and Proton mode cli (the python3 stand-in): every rank's captures in
    <collector>/rank<k>/, the merged metrics (equal to one parse of the whole
    directory and to the sum of the per-rank parses), and the spread;
  * aorta-run started under mpirun: without --all-ranks, rank 1 says once
    that it runs bare; with it, every rank profiles itself, rank 1 writes its
    record, rank 0 merges, and a second run resumes on every rank;
  * chosen ranks (ranks: [1], --ranks): both ways, only rank 1 profiled,
    <c>_ranks_profiled, the unlisted rank's verdict still counted;
  * trial order (order_checks.py): every rank runs the trials in the order
    matrix.json records, all three ways, and a resumed run reruns one
    trial on every rank.

Runs only with AORTA_INTEGRATION=1 (the plain `make check` stage of .ci/run);
skips (77) where mpirun or mpicc is missing or cannot start two ranks.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
failures = []


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


def check(condition, what):
    print(("ok: " if condition else "FAIL: ") + what)
    if not condition:
        failures.append(what)


if os.environ.get("AORTA_INTEGRATION") != "1":
    skip("set AORTA_INTEGRATION=1 to run the launcher integration tests")
MPIRUN, MPICC = shutil.which("mpirun"), shutil.which("mpicc")
if not MPIRUN or not MPICC:
    skip("mpirun or mpicc not found (Debian: openmpi-bin libopenmpi-dev)")

BUILD = os.environ["AORTA_TEST_BUILDDIR"]
SRC = os.environ["AORTA_TEST_SRCDIR"]
AORTA = os.path.join(BUILD, "core", "aorta-run")
PLUGINS = os.path.join(BUILD, "plugins")
ROCPROF = os.path.join(SRC, "examples", "no-gpu", "rocm", "rocprofv3")
STANDINS = os.path.join(SRC, "examples", "no-gpu", "triton")
LAUNCH = [MPIRUN, "-np", "2", "--oversubscribe", "--allow-run-as-root"]

work = tempfile.mkdtemp(prefix="aorta-ranks-mpi-")
program = os.path.join(work, "mpi_ranks")
subprocess.run([MPICC, "-O1", "-o", program, os.path.join(SRC, "tests", "ranks", "mpi_ranks.c")],
               check=True)
probe = subprocess.run(LAUNCH + [program], capture_output=True, text=True, timeout=120)
if probe.returncode != 0:
    skip(f"mpirun cannot start 2 ranks here: {probe.stderr.strip()[:300]}")

ENV = dict(os.environ, ROCPROF_BIN=ROCPROF, AORTA_FAKE_KERNEL_PIPE="1",
           PATH=STANDINS + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
           AORTA_PROTON_PYTHON=os.path.join(STANDINS, "python3"))
for var in ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"):
    ENV.pop(var, None)


def recipe(name, collect, launcher=True, extra=""):
    path = os.path.join(work, name + ".yaml")
    text = ("schema_version: 1\nmode: probe\nticket: %s\ntrials: 1\ntimeout_per_trial: 120\n"
            "mitigation_axis: [none]\ndiagnostic_axis: [none]\ncollect:\n%s\n%s" % (
                name, collect, extra))
    if launcher:
        text += "launcher: [%s]\n" % ", ".join(json.dumps(w) for w in LAUNCH)
    with open(path, "w") as out:
        out.write(text)
    return path


def aorta(args, prefix=(), env=ENV):
    result = subprocess.run(list(prefix) + [AORTA, "--plugin-dir", PLUGINS] + args, env=env,
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        print(result.stdout, result.stderr)
    return result


def trial_metrics(run):
    with open(os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0.json")) as f:
        return json.load(f)["result"]["metrics"]


def parse(name, directory):
    result = aorta(["--parse", name, directory])
    return json.loads(result.stdout)


def collector_dir(run, name):
    return os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0", name)


def check_ranked(run, name, per_rank_ms, kernel_file):
    directory = collector_dir(run, name)
    for k in range(2):
        check(os.path.isfile(os.path.join(directory, f"rank{k}", kernel_file)),
              f"{name}: rank{k}/{kernel_file} written")
    loose = [e for e in os.listdir(directory) if not e.startswith("rank")]
    check(loose == [], f"{name}: nothing outside the rank directories ({loose})")
    metrics = trial_metrics(run)
    whole = parse(name, directory)
    for key in ("kernel_count", "gpu_time_ms", "top_kernel_ms", "top_kernels"):
        check(metrics.get(f"{name}_{key}") == whole.get(f"{name}_{key}"),
              f"{name}_{key}: merged {metrics.get(f'{name}_{key}')} == one parse of the whole "
              f"directory {whole.get(f'{name}_{key}')}")
    ranks = [parse(name, os.path.join(directory, f"rank{k}")) for k in range(2)]
    total = sum(r.get(f"{name}_gpu_time_ms", 0) for r in ranks)
    check(abs(total - metrics.get(f"{name}_gpu_time_ms", -1)) < 1e-9,
          f"{name}: the per-rank parses sum to the merged gpu time ({total})")
    check(abs(metrics.get(f"{name}_gpu_time_ms", 0) - sum(per_rank_ms)) < 1e-9,
          f"{name}_gpu_time_ms is every rank's work ({sum(per_rank_ms)})")
    check(metrics.get(f"{name}_rank_count") == 2, f"{name}_rank_count == 2")
    check(metrics.get(f"{name}_ranks_with_data") == 2, f"{name}_ranks_with_data == 2")
    check(metrics.get(f"{name}_gpu_time_ms_rank_min") == min(per_rank_ms),
          f"{name}_gpu_time_ms_rank_min == {min(per_rank_ms)}")
    check(metrics.get(f"{name}_gpu_time_ms_rank_max") == max(per_rank_ms),
          f"{name}_gpu_time_ms_rank_max == {max(per_rank_ms)}")
    with open(os.path.join(run, "matrix.json")) as f:
        summary = json.load(f)["cells"][0]["metrics_summary"]
    check(f"{name}_gpu_time_ms_rank_max" in summary, f"matrix.json summarises the {name} spread")
    with open(os.path.join(run, "perf.md")) as f:
        check(f"{name}_gpu_time_ms_rank_max" in f.read(), f"perf.md shows the {name} spread")


ROCPROF_COLLECT = '  rocprof: {trace: "kernel", output_format: "csv"}\n'

# 1. mpirun in the launcher slot, rocprof.
out = os.path.join(work, "out")
r = aorta(["--recipe", recipe("launch-rocprof", ROCPROF_COLLECT), "--output", out, "--", program])
check(r.returncode == 0, "launcher + rocprof: exit 0")
check_ranked(os.path.join(out, "launch-rocprof"), "rocprof", [1.0, 2.0], "aorta_kernel_trace.csv")

# 1b. mpirun inside a Slurm allocation: every rank inherits SLURM_PROCID=0
# (where rocprofv3's own %rank% would collide); the MPI rank still wins.
r = aorta(["--recipe", recipe("launch-in-allocation", ROCPROF_COLLECT), "--output", out, "--",
           program], env=dict(ENV, SLURM_PROCID="0", SLURM_JOB_ID="42"))
check(r.returncode == 0, "launcher inside an allocation: exit 0")
check_ranked(os.path.join(out, "launch-in-allocation"), "rocprof", [1.0, 2.0],
             "aorta_kernel_trace.csv")

# 2. Proton mode env: the program writes <AORTA_PROTON_NAME>.hatchet per rank.
r = aorta(["--recipe", recipe("launch-proton-env", "  proton: {mode: env}\n"), "--output", out,
           "--", program])
check(r.returncode == 0, "launcher + proton env: exit 0")
check_ranked(os.path.join(out, "launch-proton-env"), "proton", [1.0, 2.0], "proton.hatchet")

# 3. Proton mode cli, through the python3 stand-in (the capture is its fixture).
payload = os.path.join(work, "payload.py")
with open(payload, "w") as f:
    f.write("print('payload')\n")
r = aorta(["--recipe", recipe("launch-proton-cli", "  proton: {mode: cli}\n"), "--output", out,
           "--", "python3", payload])
check(r.returncode == 0, "launcher + proton cli: exit 0")
cli_dir = collector_dir(os.path.join(out, "launch-proton-cli"), "proton")
for k in range(2):
    check(os.path.isfile(os.path.join(cli_dir, f"rank{k}", "proton.hatchet")),
          f"proton cli: rank{k}/proton.hatchet written")
cli_metrics = trial_metrics(os.path.join(out, "launch-proton-cli"))
check(cli_metrics.get("proton_rank_count") == 2 and cli_metrics.get("proton_ranks_with_data") == 2,
      "proton cli: both ranks counted, both with data")

# 4. Started under mpirun without --all-ranks: rank 1 says it runs bare.
plain = recipe("under-plain", ROCPROF_COLLECT, launcher=False)
r = aorta(["--recipe", plain, "--output", out, "--", program], prefix=LAUNCH)
check(r.returncode == 0, "under mpirun: exit 0")
check(r.stderr.count("rank 1 runs the command without collectors") == 1,
      "under mpirun: rank 1 says once that it runs bare")
check(os.path.isfile(os.path.join(out, "under-plain", "matrix.json")), "rank 0 records the run")

# 5. Started under mpirun with --all-ranks: every rank profiles itself.
every = recipe("under-all", ROCPROF_COLLECT, launcher=False)
r = aorta(["--all-ranks", "--recipe", every, "--output", out, "--", program], prefix=LAUNCH)
check(r.returncode == 0, "--all-ranks under mpirun: exit 0")
run = os.path.join(out, "under-all")
record = os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0.rank1.json")
check(os.path.isfile(record), "rank 1 wrote its trial record")
if os.path.isfile(record):
    with open(record) as f:
        data = json.load(f)
    check(data.get("schema_version") == 1 and data.get("rank") == 1
          and data.get("verdict") == "pass", "rank 1's record: schema_version 1, rank 1, pass")
check(not os.path.exists(os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0.rank0.json")),
      "rank 0 keeps its trial JSON's shape (no .rank0.json)")
check_ranked(run, "rocprof", [1.0, 2.0], "aorta_kernel_trace.csv")
# A second run resumes the cell on every rank: nothing runs again.
before = os.stat(record).st_mtime_ns if os.path.isfile(record) else 0
r = aorta(["--all-ranks", "--recipe", every, "--output", out, "--", program], prefix=LAUNCH)
check(r.returncode == 0, "--all-ranks resume: exit 0")
with open(os.path.join(run, "matrix.json")) as f:
    check(json.load(f)["cells"][0].get("resumed") is True, "rank 0 resumed the cell")
check(os.path.isfile(record) and os.stat(record).st_mtime_ns == before,
      "rank 1 resumed too (its record untouched)")

# 6. The rank view: a straggler planted in rank 1 (rank_view_checks.py), found
# in every output, under mpirun in the launcher slot (rocprof, and Proton
# mode env) and with aorta-run started per rank (--all-ranks).
sys.path.insert(0, os.path.join(SRC, "tests", "ranks"))
import rank_view_checks  # noqa: E402

PLANTED = dict(ENV, **rank_view_checks.STRAGGLER_ENV)
r = aorta(["--recipe", recipe("view-launch-rocprof", ROCPROF_COLLECT), "--output", out, "--",
           program], env=PLANTED)
check(r.returncode == 0, "rank view, launcher + rocprof: exit 0")
rank_view_checks.check_planted(os.path.join(out, "view-launch-rocprof"), "rocprof", check)
r = aorta(["--recipe", recipe("view-launch-proton", "  proton: {mode: env}\n"), "--output", out,
           "--", program], env=PLANTED)
check(r.returncode == 0, "rank view, launcher + proton env: exit 0")
rank_view_checks.check_planted(os.path.join(out, "view-launch-proton"), "proton", check)
r = aorta(["--all-ranks", "--recipe", recipe("view-under-all", ROCPROF_COLLECT, launcher=False),
           "--output", out, "--", program], prefix=LAUNCH, env=PLANTED)
check(r.returncode == 0, "rank view, --all-ranks under mpirun: exit 0")
rank_view_checks.check_planted(os.path.join(out, "view-under-all"), "rocprof", check)


def verdict(run):
    with open(os.path.join(run, "none-none", "trial_0", "result.json")) as f:
        return json.load(f)["verdict"]


def check_chosen(run, name, kernel_file, label):
    """ranks: [1] -- only rank 1 profiled, its figures alone, the trial passing."""
    directory = collector_dir(run, name)
    present = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    check(present == ["rank1"], f"{label}: only rank1/ under {name}/ ({present})")
    check(os.path.isfile(os.path.join(directory, "rank1", kernel_file)),
          f"{label}: rank1/{kernel_file} written")
    metrics = trial_metrics(run)
    check(metrics.get(f"{name}_ranks_profiled") == "1", f"{label}: {name}_ranks_profiled == '1' "
          f"({metrics.get(f'{name}_ranks_profiled')!r})")
    check(metrics.get(f"{name}_rank_count") == 1, f"{label}: {name}_rank_count == 1")
    check(metrics.get(f"{name}_gpu_time_ms") == 2.0 and
          metrics.get(f"{name}_gpu_time_ms_rank_min") == 2.0,
          f"{label}: the figures are rank 1's alone (2 ms)")
    check(verdict(run) == "pass", f"{label}: the trial passes")
    with open(os.path.join(run, "matrix.json")) as f:
        summary = json.load(f)["cells"][0]["metrics_summary"]
    check(f"{name}_rank_count" in summary, f"{label}: matrix.json summarises the figures")


def chosen_ranks_checks():
    """Profiling chosen ranks (docs/multi-rank.md): `ranks: [1]` and `--ranks 1`,
    under the recipe's launcher and with aorta-run started by mpirun."""
    out = os.path.join(work, "chosen")
    chosen = "ranks: [1]\n"
    # a. The recipe's launcher: rank 0 runs the program bare (the Allreduce
    # still needs it), rank 1 under rocprof.
    r = aorta(["--recipe", recipe("chosen-launch", ROCPROF_COLLECT, extra=chosen), "--output",
               out, "--", program])
    check(r.returncode == 0, "ranks: [1] + launcher + rocprof: exit 0")
    check_chosen(os.path.join(out, "chosen-launch"), "rocprof", "aorta_kernel_trace.csv",
                 "launcher rocprof")
    # b. --ranks over a recipe without ranks; Proton mode env, whose variables
    # (AORTA_PROTON_NAME) must not reach the bare rank 0: it would write a hatchet.
    cwd = os.path.join(work, "chosen-cwd")
    os.makedirs(cwd)
    result = subprocess.run([AORTA, "--plugin-dir", PLUGINS, "--ranks", "1", "--recipe",
                             recipe("chosen-env", "  proton: {mode: env}\n"), "--output", out,
                             "--", program], env=ENV, cwd=cwd, capture_output=True, text=True,
                            timeout=300)
    check(result.returncode == 0, "--ranks 1 + launcher + proton env: exit 0")
    check_chosen(os.path.join(out, "chosen-env"), "proton", "proton.hatchet", "launcher proton env")
    check(os.listdir(cwd) == [], "proton env: the bare rank saw no AORTA_PROTON_* (wrote nothing)")
    # c. Proton mode cli rewrites the command: the bare one is appended.
    r = aorta(["--recipe", recipe("chosen-cli", "  proton: {mode: cli}\n", extra=chosen),
               "--output", out, "--", "python3", payload])
    check(r.returncode == 0, "ranks: [1] + launcher + proton cli: exit 0")
    directory = collector_dir(os.path.join(out, "chosen-cli"), "proton")
    check(sorted(os.listdir(directory)) == ["rank1"], "proton cli: only rank1/ profiled")
    check(trial_metrics(os.path.join(out, "chosen-cli")).get("proton_ranks_profiled") == "1",
          "proton cli: proton_ranks_profiled == '1'")
    # d. The command line over the recipe: one warning.
    r = aorta(["--ranks", "1", "--dry-run", "--recipe",
               recipe("chosen-over", ROCPROF_COLLECT, extra="ranks: [0]\n"), "--output", out,
               "--", program])
    check(r.stderr.count("--ranks 1 overrides the recipe's ranks (0)") == 1,
          "--ranks over ranks: one warning")
    check('"ranks_profiled":"1"' in r.stdout and '"--ranks","1","--bare-at"' in r.stdout,
          "--dry-run shows the chosen ranks and aorta-rank-exec's options")
    # e. aorta-run started under mpirun, ranks: [1]: rank 0 runs bare but
    # records (its verdict and rank 1's count), rank 1 profiles itself.  A
    # rank0/ an earlier attempt left is not counted.
    plain = recipe("chosen-under", ROCPROF_COLLECT, launcher=False, extra=chosen)
    run = os.path.join(out, "chosen-under")
    stale = os.path.join(collector_dir(run, "rocprof"), "rank0")
    shutil.copytree(os.path.join(collector_dir(os.path.join(out, "chosen-launch"), "rocprof"),
                                 "rank1"), stale)
    r = aorta(["--recipe", plain, "--output", out, "--", program], prefix=LAUNCH)
    check(r.returncode == 0, "ranks: [1] under mpirun: exit 0")
    check("runs the command without collectors" not in r.stderr,
          "under mpirun with ranks: no 'runs bare' warning")
    check(not os.path.exists(stale), "under mpirun: the stale rank0/ is removed")
    record = os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0.rank1.json")
    check(os.path.isfile(record), "under mpirun: rank 1 wrote its record")
    check_chosen(run, "rocprof", "aorta_kernel_trace.csv", "under mpirun")
    # f. --ranks 0 under mpirun: rank 1 runs bare and still records; a
    # failing rank 1 fails the trial, so its verdict counts.
    r = aorta(["--ranks", "0", "--recipe", recipe("chosen-zero", ROCPROF_COLLECT, launcher=False),
               "--output", out, "--", program], prefix=LAUNCH)
    check(r.returncode == 0, "--ranks 0 under mpirun: exit 0")
    run = os.path.join(out, "chosen-zero")
    check(sorted(os.listdir(collector_dir(run, "rocprof"))) == ["rank0"],
          "--ranks 0 under mpirun: only rank0/")
    check(os.path.isfile(os.path.join(run, "none-none", "_subprocess",
                                      "trial_d0_m0_t0.rank1.json")),
          "--ranks 0 under mpirun: the bare rank 1 still writes its record")
    failing = os.path.join(work, "fail_rank1.sh")
    with open(failing, "w") as f:
        f.write("#!/bin/sh\n[ \"$OMPI_COMM_WORLD_RANK\" = 1 ] && exit 3\nexit 0\n")
    os.chmod(failing, 0o755)
    r = aorta(["--ranks", "0", "--recipe", recipe("chosen-fail", ROCPROF_COLLECT, launcher=False),
               "--output", out, "--", failing], prefix=LAUNCH)
    check(verdict(os.path.join(out, "chosen-fail")) == "fail",
          "--ranks 0 under mpirun: the bare rank 1's failure fails the trial")


def demo_checks():
    """docs/multi-rank.md, Trying it without a GPU: the no-GPU gemm under
    mpirun, two tickets of the same command: the stand-in's noise covers the
    ticket and the rank, so each trial's figures differ between the runs
    (and between the ranks), and --compare has a real difference to judge."""
    out = os.path.join(work, "demo")
    gemm = os.path.join(SRC, "examples", "no-gpu", "gemm")
    runs = {}
    for ticket in ("before", "after"):
        path = recipe("demo-" + ticket, ROCPROF_COLLECT, extra="")
        with open(path) as f:
            text = f.read().replace("trials: 1\n", "trials: 3\n")
        with open(path, "w") as f:
            f.write(text)
        r = aorta(["--recipe", path, "--output", out, "--ticket", ticket, "--", gemm, "512"])
        check(r.returncode == 0, f"demo {ticket}: exit 0")
        figures = []
        for t in range(3):
            with open(os.path.join(out, ticket, "none-none", "_subprocess",
                                   f"trial_d0_m0_t{t}.json")) as f:
                m = json.load(f)["result"]["metrics"]
            figures.append((m.get("rocprof_gpu_time_ms"), m.get("rocprof_gpu_time_ms_rank_min"),
                            m.get("rocprof_gpu_time_ms_rank_max")))
        runs[ticket] = figures
    check(all(a != b for a, b in zip(runs["before"], runs["after"])),
          f"demo: every trial's figures differ between the tickets ({runs})")
    check(all(low != high for _, low, high in runs["before"]),
          "demo: the two ranks' GPU times differ")
    r = aorta(["--compare", os.path.join(out, "before"), os.path.join(out, "after"), "--json"])
    check(r.returncode in (0, 4), f"demo: --compare exits 0 or 4 ({r.returncode})")
    check("gpu_time" in r.stdout, "demo: --compare judges the GPU time")


chosen_ranks_checks()
demo_checks()


def order_checks():
    """Trial order (order_checks.py): the recipe's launcher, mpirun around
    aorta-run bare and with --all-ranks; a resumed trial on every rank."""
    import order_checks as oc
    launched = oc.write_recipe(work, "order-launch", LAUNCH)
    logdir = os.path.join(work, "order-launch-logs")
    r = aorta(["--recipe", launched, "--output", out, "--"] + oc.command(logdir, program))
    check(r.returncode == 0, "order, mpirun as the launcher: exit 0")
    oc.check_order(os.path.join(out, "order-launch"), logdir, check, "order, mpirun launcher")
    oc.check_resume(os.path.join(out, "order-launch"), logdir,
                    lambda: aorta(["--recipe", launched, "--output", out, "--"]
                                  + oc.command(logdir, program)),
                    check, "order, mpirun launcher")
    # Started by mpirun, aorta-run runs each trial's payload as a new process
    # of the same rank, and a rank can call MPI_Init only once per job: the
    # payload is a plain command there.
    bare = oc.write_recipe(work, "order-bare")
    logdir = os.path.join(work, "order-bare-logs")
    r = aorta(["--recipe", bare, "--output", out, "--"] + oc.command(logdir, "true"),
              prefix=LAUNCH)
    check(r.returncode == 0, "order, mpirun around aorta-run: exit 0")
    oc.check_order(os.path.join(out, "order-bare"), logdir, check, "order, bare rank 1")
    every = oc.write_recipe(work, "order-all")
    logdir = os.path.join(work, "order-all-logs")
    args = ["--all-ranks", "--recipe", every, "--output", out, "--"] + oc.command(logdir, "true")
    r = aorta(args, prefix=LAUNCH)
    check(r.returncode == 0, "order, mpirun around aorta-run --all-ranks: exit 0")
    oc.check_order(os.path.join(out, "order-all"), logdir, check, "order, --all-ranks")
    oc.check_resume(os.path.join(out, "order-all"), logdir, lambda: aorta(args, prefix=LAUNCH),
                    check, "order, --all-ranks")


order_checks()

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
shutil.rmtree(work)
print("all checks passed")
