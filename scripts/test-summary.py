#!/usr/bin/env python3
"""Counts every test that ran in one or more Meson build directories.

Each TAP line ("ok N", "not ok N") of a TAP test counts as one test; a TAP
program that failed without printing a failing line (a crash, a sanitizer
abort, a timeout) counts one failure more; a non-TAP test counts once.
Prints per build a line, then one line "N passed, N failed" (", N skipped"
when any were skipped) and exits non-zero when anything failed or nothing
ran at all.
"""
import json
import re
import sys

TAP = re.compile(r"^(not ok|ok)\b(.*)$")
MAX_DIAG = 40


def count(logfile):
    passed = failed = skipped = 0
    failures = []
    with open(logfile, encoding="utf-8", errors="replace") as f:
        for line in f:
            t = json.loads(line)
            result = t["result"]
            tap_fail = tap_pass = tap_skip = 0
            lines = (t.get("stdout") or "").splitlines()
            for i, out in enumerate(lines):
                m = TAP.match(out)
                if not m:
                    continue
                if "# SKIP" in m.group(2).upper():
                    tap_skip += 1
                elif m.group(1) == "ok":
                    tap_pass += 1
                else:
                    tap_fail += 1
                    failures.append(f"{t['name']}: {out}")
                    # The diagnosis the test printed with it (the TAP
                    # "#" lines right before and right after), at most
                    # MAX_DIAG lines each: what a CI log must show of a
                    # failure seen once.
                    k = i
                    while k > 0 and i - k < MAX_DIAG and \
                            lines[k - 1].startswith("#"):
                        k -= 1
                    after = i + 1
                    while after < len(lines) and after - i <= MAX_DIAG and \
                            lines[after].startswith("#"):
                        after += 1
                    for d in lines[k:i] + lines[i + 1:after]:
                        failures.append(f"    {d}")
            if tap_pass or tap_fail or tap_skip:
                passed += tap_pass
                failed += tap_fail
                skipped += tap_skip
                if result not in ("OK", "EXPECTEDFAIL") and not tap_fail:
                    failed += 1
                    failures.append(f"{t['name']}: {result} (exit {t['returncode']})")
            elif result == "OK":
                passed += 1
            elif result == "SKIP":
                skipped += 1
            else:
                failed += 1
                failures.append(f"{t['name']}: {result} (exit {t['returncode']})")
    return passed, failed, skipped, failures


def main():
    total = [0, 0, 0]
    for d in sys.argv[1:]:
        p, f, s, failures = count(f"{d}/meson-logs/testlog.json")
        print(f"{d}: {p} passed, {f} failed, {s} skipped")
        for x in failures:
            print(f"    {x.strip()}" if x.startswith("    ") else
                  f"  FAILED {x}")
        total = [total[0] + p, total[1] + f, total[2] + s]
    line = f"{total[0]} passed, {total[1]} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 1 if total[1] or not total[0] else 0


if __name__ == "__main__":
    sys.exit(main())
