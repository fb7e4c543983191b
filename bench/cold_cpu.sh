#!/bin/bash
# SPDX-License-Identifier: MIT
#
# CPU per cold P-256 answer: the CPU time (user + system) dnstrustd and a
# validating Unbound spend on an answer they did not have, both forwarding
# to the lab's honest upstream, both started fresh, one thread each. Not a
# test: nothing here asserts a figure. Run as root (the lab and the
# resolvers bind port 53).
#
#   usage: bench/cold_cpu.sh [BUILD_DIR]   (default: build; make bench-cold-cpu)
#
# Set-up, on LAB_NET (default 127.0.2, as the lab; another 127.X.Y to run
# beside a running lab):
#
#     tests/lab/lab.sh start, with LAB_DEEP=1, in a fresh directory;
#     NET.80   bench/delayproxy.py with no delay: forwards to the lab's
#              honest iterating Unbound (NET.53) and logs every question,
#              to count the questions each answer cost upstream; pinned
#              to another core than the resolvers;
#     NET.81   dnstrustd (BUILD_DIR/src/daemon/dnstrustd), threads 1,
#              aggressive-nsec no, prefetch no, resolv-conf naming the
#              proxy, the lab's root DS as trust anchor;
#     NET.82   Unbound, "validator iterator", num-threads 1, prefetch no,
#              aggressive-nsec: no, forward-zone "." to the proxy, the
#              lab's root DS as trust anchor.
#
# Every zone of the lab is ECDSA P-256 (algorithm 13) but the root
# (RSASHA256 2048). The names asked for all exist (no negative answer, so
# nothing for aggressive NSEC to synthesize; it is off in both anyway).
#
# Two definitions of "cold", the same for both resolvers:
#
# (a) fully cold: the resolver is started, left alone 0.5 s (start-up),
#     its CPU read; it is asked one name (dig +adflag, must be NOERROR with
#     AD=1); 0.3 s after the answer its CPU is read again and it is
#     stopped. The figure is the difference: the whole chain from the root
#     down (DNSKEY and DS of every zone, RSA for the root's keys, P-256
#     below) plus the answer. A run without the question, timed the same
#     way, gives the idle CPU over that interval ("idle" row). Names:
#         www.secure.lab.          2 cuts below the root (lab., secure.lab.)
#         h1.d5.d4.d3.deep.lab.    5 cuts (lab., deep., d3., d4., d5.)
#
# (b) cold answers with warm keys: the resolver is started, asked one
#     warm-up name of the zone (its DNSKEY and the chain are then
#     validated and cached), its CPU read; then asked BENCH_N (default 300)
#     distinct names it has never seen, one after the other (one dig -f
#     process), then its CPU read 0.3 s after the last answer. The figure
#     is the difference divided by BENCH_N. The names are random labels
#     under a wildcard signed with P-256 (RFC 4035 5.3.4: each answer is
#     the wildcard's A RRset with its RRSIG, and the NSEC or NSEC3 records
#     proving that no closer name exists):
#         RANDOM.wild.secure.lab.  NSEC
#         RANDOM.wild.nsec3.lab.   NSEC3 (0 iterations)
#     Every answer must be NOERROR with AD=1.
#
# CPU: the sum over the process's threads of the first field of
# /proc/PID/task/TID/schedstat (time on CPU, ns); utime + stime from
# /proc/PID/stat (clock ticks of 10 ms, exited threads included) is kept
# beside it in the raw lines as a check. Both resolvers are pinned to the
# same core (BENCH_CORE, default the last one) so that a cache or
# frequency difference between cores does not split them.
#
# BENCH_REPS (default 7) repetitions, the order of the two resolvers
# alternating; the table gives the median and the range.
#
# Output: the markdown table on stdout and in bench/results/cold_cpu.md,
# the raw lines in bench/results/cold_cpu-raw.txt:
#     rep case resolver n cpu_ns ticks queries verifications
# (queries: the questions the proxy received between the two readings;
# verifications: "-" unless BENCH_COUNT_VERIFY=1.)
#
# BENCH_COUNT_VERIFY=1: both resolvers run with bench/daemon/verify_count.c
# preloaded (built here with cc), which counts their calls to OpenSSL's
# EVP_DigestVerifyFinal(), one per RRSIG verified; the table then gives
# the signature verifications per answer. The shim costs a system call
# per verification: take the CPU figures from a run without it.
#
# BENCH_CALLGRIND=1: instead, the fully cold cases once each under
# valgrind's callgrind, where the noise of a shared machine does not
# reach: the counters are zeroed once the resolver is up
# (callgrind_control -z), the name is asked, and they are dumped 0.3 s
# after the answer (-d); the table (bench/results/cold_instr.md) gives
# the instructions executed (Ir) for the question, split by where they
# ran: OpenSSL's libcrypto, libc (malloc, memcpy...), the resolver's own
# code, the rest. Only user-space instructions: system calls and cache
# misses are not in it. Needs valgrind.
#
# Environment: BENCH_REPS, BENCH_N, BENCH_CORE, BENCH_OUT, BENCH_KEEP=1,
# BENCH_COUNT_VERIFY=1, BENCH_CALLGRIND=1.
set -eu
set -o pipefail

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in
/*) DNSTRUSTD=$build/src/daemon/dnstrustd ;;
*) DNSTRUSTD=$top/$build/src/daemon/dnstrustd ;;
esac
UNBOUND=/usr/sbin/unbound
LAB_SH=$top/tests/lab/lab.sh

NET=${LAB_NET:-127.0.2}
[[ $NET =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || {
	echo "bench/cold_cpu: LAB_NET must look like 127.X.Y" >&2
	exit 2
}
export LAB_NET=$NET
PROXY=$NET.80
declare -A ADDR=([dnstrustd]=$NET.81 [unbound]=$NET.82)
RESOLVERS="dnstrustd unbound"
REPS=${BENCH_REPS:-7}
N=${BENCH_N:-300}
CORE=${BENCH_CORE:-$(($(nproc) - 1))}
KEEP=${BENCH_KEEP:-0}
COUNT_VERIFY=${BENCH_COUNT_VERIFY:-0}
CALLGRIND=${BENCH_CALLGRIND:-0}
FULL_NAMES="www.secure.lab. h1.d5.d4.d3.deep.lab."
WILD_ZONES="secure.lab. nsec3.lab."
out=${BENCH_OUT:-$top/bench/results}
raw=$out/cold_cpu-raw.txt

die() {
	echo "bench/cold_cpu: $*" >&2
	exit 1
}
say() { echo "bench/cold_cpu: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (the servers bind port 53)"
[ -x "$DNSTRUSTD" ] || die "$DNSTRUSTD missing (make build)"
[ -x "$UNBOUND" ] || die "$UNBOUND missing (scripts/deps.sh)"
for f in dig ss taskset python3 od; do
	command -v "$f" >/dev/null || die "$f missing"
done
for a in $PROXY "${ADDR[@]}"; do
	if ss -Hlnut 2>/dev/null | awk '{print $5}' | grep -qxF "$a:53"; then
		die "something already listens on $a:53"
	fi
done

work=$(mktemp -d /tmp/dt-bench-cold-cpu.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/run" "$out"
lab=$work/lab

# --- processes: started here, stopped by pid, nothing else touched ---------

# shellcheck source=bench/procs.sh
. "$top/bench/procs.sh"

# --- configurations ---------------------------------------------------------

write_configs() {
	mkdir -p "$work/dnstrustd" "$work/unbound"
	echo "nameserver $PROXY" >"$work/dnstrustd/resolv.conf"
	cat >"$work/dnstrustd/dnstrust.conf" <<-EOF
		socket $work/dnstrustd/run/socket
		listen ${ADDR[dnstrustd]}@53
		resolv-conf $work/dnstrustd/resolv.conf
		trust-anchor-file $LAB_ANCHOR
		root-hints $LAB_DIR/root.hints
		threads 1
		prefetch no
		aggressive-nsec no
		log-level warning
	EOF
	cat >"$work/unbound/unbound.conf" <<-EOF
		server:
		    interface: ${ADDR[unbound]}
		    port: 53
		    interface-automatic: no
		    so-reuseport: no
		    do-ip6: no
		    do-daemonize: no
		    num-threads: 1
		    username: ""
		    chroot: ""
		    directory: "$work/unbound"
		    pidfile: "$work/unbound/unbound.pid"
		    logfile: "$work/unbound/unbound.log"
		    use-syslog: no
		    verbosity: 0
		    access-control: 127.0.0.0/8 allow
		    do-not-query-localhost: no
		    module-config: "validator iterator"
		    trust-anchor-file: "$LAB_ANCHOR"
		    root-hints: "$LAB_DIR/root.hints"
		    prefetch: no
		    prefetch-key: no
		    aggressive-nsec: no
		remote-control:
		    control-enable: no
		forward-zone:
		    name: "."
		    forward-addr: $PROXY
	EOF
	# Under callgrind it stays root, so that valgrind can write its
	# dumps (run as the daemon's user it could not).
	[ "$CALLGRIND" = 1 ] && echo "user root" >>"$work/dnstrustd/dnstrust.conf"
	"$DNSTRUSTD" -n -c "$work/dnstrustd/dnstrust.conf" >"$work/dnstrustd.check" 2>&1 ||
		die "dnstrustd -n: $(cat "$work/dnstrustd.check")"
	unbound-checkconf "$work/unbound/unbound.conf" >"$work/unbound.check" 2>&1 ||
		die "unbound-checkconf: $(cat "$work/unbound.check")"
}

start_resolver() { # NAME
	local pre=()
	if [ "$COUNT_VERIFY" = 1 ]; then
		: >"$work/$1.verify"
		pre=(env "LD_PRELOAD=$work/verify_count.so"
			"VERIFY_COUNT_FILE=$work/$1.verify")
	fi
	local pin=(taskset -c "$CORE")
	if [ "$CALLGRIND" = 1 ]; then
		# valgrind runs the threads one at a time anyway: not pinned
		pre=(valgrind -q --tool=callgrind --compress-strings=no --compress-pos=no
			"--callgrind-out-file=$work/$1.cg")
		pin=()
	fi
	case $1 in
	dnstrustd)
		launch dnstrustd "${pre[@]}" "${pin[@]}" "$DNSTRUSTD" -f \
			-c "$work/dnstrustd/dnstrust.conf" ;;
	unbound)
		launch unbound "${pre[@]}" "${pin[@]}" "$UNBOUND" -d \
			-c "$work/unbound/unbound.conf" ;;
	esac
	wait_listening "$1" "${ADDR[$1]}"
}

# --- measuring --------------------------------------------------------------

# cpu NAME: "NS TICKS VERIFY" of the process: time on CPU summed over its
# threads (schedstat, ns), utime + stime (/proc/PID/stat, clock ticks),
# the verifications counted so far (0 without BENCH_COUNT_VERIFY=1).
cpu() {
	local pid ns=0 t v c=0
	pid=$(cat "$work/run/$1.pid")
	if [ "$COUNT_VERIFY" = 1 ]; then
		read -r c <"$work/$1.verify" || c=0
	fi
	for t in /proc/"$pid"/task/*/schedstat; do
		read -r v _ <"$t" 2>/dev/null || continue
		ns=$((ns + v))
	done
	echo "$ns $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat") ${c:-0}"
}

