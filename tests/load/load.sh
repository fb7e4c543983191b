#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The load and fault suite (make check-load; not part of make check):
# dnstrustd in the integration lab under loads and faults that a host's
# resolver meets, each part a few TAP checks that can fail:
#
#   flood     dnsperf sends random names (every one a miss: upstream
#             work, a new cache entry) at the highest rate it gets for
#             LOAD_FLOOD_SECONDS (default 600); the daemon's RSS is read
#             every second and must stay under cache-size plus a fixed
#             overhead (LOAD_OVERHEAD_MIB, default 24); a cached name is
#             asked every 10 ms meanwhile and answered within 10 ms at
#             the 99th percentile
#   clients   10,000 concurrent getaddrinfo(3) callers through the NSS
#             module (a private mount namespace, "hosts: files dnstrust"):
#             every one gets its address; then 10,000 in a row from one
#             thread, through the module and through dt_getaddrinfo
#   faults    the upstream (tests/load/faultproxy.py) black-holes, answers
#             garbage, answers after 10 s, flaps every second, refuses:
#             every client is answered within query-timeout, the daemon
#             lives and its RSS stays bounded; then service resumes
#   kill      1,000 clients in flight when dnstrustd is killed (SIGKILL):
#             each returns within its timeout with "unavailable"; a
#             restarted daemon serves again
#   clock     wall-clock jumps of +1 day and -1 day under the running
#             daemon (libfaketime, the monotonic clock untouched): secure
#             answers stay secure, RFC 5011 state keeps its anchor
#   state     the RFC 5011 state directory full, then read-only (a tmpfs
#             in a private mount namespace): no anchor lost, the failure
#             logged, answers still secure
#
# LOAD_ONLY="flood kill" runs only those parts. Figures go to stdout as
# "# figure: ..." lines; docs/RELIABILITY.md records a run.
#
# usage: load.sh DNSTRUSTD DTQ LAB_SH LOADCLIENT NSSDIR   (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 LOADCLIENT=$4 NSSDIR=$5
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$here/../harness.sh}"

if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
lab_start load
listen=$LAB_NET.100
proxy=$LAB_NET.90
resolv=$work/resolv.conf
mode=$work/proxy.mode
cache_mib=16
timeout_s=3
only=${LOAD_ONLY:-flood clients faults kill clock state}
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }
figure() { echo "# figure: $*"; }

echo pass >"$mode"
python3 "$here/faultproxy.py" "$proxy" "$LAB_RESOLVER" "$mode" \
	>"$work/proxy.log" 2>&1 &
extra_pids="$!"
wait_for 50 grep -q ready "$work/proxy.log"

write_conf() { # UPSTREAM, then extra lines
	local up=$1
	shift
	printf 'nameserver %s\noptions timeout:1 attempts:2\n' "$up" >"$resolv"
	cat >"$conf" <<EOF
socket $sock
listen $listen@53
resolv-conf $resolv
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
cache-size ${cache_mib}M
query-timeout $timeout_s
log-level notice
EOF
	for l in "$@"; do echo "$l" >>"$conf"; done
}
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
secure_now() { # NAME: asked over the socket, answered secure
	[ "$(q "$1" A | field status)" = secure ]
}
rand_names() { # COUNT ZONE TYPE: dnsperf/loadclient input, fresh names
	od -An -tx4 -N$(($1 * 4)) /dev/urandom | tr -s ' ' '\n' | sed '/^$/d' |
		head -n "$1" | sed "s/\$/.$2 $3/"
}
# The daemon runs as _dnstrust (nobody where that does not exist): its
# RFC 5011 state directory is that user's, as /var/lib/dnstrust is.
daemon_user() {
	if getent passwd _dnstrust >/dev/null; then echo _dnstrust; else echo nobody; fi
}
val() { sed -n "s/.* $1=\([^ ]*\).*/\1/p; s/^$1=\([^ ]*\).*/\1/p" | head -1; }

