#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The mutating-proxy run (suite load, make check-load): the integration lab, the
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
# usage: mutate.sh DNSTRUSTD DTQ LAB_SH INJECTOR MUTATE_CHECK
#                  [COUNT [SECONDS [PERCENT]]]      (TAP on stdout)
# COUNT (default 320,000 questions) gives over 100,000 upstream answers:
# the others are answered from dnstrustd's cache, or put together from
# the validated NSEC and NSEC3 records it keeps (aggressive-nsec: with
# it off, 250,000 questions gave 121,960 upstream answers; with it on,
# 95,171).
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 INJECTOR=$4 MUTATE_CHECK=$5
FULL_COUNT=320000
COUNT=${6:-$FULL_COUNT} SECONDS_MAX=${7:-1500} PERCENT=${8:-30}
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
lab_start load-mutate
inj=$LAB_NET.70
listen=$LAB_NET.100
"$INJECTOR" -l "$inj" -u "$LAB_RESOLVER" -m "$PERCENT" \
	-s "$RANDOM" -S "$work/injector.stats" 2>"$work/injector.log" &
extra_pids=$!
echo "nameserver $inj" >"$work/resolv.conf"
# resolution forward: with auto, the injector's mutations of the
# capability probe's answers (RRSIGs dropped) turn the judgement to
# "recursive" and back several times a run, and while it is recursive
# the questions go to the lab's root, not through the injector (a run of
# 250,000 questions then gave 71,596 upstream answers, against 95,171
# with forward). Forward keeps every upstream answer a possibly mutated
# one.
cat >"$conf" <<CONF
socket $sock
listen $listen@53
resolv-conf $work/resolv.conf
resolution forward
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 3
log-level warning
CONF
check "dnstrustd starts with the mutating injector as its upstream" \
	start_daemon

{
	awk '{ print $1, $2 }' "$LAB_EXPECT"
	for _ in 1 2 3 4 5 6; do
		printf '%s\n' '*.wild.secure.lab. A' '*.wild.secure.lab. TXT' \
			'*.wild.nsec3.lab. A' '*.secure.lab. A' '*.nsec3.lab. AAAA' \
			'*.ed.lab. A' '*.insecure.lab. A'
	done
} >"$work/questions"

start=$(date +%s)
out=$("$MUTATE_CHECK" -l "$listen" -r "$LAB_VALIDATOR" \
	-q "$work/questions" -n "$COUNT" -t "$SECONDS_MAX" -e 2000 \
	-f "$DTQ -s $sock -c CH flush.dnstrust. TXT >/dev/null" \
	2>"$work/wrong.log")
rc=$?
kill "$extra_pids" && wait "$extra_pids" 2>/dev/null
extra_pids=""
stats=$(cat "$work/injector.stats")
echo "# $out"
echo "# upstream $stats, $(($(date +%s) - start)) s"
upstream=$(echo "$stats" | awk '{ print $2 }')
if [ "$rc" = 0 ]; then
	ok "no wrong AD=1 answer: $out"
else
	not_ok "wrong AD=1 answers: $out" "$(grep '^WRONG' "$work/wrong.log" |
		awk '{ print $2, $4 }' | sort | uniq -c | sort -rn | head -20)
$(head -60 "$work/wrong.log")"
fi
if [ "$COUNT" -lt "$FULL_COUNT" ]; then
	echo "# a short run (COUNT $COUNT): the 100,000 upstream answers not asked for"
elif [ "${upstream:-0}" -ge 100000 ]; then
	ok "at least 100,000 upstream answers: $stats"
else
	not_ok "fewer than 100,000 upstream answers: $stats"
fi
finish
