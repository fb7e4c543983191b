# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC3043 # local: dash and bash have it
#
# Sourced by the test scripts (sh or bash; meson passes its path in
# DT_HARNESS):
#   . "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
#
# TAP       ok, not_ok, check, result, skip, diag, plan, finish, bail,
#           skip_all
# waiting   wait_for, wait_socket, wait_log
# the lab   lab_start (and lab_cleanup on exit), start_daemon, stop_daemon,
#           q, field (dtq), shared_copy
# NSS       ns_run: a command in a private mount namespace
# zones     zone_keys, sign_zone (ldns-signzone and dnssec-signzone)
#
# POSIX sh and local (dash, bash). Every function is safe under set -e and
# set -u.

# --- TAP ---

n=0 failed=0

# ok DESCRIPTION
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

# not_ok DESCRIPTION [DETAIL]: DETAIL (lines) shown as diagnostics.
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	if [ -n "${2:-}" ]; then
		printf '%s\n' "$2" | sed 's/^/#   /'
	fi
	return 0
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds; returns its
# status.
check() {
	local d="$1" rc=0
	shift
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then ok "$d"; else not_ok "$d"; fi
	return "$rc"
}

# result STATUS DESCRIPTION: ok when STATUS is 0 (as in `cmd; result $? d`).
result() {
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}

# skip REASON: a check not run ("ok N # SKIP REASON").
skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

# diag [FILE...]: the files (or stdin) as TAP diagnostics.
diag() {
	sed 's/^/# /' "$@"
}

# plan: the trailing plan, 1..N for the N checks so far.
plan() {
	echo "1..$n"
}

# finish: the plan, then succeeds only if no check failed (the last
# command of a script: its exit status).
finish() {
	plan
	[ "$failed" -eq 0 ]
}

# bail DESCRIPTION [DETAIL]: one more check, failed, and the end.
bail() {
	not_ok "$@"
	plan
	exit 1
}

# skip_all REASON: the whole test skipped (no check run yet).
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# --- waiting ---

# wait_for TENTHS COMMAND...: COMMAND succeeds within TENTHS tries, a
# tenth of a second apart.
wait_for() {
	local tries="$1" i=0
	shift
	while ! "$@"; do
		i=$((i + 1))
		[ "$i" -lt "$tries" ] || return 1
		sleep 0.1
	done
	return 0
}

# new_socket PATH [INODE]: PATH is a socket, another than inode INODE.
new_socket() {
	[ -S "$1" ] && [ "$(stat -c %i "$1" 2>/dev/null)" != "${2:-}" ]
}

# wait_socket PATH [INODE]: within 5 s PATH is a socket, and not the one
# of inode INODE (a socket left by a daemon that had given up root, which
# the next one replaces).
wait_socket() {
	wait_for 50 new_socket "$@"
}

# wait_log TEXT: within 5 s the daemon's log ($dlog) has a line with the
# fixed string TEXT.
wait_log() {
	wait_for 50 grep -qF -- "$1" "$dlog"
}

# --- the lab (tests/lab/lab.sh) and dnstrustd ---

# lab_start NAME: $work (/tmp/dt-NAME.*, mode 755: an unprivileged client
# must reach the socket), the lab started in $work/lab by $LAB_SH and its
# lab.env sourced; $sock, $conf and $dlog (the daemon's log) named. On exit
# the daemon ($dpid), the PIDs in $extra_pids, the lab and $work go. A lab
# that does not start is one failed check and the end.
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
		bail "lab starts" "$(tail -20 "$work/lab.log")"
	fi
	. "$lab/lab.env"
}

