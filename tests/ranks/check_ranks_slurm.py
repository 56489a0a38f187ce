#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Multi-rank runs under Slurm for real: a single-node cluster on localhost.

The fixture keeps everything in one temporary directory: a munged with its
own key, socket, pid, seed and log files; a slurm.conf of its own (found
through SLURM_CONF, never /etc), non-default ports, its own state and spool
directories, AuthInfo=socket=<that munged's socket>; slurmctld -D and
slurmd -D in the background.  They are stopped by PID at the end.

Then `srun -n 2` runs both ways: as the recipe's launcher, and around
aorta-run (with and without --all-ranks), with the MPI test program
(tests/ranks/mpi_ranks.c) under the rocprofv3 stand-in; and both ways
with only rank 1 chosen (ranks: [1], --ranks 1); and the trial order
(order_checks.py) on every rank, as the launcher and with --all-ranks.

Runs only with AORTA_INTEGRATION=1; skips (77) where a daemon, srun or
mpicc is missing, or the cluster does not come up.
"""

import getpass
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

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
TOOLS = {name: shutil.which(name) or (os.path.exists(f"/usr/sbin/{name}") and f"/usr/sbin/{name}")
         for name in ("munged", "slurmctld", "slurmd", "srun", "salloc", "sbatch", "sinfo", "mpicc",
                     "sh")}
missing = [name for name, path in TOOLS.items() if not path]
if missing:
    skip("not found: " + ", ".join(missing) + " (Debian: slurm-wlm munge libopenmpi-dev)")

BUILD = os.environ["AORTA_TEST_BUILDDIR"]
SRC = os.environ["AORTA_TEST_SRCDIR"]
AORTA = os.path.join(BUILD, "core", "aorta-run")
PLUGINS = os.path.join(BUILD, "plugins")
ROCPROF = os.path.join(SRC, "examples", "no-gpu", "rocm", "rocprofv3")


def free_port_block(count):
    """A run of count free TCP ports away from Slurm's defaults (6817-6819)."""
    for base in range(23000 + os.getpid() % 4000, 60000, 37):
        try:
            sockets = []
            for port in range(base, base + count):
                s = socket.socket()
                s.bind(("127.0.0.1", port))
                sockets.append(s)
            for s in sockets:
                s.close()
            return base
        except OSError:
            for s in sockets:
                s.close()
    skip("no free ports")


class Cluster:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="aorta-slurm-")
        os.chmod(self.dir, 0o755)  # munged wants its socket's directory reachable
        self.procs = []
        self.env = None

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def start(self):
        d = self.path
        os.makedirs(d("munge"), mode=0o700)
        os.makedirs(d("state"))
        os.makedirs(d("spool"))
        with open(d("munge", "key"), "wb") as key:
            key.write(os.urandom(1024))
        os.chmod(d("munge", "key"), 0o400)
        self.spawn([TOOLS["munged"], "-F", "-f", "--key-file=" + d("munge", "key"),
                    "--socket=" + d("munge", "socket"), "--pid-file=" + d("munge", "pid"),
                    "--log-file=" + d("munge", "log"), "--seed-file=" + d("munge", "seed")],
                   "munged.out")
        if not self.wait(lambda: os.path.exists(d("munge", "socket")), 10):
            self.fail("munged did not create its socket")
        host = socket.gethostname().split(".")[0]
        port = free_port_block(3 + 100)
        user = getpass.getuser()
        with open(d("plugstack.conf"), "w"):
            pass
        conf = f"""ClusterName=aortatest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={port}
SlurmdPort={port + 1}
SrunPortRange={port + 3}-{port + 102}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
AuthInfo=socket={d("munge", "socket")}
CredType=cred/munge
StateSaveLocation={d("state")}
SlurmdSpoolDir={d("spool")}
SlurmctldPidFile={d("slurmctld.pid")}
SlurmdPidFile={d("slurmd.pid")}
SlurmctldLogFile={d("slurmctld.log")}
SlurmdLogFile={d("slurmd.log")}
PlugStackConfig={d("plugstack.conf")}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=pmix
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
InactiveLimit=0
KillWait=5
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} State=UNKNOWN
PartitionName=aorta Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
"""
        with open(d("slurm.conf"), "w") as f:
            f.write(conf)
        self.env = dict(os.environ, SLURM_CONF=d("slurm.conf"))
        for var in list(self.env):
            if var.startswith(("SLURM_", "OMPI_", "PMI_", "PMIX_")) and var != "SLURM_CONF":
                del self.env[var]
        self.env.pop("RANK", None)
        self.spawn([TOOLS["slurmctld"], "-D", "-i"], "slurmctld.out")
        self.spawn([TOOLS["slurmd"], "-D"], "slurmd.out")

        def idle():
            out = subprocess.run([TOOLS["sinfo"], "-h", "-o", "%T"], env=self.env,
                                 capture_output=True, text=True)
            return out.returncode == 0 and out.stdout.strip().startswith("idle")
        if not self.wait(idle, 30):
            self.fail("the node did not become idle")

    def spawn(self, argv, log):
        out = open(self.path(log), "w")
        self.procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                           env=self.env or os.environ, start_new_session=True))
        out.close()

    @staticmethod
    def wait(predicate, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.2)
        return False

    def fail(self, why):
        logs = ""
        for name in ("slurmctld.log", "slurmd.log", "munge/log", "slurmctld.out", "slurmd.out"):
            try:
                with open(self.path(name)) as f:
                    logs += f"--- {name}\n" + f.read()[-1500:]
            except OSError:
                pass
        print(logs)
        self.stop()
        skip(f"the test cluster cannot start: {why}")

    def stop(self):
        # By PID, newest first (slurmd, slurmctld, munged); never by name.
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.procs = []
        shutil.rmtree(self.dir, ignore_errors=True)


