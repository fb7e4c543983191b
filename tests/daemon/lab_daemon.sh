#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd in the integration lab (tests/lab/lab.sh): every question of
# the lab's truth table through the Unix socket and through the loopback
# UDP listener; the cache; CD=1; the attacker upstream taken on live from
# a replaced resolv.conf (nothing forged may come out secure); garbage
# from clients; privileges of administrative names; unreachable and silent
# upstreams answered within query-timeout; SIGHUP keeping the cache and
# refusing a bad file; SIGTERM.
#
# usage: lab_daemon.sh DNSTRUSTD DTQ LAB_SH        (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
lab_start lab-daemon
listen=$LAB_NET.100
conf=$work/dnstrust.conf
resolv=$work/resolv.conf
cp "$LAB_RESOLV_CONF" "$resolv"
write_conf() {
	cat >"$conf" <<EOF
# written by lab_daemon.sh
socket $sock
listen $listen@53
resolv-conf $resolv
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout ${1:-5}
log-level info
EOF
}
write_conf 3

replace_resolv() { # atomically, as DHCP clients do
	cp "$1" "$resolv.new" && mv "$resolv.new" "$resolv"
}
gone() { ! kill -0 "$1" 2>/dev/null; } # PID: the process has ended

check "dnstrustd starts and creates its socket" start_daemon
check "socket is mode 0666 and its directory 0755, both root's" \
	test "$(stat -c '%a %U' "$sock" "$(dirname "$sock")" | tr '\n' ' ')" = "666 root 755 root "
# No `user` written: _dnstrust, or nobody with a notice where the system
# has no _dnstrust.
duser=nobody
getent passwd _dnstrust >/dev/null && duser=_dnstrust
check "with no user written it runs as $duser, not root" \
	test "$(ps -o user= -p "$dpid" | tr -d ' ')" = "$duser"
[ "$duser" = nobody ] &&
	check "and says why not _dnstrust" wait_log "user _dnstrust does not exist: running as nobody"
no_caps() { # PID: no capability in any set, and no_new_privs
	[ "$(grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' "/proc/$1/status" |
		awk '{print $2}' | sort -u | tr '\n' ' ')" = "0000000000000000 1 " ]
}
check "no capability left, no_new_privs set" no_caps "$dpid"
peer_uid() { # the socket's peer uid (SO_PEERCRED), as clients check it
	python3 -c '
import socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
print(struct.unpack("3i", s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1])' "$sock"
}
check "yet clients see uid 0 on the socket (made before dropping root)" \
	test "$(peer_uid)" = 0
# Another user than root and the daemon's: a fixed uid that no account has.
# They run a copy of dtq that they can read.
SHARED_DTQ=$(shared_copy "$DTQ") || bail "dtq copied for other users"
other() { setpriv --reuid=4242 --regid=4242 --clear-groups "$@"; }

# --- the truth table, through the socket and through UDP ---

expect_ok() { # name type status rcode ede output
	local st=$3 rc=$4 ede=$5 out=$6 ad=0
	[ "$st" = secure ] && ad=1
	[ "$(echo "$out" | field status)" = "$st" ] &&
		[ "$(echo "$out" | field rcode)" = "$rc" ] &&
		[ "$(echo "$out" | field ad)" = "$ad" ] &&
		{ [ -z "$ede" ] || [ "$(echo "$out" | field ede)" = "$ede" ]; }
}
while read -r name type st rc ede; do
	out=$(q "$name" "$type" 2>&1)
	if expect_ok "$name" "$type" "$st" "$rc" "${ede:-}" "$out"; then
		ok "socket: $name $type is $st $rc ${ede:-}"
	else
		not_ok "socket: $name $type is $st $rc ${ede:-}" "$out"
	fi
done <"$LAB_EXPECT"