# --- flood ---
if want flood; then
	secs=${LOAD_FLOOD_SECONDS:-600}
	write_conf "$LAB_RESOLVER"
	check "flood: dnstrustd starts" start_daemon
	secure_now www.secure.lab.
	base=$(rss_kib "$dpid")
	{ rand_names 200000 insecure.lab. A; rand_names 200000 secure.lab. A; } |
		shuf >"$work/flood.names"
	dnsperf -s "$listen" -d "$work/flood.names" -l "$secs" -c 8 -q 200 \
		-t 3 >"$work/dnsperf.out" 2>&1 &
	perf=$!
	"$LOADCLIENT" -m lib -s "$sock" -c 1 -n $((secs * 100)) -i 10 -T "$secs" \
		www.secure.lab >"$work/probe.out" 2>&1 &
	probe=$!
	max=0
	while kill -0 "$perf" 2>/dev/null; do
		r=$(rss_kib "$dpid")
		[ "$r" -gt "$max" ] && max=$r
		sleep 1
	done
	wait "$perf"
	wait "$probe"
	final=$(rss_kib "$dpid")
	qps=$(sed -n 's/.*Queries per second: *\([0-9.]*\).*/\1/p' "$work/dnsperf.out")
	sent=$(sed -n 's/.*Queries sent: *\([0-9]*\).*/\1/p' "$work/dnsperf.out")
	lost=$(sed -n 's/.*Queries lost: *\([0-9]*\).*/\1/p' "$work/dnsperf.out")
	figure "flood ${secs}s: sent=$sent lost=$lost qps=$qps rss_start_kib=$base rss_max_kib=$max rss_end_kib=$final cache=${cache_mib}MiB"
	figure "flood probe (cached www.secure.lab every 10 ms): $(cat "$work/probe.out")"
	limit=$(( (cache_mib + ${LOAD_OVERHEAD_MIB:-24}) * 1024 ))
	check "flood: RSS at most cache-size + ${LOAD_OVERHEAD_MIB:-24} MiB (max ${max} KiB)" \
		test "$max" -le "$limit"
	check "flood: dnstrustd lived through it" kill -0 "$dpid"
	p99=$(val p99_ms <"$work/probe.out")
	check "flood: cached name p99 under 10 ms (${p99} ms)" \
		awk -v v="$p99" 'BEGIN { exit !(v != "" && v < 10) }'
	check "flood: every probe answered" \
		test "$(val ok <"$work/probe.out")" = "$(val total <"$work/probe.out")"
	stop_daemon
fi

# --- clients: 10,000 through NSS ---
printf 'passwd: files\ngroup: files\nhosts: files dnstrust\n' >"$work/nss.conf"
nss_run() { # CMD...: private mount namespace, our socket at the fixed path
	ns_run "$work/nss.conf" - "$work/run" "$NSSDIR" "$@"
}
if want clients; then
	write_conf "$LAB_RESOLVER"
	check "clients: dnstrustd starts" start_daemon
	secure_now www.secure.lab. && secure_now www.insecure.lab.
	ulimit -n 65536 2>/dev/null
	nss_run "$LOADCLIENT" -m nss -c 10000 -n 10000 -d 60000 \
		www.secure.lab www.insecure.lab >"$work/nss.out" 2>&1
	figure "10000 concurrent getaddrinfo through NSS: $(cat "$work/nss.out")"
	check "clients: 10,000 concurrent NSS lookups all answered with an address" \
		test "$(val ok <"$work/nss.out")" = 10000
	check "clients: dnstrustd lived through it" kill -0 "$dpid"
	# One thread, 10,000 lookups of a cached name one after another:
	# getaddrinfo(3) through the module, then dt_getaddrinfo.
	# wall_s and cpu_s (user + system) are the whole program's.
	for m in nss lib; do
		TIMEFORMAT='wall_s=%R cpu_s=%U+%S'
		{ time if [ $m = nss ]; then
			nss_run "$LOADCLIENT" -m nss -c 1 -n 10000 www.secure.lab
		else
			"$LOADCLIENT" -m lib -s "$sock" -c 1 -n 10000 www.secure.lab
		fi >"$work/seq.$m" 2>&1; } 2>"$work/seq.$m.time"
		figure "10000 getaddrinfo in a row, one thread, $m:" \
			"$(cat "$work/seq.$m") $(cat "$work/seq.$m.time")"
		check "clients: 10,000 lookups in a row ($m) all answered" \
			test "$(val ok <"$work/seq.$m")" = 10000
	done
	stop_daemon
