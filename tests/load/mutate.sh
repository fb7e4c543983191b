#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The mutating-proxy run (suite load, make check-load): the integration
# lab, the injector (tests/lab/injector.c) in front of its honest Unbound
# changing PERCENT of all upstream answers at random (37 kinds of change,
# listed in its header: flipped RCODEs, forged and altered records,
# another zone's SOA/NSEC/NSEC3, denials replayed from other names and
# zones, wildcard NSECs re-owned, DNAME answers without or with another
# CNAME, chains ending in a made-up denial, RRSIGs stripped from opt-out
# NSEC3 ...), and two validators of the same configuration side by side:
# the mutated path, whose only upstream is the injector, and the honest
# path, which asks the honest Unbound itself. COUNT questions (lab names,
# and new names under wildcards and signed zones so that most questions
# reach the upstream; both caches flushed every 2000) go to both, and
# tests/load/mutate_check.c compares every pair of answers: wrong AD=1,
# downgrades (honest secure, mutated neither secure nor SERVFAIL), bogus
# served as insecure, SERVFAIL where the honest path answered.
#
# MUTATE_TARGET (environment) chooses the validators:
#   dnstrust  dnstrustd behind the injector, a second dnstrustd (the same
#             configuration, upstream the honest Unbound) as the honest
#             path; the first three counts must be 0
#   unbound   an Unbound of the lab's validating configuration forwarding
#             to the injector, the lab's validating Unbound as the honest
#             path; the counts are reported, not asserted (the reference)
#   both      (default) dnstrust, then unbound, each with a new injector
#             of the same seed
# Loopback only; bounded in count and in time (SECONDS, per target).
#
# usage: mutate.sh DNSTRUSTD DTQ LAB_SH INJECTOR MUTATE_CHECK
#                  [COUNT [SECONDS [PERCENT]]]      (TAP on stdout)
# COUNT (default 320,000 questions) gives over 100,000 upstream answers:
# the others are answered from the validator's cache, or put together
# from the validated NSEC and NSEC3 records it keeps (aggressive-nsec).
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 INJECTOR=$4 MUTATE_CHECK=$5
FULL_COUNT=320000
COUNT=${6:-$FULL_COUNT} SECONDS_MAX=${7:-1500} PERCENT=${8:-30}
TARGET=${MUTATE_TARGET:-both}
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
case $TARGET in
dnstrust | unbound | both) ;;
*) skip_all "MUTATE_TARGET must be dnstrust, unbound or both" ;;
esac
lab_start load-mutate
inj=$LAB_NET.70
ubaddr=$LAB_NET.71
listen=$LAB_NET.100
hlisten=$LAB_NET.101
seed=$RANDOM
echo "# injector seed $seed, $PERCENT% of answers changed"

{
	awk '{ print $1, $2 }' "$LAB_EXPECT"
	printf '%s\n' 'secure.lab. DS' 'nsec3.lab. DS' 'optout.lab. DS' \
		'sub.secure.lab. DS' 'insecure.lab. DS' 'ed.lab. DS' \
		'unsigned.optout.lab. DS' 'www.dname.secure.lab. A' \
		'www.dname.secure.lab. AAAA' 'nonexistent.dname.secure.lab. A' \
		'chain.secure.lab. AAAA' 'cname.secure.lab. MX'
	for _ in 1 2 3 4 5 6; do
		printf '%s\n' '*.wild.secure.lab. A' '*.wild.secure.lab. TXT' \
			'*.wild.secure.lab. MX' '*.wild.nsec3.lab. A' \
			'*.wild.nsec3.lab. MX' '*.secure.lab. A' \
			'*.nsec3.lab. AAAA' '*.optout.lab. A' '*.sub.secure.lab. A' \
			'*.ed.lab. A' '*.insecure.lab. A' '*.dname.secure.lab. A'
	done
} >"$work/questions"

# start_injector NAME: a new injector on $inj, its stats and log named
# after NAME.
start_injector() {
	"$INJECTOR" -l "$inj" -u "$LAB_RESOLVER" -m "$PERCENT" -s "$seed" \
		-S "$work/$1.stats" -L "$work/$1.kinds" 2>"$work/$1.injector.log" &
	inj_pid=$!
	extra_pids="$extra_pids $inj_pid"
}

stop_injector() {
	kill "$inj_pid" && wait "$inj_pid" 2>/dev/null
}

# write_conf FILE SOCKET LISTEN RESOLV_CONF
write_conf() {
	cat >"$1" <<CONF
socket $2
listen $3@53
resolv-conf $4
resolution forward
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 3
log-level warning
CONF
}