# ask_file ADDR FILE: asks every name of FILE (one "NAME A" a line) in
# turn; prints how many answers were NOERROR with AD=1.
ask_file() {
	dig +tries=1 +time=10 +adflag +noall +comments @"$1" -f "$2" 2>&1 |
		awk '/status: / { st = ($0 ~ /status: NOERROR,/) }
		/^;; flags:/ { if (st && $0 ~ /^;; flags:[a-z ]* ad[ ;]/) n++ }
		END { print n + 0 }'
}

# random_names ZONE COUNT FILE: COUNT distinct RANDOM.wild.ZONE A lines.
random_names() {
	od -An -N$(($2 * 8)) -tx8 /dev/urandom | tr -s ' ' '\n' | sed '/^$/d' |
		sort -u | head -n "$2" | sed "s/\$/.wild.$1 A/" >"$3"
	[ "$(wc -l <"$3")" = "$2" ] || die "random_names: fewer than $2 names"
}

lines() { wc -l <"$work/proxy.log"; }

line() { # REP CASE RESOLVER N "NS0 T0 V0 L0" "NS1 T1 V1 L1"
	local n0 t0 v0 l0 n1 t1 v1 l1 v=-
	read -r n0 t0 v0 l0 <<<"$5"
	read -r n1 t1 v1 l1 <<<"$6"
	[ "$COUNT_VERIFY" = 1 ] && v=$((v1 - v0))
	echo "$1 $2 $3 $4 $((n1 - n0)) $((t1 - t0)) $((l1 - l0)) $v" | tee -a "$raw"
}