fi

# --- faults of the upstream ---
if want faults; then
	write_conf "$proxy"
	check "faults: dnstrustd starts behind the fault proxy" start_daemon
	secure_now www.secure.lab.
	base=$(rss_kib "$dpid")
	for m in blackhole garbage "delay 10" flap refuse; do
		echo "$m" >"$mode"
		rand_names 300 secure.lab. A | cut -d' ' -f1 >"$work/f.names"
		"$LOADCLIENT" -m lib -s "$sock" -c 100 -n 600 -t 10000 \
			-d $(( (timeout_s + 2) * 1000 * 6 )) \
			www.secure.lab $(cat "$work/f.names") >"$work/f.out" 2>&1
		figure "upstream $m: $(cat "$work/f.out") rss_kib=$(rss_kib "$dpid")"
		check "faults ($m): no client hung" test "$(val hung <"$work/f.out")" = 0
		check "faults ($m): each answer within query-timeout + 1 s" \
			awk -v v="$(val max_ms <"$work/f.out")" -v t=$timeout_s \
			'BEGIN { exit !(v != "" && v <= (t + 1) * 1000) }'
		check "faults ($m): dnstrustd lives" kill -0 "$dpid"
		check "faults ($m): a cached secure name is still served secure" \
			secure_now www.secure.lab.
	done
	check "faults: RSS grew under 64 MiB ($base -> $(rss_kib "$dpid") KiB)" \
		test $(( $(rss_kib "$dpid") - base )) -lt 65536
	echo pass >"$mode"
	sleep 1
	q -c CH flush.dnstrust. TXT >/dev/null
	check "faults: service resumes once the upstream answers" \
		secure_now www.nsec3.lab.
	stop_daemon
fi

# --- kill: SIGKILL with 1,000 clients in flight ---
if want kill; then
	write_conf "$proxy"
	echo blackhole >"$mode"
	check "kill: dnstrustd starts" start_daemon
	rand_names 1000 secure.lab. A | cut -d' ' -f1 >"$work/k.names"
	"$LOADCLIENT" -m lib -s "$sock" -c 1000 -n 1000 -t 8000 -d 15000 \
		$(cat "$work/k.names") >"$work/k.out" 2>&1 &
	lc=$!
	sleep 1.5
	kill -KILL "$dpid"
	wait "$dpid" 2>/dev/null
	dpid=""
	rc=0
	wait "$lc" || rc=$?
	figure "SIGKILL with 1000 in flight: $(cat "$work/k.out")"
	check "kill: every client returned (none hung)" test "$rc" = 0
	check "kill: every client got \"unavailable\"" \
		test "$(val unavailable <"$work/k.out")" = 1000
	echo pass >"$mode"
	check "kill: restarted over the stale socket" start_daemon
	sleep 0.5
	check "kill: the restarted daemon serves secure answers" \
		secure_now www.secure.lab.
	stop_daemon
fi

