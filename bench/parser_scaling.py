#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How the parsers of untrusted input scale (docs/design.md, Reliability: no input can
hang aorta-run).

The fuzzers (tests/fuzz) run on small inputs, where a quadratic loop costs
nothing; here each reader gets the shape of input that makes its biggest
container grow (many keys, names, entries or cells), at two sizes, through
its fuzz harness built for make check (tests/fuzz/replay_<target>).  The
time ratio between the two sizes gives the growth: the budget is at most
twice linear (n log n plus noise), a quadratic reader shows the square of
the size ratio.  Peak RSS is reported per MB of input.

Usage (from the build directory, after `make check` or
`make bench-parser-scaling`): python3 ../bench/parser_scaling.py
    [--builddir DIR] [--size MIB] [--factor K] [--only NAME...]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def lines_until(size, make):
    """make(i) for i = 0, 1, ... until their total length reaches size."""
    out, total, i = [], 0, 0
    while total < size:
        item = make(i)
        out.append(item)
        total += len(item)
        i += 1
    return out


def recipe_variables(size):
    # One mitigation with many variables (the 50,000-node limit ends it).
    head = ('schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [m]\n'
            'diagnostic_axis: [none]\nmitigations:\n  m:\n')
    return head + ''.join(lines_until(size, lambda i: f'    V{i}: x\n'))


def recipe_cells(size):
    # Many axis values: a product far beyond the cell limit.
    names = lines_until(size // 2, lambda i: f'm{i}, ')
    defs = ''.join(f'  m{i}: {{}}\n' for i in range(len(names)))
    axis = '[' + ''.join(names).rstrip(', ') + ']'
    return (f'schema_version: 1\nmode: probe\ntrials: 1\nmitigations:\n{defs}'
            f'mitigation_axis: {axis}\ndiagnostic_axis: {axis}\n')


def sidecar_mitigations(size):
    items = lines_until(size, lambda i: f'"m{i}":{{"V":"x"}},')
    return '{"version":1,"mitigations":{' + ''.join(items).rstrip(',') + '}}'


def sidecar_variables(size):
    items = lines_until(size, lambda i: f'"V{i}":"x",')
    return '{"version":1,"mitigations":{"m":{' + ''.join(items).rstrip(',') + '}}}'


def manifest(size):
    items = lines_until(size, lambda i: f'{{"path":"out/p{i}.bin","class":"log"}},')
    return '{"artifacts":[' + ''.join(items).rstrip(',') + ']}'


def reply(size):
    items = lines_until(size, lambda i: f'"rocprof_k{i}":{i},')
    return '{' + ''.join(items).rstrip(',') + '}'


def trial(metrics):
    return json.dumps({
        'schema_version': '0.1', 'exit_status': 'ok', 'wall_clock_sec': 1.5,
        'result': {'main_work_started': True, 'executed_iterations': 1, 'metrics': metrics}})


def trial_metrics(size):
    keys = lines_until(size, lambda i: f'"k{i}":1,')
    return trial({f'k{i}': i for i in range(len(keys))} | {'verdict': 'pass'})


def trial_detectors(size):
    ids = lines_until(size, lambda i: f'"tier1:d{i}",')
    return trial({'verdict': 'fail',
                  'failure_detectors_fired': [f'tier1:d{i}' for i in range(len(ids))]})


def kernel_stats(size):
    rows = lines_until(size, lambda i: f'"kernel_{i}(float*, int)",1,{i}\n')
    return 'Name,Calls,TotalDurationNs\n' + ''.join(rows)


def reply_tracks(size):
    # A parse reply whose every dispatch has a track of its own (a capture's
    # streams or queues, each named once): the SDK interns each.
    count = len(lines_until(size, lambda i: f'"stream {i}"\n[{i},0,{i},{i + 1}]\n'))
    head = json.dumps({'metrics': {}, 'dispatches': count, 'dispatch_tracks': count,
                       'dispatch_names': 1, 'dispatch_clock': 'host'})
    return (head + '\n' + ''.join(f'"stream {i}"\n' for i in range(count)) + '"k"\n'
            + ''.join(f'[{i},0,{i},{i + 1}]\n' for i in range(count)))


def hatchet_leaves(size):
    leaves = lines_until(size, lambda i: (
        f'{{"frame":{{"name":"k{i}"}},"metrics":{{"time (ns)":{i},"count":1}}}},'))
    return ('[{"frame":{"name":"ROOT"},"metrics":{},"children":['
            + ''.join(leaves).rstrip(',') + ']},{}]')


CASES = [
    ('recipe: one mitigation, many variables', 'recipe', recipe_variables, 1 / 4),
    ('recipe: axes far past the cell limit', 'recipe', recipe_cells, 1 / 4),
    ('sidecar: many mitigations', 'sidecar', sidecar_mitigations, 1),
    ('sidecar: one mitigation, many variables', 'sidecar', sidecar_variables, 1),
    ('artifacts.json: many entries', 'artifacts', manifest, 1),
    ('parse reply: many metrics', 'metrics_json', reply, 1),
    ('trial JSON: many metrics', 'trial_json', trial_metrics, 1),
    ('trial JSON: many detectors', 'trial_json', trial_detectors, 1),
    ('parse reply: many dispatch tracks', 'kernel_tables', reply_tracks, 1),
    ('rocprof stats: many kernels', 'rocprof_csv', kernel_stats, 1),
    ('hatchet: many kernels', 'proton_hatchet', hatchet_leaves, 1),
]


def run(binary, path):
    """Seconds and peak RSS (KB) of one replay."""
    start = time.perf_counter()
    proc = subprocess.Popen([binary, path], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f'{binary} {path}: exit status {status}')
    return elapsed, usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--builddir', default='.')
    parser.add_argument('--size', type=float, default=1.0, help='smaller size, MiB')
    parser.add_argument('--factor', type=int, default=4, help='larger size = factor x smaller')
    parser.add_argument('--only', nargs='*', help='case names containing these words')
    args = parser.parse_args()
    failed = 0
    print(f'{"case":42} {"small":>8} {"large":>8} {"ratio":>6} {"RSS/MB":>7}  verdict')
    with tempfile.TemporaryDirectory(prefix='aorta-scaling-') as tmp:
        for name, target, make, scale in CASES:
            if args.only and not any(word in name for word in args.only):
                continue
            binary = os.path.join(args.builddir, 'tests', 'fuzz', f'replay_{target}')
            if not os.access(binary, os.X_OK):
                sys.exit(f'{binary} is not built: run `make check` or '
                         '`make bench-parser-scaling` first')
            times, rss, sizes = [], 0, []
            for size in (args.size, args.size * args.factor):
                text = make(int(size * scale * (1 << 20)))
                path = os.path.join(tmp, 'input')
                with open(path, 'w') as out:
                    out.write(text)
                seconds, peak = run(binary, path)
                times.append(seconds)
                sizes.append(len(text))
                rss = peak
            ratio = times[1] / max(times[0], 1e-3)
            ok = ratio <= 2 * args.factor
            failed += not ok
            print(f'{name:42} {times[0]:7.2f}s {times[1]:7.2f}s {ratio:6.1f} '
                  f'{rss / 1024 / (sizes[1] / (1 << 20)):7.0f}  '
                  f'{"ok" if ok else "SUPERLINEAR"}')
    print(f'budget: the larger input takes at most {2 * args.factor}x the smaller '
          f'({args.factor}x the bytes)')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