def allocation_checks(work, program, recipe, aorta):
    """srun as the launcher inside an allocation (salloc, as under sbatch):
    each trial's srun ends its step after the program's ranks have, and
    aorta-run waits for it (within the kill grace) instead of calling it a
    stray; a process the launcher really leaves behind is still one."""
    out = os.path.join(work, "alloc")
    salloc = [TOOLS["salloc"], "-n", "2", "--overcommit", "--quiet"]
    r = aorta(["--recipe", recipe("alloc-srun", True, "", trials=4), "--output", out, "--",
               program], prefix=salloc)
    check(r.returncode == 0, "srun launcher inside an allocation: exit 0")
    check("process(es) running" not in r.stderr,
          "srun launcher inside an allocation: no stray warning (%r)" % r.stderr[-300:])
    # The step's end, after the command returned, made certain: the launcher
    # leaves a process that ends by itself two seconds later, well within
    # the kill grace; aorta-run waits for it instead of naming it.
    ending = [TOOLS["sh"], "-c", '(sleep 2; exit 0) & exec "$@"', "sh"] + SRUN
    r = aorta(["--recipe", recipe("alloc-ending", True, "", trials=2, launcher_argv=ending),
               "--output", out, "--", program], prefix=salloc, extra={"AORTA_KILL_GRACE": "5"})
    check(r.returncode == 0 and "process(es) running" not in r.stderr,
          "a step that ends within the kill grace is waited for (%r)" % r.stderr[-300:])
    # The same under sbatch (the batch step runs aorta-run), as reported.
    log = os.path.join(work, "alloc-sbatch.log")
    command = shlex.join([AORTA, "--plugin-dir", PLUGINS, "--recipe",
                          recipe("alloc-sbatch", True, "", trials=4), "--output", out, "--",
                          program])
    r = subprocess.run([TOOLS["sbatch"], "--wait", "--quiet", "-n", "2", "--overcommit",
                        "-o", log, "--wrap", command], env=env, capture_output=True, text=True,
                       timeout=300)
    with open(log) as f:
        text = f.read()
    check(r.returncode == 0 and "process(es) running" not in text,
          "srun launcher under sbatch: exit 0, no stray warning (%r)" % text[-300:])
    leaky = [TOOLS["sh"], "-c", 'sleep 30 & exec "$@"', "sh"] + SRUN
    r = aorta(["--recipe", recipe("alloc-leaky", True, "", trials=1, launcher_argv=leaky),
               "--output", out, "--", program], prefix=salloc, extra={"AORTA_KILL_GRACE": "1"})
    check(r.returncode == 0 and "left 1 process(es) running; killed with their process "
          "groups:" in r.stderr and "(sleep)" in r.stderr,
          "a launcher's real stray is still named (%r)" % r.stderr[-300:])


