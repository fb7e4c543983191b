#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd's start-up and the admin's tools around it, without a lab or
# systemd: --version and --help; -T checked; -n refusing what a start
# refuses (missing, garbage or unusable anchors, an unknown user, an
# RFC 5011 state file in a missing directory); start-up errors on stderr
# without -f and the starting process exiting with the verdict; no stale
# socket after a failed bind; readiness, reloads and stopping told to a
# test $NOTIFY_SOCKET, READY only once the socket accepts; the socket
# passed by systemd-socket-activate; dnstrust reload's verdict (file:line
# when refused); a relative -c in daemon mode; the dnstrust command's
# --version, -h, directory and name errors.
#
# usage: startup.sh DNSTRUSTD DNSTRUST NOTIFY_LISTEN    (TAP on stdout)
set -u

D=$1 C=$2 LISTENER=$3
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

work=$(mktemp -d /tmp/dt-startup.XXXXXX)
# The daemon gives up root once its sockets are bound (_dnstrust, or
# nobody): it must still read its files here on a reload.
chmod 755 "$work"
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	sleep 0.2
	rm -rf "$work"
}
trap cleanup EXIT
net=${LAB_NET:-127.0.6}
echo "nameserver $net.1" >"$work/resolv.conf"
sock=$work/run/socket

# conf FILE [LINE...]: a configuration on $sock and $work/resolv.conf.
conf() {
	local f=$1; shift
	{
		echo "socket $sock"
		echo "resolv-conf $work/resolv.conf"
		for l in "$@"; do echo "$l"; done
		echo "resolution forward" # never from the root here
	} >"$f"
}

# run NAME CMD...: CMD's exit status in $rc, stdout and stderr in
# $work/NAME.out and $work/NAME.err.
run() {
	local name=$1; shift
	"$@" >"$work/$name.out" 2>"$work/$name.err"
	rc=$?
}
# expect DESC RC PATTERN NAME: the last run exited RC and PATTERN is in
# NAME's stderr (stdout for an 'out:' pattern).
expect() {
	local d=$1 want=$2 pat=$3 name=$4 f=$work/$4.err
	case $pat in out:*) f=$work/$name.out pat=${pat#out:} ;; esac
	if [ "$rc" = "$want" ] && grep -qF -- "$pat" "$f"; then
		ok "$d"
	else
		not_ok "$d" "exit $rc (want $want); $(cat "$work/$name.out" \
			"$work/$name.err" | head -5)"
	fi
}

# --- options ---

run ver "$D" --version
expect "dnstrustd --version" 0 "out:dnstrustd " ver
run help "$D" -h
expect "dnstrustd -h: usage on stdout, exit 0" 0 "out:usage: dnstrustd" help
run helpl "$D" --help
expect "dnstrustd --help" 0 "out:-n " helpl
run tabc "$D" -T abc -n
expect "dnstrustd -T abc refused (64)" 64 "-T abc: not a number" tabc
run t12x "$D" -T 12x -n
expect "dnstrustd -T 12x refused (64)" 64 "not a number" t12x
run extra "$D" -f extra
expect "dnstrustd: an operand refused (64)" 64 "unexpected argument" extra

# --- dnstrustd -n: what a start checks ---

conf "$work/good.conf"
run good "$D" -n -c "$work/good.conf"
expect "-n: a good configuration, printed" 0 "out:socket $sock" good
expect "-n: ends with its verdict" 0 "dnstrustd: configuration OK" good
check "-n: the verdict is the last line, no warning" \
	test "$(tail -1 "$work/good.err")" = "dnstrustd: configuration OK"
run refused "$D" -n -c "$work/no-such.conf"
check "-n: a refused configuration ends with the verdict" \
	test "$rc/$(tail -1 "$work/refused.err")" = "1/dnstrustd: configuration refused"

# What works, but not as its author may think: warnings, then the verdict.
echo ". IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D" \
	>"$work/warn.key"
