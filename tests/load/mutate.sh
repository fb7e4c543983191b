#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The mutating-proxy run (make check-load): the integration lab, the
# injector (tests/lab/injector.c) in front of its honest Unbound mutating
# PERCENT of all upstream answers at random (flipped RCODEs, added,
# duplicated and case-changed records, CNAMEs and DNAMEs, RRSIGs dropped,
# junk in every section), dnstrustd behind it, and COUNT questions through
# dnstrustd's UDP listener (tests/load/mutate_check.c): lab names, and new
# names under wildcards and under signed zones (NXDOMAIN) so that most
# questions reach the upstream; the cache is flushed every 2000. Every
# AD=1 answer is compared with what the lab's validating Unbound (which
# never sees the injector) answers. Loopback only; bounded in count and
# in time (SECONDS).
#
# usage: LAB_NET=127.X.Y tests/load/mutate.sh BUILD [COUNT [SECONDS [PERCENT]]]
# Prints the counts; exits 1 when an AD=1 answer was wrong.
set -u

BUILD=$1 COUNT=${2:-100000} SECONDS_MAX=${3:-2400} PERCENT=${4:-30}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DNSTRUSTD=$BUILD/src/daemon/dnstrustd DTQ=$BUILD/tests/daemon/dtq
LAB_SH=$SRC/tests/lab/lab.sh
. "$SRC/tests/daemon/harness.sh"
lab_start load-mutate
inj=$LAB_NET.70
listen=$LAB_NET.100
"$BUILD/tests/lab/injector" -l "$inj" -u "$LAB_RESOLVER" -m "$PERCENT" \
	-s "$RANDOM" -S "$work/injector.stats" 2>"$work/injector.log" &
extra_pids=$!
echo "nameserver $inj" >"$work/resolv.conf"
cat >"$conf" <<CONF
socket $sock
listen $listen@53
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
threads 2
query-timeout 3
log-level warning
CONF
start_daemon || { echo "dnstrustd did not start"; exit 1; }

{
	awk '{ print $1, $2 }' "$LAB_EXPECT"
	for _ in 1 2 3 4 5 6; do
		printf '%s\n' '*.wild.secure.lab. A' '*.wild.secure.lab. TXT' \
			'*.wild.nsec3.lab. A' '*.secure.lab. A' '*.nsec3.lab. AAAA' \
			'*.ed.lab. A' '*.insecure.lab. A'
	done
} >"$work/questions"

start=$(date +%s)
"$BUILD/tests/load/mutate_check" -l "$listen" -r "$LAB_VALIDATOR" \
	-q "$work/questions" -n "$COUNT" -t "$SECONDS_MAX" -e 2000 \
	-f "$DTQ -s $sock -c CH flush.dnstrust. TXT >/dev/null" \
	2>"$work/wrong.log"
rc=$?
kill "$extra_pids" && wait "$extra_pids" 2>/dev/null
extra_pids=""
echo "upstream: $(cat "$work/injector.stats") in $(($(date +%s) - start)) s"
if [ "$rc" != 0 ]; then
	echo "wrong AD=1 answers (first 60 lines of $(grep -c '^WRONG' "$work/wrong.log")):"
	head -60 "$work/wrong.log"
	grep '^WRONG' "$work/wrong.log" | awk '{print $2, $4}' | sort | uniq -c |
		sort -rn | head -20
fi
exit "$rc"