def chosen_ranks_checks(work, program, recipe, aorta, metrics):
    """Profiling chosen ranks under srun (docs/multi-rank.md): ranks: [1] with
    srun as the recipe's launcher, and --ranks 1 with srun around aorta-run."""
    out = os.path.join(work, "chosen")

    def check_rank1(run, how):
        directory = os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0", "rocprof")
        present = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
        check(present == ["rank1"], f"{how}: only rank1/ profiled ({present})")
        m = metrics(run)
        check(m.get("rocprof_ranks_profiled") == "1", f"{how}: rocprof_ranks_profiled '1'")
        check(m.get("rocprof_rank_count") == 1 and m.get("rocprof_gpu_time_ms") == 2.0,
              f"{how}: rank 1's figures alone (1 rank, 2 ms)")
        with open(os.path.join(run, "none-none", "trial_0", "result.json")) as f:
            check(json.load(f)["verdict"] == "pass", f"{how}: the trial passes")

    r = aorta(["--recipe", recipe("chosen-srun-launcher", True, "ranks: [1]\n"), "--output", out,
               "--", program])
    check(r.returncode == 0, "ranks: [1], srun as the launcher: exit 0")
    check_rank1(os.path.join(out, "chosen-srun-launcher"), "srun launcher, ranks: [1]")

    r = aorta(["--ranks", "1", "--recipe", recipe("chosen-srun-around", False), "--output", out,
               "--", program], prefix=SRUN)
    check(r.returncode == 0, "--ranks 1, srun around aorta-run: exit 0")
    check("runs the command without collectors" not in r.stderr,
          "srun around aorta-run --ranks 1: no 'runs bare' warning")
    run = os.path.join(out, "chosen-srun-around")
    check(os.path.isfile(os.path.join(run, "none-none", "_subprocess",
                                      "trial_d0_m0_t0.rank1.json")), "--ranks 1: rank 1's record")
    check_rank1(run, "srun around aorta-run, --ranks 1")


def order_checks(work, program, aorta, srun):
    """Trial order under srun (order_checks.py): srun as the recipe's
    launcher, and around aorta-run with --all-ranks; a resumed trial on
    every rank."""
    import order_checks as oc
    out = os.path.join(work, "out")
    launched = oc.write_recipe(work, "order-srun-launcher", srun)
    logdir = os.path.join(work, "order-srun-launcher-logs")
    r = aorta(["--recipe", launched, "--output", out, "--"] + oc.command(logdir, program))
    check(r.returncode == 0, "order, srun as the launcher: exit 0")
    run = os.path.join(out, "order-srun-launcher")
    oc.check_order(run, logdir, check, "order, srun launcher")
    oc.check_resume(run, logdir, lambda: aorta(["--recipe", launched, "--output", out, "--"]
                                               + oc.command(logdir, program)),
                    check, "order, srun launcher")
    # aorta-run started per rank runs each payload as a new process of the
    # rank, which may call MPI_Init once per job: a plain command there.
    every = oc.write_recipe(work, "order-srun-all")
    logdir = os.path.join(work, "order-srun-all-logs")
    args = ["--all-ranks", "--recipe", every, "--output", out, "--"] + oc.command(logdir, "true")
    r = aorta(args, prefix=srun)
    check(r.returncode == 0, "order, srun around aorta-run --all-ranks: exit 0")
    run = os.path.join(out, "order-srun-all")
    oc.check_order(run, logdir, check, "order, srun --all-ranks")
    oc.check_resume(run, logdir, lambda: aorta(args, prefix=srun), check,
                    "order, srun --all-ranks")


