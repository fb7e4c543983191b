#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Where dnstrustd's CPU goes in a perf recording of bench/daemon.sh
# (BENCH_PERF=1 leaves perf-REP-RESOLVER-KIND.data in the kept work
# directory): the share of the samples
#   - per shared object (self),
#   - per system call, its whole kernel path included (for a send on
#     loopback, the delivery to the receiving socket and its wake-up),
#   - of the busiest functions of dnstrustd and libc (self).
# Only self shares are given for user space: libcrypto has no frame
# pointers, so perf's call chains through it are cut.
#
#   bench/daemon/profile.sh PERF.DATA...
set -eu
[ $# -ge 1 ] || { echo "usage: $0 PERF.DATA..." >&2; exit 2; }

for f in "$@"; do
	echo "== $f"
	echo "-- per object (self)"
	perf report -i "$f" --no-children --sort dso --stdio -g none 2>/dev/null |
		awk '$1 ~ /%$/ && $1 + 0 >= 0.5 { printf "  %7s  %s\n", $1, $2 }'
	echo "-- per system call (inclusive)"
	perf report -i "$f" --children --sort symbol --stdio -g none 2>/dev/null |
		awk '$1 ~ /%$/ && $4 ~ /^__x64_sys_/ && $1 + 0 >= 0.3 {
			printf "  %7s  %s\n", $1, substr($4, 11) }
		$1 ~ /%$/ && ($4 == "do_softirq.part.0" || $4 == "asm_exc_page_fault") {
			extra[$4] = $1 }
		END {
			if ("do_softirq.part.0" in extra)
				printf "  %7s  (of which softirq: loopback delivery)\n", extra["do_softirq.part.0"]
			if ("asm_exc_page_fault" in extra)
				printf "  %7s  page faults\n", extra["asm_exc_page_fault"]
		}'
	echo "-- busiest functions of dnstrustd and libc (self)"
	perf report -i "$f" --no-children --dsos dnstrustd,libc.so.6 \
		--sort dso,symbol --stdio -g none 2>/dev/null |
		awk '$1 ~ /%$/ && $1 + 0 >= 0.3 { printf "  %7s  %s %s\n", $1, $2, $4 }' |
		head -15
done