# --- clock: wall-clock jumps under the running daemon ---
faketime_lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -1)
if want clock; then
	if [ -z "$faketime_lib" ]; then
		not_ok "clock: libfaketime installed (make deps)"
	else
		echo "+0" >"$work/faketime"
		write_conf "$LAB_RESOLVER" \
			"auto-trust-anchor-file $work/state/root.key"
		mkdir -p "$work/state"
		chown "$(daemon_user)" "$work/state"
		old=$(stat -c %i "$sock" 2>/dev/null)
		LD_PRELOAD=$faketime_lib FAKETIME_TIMESTAMP_FILE=$work/faketime \
		FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1 \
			"$DNSTRUSTD" -c "$conf" -f 2>>"$dlog" &
		dpid=$!
		# (the socket left by the last daemon, no longer root, is
		# replaced: wait for the new one)
		wait_socket "$sock" "$old"
		check "clock: dnstrustd starts under libfaketime" test -S "$sock"
		check "clock: secure before the jumps" secure_now www.secure.lab.
		for j in +1d -1d +0; do
			echo "$j" >"$work/faketime"
			sleep 0.3
			q -c CH flush.dnstrust. TXT >/dev/null
			check "clock $j: secure answers stay secure" \
				secure_now www.sub.secure.lab.
			check "clock $j: cached answers still secure" \
				secure_now www.secure.lab.
			check "clock $j: dnstrustd lives" kill -0 "$dpid"
		done
		# The control: past the lab's signature windows (now + 30 days)
		# a fresh validation must fail, or the jumps never reached it.
		echo "+40d" >"$work/faketime"
		sleep 0.3
		q -c CH flush.dnstrust. TXT >/dev/null
		check "clock +40d: signatures expired: bogus, EDE 7 (the jump is seen)" \
			test "$(q www.secure.lab. A | field ede)" = 7
		echo "+0" >"$work/faketime"
		sleep 0.3
		q -c CH flush.dnstrust. TXT >/dev/null
		check "clock back: secure again" secure_now www.secure.lab.
		check "clock: RFC 5011 state still holds a VALID anchor" \
			grep -q 'VALID' "$work/state/root.key"
		stop_daemon
	fi
fi

# --- state: the RFC 5011 directory full, then read-only ---
# state.sh runs in a private mount namespace: a 64 KiB tmpfs over the
# state directory holding the saved state file, filled or made read-only,
# dnstrustd run on it until it is told to stop (its PID in inner.pid),
# then the state file's checksum written to sum.HOW.
state_sh() {
	cat <<'EOF'
set -e
work=$1 daemon=$2 conf=$3 how=$4 duser=$5
mount -t tmpfs -o size=64k dtload-state "$work/st"
cp "$work/root.key.saved" "$work/st/root.key"
chown "$duser" "$work/st" "$work/st/root.key" # the daemon's, as packaged
if [ "$how" = full ]; then
	dd if=/dev/zero of="$work/st/fill" bs=4k 2>/dev/null || true
else
	mount -o remount,ro "$work/st"
fi
"$daemon" -c "$conf" -f &
echo $! >"$work/inner.pid"
wait $! || true
sha256sum <"$work/st/root.key" >"$work/sum.$how"
EOF
}
if want state; then
	duser=$(daemon_user)
	mkdir -p "$work/st"
	chown "$duser" "$work/st"
	write_conf "$LAB_RESOLVER" "auto-trust-anchor-file $work/st/root.key"
	check "state: a first daemon writes the state file" start_daemon
	wait_for 50 [ -s "$work/st/root.key" ]
	secure_now www.secure.lab.
	stop_daemon
	cp "$work/st/root.key" "$work/root.key.saved"
	sum=$(sha256sum <"$work/root.key.saved")
	state_sh >"$work/state.sh"
	for how in full ro; do
		: >"$dlog"
		rm -f "$work/inner.pid"
		old=$(stat -c %i "$sock" 2>/dev/null)
		unshare --mount --propagation private -- /bin/bash \
			"$work/state.sh" "$work" "$DNSTRUSTD" "$conf" "$how" "$duser" \
			2>>"$dlog" &
		wrapper=$!
		# (the last daemon's socket stays: wait for the new one)
		wait_socket "$sock" "$old"
		sleep 1
		check "state ($how): answers still secure" secure_now www.secure.lab.
		check "state ($how): the write failure is logged" \
			grep -q 'cannot write the RFC 5011 state' "$dlog"
		inner=$(cat "$work/inner.pid" 2>/dev/null)
		check "state ($how): dnstrustd lives" kill -0 "$inner"
		kill "$inner" 2>/dev/null
		wait "$wrapper"
		check "state ($how): the state file still holds the anchor, unchanged" \
			test "$(cat "$work/sum.$how" 2>/dev/null)" = "$sum"
		figure "state ($how): $(grep -m1 'cannot write' "$dlog")"
	done
fi

finish