mkdir -m 755 "$work/wstate" && printf 'dnstrust-autotrust 1\n' >"$work/wstate/root.key"
mkdir -m 700 "$work/private"
echo "nameserver $net.1" >"$work/private/resolv.conf"
{
	echo "socket $sock"
	echo "resolv-conf $work/private/resolv.conf"
	echo "trust-anchor-file $work/warn.key"
	echo "auto-trust-anchor-file $work/wstate/root.key"
	echo "negative-trust-anchor old.example until 2020-01-01"
	echo "user nobody"
	echo "resolution forward"
} >"$work/warn.conf"
run warn "$D" -n -c "$work/warn.conf"
expect "-n warns: a trust-anchor-file ignored for the RFC 5011 state" 0 \
	"warning: trust-anchor-file $work/warn.key is ignored: the RFC 5011 state $work/wstate/root.key exists" warn
expect "-n warns: a negative trust anchor whose end is past" 0 \
	"warning: negative-trust-anchor old.example.: its end, 2020-01-01, is past" warn
expect "-n warns: a resolv.conf the daemon's user cannot read" 0 \
	"warning: once root is given up, user nobody cannot read $work/private/resolv.conf" warn
expect "-n warns: a state directory the daemon's user cannot write in" 0 \
	"user nobody cannot write in $work/wstate" warn
expect "-n: the verdict counts them" 0 "dnstrustd: configuration OK, 4 warnings" warn
conf "$work/norc.conf"
sed -i "s|^resolv-conf .*|resolv-conf $work/nonexistent.conf|" "$work/norc.conf"
run norc "$D" -n -c "$work/norc.conf"
expect "-n warns: a missing resolv.conf (resolution forward: names fail)" 0 \
	"warning: resolv-conf $work/nonexistent.conf: No such file or directory: no upstream until it appears (resolution forward" norc

conf "$work/missing.conf" "trust-anchor-file $work/nonexistent.key"
run missing "$D" -n -c "$work/missing.conf"
expect "-n: a missing trust-anchor-file refused" 1 \
	"$work/nonexistent.key: " missing

echo "this is not a zone file" >"$work/garbage.key"
conf "$work/garbage.conf" "trust-anchor-file $work/garbage.key"
run garbage "$D" -n -c "$work/garbage.conf"
expect "-n: a garbage trust-anchor-file refused with file:line" 1 \
	"$work/garbage.key:1:" garbage

: >"$work/empty.key"
conf "$work/empty.conf" "trust-anchor-file $work/empty.key"
run empty "$D" -n -c "$work/empty.conf"
expect "-n: a trust-anchor-file without a key refused" 1 \
	"no DS or DNSKEY record" empty

# GOST (algorithm 12, digest 3): parses, but nothing can validate with it.
echo ". IN DS 20326 12 3 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" \
	>"$work/gost.key"
conf "$work/gost.conf" "trust-anchor-file $work/gost.key"
run gost "$D" -n -c "$work/gost.conf"
expect "-n: anchors with no usable key refused" 1 "no usable key" gost

conf "$work/user.conf" "user dt-no-such-user"
run user "$D" -n -c "$work/user.conf"
expect "-n: an unknown user refused" 1 "user dt-no-such-user: no such user" \
	user

conf "$work/at.conf" "auto-trust-anchor-file $work/nodir/root.key"
run at "$D" -n -c "$work/at.conf"
expect "-n: an RFC 5011 state file in a missing directory refused" 1 \
	"directory $work/nodir is missing" at

mkdir "$work/state"
conf "$work/at2.conf" "auto-trust-anchor-file $work/state/root.key"
run at2 "$D" -n -c "$work/at2.conf"
if [ "$rc" = 0 ] && [ ! -e "$work/state/root.key" ]; then
	ok "-n: a new RFC 5011 state checked, not written"
else
	not_ok "-n: a new RFC 5011 state checked, not written" \
		"exit $rc; $(ls "$work/state")"
fi

conf "$work/addr.conf" "listen 300.1.2.3@53"
run addr "$D" -n -c "$work/addr.conf"
expect "-n: a bad listen address refused with file:line" 1 \
	"$work/addr.conf:3:" addr

# --- starting: errors on stderr, the verdict as exit status ---

