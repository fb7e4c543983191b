#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd's loopback UDP listener against a validating Unbound and a
# validating Knot Resolver (kresd), all three validating the same signed
# data from the same private root, one thread each, pinned to the same
# core, in the same run, interleaved. Not a test: nothing here asserts a
# figure. Run as root (the servers bind port 53 on 127.0.9.0/24).
#
#   usage: bench/daemon.sh [BUILD_DIR]          (default: build-perf)
#
# BUILD_DIR (relative to the top of the tree, or absolute) holds the
# dnstrustd to measure: meson setup build-perf --buildtype=release.
#
# What it builds (in a fresh directory under /dev/shm, or /tmp):
#
#     .             RSASHA256 KSK 2048 + ZSK 2048, NSEC: the trust anchor
#     bench.        ECDSAP256SHA256 KSK + ZSK, NSEC
#     p256.bench.   ECDSAP256SHA256 KSK + ZSK, NSEC, names h0..h9999 (A)
#     rsa.bench.    RSASHA256 KSK 2048 + ZSK 2048, NSEC, h0..h9999 (A)
#
# all served by one NSD (minimal responses) whose name, ns., is in the
# root zone (a name below bench. would make kresd resolve bench. to reach
# the root), signatures valid from a day ago to 30 days ahead, TTLs of a
# day. Addresses (all port 53):
#
#     127.0.9.1   NSD, authoritative for the four zones
#     127.0.9.53  Unbound, iterator only: dnstrustd's upstream (resolv.conf)
#     127.0.9.10  dnstrustd, threads 1
#     127.0.9.11  Unbound, validating ("validator iterator"), num-threads 1
#     127.0.9.12  kresd, one process, iterating from the root hints
#     127.0.9.20  udp_floor (recvfrom/sendto), 127.0.9.21 (recvmmsg/sendmmsg)
#     127.0.9.31… dnstrustd of each build of BENCH_COMPARE
#
# The three resolvers run on core BENCH_CORE (0); dnsperf, NSD and the
# iterator Unbound on BENCH_LOAD_CORE (1). Per repetition, the resolvers
# are started fresh, each asked the SOA of both zones (so the chain of
# keys is validated and cached), then, one resolver after the other in an
# order rotated per repetition:
#
#   cold-p256, cold-rsa  dnsperf -n 1 over the 10,000 names of one zone:
#                        every answer needs exactly one signature
#                        verification with an already validated key.
#                        dnstrustd forwards to the iterator Unbound, whose
#                        cache was filled with these names beforehand: only
#                        dnstrustd's own CPU is counted. Unbound and kresd
#                        iterate to NSD themselves: their CPU includes it.
#   cached               one pass over the 20,000 names (now all cached;
#                        dnstrustd renders each reply once, here), then
#                        dnsperf -l BENCH_SECONDS over them, shuffled.
#   rss                  VmRSS after the run (RssAnon and RssFile beside;
#                        kresd's cache is an LMDB file on tmpfs, part of
#                        its RSS as shared memory).
#
# then the floor: bench/daemon/udp_floor, a UDP responder that only echoes
# each query back with QR set, on the same core under the same cached
# dnsperf run, once with recvfrom/sendto per datagram (what the three
# resolvers do) and once with recvmmsg/sendmmsg of up to 32 (BENCH_FLOOR=0
# skips it); then `openssl speed -seconds 3 ecdsap256 rsa2048` on the
# same core.
# CPU is utime + stime of the whole process from /proc/PID/stat, the
# difference across the dnsperf run, divided by the answers dnsperf got.
# Queries are plain (RD, no EDNS), as a stub resolver sends them.
#
# Noise: before each measurement the core must have been at most
# BENCH_IDLE_MAX percent busy (default 10) over half a second (waiting up
# to 30 s); during it, "other" is the core's busy time not spent by the
# resolver under test (other processes, interrupts, softirqs). A
# measurement with other above BENCH_OTHER_MAX percent (default 25) is
# noisy: a cached run is then repeated at once (up to 3 times in all; the
# cache is unchanged), and repetitions go on until every measurement has
# BENCH_REPS (default 5) clean results or BENCH_MAX_REPS (default
# 3 * BENCH_REPS) repetitions ran. The table takes the medians of the
# clean results (of all, marked, where none was clean).
#
# Environment: BENCH_REPS, BENCH_MAX_REPS, BENCH_SECONDS (cached run,
# default 10), BENCH_FLOOR=0, BENCH_RESOLVERS (a subset of "dnstrustd unbound kresd",
# e.g. to measure a change quickly), BENCH_CORE, BENCH_LOAD_CORE, BENCH_IDLE_MAX,
# BENCH_OTHER_MAX, BENCH_KEEP=1 (keep the work directory), BENCH_PERF=1
# (perf record -g of dnstrustd during each of its runs, into the work
# directory: BENCH_KEEP is implied), BENCH_OUT (another directory for
# the results), BENCH_COMPARE="BUILD_DIR..." (instead of the three
# resolvers, dnstrustd from each of these builds, interleaved the same
# way, with the change of each against the first).
#
# Output: the markdown table on stdout and in bench/results/daemon.md,
# the raw measurements in bench/results/daemon-raw.txt.
set -eu
set -o pipefail

