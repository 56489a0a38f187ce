#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Proton's profile writers restated in Python, for the forms of a session
Triton 3.6 cannot write on the H200 (its CUPTI profiler refuses
periodic_flushing, its finalize() knows no hatchet_msgpack): the fixtures
under fixtures/generated/ come from here, from a real capture's tree.

What each function mirrors (Triton, third_party/proton/csrc/lib/Data/):
  hatchet_json     TreeData's hatchet: nlohmann's dump(4) of its sorted
                   keys, after a newline, as Triton 3.6 writes it (checked
                   against fixtures/h200_env: the same bytes);
  hatchet_msgpack  Dump/TreeDataHatchetMsgPackDump.cpp: [tree, devices]; a
                   node is map(3) {frame: {name, type}, metrics, children},
                   a kernel's metrics "time (ns)", "count", "device_id",
                   "device_type" in that order, the root's the first two;
                   a device's clock_rate, memory_clock_rate, bus_width,
                   arch, num_sms;
  phases           Data::dump() once periodic flushing advanced:
                   <name>.part_<N>.<format> per phase N from 0, each phase
                   the same tree shape holding that phase's launches;
  chrome_trace_*   TraceData's chrome_trace: one compact object per GPU
                   stream and line (3.6), or one object with lane
                   metadata, CPU scopes and launch flows beside the kernels
                   (Dump/ChromeTraceDump.cpp, later).

usage: proton_writer.py HATCHET TRACE OUTDIR   (writes OUTDIR's fixtures)
"""

import json
import os
import random
import sys

import msgpack

KERNEL_ORDER = ("time (ns)", "count", "device_id", "device_type")
DEVICE_ORDER = ("clock_rate", "memory_clock_rate", "bus_width", "arch", "num_sms")


def hatchet_json(tree):
    return "\n" + json.dumps(tree, indent=4, sort_keys=True) + "\n"


def _msgpack_metrics(metrics):
    out = {key: metrics[key] for key in KERNEL_ORDER if key in metrics}
    out.update((key, value) for key, value in metrics.items() if key not in out)
    return out


def _msgpack_node(node):
    frame = node["frame"]
    return {"frame": {"name": frame["name"], "type": frame.get("type", "function")},
            "metrics": _msgpack_metrics(node.get("metrics", {})),
            "children": [_msgpack_node(child) for child in node.get("children", [])]}


def hatchet_msgpack(tree):
    root, devices = tree[0], tree[1] if len(tree) > 1 else {}
    laid = {kind: {index: {key: device[key] for key in DEVICE_ORDER if key in device}
                   for index, device in ids.items()}
            for kind, ids in devices.items()}
    return msgpack.packb([_msgpack_node(root), laid], use_bin_type=True)


def _leaves(node, path=()):
    if node.get("children"):
        for child in node["children"]:
            yield from _leaves(child, path + (node["frame"]["name"],))
    else:
        yield path, node


def phases(tree, count, seed):
    """The tree's launches dealt into count phases: each leaf's count and
    time split among them; a phase holds the leaves it got launches of."""
    rng = random.Random(seed)
    parts = [json.loads(json.dumps(tree)) for _ in range(count)]
    shares = {}
    for path, leaf in _leaves(tree[0]):
        metrics = leaf["metrics"]
        launches = metrics.get("count", 0)
        got = [0] * count
        for _ in range(launches):
            got[rng.randrange(count)] += 1
        total = metrics.get("time (ns)", 0)
        ns = [total * share // launches if launches else 0 for share in got]
        ns[got.index(max(got))] += total - sum(ns)
        shares[path + (leaf["frame"]["name"],)] = (got, ns)

    def prune(node, path, phase):
        name = node["frame"]["name"]
        key = path + (name,)
        if not node.get("children"):
            got, ns = shares.get(key, ([0] * count, [0] * count))
            if got[phase] == 0:
                return None
            node["metrics"]["count"] = got[phase]
            node["metrics"]["time (ns)"] = ns[phase]
            return node
        kids = [kept for kept in (prune(child, key, phase) for child in node["children"])
                if kept is not None]
        if not kids and path:
            return None
        node["children"] = kids
        return node

    return [[prune(parts[p][0], (), p)] + parts[p][1:] for p in range(count)]


def chrome_trace_events(text):
    """The kernel events of a 3.6 trace (one object per line)."""
    events = []
    for line in text.splitlines():
        if line.strip():
            events.extend(json.loads(line)["traceEvents"])
    return events


def chrome_trace_per_stream(events):
    by_stream = {}
    for event in events:
        by_stream.setdefault(event["tid"], []).append(event)
    return "".join(json.dumps({"displayTimeUnit": "us", "traceEvents": by_stream[tid]},
                              separators=(",", ":"), sort_keys=True) + "\n"
                   for tid in sorted(by_stream))


def chrome_trace_session(events):
    """The later layout: process and lane metadata, a CPU scope and a
    launch->kernel flow per launch, then the kernels on their GPU lanes."""
    pid, cpu_lane = 0, 1
    gpu_lane = {tid: 1000 + tid for tid in sorted({event["tid"] for event in events})}
    out = [{"ph": "M", "pid": pid, "tid": 0, "name": "process_name", "args": {"name": "Trace"}},
           {"ph": "M", "pid": pid, "tid": 0, "name": "process_sort_index",
            "args": {"sort_index": 0}},
           {"ph": "M", "pid": pid, "tid": cpu_lane, "name": "thread_name",
            "args": {"name": "CPU Thread 0"}}]
    for tid, lane in gpu_lane.items():
        out.append({"ph": "M", "pid": pid, "tid": lane, "name": "thread_name",
                    "args": {"name": f"GPU Stream {tid}"}})
    for number, event in enumerate(events):
        out.append({"name": "launch", "cat": "scope", "ph": "X", "pid": pid, "tid": cpu_lane,
                    "ts": event["ts"], "dur": 1.0, "args": {"call_stack": ["ROOT"]}})
        for ph in ("s", "f"):
            out.append({"name": "launch->kernel", "cat": "flow", "ph": ph, "pid": pid,
                        "tid": cpu_lane if ph == "s" else gpu_lane[event["tid"]],
                        "ts": event["ts"], "id": number, "bp": "e"})
    for event in events:
        kernel = dict(event, pid=pid, tid=gpu_lane[event["tid"]])
        out.append(kernel)
    return json.dumps({"displayTimeUnit": "us", "traceEvents": out}, separators=(",", ":"),
                      sort_keys=True) + "\n"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    hatchet, trace, outdir = sys.argv[1:]
    with open(hatchet, encoding="utf-8") as stream:
        tree = json.load(stream)
    with open(trace, encoding="utf-8") as stream:
        events = chrome_trace_events(stream.read())
    os.makedirs(outdir, exist_ok=True)

    def write(name, data):
        path = os.path.join(outdir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb" if isinstance(data, bytes) else "w") as out:
            out.write(data)

    write("msgpack/proton.hatchet_msgpack", hatchet_msgpack(tree))
    for number, part in enumerate(phases(tree, 3, seed=1)):
        write(f"phases/proton.part_{number}.hatchet", hatchet_json(part))
    for number, part in enumerate(phases(tree, 2, seed=2)):
        write(f"msgpack_phases/proton.part_{number}.hatchet_msgpack", hatchet_msgpack(part))
    write("trace_session/proton.chrome_trace", chrome_trace_session(events))

if __name__ == "__main__":
    main()
