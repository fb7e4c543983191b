#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Local clients of dnstrustd's socket that try to take it down or away
# from the others, as an unprivileged user, in the integration lab:
#
#   - use after free: 2,000 pipelined questions, closed without reading;
#   - memory pinning: 50 connections pipelining 64 KiB of questions for a
#     cached answer and never reading: the daemon's RSS grows by less
#     than 64 MiB, and the unread connections are closed at the write
#     stall timeout;
#   - slot exhaustion: 1,100 connections held open: root's
#     dt_getaddrinfo keeps getting secure answers, and the holder's own
#     questions get SERVFAIL with EDE 14, never silence;
#   - 1,280 questions for names an upstream never answers: the user's
#     1,025th question under way and later ones get SERVFAIL, EDE 14;
#   - a frame never finished is dropped at the frame timeout.
#
# The attacker is uid 4242, an account-less user: nobody is the daemon's
# own user where the system has no _dnstrust, and it is never limited.
#
# usage: lab_abuse.sh DNSTRUSTD DTQ LAB_SH GAIQ   (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 GAIQ=$4
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
ABUSE=$(cd "$(dirname "$0")" && pwd)/abuse.py
# The system's python3: a per-user one (pyenv) may not run as another user.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
lab_start lab-abuse
# The attacker's script, where uid 4242 can read it.
ABUSE=$(shared_copy "$ABUSE") || bail "abuse.py copied for uid 4242"
cp "$LAB_RESOLV_CONF" "$work/resolv.conf"
cat >"$conf" <<EOF
# written by lab_abuse.sh
socket $sock
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 1
log-level info
EOF
attacker() { setpriv --reuid=4242 --regid=4242 --clear-groups "$@"; }
rss_kib() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$dpid/status"; }

check "dnstrustd starts" start_daemon
check "www.secure.lab. A and . DNSKEY are secure, then cached" \
	bash -c "[ '$(q +do www.secure.lab. A | field status)' = secure ] &&
		 [ '$(q +do www.secure.lab. A | field cached)' = 1 ] &&
		 [ '$(q +do . DNSKEY | field status)' = secure ] &&
		 [ '$(q +do . DNSKEY | field cached)' = 1 ]"

# --- use after free ---

out=$(attacker "$PY" "$ABUSE" uaf "$sock" 20 2>&1)
check "20 connections of 2,000 pipelined questions closed unread ($out)" \
	test "$out" = done
sleep 0.5
check "the daemon is alive and answers" \
	bash -c "kill -0 $dpid && [ '$(q www.secure.lab. A | field status)' = secure ]"

# --- memory pinning ---

before=$(rss_kib)
attacker "$PY" "$ABUSE" pin "$sock" 50 . DNSKEY IN 1 13 >"$work/pin.out" 2>&1 &
pin=$!
extra_pids=$pin
wait_for 100 grep -q held "$work/pin.out"
peak=$before
for _ in $(seq 20); do
	r=$(rss_kib)
	[ "$r" -gt "$peak" ] && peak=$r
	sleep 0.1
done
grow=$(((peak - before) / 1024))
check "50 connections pinning 64 KiB of questions for a cached answer (. DNSKEY, DO) each: RSS $((before / 1024)) -> $((peak / 1024)) MiB, +$grow MiB (< 64)" \
	test "$grow" -lt 64
check "root is answered meanwhile" \
	test "$(q www.ed.lab. A | field status)" = secure
wait "$pin"
extra_pids=""
closed=$(sed -n 's/^closed=\([0-9]*\).*/\1/p' "$work/pin.out")
check "unread for 13 s, all 50 were closed by the write-stall timeout ($(tail -1 "$work/pin.out"))" \
	test "$closed" = 50

# --- slot exhaustion ---

attacker "$PY" "$ABUSE" hold "$sock" 1100 12 >"$work/hold.out" 2>&1 &
hold=$!
extra_pids=$hold
wait_for 100 grep -q held "$work/hold.out"
check "the attacker holds 1,100 connections ($(head -1 "$work/hold.out"))" \
	grep -q '^held 1100$' "$work/hold.out"
out=$("$GAIQ" "$sock" www.secure.lab 20 5 2>&1)
check "meanwhile root's dt_getaddrinfo: 20 of 20 secure ($out)" \
	test "$out" = "secure=20 other=-"
out=$(attacker "$PY" "$ABUSE" ask "$sock" www.secure.lab. A IN 2>&1)
check "the attacker's own question: SERVFAIL, EDE 14 ($out)" \
	test "$out" = "rcode=2 ede=14 tc=0"
check "the daemon is alive" kill -0 "$dpid"
wait "$hold"
extra_pids=""
sleep 2.5 # the turned-away connections' two seconds
out=$(attacker "$PY" "$ABUSE" ask "$sock" www.secure.lab. A IN 2>&1)
check "once they are gone the attacker is served again ($out)" \
	test "$out" = "rcode=0 ede=- tc=0"

# --- questions under way ---

# An upstream that never answers: every question waits for query-timeout.
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 53))
open(sys.argv[2], "w").close()
time.sleep(60)' "$LAB_NET.98" "$work/sink.ready" &
extra_pids=$!
wait_for 50 [ -e "$work/sink.ready" ]
printf 'nameserver %s.98\n' "$LAB_NET" >"$work/silent.conf"
mv "$work/silent.conf" "$work/resolv.conf"
wait_log "upstreams $LAB_NET.98"
sleep 0.3
out=$(attacker "$PY" "$ABUSE" flood "$sock" 20 64 2 2>&1)
check "1,280 questions for slow names at once: the 256 past 1,024 under way get SERVFAIL, EDE 14 at once ($out)" \
	test "$out" = "answers=256 ede14=256"
out=$(q -c CH status.dnstrust. TXT | field rcode)
check "root is still answered meanwhile ($out)" test "$out" = NOERROR
kill "$extra_pids" 2>/dev/null
extra_pids=""
cp "$LAB_RESOLV_CONF" "$work/resolv.conf.new"
mv "$work/resolv.conf.new" "$work/resolv.conf"

# --- a frame never finished ---

out=$(attacker "$PY" "$ABUSE" trickle "$sock" 2>&1)
check "one octet of a frame, then nothing: closed after 5 s ($out)" \
	bash -c "case '$out' in 'closed after '[56]' s') true;; *) false;; esac"

check "the daemon is still alive" kill -0 "$dpid"
plan
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 30 lines):"
	tail -30 "$dlog" | sed 's/^/#   /'
fi
exit 0
