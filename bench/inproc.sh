#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libdnstrust in-process against libunbound's ub_resolve and against the
# daemon path: cold and warm answer time and the memory a process grows
# by, with the same anchor and the same upstream. Each measurement is a
# fresh process (bench/inproc_bench.c) that asks one name A: the first
# answer (cold: nothing cached in the process, the chain of trust fetched
# and validated), the median of the next 100 (warm), and its peak
# resident set minus the one before the first call. For the daemon path a
# fresh dnstrustd is started for each measurement, so its cold answer is
# cold too; the memory is then the client's alone (the daemon's is
# shared by every process of the host). Not a test: nothing here asserts
# a figure. Run as root (the lab binds port 53).
#
#   usage: bench/inproc.sh [BUILD_DIR]       (default: build)
#
# Set-up, on LAB_NET (default 127.0.2, as the lab; another 127.X.Y to run
# beside a running lab): tests/lab/lab.sh start with LAB_DEEP=1 (h1.lab.
# exists) in a fresh directory;
# NET.80 bench/delayproxy.py in front of the lab's honest iterating
# Unbound, answering DELAY ms after each question (BENCH_DELAYS, default
# "0 20"); every path forwards to it (resolv.conf naming it), with the
# lab's root DS as its only trust anchor. Before the run each path asks
# every name once with no delay, so the upstream's cache holds everything.
# Names: h1.lab. (1 zone cut below the anchor), www.secure.lab. (2),
# www.sub.secure.lab. (3). BENCH_REPS (default 5) measurements per name,
# path and delay, the paths taking turns.
#
# Output: a Markdown table on stdout (medians over the measurements) and
# the raw lines in BENCH_OUT (default bench/results)/inproc-raw.txt.
# With BENCH_SMAPS_DIR=DIR, each in-process and libunbound measurement
# leaves its two copies of /proc/self/smaps there (bench/smaps_diff.py).
# Nothing is sent off 127.0.0.0/8.
set -eu
set -o pipefail

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in
/*) ;;
*) build=$top/$build ;;
esac
DNSTRUSTD=$build/src/daemon/dnstrustd
BENCH=$build/bench/inproc_bench
LAB_SH=$top/tests/lab/lab.sh
NET=${LAB_NET:-127.0.2}
[[ $NET =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || {
	echo "bench/inproc: LAB_NET must look like 127.X.Y" >&2
	exit 2
}
export LAB_NET=$NET
PROXY=$NET.80
REPS=${BENCH_REPS:-5}
DELAYS=${BENCH_DELAYS:-0 20}
NAMES="h1.lab. www.secure.lab. www.sub.secure.lab."
# shellcheck disable=SC2034 # read by bench/procs.sh, sourced below
KEEP=${BENCH_KEEP:-0}
out=${BENCH_OUT:-$top/bench/results}
raw=$out/inproc-raw.txt

die() {
	echo "bench/inproc: $*" >&2
	exit 1
}
say() { echo "bench/inproc: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (the lab binds port 53)"
[ -x "$DNSTRUSTD" ] || die "$DNSTRUSTD missing (make build)"
[ -x "$BENCH" ] || die "$BENCH missing (make build)"
paths="inproc daemon"
if "$BENCH" unbound /dev/null /dev/null x 2>&1 | grep -q usage; then
	say "inproc_bench was built without libunbound (libunbound-dev): no unbound column"
else
	paths="inproc unbound daemon"
fi

work=$(mktemp -d /tmp/dt-bench-inproc.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/run" "$out"
lab=$work/lab
# shellcheck source=bench/procs.sh
. "$top/bench/procs.sh"

LAB_DEEP=1 "$LAB_SH" start "$lab" >"$work/lab.log" 2>&1 ||
	die "the lab does not start: $(tail -20 "$work/lab.log")"
# shellcheck disable=SC1091
. "$lab/lab.env"
echo "nameserver $PROXY" >"$work/resolv.conf"
sock=$work/dnstrustd/socket
mkdir -p "$work/dnstrustd"
cat >"$work/dnstrust.conf" <<EOF
socket $sock
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
log-level warning
EOF
"$DNSTRUSTD" -n -c "$work/dnstrust.conf" >"$work/check.log" 2>&1 ||
	die "dnstrustd -n: $(cat "$work/check.log")"
echo 0 >"$work/delay"
: >"$work/proxy.log"
launch proxy python3 "$top/bench/delayproxy.py" "$PROXY" "$LAB_RESOLVER" \
	"$work/delay" "$work/proxy.log"
wait_listening proxy "$PROXY"

start_daemon() {
	rm -f "$sock"
	launch dnstrustd "$DNSTRUSTD" -f -c "$work/dnstrust.conf"
	for _ in $(seq 500); do
		[ -S "$sock" ] && return 0
		sleep 0.01
	done
	die "dnstrustd does not make its socket"
}

# One measurement: PATH NAME; prints the program's line.
measure() {
	case $1 in
	inproc | unbound)
		# BENCH_SMAPS_DIR: each run's smaps copies, for smaps_diff.py.
		if [ -n "${BENCH_SMAPS_DIR:-}" ]; then
			BENCH_SMAPS="$BENCH_SMAPS_DIR/$1-$2-$(date +%s%N)"
			export BENCH_SMAPS
		fi
		if [ "$1" = inproc ]; then
			"$BENCH" inproc "$work/dnstrust.conf" "$2"
		else
			"$BENCH" unbound "$work/resolv.conf" "$LAB_ANCHOR" "$2"
		fi
		;;
	daemon)
		start_daemon
		"$BENCH" daemon "$sock" "$2"
		stop dnstrustd
		;;
	esac
}

say "warming the upstream: each path asks every name once"
for p in $paths; do
	for n in $NAMES; do
		measure "$p" "$n" >/dev/null || die "$p $n: not secure"
	done
done

: >"$raw"
for d in $DELAYS; do
	echo "$d" >"$work/delay"
	for n in $NAMES; do
		for _ in $(seq "$REPS"); do
			for p in $paths; do
				line=$(measure "$p" "$n") ||
					die "$p $n: not secure ($line)"
				echo "delay=$d name=$n $line" >>"$raw"
			done
		done
	done
done

# Medians per delay, name and path.
python3 - "$raw" <<'EOF'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = dict(re.findall(r'(\w+)=(\S+)', line))
    path = line.split()[2]
    key = (int(f['delay']), f['name'], path)
    rows.setdefault(key, []).append(
        (float(f['cold_us']), float(f['warm_us']), int(f['rss_kib'])))
print('| delay | name | path | cold ms | warm µs | memory KiB |')
print('|---:|---|---|---:|---:|---:|')
for key in sorted(rows, key=lambda k: (k[0], k[1], k[2])):
    v = rows[key]
    print('| %d | %s | %s | %.1f | %.1f | %d |' % (
        key[0], key[1], key[2],
        statistics.median(x[0] for x in v) / 1000,
        statistics.median(x[1] for x in v),
        statistics.median(x[2] for x in v)))
EOF
echo "# $(date -u +%FT%TZ) source $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo ?), $REPS per cell, load $(cut -d' ' -f1-3 /proc/loadavg)"