# full REP RESOLVER NAME|-: case (a); "-" asks nothing (idle).
full() {
	local c0 c1 k
	start_resolver "$2"
	sleep 0.5
	c0="$(cpu "$2") $(lines)"
	if [ "$3" != - ]; then
		echo "$3 A" >"$work/one"
		k=$(ask_file "${ADDR[$2]}" "$work/one")
		[ "$k" = 1 ] || die "$2: $3 A is not NOERROR with AD=1"
	fi
	sleep 0.3
	c1="$(cpu "$2") $(lines)"
	stop "$2"
	line "$1" "full:${3}" "$2" 1 "$c0" "$c1"
}

# instr RESOLVER NAME|-: case (a) under callgrind ("-": no question, the
# idle row); prints "RESOLVER NAME
# TOTAL LIBCRYPTO LIBC OWN OTHER" (instructions) from the dump.
instr() {
	local pid k
	rm -f "$work/$1.cg"*
	start_resolver "$1"
	sleep 2
	pid=$(cat "$work/run/$1.pid")
	callgrind_control -z "$pid" >/dev/null 2>&1
	if [ "$2" != - ]; then
		echo "$2 A" >"$work/one"
		k=$(ask_file "${ADDR[$1]}" "$work/one")
		[ "$k" = 1 ] || die "$1: $2 A is not NOERROR with AD=1"
	fi
	sleep 0.3
	callgrind_control -d "$pid" >/dev/null 2>&1
	stop "$1"
	# The dump made by -d is part 1 (the one written at exit, which has
	# the shutdown too, is not read). Each cost line is an instruction
	# count of the function and object named above it, but the line
	# after a calls= line, which is the callee's (inclusive) cost.
	[ -s "$work/$1.cg.1" ] || die "$1: no callgrind dump"
	awk -v r="$1" -v n="$2" '
		/^ob=/ { ob = substr($0, 4); next }
		/^calls=/ { call = 1; next }
		/^totals: / { tot = $2 }
		/^[0-9]/ {
			if (call) { call = 0; next }
			if (ob ~ /libcrypto/) c += $2
			else if (ob ~ /\/libc\.so/) l += $2
			else if (ob ~ /(dnstrustd|unbound)$/) o += $2
			else x += $2
			t += $2
		}
		END {
			if (t != tot) { print r ": parsed " t " of " tot > "/dev/stderr"; exit 1 }
			print r, n, t, c, l, o, x
		}' "$work/$1.cg.1" || die "$1: cannot read the callgrind dump"
}

