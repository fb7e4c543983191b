#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dt_getaddrinfo through dnstrustd's socket against glibc's getaddrinfo
# through the lab's Unbound on loopback, both with the answer cached, in
# the same run (bench/gai_bench.c). Starts the integration lab
# (tests/lab/lab.sh) and dnstrustd; glibc runs in a private mount
# namespace whose /etc/resolv.conf names the lab's Unbound and whose
# /etc/nsswitch.conf says "hosts: files dns". Not a test: nothing here
# asserts a time. As root (the lab binds port 53).
#
# After the lookups, bench/rtt_floor prints the same round trips with no
# DNS work, pinned alike: the floor under each kind of lookup.
#
# usage: bench/gai.sh [BUILD_DIR [NAME [CALLS]]]
#        (default build, www.secure.lab., 20000 calls per function;
#        LAB_NET=127.X.Y moves the lab off 127.0.2)
#
# Each call is a round trip between two processes, so where the scheduler
# puts them matters as much as the code: on a virtual machine, waking a
# process on an idle CPU costs tens of microseconds. BENCH_CPUS=S,C pins
# the servers (dnstrustd and the lab's Unbound) to CPU S and the benchmark
# to CPU C: "0,0" measures the code, "0,1" adds a cross-CPU wake-up to
# every round trip of both sides. Unset, nothing is pinned.
set -eu
build=${1:-build}
name=${2:-www.secure.lab.}
calls=${3:-20000}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
bench=$build/bench/gai_bench
dnstrustd=$build/src/daemon/dnstrustd
[ -x "$bench" ] && [ -x "$dnstrustd" ] ||
	{ echo "gai.sh: build $bench and $dnstrustd first" >&2; exit 1; }

work=$(mktemp -d /tmp/dt-bench-gai.XXXXXX)
chmod 755 "$work"
dpid=""
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	"$top/tests/lab/lab.sh" stop "$work/lab" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT

"$top/tests/lab/lab.sh" start "$work/lab" >"$work/lab.log" 2>&1 ||
	{ tail -20 "$work/lab.log" >&2; exit 1; }
. "$work/lab/lab.env"
sock=$work/socket
cat >"$work/dnstrust.conf" <<EOF
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
log-level notice
EOF
"$dnstrustd" -c "$work/dnstrust.conf" -f 2>"$work/dnstrustd.log" &
dpid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
echo "hosts: files dns" >"$work/nsswitch.conf"
pin=""
if [ -n "${BENCH_CPUS:-}" ]; then
	for p in "$dpid" "$(cat "$LAB_DIR/run/unbound.pid")"; do
		for t in /proc/"$p"/task/*; do
			taskset -pc "${BENCH_CPUS%%,*}" "${t##*/}" >/dev/null
		done
	done
	pin="taskset -c ${BENCH_CPUS##*,}"
fi
# The lab's Unbound logs every query; a nameserver in production does not,
# and glibc's side must not pay for it.
unbound-control -c "$LAB_UNBOUND_CONF" set_option log-queries: no >/dev/null

echo "# $(date -u +%FT%TZ), $(nproc) cpus, $(uname -sr)"
echo "# dnstrustd at $sock; glibc via $(cat "$LAB_RESOLV_CONF") (Unbound)"
echo "# pinned: ${BENCH_CPUS:-no} (servers,benchmark)"
unshare -m bash -c 'mount --bind "$1" /etc/resolv.conf &&
	mount --bind "$2" /etc/nsswitch.conf && shift 2 && exec "$@"' \
	_ "$LAB_RESOLV_CONF" "$work/nsswitch.conf" $pin "$bench" "$sock" \
	"$name" "$calls"
# The same placement without DNS work at either end (bench/rtt_floor.c):
# the round trip each kind of lookup cannot go below.
if [ -x "$build/bench/rtt_floor" ]; then
	echo "# floor: the same round trips with no DNS work (bench/rtt_floor.c)"
	if [ -n "${BENCH_CPUS:-}" ]; then
		"$build/bench/rtt_floor" "${BENCH_CPUS%%,*}" "${BENCH_CPUS##*,}" "$calls"
	else
		"$build/bench/rtt_floor" -1 -1 "$calls"
	fi
fi
