#!/bin/sh
# SPDX-License-Identifier: MIT
# A trial's timeline.json end to end (docs/multi-rank.md, Timeline): real
# sweeps of the built aorta-run under the stand-ins, each timeline held to
# the Chrome trace-event format by timeline_format.py:
#   - rocprof (examples/no-gpu/rocm/rocprofv3, kernel trace CSVs, and a
#     rocpd database): one process, one event per dispatch (the trial's
#     rocprof_kernel_count), time 0 at the first dispatch;
#   - Proton (examples/no-gpu/triton/python3, data: trace) leaving a real
#     H200 Chrome trace: its launches on stream 7, at their ts and dur; and
#     two ranks under a launcher, each its own process and time 0 (Proton's
#     session clock); two rocprof ranks of one node share time 0;
#   - a trial without dispatches has no timeline, and a rerun removes one an
#     earlier attempt left.
set -u
srcdir=${AORTA_TEST_SRCDIR:?}
builddir=${AORTA_TEST_BUILDDIR:?}
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || { echo "no python3: skipping"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
bad() { echo "FAIL: $1"; status=1; }
aorta=$builddir/core/aorta-run
check=$srcdir/tests/run/record/timeline_format.py
metric() { # TRIAL_JSON KEY
    "$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["metrics"].get(sys.argv[2], ""))' "$1" "$2"
}

# rocprof: the no-GPU example, its timelines beside its trial JSONs.
out=$(ROCPROF_BIN=$srcdir/examples/no-gpu/rocm/rocprofv3 "$aorta" --plugin-dir "$builddir/plugins/.libs" \
    --recipe "$srcdir/examples/no-gpu/recipe.yaml" --output "$tmp/r" --ticket t -- \
    "$srcdir/examples/no-gpu/gemm" 128 2>&1) || bad "the rocprof sweep failed: $out"
n=0
for json in "$tmp"/r/t/*/_subprocess/trial_d0_m0_t*[0-9].json; do
    timeline=${json%.json}.timeline.json
    count=$(metric "$json" rocprof_kernel_count)
    [ -n "$count" ] || bad "$json has no rocprof_kernel_count"
    "$python" "$check" "$timeline" 1 "$count" || status=1
    grep -q '"ts":0.000,' "$timeline" || bad "$timeline does not start at time 0"
    grep -q '"args":{"name":"rocprof: Agent 2 queue 1"}' "$timeline" || bad "$timeline: no track 'rocprof: Agent 2 queue 1'"
    grep -q '"alignment":"common' "$timeline" || bad "$timeline: not one clock"
    n=$((n + 1))
done
[ "$n" -eq 6 ] || bad "$n rocprof timelines, expected 6"

# rocprof writing a rocpd database instead (output_format: rocpd): the same
# dispatches, read from rocpd_kernel_dispatch, one track per queue.
cat >"$tmp/rocpd.yaml" <<YAML
schema_version: 1
mode: probe
ticket: ROCPD
trials: 1
mitigation_axis: [none]
diagnostic_axis: [none]
collect:
  rocprof: {trace: "kernel", output_format: "rocpd"}
YAML
(cd "$tmp" && ROCPROF_BIN=$srcdir/examples/no-gpu/rocm/rocprofv3 "$aorta" --plugin-dir "$builddir/plugins/.libs" \
    --recipe rocpd.yaml --output G -- "$srcdir/examples/no-gpu/gemm" 128 >rocpd.out 2>&1) ||
    bad "the rocpd sweep failed: $(cat "$tmp/rocpd.out")"
json=$tmp/G/ROCPD/none-none/_subprocess/trial_d0_m0_t0.json
timeline=${json%.json}.timeline.json
count=$(metric "$json" rocprof_kernel_count)
[ -n "$count" ] && [ "$count" -gt 0 ] || bad "$json: no rocprof_kernel_count from the database"
"$python" "$check" "$timeline" 1 "$count" || status=1
grep -q '"args":{"name":"rocprof: queue 1"}' "$timeline" || bad "$timeline: no track 'rocprof: queue 1'"

# report.html draws each cell's first passing trial as a lane chart: in a
# real browser (headless Chromium, when installed) the SVG is there with its
# lane, its title and the legend.
if command -v chromium >/dev/null 2>&1; then
    dom=$(timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$tmp/r/t/report.html" 2>/dev/null)
    lanes=$(printf '%s\n' "$dom" | grep -o '<g class="lane">' | wc -l)
    [ "$lanes" -eq 2 ] || bad "report.html in Chromium: $lanes lanes, expected one per cell (2)"
    printf '%s\n' "$dom" | grep -q '<svg class="lanes"' || bad "report.html in Chromium: no lane chart"
    printf '%s\n' "$dom" | grep -q '<title>rank 0 · rocprof: Agent 2 queue 1: 26 dispatch(es)</title>' ||
        bad "report.html in Chromium: no lane title"
    printf '%s\n' "$dom" | grep -q '<path fill="#4e79a7" d="M' || bad "report.html in Chromium: no kernel drawn"
    printf '%s\n' "$dom" | grep -q 'class="key"><i style="background:#4e79a7"></i><code>sgemm_tiled' ||
        bad "report.html in Chromium: the legend does not name sgemm_tiled"
else
    echo "chromium not found: report.html's lane chart is checked as text only"
fi
grep -q '<svg class="lanes"' "$tmp/r/t/report.html" || bad "report.html has no lane chart"

# Proton: a real H200 Chrome trace (mode cli, data: trace).
mkdir -p "$tmp/p" && cd "$tmp/p" || exit 99
echo 'print(1)' >vecadd.py
cat >recipe.yaml <<'YAML'
schema_version: 1
mode: probe
ticket: TRACE
trials: 1
mitigation_axis: [none]
diagnostic_axis: [none]
collect:
  proton: {data: trace}
YAML
trace=$srcdir/tests/collectors/proton/fixtures/h200_cli_trace/proton.chrome_trace
out=$(PATH=$srcdir/examples/no-gpu/triton:$PATH AORTA_STANDIN_CHROME_TRACE=$trace \
    "$aorta" --plugin-dir "$builddir/plugins/.libs" --recipe recipe.yaml --output D -- python3 vecadd.py 2>&1) ||
    bad "the Proton sweep failed: $out"
timeline=D/TRACE/none-none/_subprocess/trial_d0_m0_t0.timeline.json
want=$("$python" -c 'import json,sys
events = [e for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["traceEvents"]]
print(sum(1 for e in events if e.get("cat") == "kernel" and e.get("ph") == "X"))' "$trace")
"$python" "$check" "$timeline" 1 "$want" || status=1
"$python" - "$trace" "$timeline" <<'PY' || status=1
import json, sys
source = [e for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["traceEvents"]
          if e.get("cat") == "kernel" and e.get("ph") == "X"]
first = min(e["ts"] for e in source)
want = sorted((round((e["ts"] - first) * 1000), round(e["dur"] * 1000), e["name"]) for e in source)
doc = json.load(open(sys.argv[2]))
got = sorted((round(e["ts"] * 1000), round(e["dur"] * 1000), e["name"])
             for e in doc["traceEvents"] if e["ph"] == "X")
tracks = {e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
if got != want:
    print("FAIL: the timeline's events are not the trace's: %r vs %r" % (got[:3], want[:3]))
    sys.exit(1)
if tracks != {"proton: stream %d" % source[0]["tid"]}:
    print("FAIL: tracks %r" % tracks)
    sys.exit(1)
if not doc["otherData"]["alignment"].startswith("per rank"):
    print("FAIL: Proton's session clock was aligned as one: %r" % doc["otherData"])
    sys.exit(1)
print("ok: the H200 trace's %d launches, at their ts and dur" % len(got))
PY

# Two ranks under a launcher (the torchrun stand-in), each leaving its
# real H200 Chrome trace (10 and 20 launches): a process per rank, each
# aligned at its own first dispatch; report.html draws a lane per rank.
cat >ranks.yaml <<YAML
schema_version: 1
mode: probe
ticket: RANKS
trials: 1
mitigation_axis: [none]
diagnostic_axis: [none]
launcher: ["$srcdir/tests/collectors/proton/standins/torchrun", --nproc_per_node=2, --no-python]
collect:
  proton: {data: trace}
YAML
out=$(PATH=$srcdir/examples/no-gpu/triton:$PATH \
    AORTA_STANDIN_CHROME_TRACE=$srcdir/tests/collectors/proton/fixtures/h200_torchrun_trace/rank%AORTA_RANK%/proton.chrome_trace \
    "$aorta" --plugin-dir "$builddir/plugins/.libs" --recipe ranks.yaml --output D -- python3 vecadd.py 2>&1) ||
    bad "the two-rank sweep failed: $out"
timeline=D/RANKS/none-none/_subprocess/trial_d0_m0_t0.timeline.json
"$python" "$check" "$timeline" 2 30 || status=1
for rank in 0 1; do
    grep -q "{\"name\":\"add_kernel\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":$rank,\"tid\":1,\"ts\":0.000," "$timeline" ||
        bad "rank $rank does not start at its own time 0"
done
grep -q '"alignment":"per rank' "$timeline" || bad "$timeline: ranks aligned as one clock"
lanes=$(grep -o '<g class="lane">' D/RANKS/report.html | wc -l)
[ "$lanes" -eq 2 ] || bad "report.html of two ranks: $lanes lanes"

# Two ranks of rocprof under the same launcher: rocprofv3's host clock and
# one node (each rank noted this host in trial_d0_m0_t0/rank<k>.node): the
# ranks share time 0, the first dispatch of either, so rank 1's later start
# shows.
cat >rocranks.yaml <<YAML
schema_version: 1
mode: probe
ticket: ROCRANKS
trials: 1
mitigation_axis: [none]
diagnostic_axis: [none]
launcher: ["$srcdir/tests/collectors/proton/standins/torchrun", --nproc_per_node=2, --no-python]
collect:
  rocprof: {trace: "kernel", output_format: "csv"}
YAML
cat >rank_payload.sh <<'SH'
#!/bin/sh
printf '3:1000000:rank_kernel\n' >&"$AORTA_FAKE_KERNEL_FD"
SH
chmod +x rank_payload.sh
# Rank k's dispatches start k x 0.1 s later on the host clock
# (aorta-rank-exec puts the rank into the variable).
out=$(AORTA_FAKE_START_NS=%AORTA_RANK%00000000 ROCPROF_BIN=$srcdir/examples/no-gpu/rocm/rocprofv3 \
    "$aorta" --plugin-dir "$builddir/plugins/.libs" \
    --recipe rocranks.yaml --output F -- ./rank_payload.sh 2>&1) || bad "the two-rank rocprof sweep failed: $out"
timeline=F/ROCRANKS/none-none/_subprocess/trial_d0_m0_t0.timeline.json
"$python" "$check" "$timeline" 2 6 || status=1
grep -q '"alignment":"common' "$timeline" || bad "$timeline: two ranks of one node not on one clock"
for rank in 0 1; do
    [ "$(cat F/ROCRANKS/none-none/_subprocess/trial_d0_m0_t0/rank$rank.node 2>/dev/null)" = "$(uname -n)" ] ||
        bad "rank $rank did not note this node"
done
"$python" - "$timeline" <<'PY' || status=1
import json, sys
events = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
first = {pid: min(e["ts"] for e in events if e["pid"] == pid) for pid in (0, 1)}
if first[0] != 0 or first[1] != 100000:
    print("FAIL: one clock: rank 0 should start at 0 and rank 1 0.1 s later: %r" % first)
    sys.exit(1)
print("ok: two ranks of one node on one clock, rank 1 starting %.0f us later" % first[1])
PY

# A trace without events: no timeline, and one an earlier attempt left
# (planted here) is removed.
stale=E/TRACE/none-none/_subprocess/trial_d0_m0_t0.timeline.json
mkdir -p "${stale%/*}" && echo '{}' >"$stale"
out=$(PATH=$srcdir/examples/no-gpu/triton:$PATH \
    "$aorta" --plugin-dir "$builddir/plugins/.libs" --recipe recipe.yaml --output E -- python3 vecadd.py 2>&1) ||
    bad "the Proton sweep without events failed: $out"
[ -e E/TRACE/none-none/_subprocess/trial_d0_m0_t0.json ] || bad "the trial without events did not run: $out"
[ ! -e "$stale" ] || bad "$stale is left from the earlier attempt"
[ $status -eq 0 ] && echo "ok: rocprof and Proton timelines"
exit $status
