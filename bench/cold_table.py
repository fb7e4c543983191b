#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The markdown tables of bench/cold.sh from its raw file.

usage: cold_table.py RAW COMMAND
"""
import statistics
import sys
from collections import defaultdict

ORDER = ["dnstrustd", "unbound", "kresd"]
LABEL = {"dnstrustd": "dnstrustd", "unbound": "Unbound", "kresd": "kresd"}


def med(v):
    return statistics.median(v) if v else float("nan")


def ratio(a, b):
    return "-" if a != a or b != b else "%.2f" % (a / b)


def main():
    raw, cmd = sys.argv[1:3]
    ms = defaultdict(list)
    q = defaultdict(list)
    after = defaultdict(list)
    rounds = defaultdict(list)
    startup = defaultdict(list)
    head = []
    total = defaultdict(int)
    bad = defaultdict(list)
    badms = defaultdict(list)
    for line in open(raw):
        if line.startswith("#"):
            head.append(line[1:].strip())
            continue
        rep, d, depth, name, r, t, n, a, w, pre, st = line.split()
        d, depth = int(d), int(depth)
        total[d, depth, r] += 1
        if st != "secure":
            bad[d, depth, r].append(st)
            badms[d, depth, r].append(int(t))
        else:
            ms[d, depth, r].append(int(t))
        q[depth, r].append(int(n))
        after[depth, r].append(int(a))
        rounds[d, depth, r].append(int(w))
        startup[r].append(int(pre))
    rs = [r for r in ORDER if any(k[2] == r for k in total)]
    delays = sorted({k[0] for k in total})
    depths = sorted({k[1] for k in total})
    print("Command: `%s`\n" % cmd)
    for h in head:
        if not h.startswith("rep "):
            print("    " + h)
    print()
    print("Cold wall time per name, ms (median of the secure answers; n = "
          "names x repetitions per cell; answers that were not NOERROR "
          "with AD=1 are left out of the median and named in the cell):\n")
    cols = ["delay", "depth"] + [LABEL[r] for r in rs]
    if "dnstrustd" in rs and "unbound" in rs:
        cols.append("dnstrustd / Unbound")
    if "dnstrustd" in rs and "kresd" in rs:
        cols.append("dnstrustd / kresd")
    cols.append("n")
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for d in delays:
        for depth in depths:
            m = {r: med(ms[d, depth, r]) for r in rs}
            row = ["%d ms" % d, str(depth)]
            for r in rs:
                c = "%g" % m[r] if ms[d, depth, r] else "-"
                if bad[d, depth, r]:
                    c += " (%d of %d %s after %g ms)" % (
                        len(bad[d, depth, r]), total[d, depth, r],
                        "/".join(sorted(set(bad[d, depth, r]))),
                        med(badms[d, depth, r]))
                row.append(c)
            if "dnstrustd" in rs and "unbound" in rs:
                row.append(ratio(m["dnstrustd"], m["unbound"]))
            if "dnstrustd" in rs and "kresd" in rs:
                row.append(ratio(m["dnstrustd"], m["kresd"]))
            row.append(str(total[d, depth, rs[0]]))
            print("| " + " | ".join(row) + " |")
    print()
    top = delays[-1]
    print("Upstream questions per cold name (median over every delay, name "
          "and repetition; min-max in brackets) and round trips at %d ms "
          "(median; median wall time / %d ms in brackets, every answer):\n" % (top, top))
    cols = ["depth"]
    for r in rs:
        cols += [LABEL[r] + " questions", LABEL[r] + " round trips"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for depth in depths:
        row = [str(depth)]
        for r in rs:
            v = q[depth, r]
            row.append("%g [%d-%d]" % (med(v), min(v), max(v)))
            w = med(ms[top, depth, r] + badms[top, depth, r]) / top
            row.append("%g [%.1f]" % (med(rounds[top, depth, r]), w))
        print("| " + " | ".join(row) + " |")
    print()
    for r in rs:
        a = [x for depth in depths for x in after[depth, r]]
        print("%s: questions after the answer (within 0.2 s + 2 delays): "
              "median %g, max %d; questions asked on its own at start-up: "
              "median %g, max %d." % (LABEL[r], med(a), max(a),
                                      med(startup[r]), max(startup[r])))


if __name__ == "__main__":
    main()