# warm REP RESOLVER ZONE: case (b).
warm() {
	local c0 c1 k
	start_resolver "$2"
	echo "warmup.wild.$3 A" >"$work/one"
	k=$(ask_file "${ADDR[$2]}" "$work/one")
	[ "$k" = 1 ] || die "$2: warmup.wild.$3 A is not NOERROR with AD=1"
	random_names "$3" "$N" "$work/names"
	sleep 0.3
	c0="$(cpu "$2") $(lines)"
	k=$(ask_file "${ADDR[$2]}" "$work/names")
	[ "$k" = "$N" ] || die "$2: $k of $N names under wild.$3 secure"
	sleep 0.3
	c1="$(cpu "$2") $(lines)"
	stop "$2"
	line "$1" "warm:$3" "$2" "$N" "$c0" "$c1"
}

# --- the run ------------------------------------------------------------------

say "work directory $work; starting the lab on $NET (LAB_DEEP=1)"
LAB_DEEP=1 "$LAB_SH" start "$lab" >"$work/lab.log" 2>&1 ||
	die "the lab does not start: $(tail -20 "$work/lab.log")"
# shellcheck disable=SC1091
. "$lab/lab.env"
write_configs
if [ "$COUNT_VERIFY" = 1 ]; then
	cc -O2 -shared -fPIC -o "$work/verify_count.so" \
		"$top/bench/daemon/verify_count.c" -ldl ||
		die "cannot build bench/daemon/verify_count.c"
fi
: >"$work/proxy.log"
other=$(((CORE + 1) % $(nproc)))
launch proxy taskset -c "$other" python3 "$top/bench/delayproxy.py" "$PROXY" \
	"$LAB_RESOLVER" "$work/delay" "$work/proxy.log"
wait_listening proxy "$PROXY"

# The honest upstream resolves every full-case name once, so that its
# iteration is not on the resolvers' clock (it is not on their CPU anyway).
for name in $FULL_NAMES; do
	dig +tries=1 +time=10 @"$LAB_RESOLVER" "$name" A >/dev/null ||
		die "the lab's resolver does not answer $name"
done

