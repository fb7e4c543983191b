#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Cold answers: the wall time of the first question for a name, on a
# resolver started a moment before with an empty cache, when every upstream
# answer comes DELAY ms late; and how many questions that name cost
# upstream. dnstrustd, a validating Unbound and Knot Resolver (kresd), all
# three forwarding to the same delay proxy in front of the lab's honest
# upstream, in the same run, one at a time. Not a test: nothing here
# asserts a figure. Run as root (the lab and the resolvers bind port 53).
#
#   usage: bench/cold.sh [BUILD_DIR]        (default: build; make bench-cold)
#          BENCH_MODE=recursive bench/cold.sh [BUILD_DIR]
#
# Set-up, on LAB_NET (default 127.0.2, as the lab; another 127.X.Y to run
# beside a running lab):
#
#     tests/lab/lab.sh start, with LAB_DEEP=1 (a chain of zones below lab.
#     down to d5.d4.d3.deep.lab.), in a fresh directory;
#     NET.80   bench/delayproxy.py: forwards to the lab's honest iterating
#              Unbound (NET.53), answers DELAY ms after each question
#              arrived, logs every question;
#     NET.81   dnstrustd (BUILD_DIR/src/daemon/dnstrustd), resolv-conf
#              naming the proxy, the lab's root DS as trust anchor,
#              otherwise its defaults;
#     NET.82   Unbound, "validator iterator", forward-zone "." to the
#              proxy, the lab's root DS as trust anchor (root-hints: the
#              lab's own root, unused when forwarding);
#     NET.83   kresd, policy.FORWARD of everything to the proxy, the lab's
#              root DS as its only trust anchor, root hints replaced by the
#              lab's root, priming off.
#
# BENCH_MODE=recursive: the three resolve from the root instead, each
# authoritative server of the lab behind a delay proxy of its own:
#     NET.71   bench/delayproxy.py in front of the lab's NSD (NET.1: the
#              root and lab.), NET.72 in front of its Knot (NET.2: the
#              zones below lab.), both logging to the same file; each
#              rewrites the glue of NET.1 and NET.2 (authority and
#              additional sections, never answers) to
#              NET.71 and NET.72, so every query of a resolver goes
#              through a proxy;
#     dnstrustd: resolution recursive, root hints NET.71 (ns1.lab.);
#     Unbound: "validator iterator", no forward-zone, the same hints;
#     kresd: the same hints, no forwarding.
# Results then go to cold-recursive.md and cold-recursive-raw.txt, and
# "queries" and "rounds" count queries to authoritative servers.
#
# Nothing is sent off 127.0.0.0/8; no resolver has the public root hints or
# the IANA anchor.
#
# Depth is the number of zone cuts below the anchor (the root) down to the
# zone of the name; names (BENCH_PER_DEPTH of each, default 3):
#     1  h1.lab. h2.lab. h3.lab.
#     2  www.secure.lab. www.nsec3.lab. h1.deep.lab.
#     3  www.sub.secure.lab. h1.d3.deep.lab. h2.d3.deep.lab.
#     4  h1.d4.d3.deep.lab. h2.… h3.…
#     5  h1.d5.d4.d3.deep.lab. h2.… h3.…
# Every zone is ECDSA P-256 but the root (RSASHA256 2048).
#
# First, with no delay, each resolver, started fresh, answers every name
# once, one after the other (each must be NOERROR with AD=1 here), so the honest upstream has everything it will be asked
# for in its cache: the delay is then the whole of an upstream round trip.
# Then, BENCH_REPS times (default 3), for each DELAY (BENCH_DELAYS, default
# "5 20 100" ms), each name and each resolver (their order rotated per
# name): the resolver is started fresh (kresd on an empty cache
# directory), left alone for 0.2 s + 2 DELAY (questions it asks on its own
# are counted as "start-up"), asked NAME A once with dig (+adflag; the
# outcome is recorded, see below), then stopped 0.2 s + 2 DELAY after the
# answer. Measured:
#     ms       dig's query time (send to answer);
#     queries  questions the proxy received from the query to the answer;
#     after    questions it received in the 0.2 s + 2 DELAY after;
#     rounds   round trips upstream in the answer's time: the questions'
#              arrival times split into waves, a question arriving more
#              than 0.6 DELAY after the first of the current wave opening
#              the next (meaningful at 20 and 100 ms, not at 5).
#
# Output: the markdown tables on stdout and in bench/results/cold.md, the
# raw lines in bench/results/cold-raw.txt:
#     rep delay depth name resolver ms queries after rounds startup outcome
# (outcome: secure, or the RCODE and EDE when the answer was not NOERROR
# with AD=1; such answers are kept, and counted apart in the table).
#
# Environment: BENCH_REPS, BENCH_DELAYS, BENCH_PER_DEPTH (1 to 3),
# BENCH_DEPTHS (default "1 2 3 4 5"), BENCH_RESOLVERS (a subset of
# "dnstrustd unbound kresd"), BENCH_OUT (another directory for the
# results), BENCH_KEEP=1 (keep the work directory and the lab's logs).
set -eu
set -o pipefail

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in
/*) DNSTRUSTD=$build/src/daemon/dnstrustd ;;
*) DNSTRUSTD=$top/$build/src/daemon/dnstrustd ;;
esac
UNBOUND=/usr/sbin/unbound
KRESD=/usr/sbin/kresd
LAB_SH=$top/tests/lab/lab.sh

NET=${LAB_NET:-127.0.2}
[[ $NET =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || {
	echo "bench/cold: LAB_NET must look like 127.X.Y" >&2
	exit 2
}
export LAB_NET=$NET
PROXY=$NET.80
MODE=${BENCH_MODE:-forward}
PROXY_ROOT=$NET.71 PROXY_LEAF=$NET.72
case $MODE in
forward) PROXIES=$PROXY ;;
recursive) PROXIES="$PROXY_ROOT $PROXY_LEAF" ;;
*) echo "bench/cold: BENCH_MODE must be forward or recursive" >&2; exit 2 ;;
esac
declare -A ADDR=([dnstrustd]=$NET.81 [unbound]=$NET.82 [kresd]=$NET.83)
RESOLVERS=${BENCH_RESOLVERS:-dnstrustd unbound kresd}
REPS=${BENCH_REPS:-3}
DELAYS=${BENCH_DELAYS:-5 20 100}
DEPTHS=${BENCH_DEPTHS:-1 2 3 4 5}
PER_DEPTH=${BENCH_PER_DEPTH:-3}
KEEP=${BENCH_KEEP:-0}
declare -A NAMES=(
	[1]="h1.lab. h2.lab. h3.lab."
	[2]="www.secure.lab. www.nsec3.lab. h1.deep.lab."
	[3]="www.sub.secure.lab. h1.d3.deep.lab. h2.d3.deep.lab."
	[4]="h1.d4.d3.deep.lab. h2.d4.d3.deep.lab. h3.d4.d3.deep.lab."
	[5]="h1.d5.d4.d3.deep.lab. h2.d5.d4.d3.deep.lab. h3.d5.d4.d3.deep.lab."
)
out=${BENCH_OUT:-$top/bench/results}
base=cold
[ "$MODE" = recursive ] && base=cold-recursive
raw=$out/$base-raw.txt

die() {
	echo "bench/cold: $*" >&2
	exit 1
}
say() { echo "bench/cold: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (the servers bind port 53)"
[ -x "$DNSTRUSTD" ] || die "$DNSTRUSTD missing (make build)"
for f in "$UNBOUND" "$KRESD"; do
	[ -x "$f" ] || die "$f missing (scripts/deps.sh)"
done
for f in dig ss python3; do
	command -v "$f" >/dev/null || die "$f missing"
done
for r in $RESOLVERS; do
	[ -n "${ADDR[$r]:-}" ] || die "BENCH_RESOLVERS: $r is not one of dnstrustd unbound kresd"
done
for a in $PROXIES "${ADDR[@]}"; do
	if ss -Hlnut 2>/dev/null | awk '{print $5}' | grep -qxF "$a:53"; then
		die "something already listens on $a:53"
	fi
done

work=$(mktemp -d /tmp/dt-bench-cold.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/run" "$out"
lab=$work/lab

# --- processes: started here, stopped by pid, nothing else touched ---------

# shellcheck source=bench/procs.sh
. "$top/bench/procs.sh"

# --- configurations ---------------------------------------------------------

# The configuration lines that differ by mode: dnstrustd's resolution,
# the root hints, Unbound's forward-zone, kresd's hint and policy.
mode_lines() { # dnstrustd|unbound-hints|unbound-forward|kresd
	case $MODE/$1 in
	forward/dnstrustd) echo "root-hints $LAB_DIR/root.hints" ;;
	recursive/dnstrustd)
		echo "resolution recursive"
		echo "root-hints $work/root.hints" ;;
	forward/unbound-hints) echo "    root-hints: \"$LAB_DIR/root.hints\"" ;;
	recursive/unbound-hints) echo "    root-hints: \"$work/root.hints\"" ;;
	forward/unbound-forward)
		echo "forward-zone:"
		echo "    name: \".\""
		echo "    forward-addr: $PROXY" ;;
	forward/kresd)
		echo "hints.root({ ['ns1.lab.'] = '$LAB_ROOT_SERVER' })"
		echo "policy.add(policy.all(policy.FORWARD({ '$PROXY' })))" ;;
	recursive/kresd) echo "hints.root({ ['ns1.lab.'] = '$PROXY_ROOT' })" ;;
	esac
}

write_configs() {
	local r
	mkdir -p "$work/dnstrustd" "$work/unbound" "$work/kresd"
	echo "nameserver $PROXY" >"$work/dnstrustd/resolv.conf"
	printf '. 3600000 NS ns1.lab.\nns1.lab. 3600000 A %s\n' "$PROXY_ROOT" \
		>"$work/root.hints"
	cat >"$work/dnstrustd/dnstrust.conf" <<-EOF
		socket $work/dnstrustd/run/socket
		listen ${ADDR[dnstrustd]}@53
		resolv-conf $work/dnstrustd/resolv.conf
		trust-anchor-file $LAB_ANCHOR
		$(mode_lines dnstrustd)
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
		$(mode_lines unbound-hints)
		    prefetch: no
		remote-control:
		    control-enable: no
		$(mode_lines unbound-forward)
	EOF
	cat >"$work/kresd/config.lua" <<-EOF
		log_level('warning')
		net.ipv6 = false
		net.listen('${ADDR[kresd]}', 53, { kind = 'dns' })
		pcall(modules.unload, 'priming')
		pcall(modules.unload, 'detect_time_skew')
		pcall(modules.unload, 'detect_time_jump')
		modules.load('hints')
		trust_anchors.remove('.')
		trust_anchors.add('$(cat "$LAB_ANCHOR")')
		$(mode_lines kresd)
		cache.open(64 * MB, 'lmdb://$work/kresd/cache')
	EOF
	# dnstrustd checks its configuration and anchors before the run.
	"$DNSTRUSTD" -n -c "$work/dnstrustd/dnstrust.conf" >"$work/dnstrustd.check" 2>&1 ||
		die "dnstrustd -n: $(cat "$work/dnstrustd.check")"
}

start_resolver() { # NAME
	case $1 in
	dnstrustd)
		launch dnstrustd "$DNSTRUSTD" -f -c "$work/dnstrustd/dnstrust.conf" ;;
	unbound)
		launch unbound "$UNBOUND" -d -c "$work/unbound/unbound.conf" ;;
	kresd)
		rm -rf "$work/kresd/cache"
		mkdir -p "$work/kresd/cache"
		launch kresd "$KRESD" -n -c "$work/kresd/config.lua" "$work/kresd" ;;
	esac
	wait_listening "$1" "${ADDR[$1]}"
}

# --- measuring --------------------------------------------------------------

lines() { wc -l <"$work/proxy.log"; }

# ask ADDR NAME: dig's query time in ms and the outcome: "secure"
# (NOERROR with AD=1), else the RCODE, with ",EDE=N" when there is one, or
# "noAD" (NOERROR without AD). Fails when dig gets no answer.
ask() {
	local o st ede
	o=$(dig +tries=1 +time=30 +adflag +noall +comments +stats @"$1" "$2" A 2>&1) ||
		{ echo "dig failed: $o" >&2; return 1; }
	st=$(sed -n 's/.*status: \([A-Z]*\),.*/\1/p' <<<"$o")
	[ -n "$st" ] || { echo "no answer: $o" >&2; return 1; }
	if [ "$st" = NOERROR ]; then
		st=noAD
		grep -qE '^;; flags:[a-z ]* ad[ ;]' <<<"$o" && st=secure
	fi
	ede=$(sed -n 's/^; EDE: \([0-9]*\).*/\1/p' <<<"$o" | head -1)
	[ -n "$ede" ] && st="$st,EDE=$ede"
	echo "$(sed -n 's/^;; Query time: \([0-9]*\) msec.*/\1/p' <<<"$o") $st"
}