while read -r name type st rc ede; do
	out=$(dig @"$listen" +tries=1 +time=8 +dnssec "$name" "$type" 2>&1)
	grc=$(echo "$out" | sed -n 's/.*status: \([A-Z]*\),.*/\1/p')
	gad=0
	echo "$out" | grep -q '^;; flags:.* ad[ ;]' && gad=1
	gede=$(echo "$out" | sed -n 's/^; EDE: \([0-9]*\).*/\1/p' | head -1)
	want_ad=0
	[ "$st" = secure ] && want_ad=1
	if [ "$grc" = "$rc" ] && [ "$gad" = "$want_ad" ] &&
		{ [ -z "${ede:-}" ] || [ "$gede" = "$ede" ]; }; then
		ok "udp: $name $type: $rc ad=$want_ad ${ede:+EDE $ede}"
	else
		not_ok "udp: $name $type: $rc ad=$want_ad ${ede:+EDE $ede}" \
			"got $grc ad=$gad EDE $gede"
	fi
done <"$LAB_EXPECT"

# Bogus answers are logged at notice, at most 10 a minute by each of the
# 2 workers (DT_BOGUS_LOG_BURST), the others summed up later.
nbogus=$(grep -c " bogus " "$LAB_EXPECT")
nlogged=$(grep -c "dnstrustd notice: .*: bogus (" "$dlog")
check "bogus answers logged at notice ($nlogged for $nbogus bogus names, at most 20)" \
	test "$nlogged" -ge 1 -a "$nlogged" -le 20
# --- the same verdicts as a validating Unbound on the same lab ---

verdict() { # dig output -> "RCODE ad=N ede=N"
	local rc ad=0 ede
	rc=$(echo "$1" | sed -n 's/.*status: \([A-Z]*\),.*/\1/p')
	echo "$1" | grep -q '^;; flags:.* ad[ ;]' && ad=1
	ede=$(echo "$1" | sed -n 's/^; EDE: \([0-9]*\).*/\1/p' | head -1)
	echo "$rc ad=$ad ede=${ede:--}"
}
while read -r name type st rc ede; do
	# Unbound reports a zone's first failure's EDE only until its key
	# cache remembers the zone as bad: ask it with that memory cleared.
	unbound-control -c "$LAB_VALIDATOR_CONF" flush_bogus >/dev/null 2>&1
	ours=$(verdict "$(dig @"$listen" +tries=1 +time=8 +dnssec "$name" "$type" 2>&1)")
	theirs=$(verdict "$(dig @"$LAB_VALIDATOR" +tries=1 +time=8 +dnssec "$name" "$type" 2>&1)")
	if [ "$ours" = "$theirs" ]; then
		ok "same as a validating Unbound: $name $type: $ours"
	elif [ "${ours%ede=27}ede=-" = "$theirs" ] && [ "$st" = insecure ]; then
		# Deliberate: RFC 9276 §3.2 says an answer made insecure by
		# too many NSEC3 iterations SHOULD carry EDE 27; the Unbound
		# of Debian 12 (1.17) sends none. Status, RCODE and AD agree.
		ok "same as a validating Unbound: $name $type: $ours (Unbound: no EDE 27)"
	elif [ "$name $type" = "www.iter.lab. MX" ] &&
		[ "$ours" = "NOERROR ad=1 ede=-" ] &&
		[ "$theirs" = "NOERROR ad=0 ede=-" ]; then
		# Deliberate: over the NSEC3 iteration limit dnstrust still
		# checks a name's own NSEC3 (one hash), so this NODATA is
		# secure; Unbound gives up on the whole zone (docs/DESIGN.md,
		# "Iterations before hashing"). RCODE agrees.
		ok "same as a validating Unbound: $name $type: $ours (Unbound: no AD, iteration limit)"
	else
		not_ok "same as a validating Unbound: $name $type" \
			"dnstrustd: $ours; unbound: $theirs"
	fi
done <"$LAB_EXPECT"

# --- cache, CD, TCP ---

out=$(q www.secure.lab. A)
check "a repeated question is answered from the cache" \
	test "$(echo "$out" | field cached)" = 1
out=$(q +cd www.expired.lab. A)
check "CD=1 returns bogus data marked bogus, with its EDE" \
	test "$(echo "$out" | field status)/$(echo "$out" | field rcode)/$(echo "$out" | field answers)/$(echo "$out" | field ede)" = "bogus/NOERROR/1/7"
out=$("$DTQ" -t "$listen" www.rsa.lab. A)
check "the TCP listener answers" \
	test "$(echo "$out" | field status)" = secure
