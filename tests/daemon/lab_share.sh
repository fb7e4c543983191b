#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Upstream queries shared between dnstrustd's workers, in the integration
# lab: with four workers and an upstream 300 ms away (tests/load/
# faultproxy.py in front of the lab's resolver), sixteen clients asking
# the same cold name at once, from sixteen source ports (the kernel
# spreads them over the workers' UDP sockets), cost the daemon the same
# upstream queries as one client alone, and every client gets the
# validated answer.
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

upstream_queries() {
	q -c CH status.dnstrust. TXT | grep -o 'upstream-queries=[0-9]*' |
		head -1 | cut -d= -f2
}
ask() { # the AD flag and status of dig's answer for NAME
	dig @"$listen" +tries=1 +time=8 +dnssec "$1" A |
		awk '/^;; ->>HEADER/ { st = $6 } /^;; flags:/ { ad = / ad[ ;]/ }
		     END { print st, (ad ? "ad" : "noad") }'
}
name=www.sub.secure.lab.

check "dnstrustd starts (4 workers)" start_daemon
one=$(ask "$name")
u1=$(upstream_queries)
result "$([ "$one" = "NOERROR, ad" ] && echo 0 || echo 1)" \
	"one client: the validated answer ($one)"
check "one client: $u1 upstream queries" [ -n "$u1" ] && [ "$u1" -ge 4 ]
stop_daemon >/dev/null

check "dnstrustd starts again, cold (4 workers)" start_daemon
for i in $(seq 16); do
	ask "$name" >"$work/ans.$i" &
done
wait_for 150 bash -c "[ \$(cat $work/ans.* 2>/dev/null | wc -l) -ge 16 ]"
good=$(grep -c '^NOERROR, ad$' "$work"/ans.* | awk -F: '{ s += $2 } END { print s }')
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
finish
