#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd's listener on another address than loopback, with real remote
# clients: a network namespace made for the test, joined to the host by a
# veth pair (198.18.X.1/29 on the host, 198.18.X.2 to 198.18.X.6 in the
# namespace; RFC 2544's benchmark range, nothing else routed; and
# 2001:db8:18:X::1, ::2 and ::3 when the kernel has IPv6). Checks:
# without allow-remote the daemon does not start (-n and a real start);
# with allow-remote 198.18.X.2/32 that client gets validated answers over
# UDP and TCP while 198.18.X.3 gets nothing (datagrams dropped,
# connections closed); administrative names are REFUSED with EDE 18 to the
# remote client (and flush does nothing); ratelimit holds a burst from the
# remote client (counted by the client itself, tests/daemon/udpburst.py)
# to about its rate while loopback clients and the socket are answered in
# full at the same time; questions pipelined on one TCP connection by the
# remote client are all answered, but no faster than ratelimit allows,
# while a loopback TCP client is not slowed (tests/daemon/tcppipe.py);
# the remote client's TCP connections past max-connections-per-address
# get EDE 14 while another remote address is served, and remote
# connections past max-connections-per-user (from three addresses) get
# EDE 14 while loopback TCP clients are still served
# (tests/daemon/tcphold.py holds them); a CH status answer to a loopback
# client asking with a 512-octet payload size comes back truncated.
#
# usage: netns_remote.sh DNSTRUSTD DTQ LAB_SH UDPBURST TCPHOLD TCPPIPE
#        (TAP on stdout)
# Root only (ip netns); skipped as a whole only when the kernel refuses a
# network namespace or a veth pair.
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 BURST=$4 HOLD=$5 PIPE=$6
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

RATE=20 CONNS=16 ADDRS=6

# --- the namespace ---
suffix=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
ns=dt-$suffix hostif=dth$suffix nsif=dtn$suffix
x=""
for _ in 1 2 3 4 5 6 7 8; do
	c=$(( $(od -An -N1 -tu1 /dev/urandom) ))
	if ! ip -4 addr show | grep -q "inet 198\.18\.$c\."; then
		x=$c
		break
	fi
done
[ -n "$x" ] || skip_all "no free 198.18.X.0/29 block"
HOST=198.18.$x.1 CLIENT=198.18.$x.2 STRANGER=198.18.$x.3
# More remote clients, allowed as 198.18.X.4/30.
CLIENT2=198.18.$x.4 CLIENT3=198.18.$x.5 CLIENT4=198.18.$x.6
# IPv6 too when the kernel has it (a documentation prefix, 2001:db8::/32).
V6NET=2001:db8:18:$x
V6HOST=$V6NET::1 V6CLIENT=$V6NET::2 V6STRANGER=$V6NET::3

net_cleanup() {
	ip link del "$hostif" 2>/dev/null || :
	ip netns del "$ns" 2>/dev/null || :
}
trap net_cleanup EXIT
trap 'exit 143' TERM INT HUP

if ! err=$(ip netns add "$ns" 2>&1); then
	skip_all "the kernel refuses a network namespace: $err"
fi
if ! err=$(ip link add "$hostif" type veth peer name "$nsif" netns "$ns" 2>&1); then
	skip_all "the kernel refuses a veth pair: $err"
fi
if ! { ip addr add "$HOST/29" dev "$hostif" &&
	ip link set "$hostif" up &&
	ip -n "$ns" addr add "$CLIENT/29" dev "$nsif" &&
	ip -n "$ns" addr add "$STRANGER/29" dev "$nsif" &&
	ip -n "$ns" addr add "$CLIENT2/29" dev "$nsif" &&
	ip -n "$ns" addr add "$CLIENT3/29" dev "$nsif" &&
	ip -n "$ns" addr add "$CLIENT4/29" dev "$nsif" &&
	ip -n "$ns" link set "$nsif" up &&
	ip -n "$ns" link set lo up; }; then
	bail "the veth pair is configured"
fi
inns() { ip netns exec "$ns" "$@"; }
v6=""
if ip addr add "$V6HOST/64" dev "$hostif" nodad 2>/dev/null &&
	ip -n "$ns" addr add "$V6CLIENT/64" dev "$nsif" nodad 2>/dev/null &&
	ip -n "$ns" addr add "$V6STRANGER/64" dev "$nsif" nodad 2>/dev/null; then
	v6=yes
fi
# The namespace routes to the host's end over the veth pair.
routed() { inns ip -4 route get "$HOST" | grep -q "dev $nsif"; }
check "the namespace reaches $HOST over the veth pair" wait_for 50 routed