out=$(q -c CH status.dnstrust. TXT)
check "status names the upstream and the anchor" \
	bash -c "echo '$out' | grep -q 'txt=upstream=$LAB_RESOLVER' &&
		 echo '$out' | grep -q 'txt=trust-anchor=. DS:'"
# Every cold answer above was validated again after each fetch of its
# chain: the workers' caches of verifications answered some of them.
check "status counts signature verifications, some found in the cache" \
	bash -c "echo '$out' | grep -q 'txt=signature-verifications=[1-9]' &&
		 echo '$out' | grep -q 'txt=signature-verifications-cached=[1-9]'"

out=$(dig @"$listen" +tries=1 +time=5 +bufsize=512 +ignore CH TXT status.dnstrust. 2>&1)
check "status over UDP within 512 octets: TC, no answer (no amplification)" \
	bash -c "echo '$out' | grep -q '^;; flags: qr aa tc rd; QUERY: 1, ANSWER: 0,'"
out=$(dig @"$listen" +tries=1 +time=5 +tcp CH TXT status.dnstrust. 2>&1)
check "and whole over TCP" \
	bash -c "echo '$out' | grep -q '^;; flags: qr aa rd; QUERY: 1, ANSWER: [1-9]'"

# --- identical questions in flight share an upstream query ---

: >"$work/par"
for _ in $(seq 20); do q shared.wild.secure.lab. A >>"$work/par" & done
wait_children() { for p in $(jobs -p); do [ "$p" != "$dpid" ] && wait "$p"; done; }
wait_children
asked=$(grep -c 'shared.wild.secure.lab. A IN' "$LAB_UNBOUND_LOG")
check "20 identical questions: $(grep -c status=secure "$work/par") secure, $asked upstream queries (at most one per worker)" \
	test "$(grep -c status=secure "$work/par")" = 20 -a "$asked" -le 2 -a "$asked" -ge 1

# --- the attacker upstream, taken on from a replaced resolv.conf ---

replace_resolv "$LAB_ATTACKER_RESOLV_CONF"
check "a replaced resolv.conf is followed" \
	wait_log "upstreams $LAB_ATTACKER"
q -c CH flush.dnstrust. TXT >/dev/null
# With resolution auto, a question whose answers stay bogus is asked a
# last time from the root (DT_RSV_RETRY_MAX): the genuine records,
# secure; the forged address never.
retried0=$(q -c CH status.dnstrust. TXT | sed -n 's/^txt=retried=//p')
while read -r name type addr method; do
	out=$(q "$name" "$type")
	if [ "$(echo "$out" | field status)" = secure ]; then
		ok "attacker ($method): $name $type asked again from the root: secure"
	else
		not_ok "attacker ($method): $name $type" "$out"
	fi
	out=$(dig @"$listen" +tries=1 +time=8 "$name" "$type" 2>&1)
	if ! echo "$out" | grep -qF "$addr" &&
		echo "$out" | grep -q 'status: NOERROR'; then
		ok "attacker ($method): $addr never reaches a UDP client"
	else
		not_ok "attacker ($method): $addr reached a UDP client" "$out"
	fi
done <"$LAB_FORGED"
retried=$(q -c CH status.dnstrust. TXT | sed -n 's/^txt=retried=//p')
nforged=$(wc -l <"$LAB_FORGED")
check "attacker: each forged question asked again twice ($retried0, then $retried; $nforged questions)" \
	[ $((retried - retried0)) -ge $((2 * nforged)) ]
replace_resolv "$LAB_RESOLV_CONF"
check "back to the honest upstream" wait_log "upstreams $LAB_RESOLVER"
dropped() { grep -F "not validated as secure dropped" "$dlog" | tail -1 |
	sed -n 's/.*changed: \([0-9]*\) cached.*/\1/p'; }
dropped_twice() {
	[ "$(grep -cF "not validated as secure dropped" "$dlog")" -ge 2 ]
}
wait_for 50 dropped_twice
check "what the attacker's servers taught and did not validate is dropped ($(dropped) entries)" \
	test "$(dropped)" -gt 0