run startmissing "$D" -c "$work/missing.conf"
expect "start (no -f): a missing anchor file on stderr, exit 1" 1 \
	"$work/nonexistent.key" startmissing

# 192.0.2.1 (TEST-NET-1) is no address of this host: bind fails after the
# Unix socket was made (allow-remote: a non-loopback listener is refused
# otherwise, before any socket).
conf "$work/bind.conf" "listen 192.0.2.1@53" "allow-remote 192.0.2.0/24"
run bind "$D" -c "$work/bind.conf"
expect "start (no -f): a failed bind on stderr, exit 1" 1 \
	"listen 192.0.2.1" bind
if [ ! -e "$sock" ]; then
	ok "no stale socket after the failed bind"
else
	not_ok "no stale socket after the failed bind" "$(ls -l "$sock")"
fi
run bindf "$D" -f -c "$work/bind.conf"
if [ "$rc" = 1 ] && [ ! -e "$sock" ]; then
	ok "no stale socket after a failed bind in the foreground"
else
	not_ok "no stale socket after a failed bind in the foreground" \
		"exit $rc"
fi

# Daemon mode with a relative -c: the starting process exits 0 once the
# socket accepts; a reload reads the same file.
rel=$(basename "$work").conf
conf "$work/$rel"
run daemon sh -c "cd '$work' && exec '$D' -c '$rel'"
if [ "$rc" = 0 ] && [ -S "$sock" ] && ! grep -q error "$work/daemon.err"; then
	ok "start (no -f): exit 0 once ready, the socket there, no error"
else
	not_ok "start (no -f): exit 0 once ready, the socket there, no error" \
		"exit $rc; $(cat "$work/daemon.err")"
fi
# The detached process (the one that listened has exited), by its
# command line.
dpid=""
for p in /proc/[0-9]*; do
	[ "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" = "$D -c $rel " ] &&
		dpid="$dpid ${p#/proc/}"