lab_start netns-remote
trap 'lab_cleanup; net_cleanup' EXIT
LOCAL=$LAB_NET.99

conf_base() {
	cat <<EOF
socket $sock
resolution forward
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 3
log-level info
listen $HOST@53
listen $LOCAL@53
ratelimit $RATE
max-connections-per-user $CONNS
max-connections-per-address $ADDRS
EOF
	if [ -n "$v6" ]; then echo "listen $V6HOST@53"; fi
}

# --- without allow-remote: no start ---
conf_base >"$conf"
out=$("$DNSTRUSTD" -n -c "$conf" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && echo "$out" | grep -q "not a loopback address"; then
	ok "without allow-remote, dnstrustd -n refuses the listener"
else
	not_ok "without allow-remote, dnstrustd -n refuses the listener" \
		"rc=$rc: $out"
fi
out=$(timeout 10 "$DNSTRUSTD" -f -c "$conf" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] &&
	echo "$out" | grep -q "listen: not a loopback address: anyone who reaches it could use the daemon; write allow-remote"; then
	ok "without allow-remote, dnstrustd does not start, and says why"
else
	not_ok "without allow-remote, dnstrustd does not start, and says why" \
		"rc=$rc: $out"
fi
check "and leaves no socket" test ! -e "$sock"

# --- allow-remote: the client in the namespace ---
{
	conf_base
	echo "allow-remote $CLIENT/32 $CLIENT2/30"
	if [ -n "$v6" ]; then echo "allow-remote $V6CLIENT/128"; fi
} >"$conf"
check "with allow-remote $CLIENT/32, dnstrustd starts" start_daemon
is() { # description, dtq output, then key=value pairs it must show
	local d=$1 out=$2 bad="" kv
	shift 2
	for kv in "$@"; do
		[ "$(echo "$out" | field "${kv%%=*}")" = "${kv#*=}" ] || bad="$bad $kv"
	done
	if [ -z "$bad" ]; then ok "$d"; else not_ok "$d" "want$bad; got: $out"; fi
}
rq() { inns "$DTQ" "$@"; }
is "remote client, UDP: www.secure.lab. is secure (AD)" \
	"$(rq -u "$HOST" www.secure.lab. A)" rcode=NOERROR status=secure ad=1
is "remote client, TCP: the same" \
	"$(rq -t "$HOST" www.secure.lab. A)" rcode=NOERROR status=secure ad=1
is "remote client: a bogus name is SERVFAIL" \
	"$(rq -u "$HOST" www.expired.lab. A)" rcode=SERVFAIL status=bogus ede=7
out=$(inns dig +tries=1 +time=2 -b "$CLIENT" @"$HOST" www.secure.lab. A)
if echo "$out" | grep -q "status: NOERROR" &&
	echo "$out" | grep -q "flags:.* ad[ ;]"; then
	ok "dig in the namespace sees AD on www.secure.lab."
else
	not_ok "dig in the namespace sees AD on www.secure.lab." "$out"
fi

# A client address outside allow-remote: its datagrams are dropped (no
# answer at all, so nothing to reflect) and its connections closed.
out=$(inns dig +tries=1 +time=2 -b "$STRANGER" @"$HOST" www.secure.lab. A)
rc=$?
if [ "$rc" -eq 9 ] && ! echo "$out" | grep -q "status:"; then
	ok "$STRANGER (outside allow-remote), UDP: no answer (dropped)"
else
	not_ok "$STRANGER (outside allow-remote), UDP: no answer (dropped)" \
		"rc=$rc: $out"
fi
out=$(inns dig +tcp +tries=1 +time=2 -b "$STRANGER" @"$HOST" www.secure.lab. A)
rc=$?
if [ "$rc" -ne 0 ] && ! echo "$out" | grep -q "status:"; then
	ok "$STRANGER, TCP: the connection is closed without an answer"
else
	not_ok "$STRANGER, TCP: the connection is closed without an answer" \
		"rc=$rc: $out"
fi

# --- administrative names: local only ---
is "remote client, UDP: status.dnstrust. CH TXT is REFUSED, EDE 18" \
	"$(rq -u "$HOST" -c CH status.dnstrust. TXT)" rcode=REFUSED ede=18
is "remote client, TCP: the same" \
	"$(rq -t "$HOST" -c CH status.dnstrust. TXT)" rcode=REFUSED ede=18
is "remote client: flush.dnstrust. is REFUSED, EDE 18" \
	"$(rq -u "$HOST" -c CH flush.dnstrust. TXT)" rcode=REFUSED ede=18
is "and flushed nothing: the answer is still cached" \
	"$(q www.secure.lab. A)" status=secure cached=1
is "remote client: version.bind. CH TXT is REFUSED too" \
	"$(rq -u "$HOST" -c CH version.bind. TXT)" rcode=REFUSED ede=18
is "a loopback client gets status" \
	"$(q -u "$LOCAL" -c CH status.dnstrust. TXT)" rcode=NOERROR

# --- the same over IPv6 (dig: dtq speaks IPv4) ---
v6dig() { # SOURCE, then dig's arguments
	local src=$1
	shift
	inns dig +tries=1 +time=2 -b "$src" @"$V6HOST" "$@"
}
if [ -n "$v6" ]; then
	out=$(v6dig "$V6CLIENT" www.secure.lab. A)
	if echo "$out" | grep -q "status: NOERROR" &&
		echo "$out" | grep -q "flags:.* ad[ ;]"; then
		ok "IPv6 remote client: AD on www.secure.lab."
	else
		not_ok "IPv6 remote client: AD on www.secure.lab." "$out"
	fi
	out=$(v6dig "$V6CLIENT" www.expired.lab. A)
	if echo "$out" | grep -q "status: SERVFAIL"; then
		ok "IPv6 remote client: a bogus name is SERVFAIL"
	else
		not_ok "IPv6 remote client: a bogus name is SERVFAIL" "$out"
	fi
	out=$(v6dig "$V6STRANGER" www.secure.lab. A)
	rc=$?
	if [ "$rc" -eq 9 ] && ! echo "$out" | grep -q "status:"; then
		ok "IPv6 $V6STRANGER (outside allow-remote): no answer"
	else
		not_ok "IPv6 $V6STRANGER (outside allow-remote): no answer" \
			"rc=$rc: $out"
	fi
	out=$(v6dig "$V6CLIENT" status.dnstrust. CH TXT)
	if echo "$out" | grep -q "status: REFUSED" &&
		echo "$out" | grep -q "EDE: 18"; then
		ok "IPv6 remote client: status.dnstrust. REFUSED, EDE 18"
	else
		not_ok "IPv6 remote client: status.dnstrust. REFUSED, EDE 18" "$out"
	fi
else
	for d in "AD on www.secure.lab." "a bogus name is SERVFAIL" \
		"a stranger gets no answer" "status.dnstrust. REFUSED"; do
		skip "IPv6 remote client: $d (no IPv6 on the veth pair)"
	done
fi

# --- rate limiting ---
refused() { q -c CH status.dnstrust. TXT | sed -n 's/^txt=refused=//p'; }
sleep 1.2 # the client's bucket full again
before=$(refused)
inns python3 "$BURST" -b "$CLIENT" "$HOST" 53 www.secure.lab. 500 8 1.5 1.0 \
	>"$work/burst.remote" &
bpid=$!
extra_pids="$bpid"
sleep 0.4
# Meanwhile, local clients: the socket, and a loopback burst as large.
python3 "$BURST" "$LOCAL" 53 www.secure.lab. 500 8 1.5 1.0 \
	>"$work/burst.local" 2>&1
lsock=$(q www.secure.lab. A)
wait "$bpid"
extra_pids=""
after=$(refused)
remote=$(cat "$work/burst.remote") local=$(cat "$work/burst.local")
echo "# remote burst (ratelimit $RATE, 500 questions over 1 s): $remote"
echo "# loopback burst at the same time: $local"
sent=$(echo "$remote" | sed -n 's/.*sent=\([0-9]*\).*/\1/p')
got=$(echo "$remote" | sed -n 's/.*answered=\([0-9]*\).*/\1/p')
# A bucket of RATE, refilled at RATE a second while the burst lasts (as
# the client timed its sending; about a second), with a quarter of a
# second and two questions of room for a loaded machine. With buckets per
# worker it was twice as many.
sms=$(echo "$remote" | sed -n 's/.*send_ms=\([0-9]*\).*/\1/p')
max=$((RATE + RATE * (${sms:-1000} + 250) / 1000 + 2))
if [ "${sent:-0}" -ge 450 ] && [ -n "$got" ] && [ "$got" -ge "$RATE" ] &&
	[ "$got" -le "$max" ]; then
	ok "ratelimit $RATE: the remote client got $got answers of $sent (at most $max)"
else
	not_ok "ratelimit $RATE: the remote client got at most $max answers" \
		"$remote"
fi
dropped=$(( ${after:-0} - ${before:-0} ))
echo "# refused= in status went from $before to $after"
if [ -n "$got" ] && [ "$dropped" -ge $((sent - got - sent / 20)) ] &&
	[ "$dropped" -le $((sent - got + 10)) ]; then
	ok "the daemon counted the $dropped dropped questions as refused"
else
	not_ok "the daemon counted the dropped questions as refused" \
		"refused $before -> $after; $remote"
fi
lsent=$(echo "$local" | sed -n 's/.*sent=\([0-9]*\).*/\1/p')
lgot=$(echo "$local" | sed -n 's/.*answered=\([0-9]*\).*/\1/p')
if [ -n "$lgot" ] && [ "$lsent" -ge 450 ] && [ "$lgot" -eq "$lsent" ]; then
	ok "a loopback client during the burst: all $lgot answered (not limited)"
else
	not_ok "a loopback client during the burst: all answered" "$local"
fi
is "the socket during the burst: answered" "$lsock" status=secure ad=1
if [ -n "$v6" ]; then
	# IPv6: one bucket per /64; 200 questions over half a second.
	sleep 1.2
	r6=$(inns python3 "$BURST" -b "$V6CLIENT" "$V6HOST" 53 www.secure.lab. 200 8 1.5 0.5)
	echo "# IPv6 remote burst (200 questions over 0.5 s): $r6"
	got=$(echo "$r6" | sed -n 's/.*answered=\([0-9]*\).*/\1/p')
	sms=$(echo "$r6" | sed -n 's/.*send_ms=\([0-9]*\).*/\1/p')
	max=$((RATE + RATE * (${sms:-500} + 250) / 1000 + 2))
	if [ -n "$got" ] && [ "$got" -ge "$RATE" ] && [ "$got" -le "$max" ]; then
		ok "IPv6: the remote client got $got answers of 200 (at most $max)"
	else
		not_ok "IPv6: the remote client got at most $max answers" "$r6"
	fi
else
	skip "IPv6 remote burst (no IPv6 on the veth pair)"
fi

# --- rate limiting over TCP: slowed, nothing lost ---
# The remote client pipelines N questions on one connection: a bucket of
# RATE, then RATE a second, so the last answer cannot come before
# (N - RATE) / RATE seconds (whatever the bucket held); all are answered.
# A loopback TCP client pipelining more at the same time is not slowed.
N=80 LN=200
sleep 1.2 # the client's bucket full again
inns python3 "$PIPE" -b "$CLIENT" "$HOST" 53 www.secure.lab. $N \
	>"$work/pipe.remote" &
ppid=$!
extra_pids="$ppid"
sleep 0.3
lpipe=$(python3 "$PIPE" "$LOCAL" 53 www.secure.lab. $LN)
wait "$ppid"
extra_pids=""
rpipe=$(cat "$work/pipe.remote")
echo "# remote TCP client, $N questions pipelined (ratelimit $RATE): $rpipe"
echo "# loopback TCP client meanwhile, $LN questions pipelined: $lpipe"
pick() { echo "$2" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
min=$(((N - RATE) * 1000 / RATE))
got=$(pick answered "$rpipe") ms=$(pick elapsed_ms "$rpipe")
if [ "${got:-0}" -eq "$N" ] && echo "$rpipe" | grep -q "rcodes=NOERROR:$N "; then
	ok "remote TCP client over the rate: all $N pipelined questions answered"
else
	not_ok "remote TCP client over the rate: all $N pipelined questions answered" \
		"$rpipe"
fi
# 10 ms for the daemon's clock, in whole milliseconds.
if [ -n "$ms" ] && [ "$ms" -ge $((min - 10)) ]; then
	ok "and no faster than ratelimit $RATE allows: $ms ms (at least $min)"
else
	not_ok "and no faster than ratelimit $RATE allows (at least $min ms)" \
		"$rpipe"
fi
lgot=$(pick answered "$lpipe") lms=$(pick elapsed_ms "$lpipe")
lmin=$(((LN - RATE) * 1000 / RATE))
if [ "${lgot:-0}" -eq "$LN" ] && [ -n "$lms" ] && [ "$lms" -lt "$lmin" ]; then
	ok "a loopback TCP client meanwhile: all $LN answered in $lms ms, not slowed to the rate ($lmin)"
else
	not_ok "a loopback TCP client meanwhile: all $LN answered, not slowed to the rate" \
		"$lpipe"
fi

# --- remote connections: per address, and a pool of their own ---
# tcp_from SOURCE NAME: dig over TCP from one of the namespace's addresses.
tcp_from() { inns dig +tcp +tries=1 +time=3 -b "$1" @"$HOST" "$2" A; }
mkfifo "$work/hold.in"
held() { # N FILE...: N of tcphold.py's outputs say what they hold
	local n=$1
	shift
	[ "$(cat "$@" 2>/dev/null | grep -c "^open=")" -ge "$n" ]
}
busy() { [ "$(rq -t "$HOST" www.secure.lab. A | field ede)" = 14 ]; }

# The remote client holds more than max-connections-per-address: its
# next question is answered SERVFAIL, EDE 14, while another remote
# address (the pool has room) and loopback TCP clients are served.
inns python3 "$HOLD" -b "$CLIENT" "$HOST" 53 $((ADDRS + 2)) \
	<"$work/hold.in" >"$work/hold.out1" &
hpid=$!
extra_pids="$hpid"
exec 3>"$work/hold.in"
wait_for 50 held 1 "$work/hold.out1"
echo "# connections held from $CLIENT: $(cat "$work/hold.out1")"
check "past $ADDRS connections from $CLIENT, its next one is answered SERVFAIL, EDE 14" \
	wait_for 20 busy
out=$(tcp_from "$CLIENT2" www.secure.lab.)
if echo "$out" | grep -q "status: NOERROR" &&
	echo "$out" | grep -q "flags:.* ad[ ;]"; then
	ok "another remote address ($CLIENT2) meanwhile: a connection and an answer"
else
	not_ok "another remote address ($CLIENT2) meanwhile: a connection and an answer" \
		"$out"
fi
is "a loopback TCP client meanwhile: answered" \
	"$(q -t "$LOCAL" www.secure.lab. A)" rcode=NOERROR status=secure
exec 3>&-
wait "$hpid"
extra_pids=""
free() { [ "$(rq -t "$HOST" www.secure.lab. A | field status)" = secure ]; }
check "the connections closed, $CLIENT is served again" wait_for 20 free

# Three remote addresses, each within its limit, hold more than
# max-connections-per-user together: a fourth address's question is
# answered SERVFAIL, EDE 14, while loopback TCP clients (another pool)
# and the socket are still served.
hpids=""
for a in "$CLIENT" "$CLIENT2" "$CLIENT3"; do
	inns python3 "$HOLD" -b "$a" "$HOST" 53 "$ADDRS" \
		<"$work/hold.in" >"$work/hold.out.$a" &
	hpids="$hpids $!"
done
extra_pids="$hpids"
exec 3>"$work/hold.in"
wait_for 50 held 3 "$work/hold.out.$CLIENT" "$work/hold.out.$CLIENT2" \
	"$work/hold.out.$CLIENT3"
echo "# connections held from three addresses: $(cat "$work"/hold.out.* | tr '\n' ' ')"
pool_full() { tcp_from "$CLIENT4" www.secure.lab. | grep -q "EDE: 14"; }
check "past $CONNS remote connections, a fourth remote address is answered SERVFAIL, EDE 14" \
	wait_for 20 pool_full
is "a loopback TCP client meanwhile: answered" \
	"$(q -t "$LOCAL" www.secure.lab. A)" rcode=NOERROR status=secure
is "the socket meanwhile: answered" "$(q www.secure.lab. A)" status=secure
exec 3>&-
# shellcheck disable=SC2086
wait $hpids
extra_pids=""
check "the connections closed, the remote clients are served again" \
	wait_for 20 free

# --- amplification: administrative answers respect the payload size ---
full=$(dig +tcp +tries=1 +time=2 @"$LOCAL" status.dnstrust. CH TXT)
size=$(echo "$full" | sed -n 's/.*MSG SIZE  rcvd: \([0-9]*\).*/\1/p')
if [ -n "$size" ] && [ "$size" -gt 512 ]; then
	ok "the CH status answer is larger than 512 octets ($size, TCP)"
else
	not_ok "the CH status answer is larger than 512 octets" "$full"
fi
for opt in +bufsize=512 +noedns; do
	out=$(dig +ignore +tries=1 +time=2 "$opt" @"$LOCAL" status.dnstrust. CH TXT)
	size=$(echo "$out" | sed -n 's/.*MSG SIZE  rcvd: \([0-9]*\).*/\1/p')
	if echo "$out" | grep -q "flags:.* tc[ ;]" && [ -n "$size" ] &&
		[ "$size" -le 512 ]; then
		ok "UDP with $opt: the status answer is truncated (TC, $size octets)"
	else
		not_ok "UDP with $opt: the status answer is truncated (TC)" "$out"
	fi
done

check "dnstrustd stops cleanly" stop_daemon
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 20 lines):"
	tail -20 "$dlog" | sed 's/^/#   /'
fi
finish