sleep 0.3 # the workers take the new servers from the main thread's post
out=$(q www.secure.lab. A)
check "secure again after the upstream is honest, without a flush" \
	test "$(echo "$out" | field status)" = secure
q -c CH flush.dnstrust. TXT >/dev/null

# --- garbage from clients ---

python3 - "$sock" "$listen" <<'EOF' >"$work/garbage.log" 2>&1
import os, socket, sys, random
random.seed(4)
path, addr = sys.argv[1], sys.argv[2]
for i in range(200):
    blob = bytes(random.getrandbits(8) for _ in range(random.randint(0, 600)))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(path)
    framed = len(blob).to_bytes(2, 'big') + blob if i % 2 else blob
    try:
        s.sendall(framed)
        s.shutdown(socket.SHUT_WR)
        s.recv(70000)
    except OSError:
        pass
    s.close()
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(blob or b'\0', (addr, 53))
    u.close()
print("sent")
EOF
out=$(q www.ed.lab. A)
check "after 400 garbage messages the daemon still answers" \
	test "$(echo "$out" | field status)" = secure
formerr=$(python3 - "$sock" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
# header claiming 2 questions, one present
m = bytes.fromhex('abcd01000002000000000000') + b'\x03www\x00\x00\x01\x00\x01'
s.sendall(len(m).to_bytes(2, 'big') + m)
r = s.recv(2 + 512)
print(r[5] & 0xF, 'id', r[2:4].hex(), 'flags', r[4:6].hex())
EOF
)
check "a message with two questions gets FORMERR ($formerr)" \
	test "${formerr%% *}" = 1
check "the daemon process is alive" kill -0 "$dpid"

# --- administrative names and privileges ---

out=$(q -c CH flush.dnstrust. TXT)
check "root may flush" bash -c "echo '$out' | grep -q 'txt=flushed='"
out=$(other "$SHARED_DTQ" -s "$sock" -c CH flush.dnstrust. TXT 2>&1)
check "another user may not flush (REFUSED, EDE 18)" \
	test "$(echo "$out" | field rcode)/$(echo "$out" | field ede)" = "REFUSED/18"
out=$(other "$SHARED_DTQ" -s "$sock" www.secure.lab. A 2>&1)
check "another user may resolve" test "$(echo "$out" | field status)" = secure
out=$("$DTQ" -u "$listen" -c CH flush.dnstrust. TXT)
check "flush over UDP is refused" test "$(echo "$out" | field rcode)" = REFUSED

# --- SIGHUP ---

q www.nsec3.lab. A >/dev/null
kill -HUP "$dpid"
check "SIGHUP reloads" wait_log "configuration reloaded"
out=$(q www.nsec3.lab. A)
check "the cache survives a reload" test "$(echo "$out" | field cached)" = 1
cp "$conf" "$conf.good"
echo "no-such-key 1" >>"$conf"
bad_line=$(wc -l <"$conf")
kill -HUP "$dpid"
check "a bad file at reload is refused with file:line" \
	wait_log "$conf:$bad_line: "
check "and the daemon keeps serving" \
	test "$(q www.secure.lab. A | field status)" = secure
cp "$conf.good" "$conf"

# --- unreachable and silent upstreams: bounded answers ---

printf 'nameserver %s.99\n' "$LAB_NET" >"$work/refused.conf"
replace_resolv "$work/refused.conf"
wait_log "upstreams $LAB_NET.99" >/dev/null
q -c CH flush.dnstrust. TXT >/dev/null
start=$(date +%s%N)
out=$(q www.unreachable.example. A)
ms=$((($(date +%s%N) - start) / 1000000))
# Refused, and refused again over TCP: a network that answers nothing
# is not asked from the root (that is for answers that lie).
check "no nameserver listening: SERVFAIL, EDE 22 or 23, in ${ms} ms" \
	bash -c "[ '$(echo "$out" | field rcode)' = SERVFAIL ] &&
		 case '$(echo "$out" | field ede)' in 22|23) true;; *) false;; esac &&
		 [ $ms -lt 4000 ]"
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 53))
open(sys.argv[2], "w").close()
time.sleep(60)' "$LAB_NET.98" "$work/sink.ready" &
extra_pids=$!
wait_for 50 [ -e "$work/sink.ready" ]
printf 'nameserver %s.98\noptions timeout:10\n' "$LAB_NET" >"$work/silent.conf"
replace_resolv "$work/silent.conf"
wait_log "upstreams $LAB_NET.98" >/dev/null
q -c CH flush.dnstrust. TXT >/dev/null
start=$(date +%s%N)
out=$(q www.silent.example. A)
ms=$((($(date +%s%N) - start) / 1000000))
check "a silent upstream: SERVFAIL EDE 22 at query-timeout (3 s), in ${ms} ms" \
	bash -c "[ '$(echo "$out" | field rcode)/$(echo "$out" | field ede)' = SERVFAIL/22 ] &&
		 [ $ms -ge 2900 ] && [ $ms -lt 4500 ]"
