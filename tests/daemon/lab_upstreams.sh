#!/bin/bash
# SPDX-License-Identifier: MIT
#
# What dnstrustd learns of its resolv.conf servers, in the integration
# lab, with tests/load/faultproxy.py in front of the lab's honest
# resolver: an honest upstream is "dnssec=yes"; one that strips DNSSEC
# records is "no" with its reason, the auto judgement turns recursive
# (resolution auto with it: names validate from the lab's root), the log
# says so and dnstrust audit reports it with its fix; one that
# answers FORMERR to EDNS costs one FORMERR, not one per question;
# resolv.conf switched from a dead server to a good one (a question
# under way moves to it), and a network that failed everything coming
# back: names resolve within a second; with resolution recursive the
# resolv.conf server is not probed at all.
#
# usage: lab_upstreams.sh DNSTRUSTD DTQ LAB_SH FAULTPROXY DNSTRUST
#        (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 PROXY=$4 DNSTRUST=$5
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
lab_start lab-upstreams
listen=$LAB_NET.103
good=$LAB_NET.93
dead=$LAB_NET.94
echo pass >"$work/good.mode"
echo blackhole >"$work/dead.mode"
python3 "$PROXY" "$good" "$LAB_RESOLVER" "$work/good.mode" \
	>"$work/good.log" 2>&1 &
extra_pids="$!"
python3 "$PROXY" "$dead" "$LAB_RESOLVER" "$work/dead.mode" \
	>"$work/dead.log" 2>&1 &
extra_pids="$extra_pids $!"
wait_for 50 grep -q ready "$work/good.log"
wait_for 50 grep -q ready "$work/dead.log"
resolv() { # resolv ADDR [TIMEOUT]
	printf 'nameserver %s\noptions timeout:%s attempts:1\n' "$1" \
		"${2:-1}" >"$work/resolv.new"
	chmod 644 "$work/resolv.new"
	mv "$work/resolv.new" "$work/resolv.conf"
}
resolv "$good"
# The lab's root hints: recursion (resolution auto, when no upstream can
# do DNSSEC) never reaches the public root servers.
cat >"$conf" <<EOF2
socket $sock
listen $listen@53
resolv-conf $work/resolv.conf
root-hints $LAB_DIR/root.hints
trust-anchor-file $LAB_ANCHOR
threads 2
query-timeout 10
log-level info
EOF2

status() { q -c CH status.dnstrust. TXT; }
capab_line() { status | grep -o "upstream-dnssec=$1 .*" | head -1; }
note() { echo "$*" | diag; }
has_capab() { capab_line "$1" | grep -qF -- "$2"; }
judgement_is() { status | grep -qx "txt=upstream-judgement=$1"; }
resolution_is() { status | grep -qx "txt=resolution=$1"; }
ask() { # the RCODE and AD flag of dig's answer for NAME
	dig @"$listen" +tries=1 +time="${2:-8}" +dnssec "$1" A |
		awk '/^;; ->>HEADER/ { st = $6 } /^;; flags:/ { ad = / ad[ ;]/ }
		     END { print st, (ad ? "ad" : "noad") }'
}
now_ms() { date +%s%3N; }
# resolves NAME: within TRIES tenths of a second dig says NOERROR, ad
resolves_within() {
	local name=$1 tries=$2 i=0
	while [ "$i" -lt "$tries" ]; do
		[ "$(ask "$name" 1)" = "NOERROR, ad" ] && return 0
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}

# --- an honest upstream ---
check "dnstrustd starts (upstream: an honest resolver)" start_daemon
check "the probe finds it can do DNSSEC" \
	wait_for 50 has_capab "$good" "dnssec=yes"
note "$(capab_line "$good")"
check "  its reason: RRSIG with DO=1" \
	has_capab "$good" "reason=returns RRSIG with DO=1"
check "  EDNS, a DS answer and a large answer seen" \
	has_capab "$good" "edns=yes rrsig=yes ds=yes"
check "  the judgement: forward" \
	judgement_is forward
ans=$(ask www.secure.lab.)
result "$([ "$ans" = "NOERROR, ad" ] && echo 0 || echo 1)" \
	"a signed name validates through it ($ans)"
json=$("$DNSTRUST" status --json --socket "$sock")
check "status --json: the upstream's verdict and reason" \
	python3 -c 'import json, sys
u = json.loads(sys.argv[1])["upstreams"]
assert u[0]["address"] == sys.argv[2], u
assert u[0]["dnssec"] == "yes", u
assert u[0]["reason"] == "returns RRSIG with DO=1", u' "$json" "$good"
check "dnstrustd stops cleanly" stop_daemon

# --- an upstream that strips DNSSEC records ---
echo strip >"$work/good.mode"
: >"$dlog"
check "dnstrustd starts (upstream: strips DNSSEC)" start_daemon
check "the probe finds it cannot do DNSSEC" \
	wait_for 50 has_capab "$good" "dnssec=no"
note "$(capab_line "$good")"
check "  reason: strips RRSIG with DO=1" \
	has_capab "$good" "reason=strips RRSIG with DO=1"
check "  the judgement: recursive" \
	judgement_is recursive
check "  the log says so, with the reason" \
	wait_log "upstream $good: dnssec no (strips RRSIG with DO=1)"
check "  and the judgement, with the reason" \
	wait_log "upstream judgement: recursive: no upstream can do DNSSEC ($good strips RRSIG with DO=1)"
check "  resolution auto follows it: recursive" resolution_is recursive
ans=$(ask www.sub.secure.lab.)
result "$([ "$ans" = "NOERROR, ad" ] && echo 0 || echo 1)" \
	"  a signed name validates, from the lab's root ($ans)"