if [ "$CALLGRIND" = 1 ]; then
	command -v callgrind_control >/dev/null || die "valgrind missing"
	{
		echo "Command: \`BENCH_CALLGRIND=1 bench/cold_cpu.sh $build\`, $(date -u +%Y-%m-%dT%H:%M:%SZ), source $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$top" diff --quiet HEAD -- src 2>/dev/null || echo ' (src modified)'), $($UNBOUND -V | head -1)"
		echo
		echo "| name | resolver | instructions | libcrypto | libc | its own code | other libraries |"
		echo "|---|---|---:|---:|---:|---:|---:|"
		for name in - $FULL_NAMES; do
			for r in $RESOLVERS; do
				instr "$r" "$name"
			done
		done | sed 's/ - / idle /' | awk '{ printf "| %s | %s | %.2f M | %.2f M | %.2f M | %.2f M | %.2f M |\n", $2, $1, $3 / 1e6, $4 / 1e6, $5 / 1e6, $6 / 1e6, $7 / 1e6 }'
	} | tee "$out/cold_instr.md"
	exit 0
fi

{
	echo "# bench/cold_cpu.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r) $(nproc) cores, resolvers on core $CORE, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //')"
	echo "# source $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$top" diff --quiet HEAD -- src 2>/dev/null || echo ' (src modified)'), $($UNBOUND -V | head -1)"
	echo "# dnstrustd: $DNSTRUSTD; N $N$([ "$COUNT_VERIFY" = 1 ] && echo "; verifications counted (bench/daemon/verify_count.c preloaded)")"
	echo "# rep case resolver n cpu_ns ticks queries verifications"
} >"$raw"

for rep in $(seq "$REPS"); do
	say "repetition $rep of $REPS (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	order=$RESOLVERS
	[ $((rep % 2)) = 0 ] && order=$(echo "$RESOLVERS" | awk '{ print $2, $1 }')
	for r in $order; do
		full "$rep" "$r" - >/dev/null
		for name in $FULL_NAMES; do
			full "$rep" "$r" "$name" >/dev/null
		done
		for z in $WILD_ZONES; do
			warm "$rep" "$r" "$z" >/dev/null
		done
	done
	echo "# load after repetition $rep: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$raw"
done

cmd="bench/cold_cpu.sh $build"
for v in LAB_NET BENCH_REPS BENCH_N BENCH_CORE BENCH_COUNT_VERIFY; do
	[ -n "${!v:-}" ] && cmd="$v=\"${!v}\" $cmd"
done
python3 - "$raw" "$cmd" <<'EOF' | tee "$out/cold_cpu.md"
import statistics, sys
raw, cmd = sys.argv[1], sys.argv[2]
data, head = {}, []
for l in open(raw):
    if l.startswith("#"):
        head.append(l[2:].strip())
        continue
    rep, case, r, n, ns, ticks, q, v = l.split()
    data.setdefault((case, r), []).append((int(ns) / int(n) / 1000,
                                           int(ticks) * 10000 / int(n),
                                           int(q) / int(n),
                                           None if v == "-" else int(v) / int(n)))
counted = any(x[3] is not None for xs in data.values() for x in xs)
cases = []
for case, _ in data:
    if case not in cases:
        cases.append(case)
def fmt(v):
    return f"{statistics.median(v):.0f} ({min(v):.0f}–{max(v):.0f})"
print(f"Command: `{cmd}`  ")
for h in head:
    if not h.startswith("rep "):
        print(f"{h}  ")
print()
extra = " verifications/answer, dnstrustd / Unbound |" if counted else ""
print("| case | dnstrustd µs/answer | Unbound µs/answer | dnstrustd ÷ Unbound | upstream questions/answer, dnstrustd / Unbound | check: ticks, dnstrustd / Unbound µs |" + extra)
print("|---|---|---|---|---|---|" + ("---|" if counted else ""))
for case in cases:
    d = [x[0] for x in data.get((case, "dnstrustd"), [])]
    u = [x[0] for x in data.get((case, "unbound"), [])]
    dt = [x[1] for x in data.get((case, "dnstrustd"), [])]
    ut = [x[1] for x in data.get((case, "unbound"), [])]
    dq = [x[2] for x in data.get((case, "dnstrustd"), [])]
    uq = [x[2] for x in data.get((case, "unbound"), [])]
    label = "idle (no question)" if case == "full:-" else case
    ratio = (f"{statistics.median(d) / statistics.median(u):.2f}"
             if case != "full:-" and statistics.median(u) > 0 else "")
    if counted:
        dv = [x[3] for x in data.get((case, "dnstrustd"), [])]
        uv = [x[3] for x in data.get((case, "unbound"), [])]
        extra = f" {statistics.median(dv):.2f} / {statistics.median(uv):.2f} |"
    print(f"| {label} | {fmt(d)} | {fmt(u)} | {ratio} | "
          f"{statistics.median(dq):.2f} / {statistics.median(uq):.2f} | "
          f"{statistics.median(dt):.0f} / {statistics.median(ut):.0f} |" + extra)
EOF