build=${1:-build-perf}
top=$(cd "$(dirname "$0")/.." && pwd)
here=$top/bench/daemon
binary() { # BUILD_DIR: its dnstrustd
	case $1 in
	/*) echo "$1/src/daemon/dnstrustd" ;;
	*) echo "$top/$1/src/daemon/dnstrustd" ;;
	esac
}
NSD=/usr/sbin/nsd
UNBOUND=/usr/sbin/unbound
KRESD=/usr/sbin/kresd

NET=127.0.9
AUTH=$NET.1
UPSTREAM=$NET.53
declare -A ADDR=([dnstrustd]=$NET.10 [unbound]=$NET.11 [kresd]=$NET.12
	[floor]=$NET.20 [floor-mmsg]=$NET.21)
declare -A BIN=([dnstrustd]=$(binary "$build"))
declare -A LABEL=([dnstrustd]="dnstrustd (forwarding¹)"
	[unbound]="Unbound (validator iterator)" [kresd]="Knot Resolver (kresd)")
RESOLVERS=${BENCH_RESOLVERS:-dnstrustd unbound kresd}
# BENCH_COMPARE="BUILD_DIR...": dnstrustd from each build instead, as
# dnstrustd1, dnstrustd2... on 127.0.9.31, .32...
i=0
for b in ${BENCH_COMPARE:-}; do
	i=$((i + 1))
	[ $i = 1 ] && RESOLVERS=""
	ADDR[dnstrustd$i]=$NET.$((30 + i))
	BIN[dnstrustd$i]=$(binary "$b")
	LABEL[dnstrustd$i]="dnstrustd $b"
	RESOLVERS="$RESOLVERS dnstrustd$i"
done
NAMES=10000

REPS=${BENCH_REPS:-5}
MAX_REPS=${BENCH_MAX_REPS:-$((3 * REPS))}
SECS=${BENCH_SECONDS:-10}
CORE=${BENCH_CORE:-0}
LOAD_CORE=${BENCH_LOAD_CORE:-1}
IDLE_MAX=${BENCH_IDLE_MAX:-10}
OTHER_MAX=${BENCH_OTHER_MAX:-25}
PERF=${BENCH_PERF:-0}
KEEP=${BENCH_KEEP:-$PERF}
HZ=$(getconf CLK_TCK)

out=${BENCH_OUT:-$top/bench/results}
raw=$out/daemon-raw.txt

die() {
	echo "bench/daemon: $*" >&2
	exit 1
}
say() { echo "bench/daemon: $*" >&2; }

FLOORS=""
[ "${BENCH_FLOOR:-1}" = 1 ] && FLOORS="floor floor-mmsg"
for r in $RESOLVERS; do
	case $r in dnstrustd* | unbound | kresd) ;; *) r="" ;; esac
	[ -n "${ADDR[$r]:-}" ] || die "BENCH_RESOLVERS: $r is not one of dnstrustd unbound kresd"
	case $r in
	dnstrustd*) [ -x "${BIN[$r]}" ] || die "${BIN[$r]} missing (meson setup $build --buildtype=release && ninja -C $build)" ;;
	esac
done
[ "$(id -u)" = 0 ] || die "must run as root (the servers bind port 53)"
for f in "$NSD" "$UNBOUND" "$KRESD"; do
	[ -x "$f" ] || die "$f missing (scripts/deps.sh)"
done
for f in dnsperf dig taskset openssl ldns-keygen ldns-signzone ldns-key2ds ss shuf; do
	command -v "$f" >/dev/null || die "$f missing (scripts/deps.sh)"
done
[ "$PERF" = 1 ] && { command -v perf >/dev/null || die "perf missing"; }
for a in $AUTH $UPSTREAM "${ADDR[@]}"; do
	if ss -Hlnut 2>/dev/null | awk '{print $5}' | grep -qxF "$a:53"; then
		die "something already listens on $a:53"
	fi
done

base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/dt-bench-daemon.XXXXXX")
chmod 755 "$work"
mkdir -p "$work/run" "$out"

# --- processes: started here, stopped by pid, nothing else touched ---------

# shellcheck source=bench/procs.sh
. "$top/bench/procs.sh"

# launch NAME CPU CMD...: CMD pinned to CPU, in the background; its pid
# (taskset execs it) in run/NAME.pid (in place of procs.sh's launch).
launch() {
	local name=$1 cpu=$2
	shift 2
	taskset -c "$cpu" "$@" </dev/null >>"$work/$name.log" 2>&1 &
	echo $! >"$work/run/$name.pid"
}

pid_of() { cat "$work/run/$1.pid"; }

# answers ADDR NAME TYPE [dig options]: NOERROR from ADDR.
answers() {
	local out
	out=$(dig +time=1 +tries=1 "${@:4}" @"$1" "$2" "$3" 2>/dev/null) || return 1
	grep -q 'status: NOERROR' <<<"$out"
}

# secure ADDR NAME TYPE: NOERROR with AD=1.
secure() {
	local out
	out=$(dig +time=2 +tries=2 +adflag @"$1" "$2" "$3" 2>/dev/null) || return 1
	grep -q 'status: NOERROR' <<<"$out" &&
		grep -qE '^;; flags:[a-z ]* ad[ ;]' <<<"$out"
}

# wait_up NAME ADDR NAME TYPE [dig options]: up to 20 s for an answer.
wait_up() {
	local what=$1 deadline=$((SECONDS + 20))
	shift
	until answers "$@"; do
		alive "$(pid_of "$what")" ||
			die "$what exited; last lines of its log:
$(tail -n 15 "$work/$what.log")"
		[ $SECONDS -lt $deadline ] ||
			die "$what does not answer $2 $3 at $1; last lines of its log:
$(tail -n 15 "$work/$what.log")"
		sleep 0.1
	done
}

# --- zones ------------------------------------------------------------------

keygen() { # ZONE ALG ksk|zsk: prints the key's base path
	local d=$work/keys flag="" bits=""
	[ "$3" = ksk ] && flag=-k
	[ "$2" = RSASHA256 ] && bits="-b 2048"
	mkdir -p "$d"
	# shellcheck disable=SC2086
	echo "$d/$(cd "$d" && ldns-keygen -r /dev/urandom -a "$2" $bits $flag "$1")"
}

ds() { ldns-key2ds -n -2 "$1.key" | tr -s ' \t' ' '; }

sign() { # ZONE KEYBASE...
	local z=$1
	shift
	ldns-signzone -i "$INC" -e "$EXP" -o "$z" -f "$work/zones/$z.zone" \
		"$work/zones/$z.src" "$@" 2>"$work/zones/$z.log" ||
		die "ldns-signzone $z failed: $(cat "$work/zones/$z.log")"
}

# shellcheck disable=SC2016 # $ORIGIN and $TTL are zone file directives
leaf_src() { # ZONE: SOA, NS and NAMES names with one A each
	printf '$ORIGIN %s\n$TTL 86400\n' "$1"
	printf '@ SOA ns. hostmaster.ns. 1 7200 3600 1209600 86400\n'
	printf '@ NS ns.\n'
	awk -v n="$NAMES" 'BEGIN { for (i = 0; i < n; i++)
		printf "h%d A 10.%d.%d.%d\n", i, int(i / 65536) % 256,
			int(i / 256) % 256, i % 256 }'
}

# shellcheck disable=SC2016
make_zones() {
	mkdir -p "$work/zones"
	local now
	now=$(date +%s)
	INC=$((now - 86400))
	EXP=$((now + 30 * 86400))
	local rk rz bk bz pk pz sk sz
	rk=$(keygen . RSASHA256 ksk) rz=$(keygen . RSASHA256 zsk)
	bk=$(keygen bench. ECDSAP256SHA256 ksk)
	bz=$(keygen bench. ECDSAP256SHA256 zsk)
	pk=$(keygen p256.bench. ECDSAP256SHA256 ksk)
	pz=$(keygen p256.bench. ECDSAP256SHA256 zsk)
	sk=$(keygen rsa.bench. RSASHA256 ksk)
	sz=$(keygen rsa.bench. RSASHA256 zsk)

	leaf_src p256.bench. >"$work/zones/p256.bench..src"
	leaf_src rsa.bench. >"$work/zones/rsa.bench..src"
	sign p256.bench. "$pk" "$pz" &
	local j1=$!
	sign rsa.bench. "$sk" "$sz" &
	local j2=$!
	wait $j1 || die "signing p256.bench. failed"
	wait $j2 || die "signing rsa.bench. failed"

	{
		printf '$ORIGIN bench.\n$TTL 86400\n'
		printf '@ SOA ns. hostmaster.ns. 1 7200 3600 1209600 86400\n'
		printf '@ NS ns.\np256 NS ns.\nrsa NS ns.\n'
		ds "$pk"
		ds "$sk"
	} >"$work/zones/bench..src"
	sign bench. "$bk" "$bz"
	{
		printf '$ORIGIN .\n$TTL 86400\n'
		printf '. SOA ns. hostmaster.ns. 1 1800 900 604800 86400\n'
		printf '. NS ns.\nns. A %s\n' "$AUTH"
		printf 'bench. NS ns.\n'
		ds "$bk"
	} >"$work/zones/..src"
	sign . "$rk" "$rz"

	ds "$rk" >"$work/anchor.ds"
	printf '. 3600000 NS ns.\nns. 3600000 A %s\n' "$AUTH" \
		>"$work/root.hints"
	local z
	for z in p256 rsa; do
		awk -v z="$z.bench." -v n="$NAMES" 'BEGIN {
			for (i = 0; i < n; i++) printf "h%d.%s A\n", i, z }' \
			>"$work/cold-$z.txt"
	done
	cat "$work/cold-p256.txt" "$work/cold-rsa.txt" | shuf >"$work/cached.txt"
}

# --- configurations ------------------------------------------------------

write_configs() {
	mkdir -p "$work/nsd" "$work/upstream" "$work/unbound" "$work/kresd"
	cat >"$work/nsd/nsd.conf" <<-EOF
		server:
		    ip-address: $AUTH
		    port: 53
		    do-ip6: no
		    reuseport: no
		    server-count: 1
		    minimal-responses: yes
		    username: ""
		    chroot: ""
		    zonesdir: "$work/zones"
		    database: ""
		    zonelistfile: "$work/nsd/zone.list"
		    xfrdfile: "$work/nsd/xfrd.state"
		    xfrdir: "$work/nsd"
		    pidfile: "$work/nsd/nsd.pid"
		    logfile: "$work/nsd/nsd.log"
		    verbosity: 0
		remote-control:
		    control-enable: no
		zone:
		    name: "."
		    zonefile: "..zone"
		zone:
		    name: "bench."
		    zonefile: "bench..zone"
		zone:
		    name: "p256.bench."
		    zonefile: "p256.bench..zone"
		zone:
		    name: "rsa.bench."
		    zonefile: "rsa.bench..zone"
	EOF
	# unbound_conf NAME ADDR MODULES [server: lines...]
	unbound_conf() {
		local d=$work/$1
		cat <<-EOF
			server:
			    interface: $2
			    port: 53
			    interface-automatic: no
			    so-reuseport: no
			    do-ip6: no
			    do-daemonize: no
			    num-threads: 1
			    username: ""
			    chroot: ""
			    directory: "$d"
			    pidfile: "$d/unbound.pid"
			    logfile: "$d/unbound.log"
			    use-syslog: no
			    verbosity: 0
			    access-control: 127.0.0.0/8 allow
			    do-not-query-localhost: no
			    root-hints: "$work/root.hints"
			    module-config: "$3"
			    msg-cache-size: 128m
			    rrset-cache-size: 256m
			    key-cache-size: 16m
			    prefetch: no
			    minimal-responses: yes
		EOF
		shift 3
		local l
		for l in "$@"; do
			printf '    %s\n' "$l"
		done
		printf 'remote-control:\n    control-enable: no\n'
	}
	unbound_conf upstream "$UPSTREAM" iterator >"$work/upstream/unbound.conf"
	unbound_conf unbound "${ADDR[unbound]}" "validator iterator" \
		"trust-anchor-file: \"$work/anchor.ds\"" \
		>"$work/unbound/unbound.conf"

	# kresd: one process, the bench root's DS instead of the built-in
	# IANA anchor, root hints to NSD, and it iterates from there (no
	# policy.STUB: it validates what it fetched itself, as Unbound does).
	cat >"$work/kresd/config.lua" <<-EOF
		log_level('warning')
		net.listen('${ADDR[kresd]}', 53, { kind = 'dns' })
		trust_anchors.remove('.')
		trust_anchors.add('$(cat "$work/anchor.ds")')
		modules.load('hints > iterate')
		hints.root({ ['ns.'] = '$AUTH' })
		cache.open(512 * MB, 'lmdb://$work/kresd/cache')
	EOF

	local r
	for r in $RESOLVERS; do
		case $r in dnstrustd*) ;; *) continue ;; esac
		mkdir -p "$work/$r"
		echo "nameserver $UPSTREAM" >"$work/$r/resolv.conf"
		cat >"$work/$r/dnstrust.conf" <<-EOF
		socket $work/$r/run/socket
		listen ${ADDR[$r]}@53
		resolv-conf $work/$r/resolv.conf
		trust-anchor-file $work/anchor.ds
		root-hints $work/root.hints
		threads 1
		cache-size 512M
		log-level warning
		EOF
	done
}

start_resolver() { # NAME
	case $1 in
	dnstrustd*)
		launch "$1" "$CORE" "${BIN[$1]}" -f -c "$work/$1/dnstrust.conf" ;;
	unbound)
		launch unbound "$CORE" "$UNBOUND" -d -c "$work/unbound/unbound.conf" ;;
	floor)
		launch floor "$CORE" "$work/udp_floor" "${ADDR[floor]}" 53 1 ;;
	floor-mmsg)
		launch floor-mmsg "$CORE" "$work/udp_floor" "${ADDR[floor-mmsg]}" 53 32 ;;
	kresd)
		rm -rf "$work/kresd/cache"
		mkdir -p "$work/kresd/cache"
		launch kresd "$CORE" "$KRESD" -n -c "$work/kresd/config.lua" \
			"$work/kresd" ;;
	esac
	wait_up "$1" "${ADDR[$1]}" bench. SOA
}

# --- measuring ----------------------------------------------------------

# cpu_ticks PID: utime + stime (clock ticks) of the whole process.
cpu_ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# core_busy: busy ticks of core CORE (user nice system irq softirq steal).
core_busy() {
	awk -v c="cpu$CORE" '$1 == c { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

now_ticks() { # monotonic, in clock ticks
	awk -v hz="$HZ" '{ printf "%d\n", $1 * hz }' /proc/uptime
}

# wait_idle: until core CORE was at most IDLE_MAX % busy over 0.5 s
# (at most a minute); prints the last busy percentage seen.
wait_idle() {
	local b0 b1 t0 t1 pct deadline=$((SECONDS + 30))
	while :; do
		b0=$(core_busy) t0=${EPOCHREALTIME/./}
		sleep 0.5
		b1=$(core_busy) t1=${EPOCHREALTIME/./}
		pct=$(((b1 - b0) * 100000000 / HZ / (t1 - t0)))
		[ "$pct" -le "$IDLE_MAX" ] && break
		[ $SECONDS -ge $deadline ] && {
			say "core $CORE still ${pct}% busy after 30 s; measuring anyway"
			break
		}
		sleep 2
	done
	echo "$pct"
}

declare -A CLEAN=()	# clean results per "RESOLVER KIND"
noisy_rep=0

# measure REP RESOLVER KIND DNSPERF-ARGS...: one dnsperf run against
# RESOLVER, one line in the raw file:
#   REP RESOLVER KIND sent completed noerror qps cpu_ticks run_s idle% other%
# Fails when it was noisy.
measure() {
	local rep=$1 r=$2 kind=$3 pid idle c0 c1 b0 b1 t0 t1 log perfpid=""
	shift 3
	pid=$(pid_of "$r")
	log=$work/dnsperf-$rep-$r-$kind.txt
	idle=$(wait_idle)
	if [ "$PERF" = 1 ] && [ "${r#dnstrustd}" != "$r" ]; then
		perf record -g -p "$pid" -o "$work/perf-$rep-$r-$kind.data" \
			>"$work/perf-$rep-$r-$kind.log" 2>&1 &
		perfpid=$!
		sleep 0.5
	fi
	c0=$(cpu_ticks "$pid") b0=$(core_busy) t0=${EPOCHREALTIME/./}
	taskset -c "$LOAD_CORE" dnsperf -s "${ADDR[$r]}" "$@" >"$log" 2>&1 ||
		die "dnsperf against $r failed: $(tail -5 "$log")"
	c1=$(cpu_ticks "$pid") b1=$(core_busy) t1=${EPOCHREALTIME/./}
	if [ -n "$perfpid" ]; then
		kill -INT "$perfpid"
		wait "$perfpid" || true
	fi
	alive "$pid" || die "$r died during $kind"
	local wall_ticks=$(((t1 - t0) * HZ / 1000000))
	local other=$(((b1 - b0 - (c1 - c0)) * 100 / (wall_ticks > 0 ? wall_ticks : 1)))
	[ "$other" -lt 0 ] && other=0
	awk -v rep="$rep" -v r="$r" -v kind="$kind" -v cpu=$((c1 - c0)) \
		-v idle="$idle" -v other="$other" '
		/Queries sent:/ { sent = $3 }
		/Queries completed:/ { done = $3 }
		/Response codes:/ { for (i = 3; i < NF; i++) if ($i == "NOERROR") ok = $(i + 1) }
		/Run time \(s\):/ { t = $4 }
		/Queries per second:/ { qps = $4 }
		END { printf "%s %s %s %d %d %d %.0f %d %.3f %d %d\n", rep, r, kind,
			sent, done, ok, qps, cpu, t, idle, other }' "$log" |
		tee -a "$raw"
	if [ "$other" -gt "$OTHER_MAX" ]; then
		say "$r $kind: ${other}% of core $CORE went to other work: noisy"
		return 1
	fi
	CLEAN[$r $kind]=$((${CLEAN[$r $kind]:-0} + 1))
}

cold() { # REP RESOLVER ZONE
	measure "$1" "$2" "cold-$3" -d "$work/cold-$3.txt" -n 1 -c 10 -q 100 -t 5 ||
		noisy_rep=1
}

# cached REP RESOLVER [nowarm]: up to 3 runs until one is clean.
cached() {
	[ "${3:-}" = nowarm ] ||
		taskset -c "$LOAD_CORE" dnsperf -s "${ADDR[$2]}" -d "$work/cached.txt" \
			-n 1 -c 10 -q 100 -t 5 >"$work/warm-$1-$2.txt" 2>&1 ||
		die "dnsperf (warming $2) failed"
	for _ in 1 2 3; do
		measure "$1" "$2" cached -d "$work/cached.txt" -l "$SECS" \
			-c 10 -q 100 -t 5 && return 0
	done
	noisy_rep=1
}

# done_enough: every measurement has REPS clean results.
done_enough() {
	local r k
	for r in $RESOLVERS; do
		for k in cold-p256 cold-rsa cached; do
			[ "${CLEAN[$r $k]:-0}" -ge "$REPS" ] || return 1
		done
	done
	for r in $FLOORS; do
		[ "${CLEAN[$r cached]:-0}" -ge "$REPS" ] || return 1
	done
}

rss() { # REP RESOLVER
	awk -v rep="$1" -v r="$2" '
		/^VmRSS:/ { rss = $2 } /^RssAnon:/ { anon = $2 }
		/^RssFile:/ { file = $2 } /^RssShmem:/ { shm = $2 }
		END { printf "%s %s rss %d %d %d %d\n", rep, r, rss, anon, file, shm }' \
		"/proc/$(pid_of "$2")/status" | tee -a "$raw"
}

# openssl REP: seconds per verify, from verify/s of `openssl speed`.
openssl_speed() {
	taskset -c "$CORE" openssl speed -seconds 3 ecdsap256 rsa2048 2>/dev/null |
		awk -v rep="$1" '
		$1 == "rsa" && $2 == 2048 { printf "%s openssl rsa2048 %.9f\n", rep, 1 / $NF }
		$3 == "ecdsa" && $4 == "(nistp256)" { printf "%s openssl ecdsap256 %.9f\n", rep, 1 / $NF }' |
		tee -a "$raw"
}

# check_secure REP: a few names of each zone, AD=1 from every resolver.
check_secure() {
	local r n
	for r in $RESOLVERS; do
		for n in h0.p256.bench. h4242.p256.bench. h9999.rsa.bench. h17.rsa.bench.; do
			secure "${ADDR[$r]}" "$n" A ||
				die "$r: $n A is not NOERROR with AD=1: $(dig +adflag @"${ADDR[$r]}" "$n" A)"
		done
	done
}

# --- the run -------------------------------------------------------------

if [ -n "$FLOORS" ]; then
	cc -O2 -Wall -o "$work/udp_floor" "$here/udp_floor.c" ||
		die "cannot compile $here/udp_floor.c"
fi
say "work directory $work; generating and signing the zones ($NAMES names each)"
t0=$SECONDS
make_zones
write_configs
say "zones signed in $((SECONDS - t0)) s"

launch nsd "$LOAD_CORE" "$NSD" -d -c "$work/nsd/nsd.conf"
wait_up nsd "$AUTH" . SOA +norec
launch upstream "$LOAD_CORE" "$UNBOUND" -d -c "$work/upstream/unbound.conf"
wait_up upstream "$UPSTREAM" bench. SOA
say "filling the upstream iterator's cache with the cold names"
for z in p256 rsa; do
	taskset -c "$LOAD_CORE" dnsperf -s "$UPSTREAM" -d "$work/cold-$z.txt" \
		-n 1 -c 10 -q 100 -t 5 -D >"$work/upstream-fill-$z.txt" 2>&1 ||
		die "dnsperf (upstream fill) failed"
done

{
	echo "# bench/daemon.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r) $(nproc) cores"
	echo "# $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //')"
	echo "# source $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$top" diff --quiet HEAD -- src 2>/dev/null || echo ' (src modified)'), $($UNBOUND -V | head -1), $($KRESD --version), $(dnsperf -h 2>&1 | sed -n 's/^Version //p' | sed 's/^/dnsperf /'), $(openssl version | cut -d' ' -f1-2)"
	for r in $RESOLVERS; do
		case $r in dnstrustd*) echo "# $r: ${BIN[$r]}" ;; esac
	done
	echo "# rep resolver kind sent completed noerror qps cpu_ticks run_s idle% other%   (HZ=$HZ)"
	echo "# rep resolver rss VmRSS RssAnon RssFile RssShmem (kB)"
	echo "# rep openssl alg seconds-per-verify"
	echo "# rep load 1min 5min 15min clean|noisy"
} >"$raw"

rep=0
while ! done_enough && [ $rep -lt "$MAX_REPS" ]; do
	rep=$((rep + 1))
	noisy_rep=0
	read -r l1 l5 l15 _ </proc/loadavg
	say "repetition $rep (load average $l1 $l5 $l15)"
	for r in $RESOLVERS; do
		start_resolver "$r"
	done
	for r in $RESOLVERS; do
		for z in p256 rsa; do
			secure "${ADDR[$r]}" "$z.bench." SOA ||
				die "$r: $z.bench. SOA is not secure"
		done
	done
	# the order rotates: each resolver goes first, second and last in turn
	order=$(echo "$RESOLVERS" | awk -v k=$((rep - 1)) '{
		for (i = 0; i < NF; i++) printf "%s ", $((i + k) % NF + 1) }')
	for z in p256 rsa; do
		for r in $order; do
			cold $rep "$r" $z
		done
	done
	for r in $order; do
		cached $rep "$r"
	done
	for r in $RESOLVERS; do
		rss $rep "$r"
	done
	for r in $FLOORS; do
		start_resolver "$r"
		cached $rep "$r" nowarm
		stop "$r"
	done
	check_secure
	# shellcheck disable=SC2086
	stop $RESOLVERS
	openssl_speed $rep
	if [ $noisy_rep = 0 ]; then
		echo "$rep load $l1 $l5 $l15 clean" >>"$raw"
	else
		echo "$rep load $l1 $l5 $l15 noisy" >>"$raw"
	fi
done

cmd="bench/daemon.sh $build"
for v in BENCH_REPS BENCH_MAX_REPS BENCH_SECONDS BENCH_RESOLVERS BENCH_CORE BENCH_LOAD_CORE \
	BENCH_IDLE_MAX BENCH_OTHER_MAX BENCH_PERF; do
	[ -n "${!v:-}" ] && cmd="$v=${!v} $cmd"
done
rows=""
for r in $RESOLVERS; do
	rows="$rows|$r=${LABEL[$r]}"
done
[ -n "${BENCH_COMPARE:-}" ] && cmd="BENCH_COMPARE=\"$BENCH_COMPARE\" $cmd"
TABLE_ROWS=${rows#|} awk -v hz="$HZ" -v cmd="$cmd" -v secs="$SECS" \
	-v names="$NAMES" -v othermax="$OTHER_MAX" -f "$here/table.awk" "$raw" |
	tee "$out/daemon.md"