done
dpid=${dpid# }
[ -n "$dpid" ] && pids="$pids $dpid"
run relreload "$C" reload --socket "$sock"
expect "relative -c, detached: dnstrust reload reads the file again" 0 \
	"out:reloaded" relreload
echo "cache-size 1" >>"$work/$rel"
run relbad "$C" reload --socket "$sock"
expect "dnstrust reload: a refused file exits 4 with its absolute file:line" \
	4 "$work/$rel:4: cache-size" relbad
sed -i '$d' "$work/$rel"
run relgood "$C" reload --socket "$sock"
expect "dnstrust reload: the corrected file taken, exit 0" 0 "out:reloaded" \
	relgood
# Running as _dnstrust or nobody, the daemon cannot remove its socket
# from the root-owned directory: what is left accepts nobody, and the next
# start replaces it.
if [ -n "$dpid" ] && kill "$dpid" && wait_for 50 test ! -e "/proc/$dpid" &&
	! "$C" status --socket "$sock" >/dev/null 2>&1; then
	ok "SIGTERM: the daemon stops, its socket answers no more"
else
	not_ok "SIGTERM: the daemon stops, its socket answers no more" \
		"pid '$dpid'"
fi

# --- sd_notify ---

conf "$work/notify.conf"
"$LISTENER" "$work/notify" "$sock" >"$work/notify.log" 2>&1 &
lpid=$!
pids="$pids $lpid"
wait_for 50 test -S "$work/notify"
# Writable by all, as systemd's own notify socket is: the daemon tells
# readiness after giving up root.
chmod 666 "$work/notify"
NOTIFY_SOCKET=$work/notify "$D" -f -c "$work/notify.conf" \
	2>"$work/notifyd.err" &
npid=$!
pids="$pids $npid"
if wait_for 50 grep -q '^READY=1' "$work/notify.log" &&
	grep -q '^READY=1 socket-ready' "$work/notify.log"; then
	ok "sd_notify: READY=1 arrives, once the socket accepts"
else
	not_ok "sd_notify: READY=1 arrives, once the socket accepts" \
		"$(cat "$work/notify.log")"
fi
if grep -q "^MAINPID=$npid" "$work/notify.log"; then
	ok "sd_notify: MAINPID is the daemon's"
else
	not_ok "sd_notify: MAINPID is the daemon's" "$(cat "$work/notify.log")"
fi
kill -HUP "$npid"
ready_twice() { [ "$(grep -c '^READY=1' "$work/notify.log")" -ge 2 ]; }
if wait_for 50 grep -q '^RELOADING=1' "$work/notify.log" &&
	wait_for 50 ready_twice; then
	ok "sd_notify: RELOADING=1 then READY=1 around a reload"
else
	not_ok "sd_notify: RELOADING=1 then READY=1 around a reload" \
		"$(cat "$work/notify.log")"
fi
kill "$npid"
if wait_for 50 grep -q '^STOPPING=1' "$work/notify.log"; then
	ok "sd_notify: STOPPING=1"
else
	not_ok "sd_notify: STOPPING=1" "$(cat "$work/notify.log")"
fi
wait "$npid" 2>/dev/null

# --- stderr connected to the journal ---

# systemd names the stream it connected stderr to in $JOURNAL_STREAM
# (device:inode); lines then carry their priority as "<N>", no time.
conf "$work/journal.conf"
: >"$work/journal.err"
JOURNAL_STREAM=$(stat -c %d:%i "$work/journal.err") \
	"$D" -f -c "$work/journal.conf" 2>>"$work/journal.err" &
jpid=$!
pids="$pids $jpid"
wait_for 50 grep -q started "$work/journal.err"
kill "$jpid"
wait "$jpid" 2>/dev/null
if grep -q '^<5>dnstrustd .* started' "$work/journal.err" &&
	! grep -qv '^<[0-7]>' "$work/journal.err"; then
	ok "journal stream: every line with its priority, <5> for notice"
else
	not_ok "journal stream: every line with its priority, <5> for notice" \
		"$(head -5 "$work/journal.err")"
fi
rm -f "$sock"

# --- the socket passed by the service manager ---

if command -v systemd-socket-activate >/dev/null; then
	conf "$work/sa.conf"
	mkdir -p "$work/run"
	rm -f "$sock"	# what an unprivileged daemon above left behind
	systemd-socket-activate -l "$sock" "$D" -f -c "$work/sa.conf" \
		2>"$work/sa.err" &
	sapid=$!
	pids="$pids $sapid"
	wait_for 50 test -S "$sock"
	run sa "$C" status --socket "$sock"
	expect "socket activation: dnstrustd serves the socket passed" 0 \
		"out:reachable and trusted" sa
	kill "$sapid"
	wait "$sapid" 2>/dev/null
	if [ -S "$sock" ] && ! grep -q 'error' "$work/sa.err"; then
		ok "socket activation: the passed socket is left to its owner"
	else
		not_ok "socket activation: the passed socket is left to its owner" \
			"$(cat "$work/sa.err")"
	fi
	rm -f "$sock"
else
	ok "# SKIP systemd-socket-activate not installed"
	ok "# SKIP systemd-socket-activate not installed"
fi

# --- warnings in the log and in status ---

# The configuration of the -n warnings above: the daemon logs them at the
# start and status lists them; as nobody it cannot watch the 0700
# directory of resolv.conf, says so, and reads the file again (every
# 30 s) until it can: made searchable, the next read finds the change.
"$D" -c "$work/warn.conf" -f 2>"$work/wdaemon.log" &
wpid=$!
pids="$pids $wpid"
if wait_for 50 "$C" status --socket "$sock" >/dev/null 2>&1; then
	"$C" status --socket "$sock" >"$work/wstatus.out" 2>&1
	grep -q "^warning: *trust-anchor-file $work/warn.key is ignored" "$work/wstatus.out" &&
		grep -q "trust-anchor-file $work/warn.key is ignored" "$work/wdaemon.log"
	result $? "the ignored trust-anchor-file: in the log at the start and in status"
	grep -q "^warning: *resolv-conf $work/private/resolv.conf: cannot watch for changes (Permission denied); read again every 30 s" \
		"$work/wstatus.out"
	result $? "resolv.conf not watchable as nobody: status says so"
	echo "nameserver $net.2" >"$work/private/resolv.conf"
	chmod 755 "$work/private"
	if wait_for 350 grep -q "is readable and watched again" "$work/wdaemon.log"; then
		"$C" status --socket "$sock" >"$work/wstatus2.out" 2>&1
		! grep -q "resolv-conf.*cannot watch" "$work/wstatus2.out" &&
			grep -q "^upstream: *$net.2" "$work/wstatus2.out"
		result $? "read again: the new upstream taken, the warning gone"
	else
		not_ok "read again within 35 s" "$(tail -5 "$work/wdaemon.log")"
	fi
else
	not_ok "dnstrustd starts with warn.conf" "$(tail -5 "$work/wdaemon.log")"
fi
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
rm -f "$sock"

# --- the dnstrust command ---

run cver "$C" --version
expect "dnstrust --version" 0 "out:dnstrust " cver
run ch "$C" -h
expect "dnstrust -h" 0 "out:usage: dnstrust COMMAND" ch
for sub in query status tlsa sshfp flush reload audit verify; do
	run "sub-$sub" "$C" "$sub" -h
	expect "dnstrust $sub -h" 0 "out:usage: dnstrust $sub" "sub-$sub"
	run "subv-$sub" "$C" "$sub" --version
	expect "dnstrust $sub --version" 0 "out:dnstrust " "subv-$sub"
done
for sub in status tlsa sshfp flush reload monitor statistics log-level; do
	run "opt-$sub" "$C" "$sub" --help
	expect "dnstrust $sub --help: its options explained" 0 \
		"out:  --socket PATH   the daemon's socket" "opt-$sub"
done
run vdir "$C" verify "$work"
expect "dnstrust verify DIRECTORY refused" 4 "is a directory" vdir
run vadir "$C" verify --anchor "$work" "$work/good.conf"
expect "dnstrust verify --anchor DIRECTORY refused" 4 "is a directory" vadir
label=$(printf 'a%.0s' $(seq 64))
run lbl "$C" tlsa "$label.example" 443
expect "a 64-octet label: the limit named" 64 "at most 63" lbl
long=$(for _ in $(seq 52); do printf 'abcd.'; done)example
run long "$C" sshfp "$long"
expect "a 265-octet name: the limit named" 64 "longer than 255 octets" long
run elabel "$C" flush "a..example"
expect "an empty label: said" 64 "empty label" elabel

# Usage errors say why; a path that is not a socket is said to be one.
run tport "$C" tlsa x.example 99999 --socket "$work/none"
expect "tlsa NAME 99999: the port's range said" 64 \
	"dnstrust tlsa: bad port '99999': a number from 1 to 65535" tport
run mcount "$C" monitor --count 0 --socket "$work/none"
expect "monitor --count 0: why said" 64 \
	"--count takes a whole number of 1 or more, not '0'" mcount
run llev "$C" log-level verbose --socket "$work/none"
expect "log-level verbose: the levels named" 64 \
	"unknown level 'verbose': error, warning, notice, info or debug" llev
run nsock "$C" status --socket /etc/passwd
expect "--socket /etc/passwd: not a socket" 69 \
	"dnstrustd unavailable at /etc/passwd: not a socket" nsock
run nofile "$C" status --socket "$work/none"
expect "--socket to a missing file: no such file" 69 \
	"unavailable at $work/none: no such file" nofile

# IDN: UTS #46, non-transitional (ß kept); both forms shown.
run idn "$C" query "bücher.example" --socket "$work/none"
expect "query bücher.example: asked as xn--bcher-kva.example, both shown" 69 \
	"out:;; bücher.example (xn--bcher-kva.example)" idn
run idn2 "$C" query "Straße.de" --socket "$work/none"
expect "query Straße.de: non-transitional, ß kept (xn--strae-oqa.de)" 69 \
	"out:;; Straße.de (xn--strae-oqa.de)" idn2
run idn3 "$C" query "☃.example" --socket "$work/none"
expect "a name IDNA2008 disallows: refused with the reason" 64 \
	"is not a valid internationalized name: string contains a disallowed character" idn3

finish
