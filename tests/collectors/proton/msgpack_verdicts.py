#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Python's reading of .hatchet_msgpack files: for each file in DIR
(sorted), print its name and 0 when msgpack.unpackb() refuses it (as
Python's msgpack reads any file: raw=False, strict_map_key), else 1, the
launches (or -1 when one is unreadable) and the GPU time in ms (repr), by
the leaf rule of docs/collectors/proton.md: counts exact within int64, a
bytes or ext value neither name nor number, a repeated key its last value
in its first place (a dict).  Exit 77 when python3-msgpack is missing.

usage: msgpack_verdicts.py DIR
"""

import math
import os
import sys

try:
    import msgpack
except ImportError:
    sys.exit(77)

UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
INT64_MAX = (1 << 63) - 1


def number(value):
    """float(value) for what the rule takes as a number, else None."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        if any(0x1c <= ord(c) <= 0x1f for c in value):
            return None
        try:
            text = value.strip()
            if not text or not text.isascii():
                return None
            parsed = float(text)
        except ValueError:
            return None
        return parsed if math.isfinite(parsed) and text.lower() not in ("nan", "inf") else None
    return None


def time_ms(metrics):
    for key, value in metrics.items():
        if not isinstance(key, str):
            continue
        head, _, tail = key.partition("(")
        if head.strip().lower() != "time":
            continue
        factor = UNITS.get(tail.rstrip(")").strip().lower())
        if factor is None:
            continue
        parsed = number(value)
        if parsed is None:
            continue
        ms = parsed * factor
        if math.isfinite(ms) and ms >= 0:
            return ms
    return None


def count(metrics):
    if "count" not in metrics:
        return -1
    value = metrics["count"]
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 0 <= value <= INT64_MAX else -1
    parsed = number(value)
    if parsed is None or parsed < 0 or parsed >= 2.0 ** 63 or parsed != math.floor(parsed):
        return -1
    return int(parsed)


def name_of(frame):
    value = frame.get("name")
    if isinstance(value, bool):
        return "True" if value else ""
    if isinstance(value, int):
        return str(value) if value else ""
    if isinstance(value, float):
        return repr(value) if value else ""
    return value if isinstance(value, str) else ""


def walk(data):
    by_name, counts = {}, {}
    stack = list(reversed(data)) if isinstance(data, list) else [data]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        children = node.get("children")
        if isinstance(children, list) and children:
            stack.extend(reversed(children))
            continue
        frame, metrics = node.get("frame"), node.get("metrics")
        if not isinstance(frame, dict) or not isinstance(metrics, dict):
            continue
        name = name_of(frame).strip()
        ms = time_ms(metrics)
        if not name or ms is None:
            continue
        by_name[name] = by_name.get(name, 0.0) + ms
        c, previous = count(metrics), counts.get(name, 0)
        counts[name] = -1 if c < 0 or previous < 0 else previous + c
    launches = -1 if any(c < 0 for c in counts.values()) else sum(counts.values())
    return launches, sum(by_name.values()), len(by_name)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), "rb") as stream:
            raw = stream.read()
        try:
            data = msgpack.unpackb(raw)
        except Exception:  # every error of the unpacker refuses the file
            print(name, 0)
            continue
        launches, ms, kernels = walk(data)
        print(name, 1, launches, repr(ms), kernels)


if __name__ == "__main__":
    main()
