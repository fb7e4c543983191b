#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Questions and upstream queries shared between dnstrustd's workers, in
# the integration lab: with four workers and an upstream 300 ms away
# (tests/load/faultproxy.py in front of the lab's resolver), sixteen
# clients asking the same cold name at once, from sixteen source ports
# (the kernel spreads them over the workers' UDP sockets), cost the
# daemon the same upstream queries and the same one validation as one
# client alone, and every client gets the validated answer. Clients
# waiting for another worker's answer may also leave (their deadline)
# or be left (the daemon stops) without harm.
#
# usage: lab_share.sh DNSTRUSTD DTQ LAB_SH FAULTPROXY   (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 PROXY=$4
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
lab_start lab-share
listen=$LAB_NET.102
proxy=$LAB_NET.91
echo "delay 0.3" >"$work/proxy.mode"
python3 "$PROXY" "$proxy" "$LAB_RESOLVER" "$work/proxy.mode" \
	>"$work/proxy.log" 2>&1 &
extra_pids="$!"
wait_for 50 grep -q ready "$work/proxy.log"
printf 'nameserver %s\noptions timeout:3 attempts:1\n' "$proxy" \
	>"$work/resolv.conf"
chmod 644 "$work/resolv.conf"
cat >"$conf" <<EOF2
socket $sock
listen $listen@53
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 4
query-timeout 10
log-level info
EOF2

counter() { # KEY: its value in status.dnstrust.
	q -c CH status.dnstrust. TXT | sed -n "s/^txt=$1=\([0-9]*\).*/\1/p" |
		head -1
}
upstream_queries() { counter upstream-queries; }
ask() { # the AD flag and status of dig's answer for NAME
	dig @"$listen" +tries=1 +time=8 +dnssec "$1" A |
		awk '/^;; ->>HEADER/ { st = $6 } /^;; flags:/ { ad = / ad[ ;]/ }
		     END { print st, (ad ? "ad" : "noad") }'
}
name=www.sub.secure.lab.
ask16() { # SET: sixteen clients ask $name at once, answers in $work/SET.N
	local i
	for i in $(seq 16); do
		ask "$name" >"$work/$1.$i" &
	done
}
got() { # SET ANSWER: how many of the sixteen got ANSWER (once all have one)
	wait_for 150 bash -c "[ \$(cat $work/$1.* 2>/dev/null | wc -l) -ge 16 ]"
	grep -cx "$2" "$work/$1".* | awk -F: '{ s += $2 } END { print s }'
}

check "dnstrustd starts (4 workers)" start_daemon
one=$(ask "$name")
u1=$(upstream_queries)
echo "one client: $(counter signature-verifications) signature verifications" | diag
result "$([ "$one" = "NOERROR, ad" ] && echo 0 || echo 1)" \
	"one client: the validated answer ($one)"
check "one client: $u1 upstream queries" [ "${u1:-0}" -ge 4 ]
stop_daemon >/dev/null

check "dnstrustd starts again, cold (4 workers)" start_daemon
ask16 ans
good=$(got ans "NOERROR, ad")
u16=$(upstream_queries)
if [ "$good" != 16 ]; then
	# What the others got, and what dnstrustd logged: a diagnosis.
	grep -Hv '^NOERROR, ad$' "$work"/ans.* | sed 's/^/# answer: /'
	tail -20 "$dlog" | sed 's/^/# log: /'
fi
check "sixteen clients at once: sixteen validated answers ($good)" \
	[ "$good" = 16 ]
check "sixteen clients at once: the upstream queries of one ($u16, one: $u1)" \
	[ "$u16" = "$u1" ]
secure=$(counter secure) joined=$(counter joined)
echo "sixteen clients: $(counter signature-verifications) signature verifications" | diag
across=$(counter joined-across-workers)
check "sixteen clients at once: one validation ($secure secure)" \
	[ "$secure" = 1 ]
check "sixteen clients at once: fifteen joined the first ($joined)" \
	[ "$joined" = 15 ]
check "sixteen clients at once: some on other workers ($across)" \
	[ "${across:-0}" -ge 1 ]
stop_daemon >/dev/null

# Clients of other workers leave before the answer comes: every one
# gets its SERVFAIL at query-timeout, the question runs on and fills
# the cache.
echo "delay 2.5" >"$work/proxy.mode"
sed -i 's/^query-timeout .*/query-timeout 1/' "$conf"
check "dnstrustd starts again, cold, query-timeout 1" start_daemon
ask16 late
late=$(got late "SERVFAIL, noad")
check "deadline first: sixteen SERVFAIL at query-timeout ($late)" \
	[ "$late" = 16 ]
across=$(counter joined-across-workers)
check "deadline first: some had joined another worker's question ($across)" \
	[ "${across:-0}" -ge 1 ]
check "deadline first: the question ends without them" \
	wait_for 150 eval '[ "$(counter questions-under-way)" = 0 ]'
echo "delay 0" >"$work/proxy.mode"
again="$(ask "$name"), $(counter secure) secure"
check "deadline first: its answer was cached, validated ($again)" \
	[ "$again" = "NOERROR, ad, 1 secure" ]
stop_daemon >/dev/null

# The daemon stops while clients of other workers wait: each worker
# answers its own clients, none is answered twice, nothing leaks.
echo "delay 2.5" >"$work/proxy.mode"
sed -i 's/^query-timeout .*/query-timeout 10/' "$conf"
check "dnstrustd starts again, cold, query-timeout 10" start_daemon
ask16 stop
check "stopping: clients are waiting on other workers' question" \
	wait_for 50 eval '[ "$(counter joined)" = 15 ]'
check "stopping: dnstrustd stops cleanly" stop_daemon
stopped=$(got stop "SERVFAIL, noad")
if [ "$stopped" != 16 ]; then
	grep -Hv '^SERVFAIL, noad$' "$work"/stop.* | sed 's/^/# answer: /'
	tail -30 "$dlog" | sed 's/^/# log: /'
fi
check "stopping: sixteen SERVFAIL, none left hanging ($stopped)" \
	[ "$stopped" = 16 ]
finish