# measure REP DELAY DEPTH NAME RESOLVER: one raw line.
measure() {
	local rep=$1 d=$2 depth=$3 name=$4 r=$5 settle l0 l1 l2 t1 ms st
	settle=$(awk -v d="$d" 'BEGIN { printf "%.3f", 0.2 + 2 * d / 1000 }')
	l0=$(lines)
	start_resolver "$r"
	sleep "$settle"
	l1=$(lines)
	read -r ms st < <(ask "${ADDR[$r]}" "$name") ||
		die "$r: $name A (delay $d ms): no answer"
	[ "$st" = secure ] || say "$r: $name A (delay $d ms): $st, not secure"
	t1=$EPOCHREALTIME
	sleep "$settle"
	l2=$(lines)
	stop "$r"
	sed -n "$((l1 + 1)),${l2}p" "$work/proxy.log" |
		awk -v t1="$t1" -v d="$d" -v pre="$((l1 - l0))" \
			-v head="$rep $d $depth $name $r $ms" -v st="$st" '
		$1 <= t1 { n++; if (n == 1 || $1 > w + 0.6 * d / 1000) { rounds++; w = $1 } next }
		{ after++ }
		END { printf "%s %d %d %d %d %s\n", head, n, after, rounds, pre, st }' |
		tee -a "$raw"
}

