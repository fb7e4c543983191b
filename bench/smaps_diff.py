#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a process's resident pages went: two copies of /proc/PID/smaps
(bench/inproc_bench.c with BENCH_SMAPS=PREFIX writes PREFIX.before and
PREFIX.after) compared per mapped file (or [heap], [anon], [stack]),
summing Rss and Private_Dirty over its mappings. Prints the growth, the
largest first, in KiB.

usage: smaps_diff.py BEFORE AFTER
"""
import os
import sys


def read(path):
    """{name: [rss, dirty]} summed over the mappings of each name."""
    out = {}
    name = None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if "-" in parts[0] and ":" not in parts[0]:
                name = os.path.basename(parts[5]) if len(parts) > 5 else "[anon]"
                out.setdefault(name, [0, 0])
            elif parts[0] == "Rss:":
                out[name][0] += int(parts[1])
            elif parts[0] == "Private_Dirty:":
                out[name][1] += int(parts[1])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = read(sys.argv[1]), read(sys.argv[2])
    rows = []
    for name in set(before) | set(after):
        b = before.get(name, [0, 0])
        a = after.get(name, [0, 0])
        rows.append((a[0] - b[0], a[1] - b[1], a[0], name))
    rows.sort(reverse=True)
    print(f"{'grew Rss':>9} {'dirty':>7} {'Rss':>7}  mapping (KiB)")
    for drss, ddirty, rss, name in rows:
        if drss or ddirty:
            print(f"{drss:9d} {ddirty:7d} {rss:7d}  {name}")
    print(f"{sum(r[0] for r in rows):9d} {sum(r[1] for r in rows):7d}"
          f" {'':7}  total")


if __name__ == "__main__":
    main()
