#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a process grew by, three ways, from the smaps copies bench/inproc.sh
leaves with BENCH_SMAPS_DIR=DIR (PATH-NAME-N.before and .after): the
median over each path's runs of the growth in
  Rss  resident pages, shared library pages counted in full;
  Pss  each page divided by the number of processes that map it;
  USS  pages no other process maps (Private_Clean + Private_Dirty):
       what the host would get back if the process exited.
In KiB, one line per path.

usage: smaps_totals.py DIR
"""
import glob
import os
import statistics
import sys

KEYS = ("Rss", "Pss", "Private_Clean", "Private_Dirty")


def totals(path):
    """{key: KiB} summed over every mapping of one smaps copy."""
    out = dict.fromkeys(KEYS, 0)
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].rstrip(":") in KEYS:
                out[parts[0].rstrip(":")] += int(parts[1])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = {}
    for before in sorted(glob.glob(os.path.join(sys.argv[1], "*.before"))):
        after = before[: -len(".before")] + ".after"
        if not os.path.exists(after):
            continue
        b, a = totals(before), totals(after)
        grew = {k: a[k] - b[k] for k in KEYS}
        grew["USS"] = grew["Private_Clean"] + grew["Private_Dirty"]
        path = os.path.basename(before).split("-")[0]
        runs.setdefault(path, []).append(grew)
    print(f"{'path':10} {'runs':>4} {'Rss':>6} {'Pss':>6} {'USS':>6}  (KiB)")
    for path, grows in sorted(runs.items()):
        med = {k: statistics.median(g[k] for g in grows)
               for k in ("Rss", "Pss", "USS")}
        print(f"{path:10} {len(grows):4d} {med['Rss']:6.0f} {med['Pss']:6.0f}"
              f" {med['USS']:6.0f}")


if __name__ == "__main__":
    main()