# --- the run ------------------------------------------------------------------

say "work directory $work; starting the lab on $NET (LAB_DEEP=1)"
LAB_DEEP=1 "$LAB_SH" start "$lab" >"$work/lab.log" 2>&1 ||
	die "the lab does not start: $(tail -20 "$work/lab.log")"
# shellcheck disable=SC1091
. "$lab/lab.env"
write_configs
echo 0 >"$work/delay"
: >"$work/proxy.log"
if [ "$MODE" = forward ]; then
	launch proxy python3 "$top/bench/delayproxy.py" "$PROXY" "$LAB_RESOLVER" \
		"$work/delay" "$work/proxy.log"
	wait_listening proxy "$PROXY"
else
	amap="$LAB_ROOT_SERVER=$PROXY_ROOT,$LAB_LEAF_SERVER=$PROXY_LEAF"
	launch proxy-root python3 "$top/bench/delayproxy.py" "$PROXY_ROOT" \
		"$LAB_ROOT_SERVER" "$work/delay" "$work/proxy.log" "$amap"
	launch proxy-leaf python3 "$top/bench/delayproxy.py" "$PROXY_LEAF" \
		"$LAB_LEAF_SERVER" "$work/delay" "$work/proxy.log" "$amap"
	wait_listening proxy-root "$PROXY_ROOT"
	wait_listening proxy-leaf "$PROXY_LEAF"
