#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Python's verdict on JSON files: for each file in DIR (sorted), print its
name and 1 when Python's json.load reads it as upstream's collector opens a
.hatchet (open(path, encoding="utf-8"), then json.load), else 0.  Upstream
fails on the whole file for any of these errors, so 0 is "unreadable".
With --lines, each file is a sequence of JSON texts separated by
whitespace (Proton's per-stream Chrome traces): 1 when every one reads.

usage: json_verdicts.py [--lines] DIR
"""

import json
import os
import sys


def reads(path, lines):
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
        if not lines:
            json.loads(text)
            return 1
        decoder = json.JSONDecoder()
        at, count = 0, 0
        space = " \t\n\r"
        while True:
            while at < len(text) and text[at] in space:
                at += 1
            if at == len(text):
                return 1 if count else 0
            _, at = decoder.raw_decode(text, at)
            count += 1
    except (ValueError, UnicodeDecodeError, RecursionError):
        return 0


def main():
    args = sys.argv[1:]
    lines = bool(args) and args[0] == "--lines"
    if lines:
        args = args[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    directory = args[0]
    for name in sorted(os.listdir(directory)):
        print(name, reads(os.path.join(directory, name), lines))


if __name__ == "__main__":
    main()