# measure NAME MUTATED HONEST FLUSH: mutate_check over both paths; the
# counts in $out, its status in $rc, the upstream answers in $upstream.
measure() {
	local start
	start=$(date +%s)
	out=$("$MUTATE_CHECK" -l "$2" -r "$3" -q "$work/questions" \
		-n "$COUNT" -t "$SECONDS_MAX" -e 2000 -f "$4" \
		2>"$work/$1.cases")
	rc=$?
	stop_injector
	stats=$(head -1 "$work/$1.stats")
	upstream=$(echo "$stats" | awk '{ print $2 }')
	echo "# $1: $out"
	echo "# $1: upstream $stats, $(($(date +%s) - start)) s"
	echo "# $1: the kinds of change applied:"
	sed -n 's/^kind //p' "$work/$1.stats" | tr '\n' ' ' | fold -s -w 76 |
		sed 's/^/#   /'
	echo
}

# cases NAME: the first cases of each sort, for the diagnostics.
cases() {
	grep -E '^(WRONG|DOWNGRADE|BOGUS-INSECURE|SERVFAIL) ' "$work/$1.cases" |
		awk '{ print $1, $2, $3 }' | sed 's/^\([A-Z-]*\) m[0-9a-f]*\./\1 *./' |
		sort | uniq -c | sort -rn | head -20
	grep -v '^SERVFAIL ' "$work/$1.cases" | head -60
}

upstream_check() {
	if [ "$COUNT" -lt "$FULL_COUNT" ]; then
		echo "# a short run (COUNT $COUNT): the 100,000 upstream answers not asked for"
	elif [ "${upstream:-0}" -ge 100000 ]; then
		ok "$1: at least 100,000 upstream answers: $stats"
	else
		not_ok "$1: fewer than 100,000 upstream answers: $stats"
	fi
}

run_dnstrust() {
	local hsock=$work/honest/socket hconf=$work/honest.conf hpid
	echo "nameserver $inj" >"$work/resolv.conf"
	echo "nameserver $LAB_RESOLVER" >"$work/honest.resolv.conf"
	write_conf "$conf" "$sock" "$listen" "$work/resolv.conf"
	write_conf "$hconf" "$hsock" "$hlisten" "$work/honest.resolv.conf"
	start_injector dnstrust
	check "dnstrustd starts with the mutating injector as its upstream" \
		start_daemon || return
	mkdir -p "$work/honest"
	"$DNSTRUSTD" -c "$hconf" -f 2>>"$work/honest.log" &
	hpid=$!
	extra_pids="$extra_pids $hpid"
	check "a second dnstrustd starts with the honest Unbound as its upstream" \
		wait_socket "$hsock" || return
	measure dnstrust "$listen" "$hlisten" \
		"$DTQ -s $sock -c CH flush.dnstrust. TXT >/dev/null && $DTQ -s $hsock -c CH flush.dnstrust. TXT >/dev/null"
	if [ "$rc" = 0 ]; then
		ok "dnstrust: no wrong AD=1, downgrade or bogus served as insecure: $out"
	else
		not_ok "dnstrust: wrong AD=1, downgrade or bogus served as insecure: $out" \
			"$(cases dnstrust)"
	fi
	upstream_check dnstrust
	stop_daemon
	kill "$hpid" && wait "$hpid" 2>/dev/null
}

run_unbound() {
	local ub=$work/ub c
	mkdir -p "$ub"
	# The lab's validating Unbound, copied, forwarding to the injector.
	sed -e "s|^\( *\)interface: .*|\1interface: $ubaddr|" \
		-e "s|$(dirname "$LAB_VALIDATOR_CONF")|$ub|g" \
		"$LAB_VALIDATOR_CONF" >"$ub/unbound.conf"
	printf 'forward-zone:\n    name: "."\n    forward-addr: %s\n' "$inj" \
		>>"$ub/unbound.conf"
	start_injector unbound
	/usr/sbin/unbound -d -c "$ub/unbound.conf" 2>"$ub/stderr" &
	extra_pids="$extra_pids $!"
	ub_up() { dig @"$ubaddr" +tries=1 +time=1 lab. SOA >/dev/null 2>&1; }
	check "a validating Unbound starts with the mutating injector as its upstream" \
		wait_for 50 ub_up || return
	c="unbound-control -c"
	measure unbound "$ubaddr" "$LAB_VALIDATOR" \
		"for f in $ub/unbound.conf $LAB_VALIDATOR_CONF; do $c \$f flush_zone . && $c \$f flush_bogus && $c \$f flush_negative && $c \$f flush_infra all; done >/dev/null 2>&1"
	# Unbound is the reference: its counts are reported, not asserted.
	if [ -n "$out" ]; then
		ok "unbound: measured: $out"
	else
		not_ok "unbound: no measurement" "$(tail -20 "$work/unbound.cases")"
	fi
	upstream_check unbound
}

case $TARGET in
dnstrust) run_dnstrust ;;
unbound) run_unbound ;;
both)
	run_dnstrust
	run_unbound
	;;
esac
if [ -n "${MUTATE_KEEP:-}" ]; then
	mkdir -p "$MUTATE_KEEP" && cp "$work"/*.stats "$work"/*.kinds \
		"$work"/*.cases "$work"/*.log "$MUTATE_KEEP"/ 2>/dev/null
fi
finish