"$DNSTRUST" audit --config "$conf" --socket "$sock" >"$work/audit.txt" 2>&1
note "$(grep -A2 'cannot do DNSSEC' "$work/audit.txt" | head -4)"
check "dnstrust audit reports the stripping upstream" \
	grep -q "upstream $good cannot do DNSSEC (strips RRSIG with DO=1)" \
	"$work/audit.txt"
check "  with its fix" \
	grep -q "ask the network for a DNSSEC-capable resolver, or set resolution recursive" \
	"$work/audit.txt"
echo pass >"$work/good.mode"
check "it returns RRSIGs again: yes again within the probe's back-off" \
	wait_for 80 has_capab "$good" "dnssec=yes"
check "  the judgement: forward again, logged" \
	wait_log "upstream judgement: forward: an upstream can do DNSSEC"
check "  resolution auto follows it: forward" resolution_is forward
check "dnstrustd stops cleanly" stop_daemon

# --- an upstream that answers FORMERR to EDNS ---
echo formerr-edns >"$work/good.mode"
check "dnstrustd starts (upstream: FORMERR to EDNS)" start_daemon
check "it is found out: FORMERR to EDNS" \
	wait_for 50 has_capab "$good" "reason=FORMERR to EDNS"
note "$(capab_line "$good")"
check "  it is asked without EDNS" has_capab "$good" "asked=no-edns"
before=$(grep -c formerr "$work/good.log")
for i in 1 2 3 4 5 6 7 8; do
	dig @"$listen" +tries=1 +time=5 "n$i.secure.lab." A >/dev/null
done
after=$(grep -c formerr "$work/good.log")
note "FORMERRs: $before before eight questions, $after after"
check "eight questions cost no FORMERR (a probe at most one)" \
	[ $((after - before)) -le 1 ]
check "dnstrustd stops cleanly" stop_daemon

# --- the other ways a resolver fails a validator ---
for case in "ad-strip:sets AD without RRSIG" "servfail-ds:SERVFAIL to DS" \
	"tc-notcp:truncates at 512 and refuses TCP"; do
	mode=${case%%:*} why=${case#*:}
	echo "$mode" >"$work/good.mode"
	check "dnstrustd starts (upstream: $mode)" start_daemon
	check "upstream $mode: dnssec=no, $why" \
		wait_for 50 has_capab "$good" "dnssec=no"
	note "$(capab_line "$good")"
	check "  reason: $why" has_capab "$good" "reason=$why"
	check "dnstrustd stops cleanly" stop_daemon
done

# --- roaming: from a dead server to a good one ---
echo pass >"$work/good.mode"
resolv "$dead" 5
check "dnstrustd starts (upstream: does not answer)" start_daemon
check "the probe finds the server unreachable" \
	wait_for 50 has_capab "$dead" "reason=unreachable"
check "  a server that does not answer is unknown, never no" \
	has_capab "$dead" "dnssec=unknown"
check "  the judgement stays forward" \
	judgement_is forward
ans=$(ask www.secure.lab. 9)
check "a question through it fails ($ans)" [ "$ans" = "SERVFAIL, noad" ]
ask www.sub.secure.lab. 9 >"$work/inflight" &
inflight=$!
sleep 0.5
t0=$(now_ms)
resolv "$good"
check "resolv.conf switched to a good server: the failed name resolves within 1 s" \
	resolves_within www.secure.lab. 10
t1=$(now_ms)
note "resolved $((t1 - t0)) ms after the switch"
wait "$inflight"
t2=$(now_ms)
note "the question under way answered $((t2 - t0)) ms after the switch: $(cat "$work/inflight")"
check "a question under way moved to the new server (answered in $((t2 - t0)) ms, not 5 s)" \
	test "$(cat "$work/inflight")" = "NOERROR, ad" -a $((t2 - t0)) -lt 2500
check "dnstrustd stops cleanly" stop_daemon

# --- a network that failed everything comes back ---
echo blackhole >"$work/good.mode"
resolv "$good"
: >"$dlog"
check "dnstrustd starts (its only upstream silent)" start_daemon
ans=$(ask www.nsec3.lab. 9)
check "a question fails while the network is down ($ans)" \
	[ "$ans" = "SERVFAIL, noad" ]
check "the server is unreachable" \
	wait_for 50 has_capab "$good" "reason=unreachable"
t0=$(now_ms)
echo pass >"$work/good.mode"
check "the network is back: the failed name resolves within 2 s" \
	resolves_within www.nsec3.lab. 20
t1=$(now_ms)
note "resolved $((t1 - t0)) ms after the network came back"
check "  the log says the failures were dropped" \
	wait_log "upstreams answer again"
check "dnstrustd stops cleanly" stop_daemon

# --- resolution recursive: the resolv.conf server is never probed ---
# Recursing, dnstrustd asks the lab's NSD and Knot, never the lab's
# iterating Unbound behind the proxy: any question Unbound logs from now
# on is a probe of the resolv.conf server.
echo pass >"$work/good.mode"
resolv "$good"
printf 'resolution recursive\n' >>"$conf"
: >"$dlog"
unbound_asked() { grep -c ' IN$' "$LAB_UNBOUND_LOG" || :; }
judgement_not_used() {
	status | grep -q '^txt=upstream-judgement=not-used (resolution recursive'
}
before=$(unbound_asked)
check "dnstrustd starts (resolution recursive)" start_daemon
ans=$(ask www.secure.lab. 9)
check "a signed name validates from the root ($ans)" \
	[ "$ans" = "NOERROR, ad" ]
sleep 3
after=$(unbound_asked)
check "the resolv.conf server was not probed ($((after - before)) questions reached it in 3 s)" \
	[ "$after" = "$before" ]
check "status: upstream-judgement=not-used (resolution recursive)" \
	judgement_not_used
check "dnstrustd stops cleanly" stop_daemon
finish
