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
# usage: bench/gai.sh [BUILD_DIR [NAME [CALLS]]]
#        (default build, www.secure.lab., 20000 calls per function;
#        LAB_NET=127.X.Y moves the lab off 127.0.2)
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
log-level notice
EOF
"$dnstrustd" -c "$work/dnstrust.conf" -f 2>"$work/dnstrustd.log" &
dpid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
echo "hosts: files dns" >"$work/nsswitch.conf"
# The lab's Unbound logs every query; a nameserver in production does not,
# and glibc's side must not pay for it.
unbound-control -c "$LAB_UNBOUND_CONF" set_option log-queries: no >/dev/null

echo "# $(date -u +%FT%TZ), $(nproc) cpus, $(uname -sr)"
echo "# dnstrustd at $sock; glibc via $(cat "$LAB_RESOLV_CONF") (Unbound)"
unshare -m bash -c 'mount --bind "$1" /etc/resolv.conf &&
	mount --bind "$2" /etc/nsswitch.conf && exec "$3" "$4" "$5" "$6"' \
	_ "$LAB_RESOLV_CONF" "$work/nsswitch.conf" "$bench" "$sock" "$name" \
	"$calls"