kill "$extra_pids" 2>/dev/null
extra_pids=""

# --- an upstream killed mid-run ---

printf 'nameserver %s\n' "$LAB_VALIDATOR" >"$work/one.conf"
replace_resolv "$work/one.conf"
wait_log "upstreams $LAB_VALIDATOR" >/dev/null
sleep 0.3
check "through a second upstream (the lab's other Unbound)" \
	test "$(q www.rsa.lab. AAAA | field status)" = secure
upid=$(cat "$lab/run/validator.pid")
kill -TERM "$upid"
wait_for 50 gone "$upid"
start=$(date +%s%N)
out=$(q www.killed.secure.lab. A)
ms=$((($(date +%s%N) - start) / 1000000))
check "that upstream killed mid-run: SERVFAIL with EDE 22/23 within query-timeout (${ms} ms)" \
	bash -c "[ '$(echo "$out" | field rcode)' = SERVFAIL ] &&
		 case '$(echo "$out" | field ede)' in 22|23) true;; *) false;; esac &&
		 [ $ms -lt 3500 ]"
check "and the daemon still answers from its cache" \
	test "$(q www.rsa.lab. AAAA | field cached)" = 1
replace_resolv "$LAB_RESOLV_CONF"
wait_log "upstreams $LAB_RESOLVER" >/dev/null

# --- SIGTERM ---

kill -TERM "$dpid"
stopped=0
wait_for 30 gone "$dpid" || stopped=1
wait "$dpid"
rc=$?
dpid=""
check "SIGTERM stops the daemon within 3 s, exit 0" \
	test "$stopped/$rc" = "0/0"
# Without root it cannot remove its socket from root's directory: the
# socket is left, nobody listens on it, and the next start replaces it.
check "nobody listens on the socket any more" \
	test "$(q www.secure.lab. A 2>&1 | field status)" = ""

# --- user root: root kept, capabilities not ---

write_conf 3
echo "user root" >>"$conf"
check "started with user root" start_daemon
check "the stale socket was replaced; it runs as root" \
	test "$(ps -o user= -p "$dpid" | tr -d ' ')" = root
check "as root too: no capability, no_new_privs" no_caps "$dpid"
check "and it validates" test "$(q www.ed.lab. A | field status)" = secure
kill -TERM "$dpid"
wait "$dpid"
dpid=""
check "as root it removes its socket at exit" test ! -e "$sock"

# --- privileges dropped to `user` ---

replace_resolv "$LAB_RESOLV_CONF"
write_conf 3
echo "user nobody" >>"$conf"
check "started as root with user nobody" start_daemon
sleep 0.2
check "the daemon runs as nobody" \
	test "$(ps -o user= -p "$dpid" | tr -d ' ')" = nobody
check "its socket and the directory still belong to root" \
	test "$(stat -c %U "$sock" "$(dirname "$sock")" | tr '\n' ' ')" = "root root "
check "and it validates" test "$(q www.ed.lab. A | field status)" = secure
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SHARED_DTQ" -s "$sock" -c CH flush.dnstrust. TXT 2>&1)
check "the daemon's own user may flush" \
	bash -c "echo '$out' | grep -q 'txt=flushed='"
kill -TERM "$dpid"
wait "$dpid"
dpid=""

plan
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 30 lines):"
	tail -30 "$dlog" | sed 's/^/#   /'
fi
exit 0