fi

all_names=""
for depth in $DEPTHS; do
	# shellcheck disable=SC2086
	set -- ${NAMES[$depth]}
	all_names="$all_names ${*:1:$PER_DEPTH}"
done

say "warming the upstream: each resolver, fresh, asks every name once"
for r in $RESOLVERS; do
	start_resolver "$r"
	for name in $all_names; do
		read -r _ st < <(ask "${ADDR[$r]}" "$name") ||
			die "$r: $name A: no answer"
		[ "$st" = secure ] || die "$r: $name A is $st, not secure (warm)"
	done
	stop "$r"
done

{
	echo "# bench/cold.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //')"
	echo "# source $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$top" diff --quiet HEAD -- src 2>/dev/null || echo ' (src modified)'), $($UNBOUND -V | head -1), $($KRESD --version)"
	echo "# dnstrustd: $DNSTRUSTD; mode $MODE"
	echo "# rep delay_ms depth name resolver ms queries after rounds startup outcome"
} >"$raw"

k=0
for rep in $(seq "$REPS"); do
	say "repetition $rep of $REPS (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	for d in $DELAYS; do
		echo "$d" >"$work/delay"
		for depth in $DEPTHS; do
			# shellcheck disable=SC2086
			set -- ${NAMES[$depth]}
			for name in "${@:1:$PER_DEPTH}"; do
				k=$((k + 1))
				order=$(echo "$RESOLVERS" | awk -v k="$k" '{
					for (i = 0; i < NF; i++) printf "%s ", $((i + k) % NF + 1) }')
				for r in $order; do
					measure "$rep" "$d" "$depth" "$name" "$r" >/dev/null
				done
			done
		done
	done
	echo "# load after repetition $rep: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$raw"
done

cmd="bench/cold.sh $build"
for v in BENCH_MODE LAB_NET BENCH_REPS BENCH_DELAYS BENCH_DEPTHS BENCH_PER_DEPTH BENCH_RESOLVERS; do
	[ -n "${!v:-}" ] && cmd="$v=\"${!v}\" $cmd"
done
python3 "$top/bench/cold_table.py" "$raw" "$cmd" | tee "$out/$base.md"