cluster = Cluster()
try:
    cluster.start()
    work = os.path.join(cluster.dir, "work")
    os.makedirs(work)
    program = os.path.join(work, "mpi_ranks")
    subprocess.run([TOOLS["mpicc"], "-O1", "-o", program,
                    os.path.join(SRC, "tests", "ranks", "mpi_ranks.c")], check=True)
    SRUN = [TOOLS["srun"], "-n", "2", "--overcommit"]
    probe = subprocess.run(SRUN + [program], env=cluster.env, capture_output=True, text=True,
                           timeout=120)
    if probe.returncode != 0:
        cluster.fail("srun -n 2 of the MPI program failed: " + probe.stderr[-400:])
    env = dict(cluster.env, ROCPROF_BIN=ROCPROF, AORTA_FAKE_KERNEL_PIPE="1")

    def recipe(name, launcher, extra="", trials=1, launcher_argv=None):
        launcher_argv = launcher_argv or SRUN
        path = os.path.join(work, name + ".yaml")
        with open(path, "w") as f:
            f.write("schema_version: 1\nmode: probe\nticket: %s\ntrials: %d\n"
                    "timeout_per_trial: 120\nmitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                    'collect:\n  rocprof: {trace: "kernel", output_format: "csv"}\n'
                    % (name, trials))
            if launcher:
                f.write("launcher: [%s]\n" % ", ".join(json.dumps(w) for w in launcher_argv)
                        + extra)
        return path

    def aorta(args, prefix=(), extra=None):
        r = subprocess.run(list(prefix) + [AORTA, "--plugin-dir", PLUGINS] + args,
                           env=dict(env, **(extra or {})), capture_output=True, text=True,
                           timeout=300)
        if r.returncode != 0:
            print(r.stdout, r.stderr)
        return r

    def metrics(run):
        with open(os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0.json")) as f:
            return json.load(f)["result"]["metrics"]

    def check_run(run, how):
        directory = os.path.join(run, "none-none", "_subprocess", "trial_d0_m0_t0", "rocprof")
        for k in range(2):
            check(os.path.isfile(os.path.join(directory, f"rank{k}", "aorta_kernel_trace.csv")),
                  f"{how}: rank{k}/aorta_kernel_trace.csv")
        m = metrics(run)
        check(m.get("rocprof_gpu_time_ms") == 3.0, f"{how}: merged gpu time 3 ms")
        check(m.get("rocprof_rank_count") == 2, f"{how}: rocprof_rank_count 2")
        check(m.get("rocprof_gpu_time_ms_rank_min") == 1.0
              and m.get("rocprof_gpu_time_ms_rank_max") == 2.0, f"{how}: spread 1..2 ms")

    out = os.path.join(work, "out")
    r = aorta(["--recipe", recipe("srun-launcher", True), "--output", out, "--", program])
    check(r.returncode == 0, "srun as the launcher: exit 0")
    check_run(os.path.join(out, "srun-launcher"), "srun launcher")

    r = aorta(["--recipe", recipe("srun-plain", False), "--output", out, "--", program],
              prefix=SRUN)
    check(r.returncode == 0 and r.stderr.count("rank 1 runs the command without collectors") == 1,
          "srun around aorta-run: rank 1 says once that it runs bare")

    r = aorta(["--all-ranks", "--recipe", recipe("srun-all", False), "--output", out, "--",
               program], prefix=SRUN)
    check(r.returncode == 0, "srun around aorta-run --all-ranks: exit 0")
    check_run(os.path.join(out, "srun-all"), "srun --all-ranks")
    check(os.path.isfile(os.path.join(out, "srun-all", "none-none", "_subprocess",
                                      "trial_d0_m0_t0.rank1.json")), "rank 1's record")

    # The rank view: a straggler planted in rank 1 (rank_view_checks.py), both
    # ways of running under srun.
    sys.path.insert(0, os.path.join(SRC, "tests", "ranks"))
    import rank_view_checks  # noqa: E402
    planted = rank_view_checks.STRAGGLER_ENV
    r = aorta(["--recipe", recipe("view-srun-launcher", True), "--output", out, "--", program],
              extra=planted)
    check(r.returncode == 0, "rank view, srun as the launcher: exit 0")
    rank_view_checks.check_planted(os.path.join(out, "view-srun-launcher"), "rocprof", check)
    r = aorta(["--all-ranks", "--recipe", recipe("view-srun-all", False), "--output", out, "--",
               program], prefix=SRUN, extra=planted)
    check(r.returncode == 0, "rank view, srun around aorta-run --all-ranks: exit 0")
    rank_view_checks.check_planted(os.path.join(out, "view-srun-all"), "rocprof", check)
    chosen_ranks_checks(work, program, recipe, aorta, metrics)
    allocation_checks(work, program, recipe, aorta)
    order_checks(work, program, aorta, SRUN)
finally:
    cluster.stop()

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