lab_cleanup() {
	local p
	if [ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null; then
		wait "$dpid" 2>/dev/null || :
	fi
	for p in ${extra_pids:-}; do kill "$p" 2>/dev/null || :; done
	"$LAB_SH" stop "$lab" >/dev/null 2>&1 || :
	rm -rf "$work"
}

# start_daemon [OPTION...]: $DNSTRUSTD -f on $conf, stderr appended to
# $dlog; succeeds once $sock accepts connections (5 s at most).
start_daemon() {
	local old
	old=$(stat -c %i "$sock" 2>/dev/null) || old=""
	"$DNSTRUSTD" -c "$conf" -f "$@" 2>>"$dlog" &
	dpid=$!
	wait_socket "$sock" "$old"
}

# stop_daemon: SIGTERM to $dpid; succeeds if there was one and it exited
# with status 0. The daemon no longer runs as root then: its socket stays,
# refusing connections, as after a crash.
stop_daemon() {
	local rc=0
	[ -n "${dpid:-}" ] || return 1
	kill -TERM "$dpid" && wait "$dpid" || rc=$?
	dpid=""
	return "$rc"
}

q() { "$DTQ" -s "$sock" "$@"; }

# shared_copy FILE: prints the path of a copy of FILE in $work/shared
# (mode 755, the file too), for what a test runs as another user: the
# source and build trees may sit in a directory that only their owner
# reads (a 0700 home directory), and the copy keeps FILE's name.
shared_copy() {
	mkdir -p -m 755 "$work/shared" &&
		cp "$1" "$work/shared/" &&
		chmod 755 "$work/shared/${1##*/}" &&
		echo "$work/shared/${1##*/}"
}

# field KEY: the value of KEY= on the first line of dtq's output (stdin).
field() {
	sed -n "1s/.* $1=\([^ ]*\).*/\1/p; 1s/^$1=\([^ ]*\).*/\1/p"
}

# --- NSS in a private mount namespace ---

# ns_run NSSWITCH RESOLV RUNDIR LIBDIR COMMAND...: COMMAND in a private
# mount namespace (unshare -m; root) where, by bind mounts nobody outside
# sees, /etc/nsswitch.conf is NSSWITCH, the file glibc reads as
# /etc/resolv.conf is RESOLV (unless RESOLV is -), /run is a fresh tmpfs
# whose /run/dnstrust is RUNDIR (the module's fixed /run/dnstrust/socket
# reaches the test's daemon), with LD_LIBRARY_PATH=LIBDIR (where the
# module is). The host's /etc and /run are never written.
ns_run() {
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		nss=$1 resolv=$2 rundir=$3 libdir=$4
		shift 4
		mount --bind "$nss" /etc/nsswitch.conf
		# Where resolv.conf really is, before /run is covered (it may
		# be a symbolic link into /run).
		r=$(readlink -m /etc/resolv.conf)
		mount -t tmpfs -o mode=755 dt-test-run /run
		mkdir /run/dnstrust
		mount --bind "$rundir" /run/dnstrust
		if [ "$resolv" != - ]; then
			case $r in /run/*) mkdir -p "${r%/*}" && : >"$r" ;; esac
			mount --bind "$resolv" "$r"
		fi
		exec env LD_LIBRARY_PATH="$libdir" "$@"
	' ns "$@"
}

# --- signed zones ---

# zone_keys ldns ORIGIN ALG...: a KSK and a ZSK per algorithm number (8:
# RSASHA256, KSK 2048 and ZSK 1024 bits; 13: ECDSAP256SHA256; 15: ED25519)
# by ldns-keygen in the current directory; sets kALG and zALG to their
# names (K<origin>+<alg>+<tag>, without .key or .private).
# zone_keys bind ORIGIN DIR: an ECDSAP256SHA256 KSK and ZSK by
# dnssec-keygen in DIR (made); sets bk and bz.
# Fails when a key file is missing.
zone_keys() {
	local tool="$1" origin="$2" a name kb zb k z
	shift 2
	if [ "$tool" = bind ]; then
		mkdir -p "$1"
		bk=$(dnssec-keygen -q -K "$1" -a ECDSAP256SHA256 -f KSK -n ZONE \
			"$origin" 2>/dev/null)
		bz=$(dnssec-keygen -q -K "$1" -a ECDSAP256SHA256 -n ZONE \
			"$origin" 2>/dev/null)
		[ -f "$1/$bk.private" ] && [ -f "$1/$bz.private" ]
		return
	fi
	for a in "$@"; do
		kb="" zb=""
		case $a in
		8) name=RSASHA256 kb="-b 2048" zb="-b 1024" ;;
		13) name=ECDSAP256SHA256 ;;
		15) name=ED25519 ;;
		*) return 1 ;;
		esac
		# shellcheck disable=SC2086 # kb and zb: no word or two
		k=$(ldns-keygen -a $name $kb -k "$origin" 2>/dev/null)
		# shellcheck disable=SC2086
		z=$(ldns-keygen -a $name $zb "$origin" 2>/dev/null)
		eval "k$a=\$k z$a=\$z"
		[ -f "$k.private" ] && [ -f "$z.private" ] || return 1
	done
	return 0
}

# sign_zone ldns ORIGIN OUT OPTION... ZONE KEY...: ldns-signzone.
# sign_zone bind ORIGIN OUT KEYDIR OPTION... ZONE: dnssec-signzone -S
# (smart signing with the keys of KEYDIR).
# Both write the signed zone to OUT; the caller redirects their output.
sign_zone() {
	local tool="$1" origin="$2" out="$3"
	shift 3
	if [ "$tool" = bind ]; then
		local dir="$1"
		shift
		dnssec-signzone -S -K "$dir" -o "$origin" -f "$out" "$@"
	else
		ldns-signzone -o "$origin" -f "$out" "$@"
	fi
}
