# SPDX-License-Identifier: MIT
#
# Sourced by the dnstrustd lab tests (lab_daemon.sh, lab_policy.sh): TAP
# counters and checks, a work directory with the integration lab started
# in it, dnstrustd started on a configuration there, and the dtq client.
# The caller sets DNSTRUSTD, DTQ and LAB_SH first.

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "$2" | sed 's/^/#   /'
}
check() { # description, then a command that must succeed
	local d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

# lab_start NAME: $work (mode 755: an unprivileged client must reach the
# socket), the lab started in $work/lab and its lab.env sourced; $sock and
# $conf named; $dlog the daemon's log. On exit the daemon ($dpid), the
# PIDs in $extra_pids, the lab and $work go.
lab_start() {
	work=$(mktemp -d "/tmp/dt-$1.XXXXXX")
	chmod 755 "$work"
	lab=$work/lab
	sock=$work/run/socket
	conf=$work/dnstrust.conf
	dlog=$work/dnstrustd.log
	dpid=""
	extra_pids=""
	trap lab_cleanup EXIT
	if ! "$LAB_SH" start "$lab" >"$work/lab.log" 2>&1; then
		echo "1..1"
		echo "not ok 1 - lab starts"
		sed 's/^/#   /' "$work/lab.log" | tail -20
		exit 1
	fi
	. "$lab/lab.env"
}

lab_cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	for p in $extra_pids; do kill "$p" 2>/dev/null; done
	"$LAB_SH" stop "$lab" >/dev/null 2>&1
	rm -rf "$work"
}

# start_daemon [OPTION...]: dnstrustd -f on $conf, stderr appended to
# $dlog; returns once its socket accepts connections (5 s at most).
start_daemon() {
	local old
	old=$(stat -c %i "$sock" 2>/dev/null)
	"$DNSTRUSTD" -c "$conf" -f "$@" 2>>"$dlog" &
	dpid=$!
	# A socket left by a daemon that had given up root is replaced.
	for _ in $(seq 50); do
		[ -S "$sock" ] && [ "$(stat -c %i "$sock")" != "$old" ] && return 0
		sleep 0.1
	done
	return 1
}

q() { "$DTQ" -s "$sock" "$@"; }
field() { # KEY, then the output of dtq on stdin
	sed -n "1s/.* $1=\([^ ]*\).*/\1/p; 1s/^$1=\([^ ]*\).*/\1/p"
}
