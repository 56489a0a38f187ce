#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hold a timeline.json to the Chrome trace-event format (the JSON object
form): UTF-8, valid JSON, a traceEvents array; every event with ph, name,
pid, tid (and ts, dur for a complete event "X"); metadata events process_name
once per pid, thread_name once per (pid, tid), every X event on a named
thread; events ordered by pid, then ts.  Usage: timeline_format.py FILE
[RANKS [DISPATCHES]]; prints one line per problem and exits 1 on any."""
import json
import sys


def problems(path, ranks=None, dispatches=None):
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")  # strict: no invalid byte passes
    except UnicodeDecodeError as error:
        yield "not UTF-8: %s" % error
        return
    try:
        doc = json.loads(text)
    except ValueError as error:
        yield "not JSON: %s" % error
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        yield "no traceEvents array"
        return
    if doc.get("displayTimeUnit") not in ("ms", "ns"):
        yield "displayTimeUnit is %r" % doc.get("displayTimeUnit")
    process_names, thread_names, last = {}, set(), None
    complete = 0
    for i, event in enumerate(doc["traceEvents"]):
        where = "event %d" % i
        for key in ("ph", "name", "pid", "tid"):
            if key not in event:
                yield "%s has no %s" % (where, key)
        if not isinstance(event.get("pid"), int) or not isinstance(event.get("tid"), int):
            yield "%s: pid and tid are not integers" % where
            continue
        pid, tid = event["pid"], event["tid"]
        if event.get("ph") == "M":
            if event["name"] == "process_name":
                if pid in process_names:
                    yield "%s: a second process_name for pid %d" % (where, pid)
                process_names[pid] = event["args"]["name"]
            elif event["name"] == "thread_name":
                if (pid, tid) in thread_names:
                    yield "%s: a second thread_name for %d/%d" % (where, pid, tid)
                thread_names.add((pid, tid))
            continue
        if event.get("ph") != "X":
            yield "%s: ph %r is neither M nor X" % (where, event.get("ph"))
            continue
        complete += 1
        for key in ("ts", "dur"):
            if not isinstance(event.get(key), (int, float)) or event[key] < 0:
                yield "%s: %s is %r" % (where, key, event.get(key))
        if not isinstance(event["name"], str) or event.get("cat") != "kernel":
            yield "%s: not a kernel with a name" % where
        if pid not in process_names or (pid, tid) not in thread_names:
            yield "%s: pid %d / tid %d has no name" % (where, pid, tid)
        key = (pid, event.get("ts", 0))
        if last is not None and key < last:
            yield "%s: out of order (pid, ts) %r after %r" % (where, key, last)
        last = key
    for pid, name in process_names.items():
        if name != "rank %d" % pid:
            yield "pid %d is named %r" % (pid, name)
    if ranks is not None and len(process_names) != ranks:
        yield "%d processes, expected %d" % (len(process_names), ranks)
    if dispatches is not None and complete != dispatches:
        yield "%d complete events, expected %d" % (complete, dispatches)


def main():
    args = sys.argv[1:]
    ranks = int(args[1]) if len(args) > 1 else None
    dispatches = int(args[2]) if len(args) > 2 else None
    found = list(problems(args[0], ranks, dispatches))
    for problem in found:
        print("FAIL: %s: %s" % (args[0], problem))
    if not found:
        print("ok: %s" % args[0])
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
