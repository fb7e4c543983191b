#!/bin/bash
# make demo: dnstrust on an offline default. Brings up the integration lab
# (tests/lab/lab.sh: a private signed DNS hierarchy served by NSD and Knot
# on 127.0.2.0/24, an iterating Unbound as the honest upstream, an attacker
# resolver), starts dnstrustd against it, and shows case by case what an
# application gets for a secure, an insecure and a bogus name, and what
# happens when resolv.conf is rewritten to name the attacker. Then stops
# everything. Needs root (the lab's servers bind port 53 on loopback).
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
daemon="$top/$build/src/daemon/dnstrustd"
dt="$top/$build/src/cli/dnstrust"
work=$(mktemp -d /tmp/dnstrust-demo.XXXXXX)
chmod 755 "$work"
dpid=""
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	"$top/tests/lab/lab.sh" stop "$work/lab" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

echo "== 1. The lab: a signed hierarchy with its own root, on loopback"
"$top/tests/lab/lab.sh" start "$work/lab" >"$work/lab.log" 2>&1 || {
	tail -20 "$work/lab.log"
	exit 1
}
. "$work/lab/lab.env"
echo "authoritative: NSD $LAB_ROOT_SERVER (. and lab.), Knot $LAB_LEAF_SERVER (zones below)"
echo "honest upstream: Unbound $LAB_RESOLVER (iterator only, no validation)"
echo "attacker upstream: $LAB_ATTACKER (forges A/AAAA, even with AD=1)"

echo
echo "== 2. dnstrustd: queries go to resolv.conf, trust comes from its anchor"
cp "$LAB_RESOLV_CONF" "$work/resolv.conf"
listen=$LAB_NET.100
cat >"$work/dnstrust.conf" <<EOF
socket $work/run/socket
listen $listen@53
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
threads 2
query-timeout 3
EOF
sed 's/^/    /' "$work/dnstrust.conf"
"$daemon" -c "$work/dnstrust.conf" -f 2>"$work/dnstrustd.log" &
dpid=$!
for _ in $(seq 50); do [ -S "$work/run/socket" ] && break; sleep 0.1; done

show() { # NAME TYPE: what a plain DNS client of the listener sees
	local out rc ad ede ans
	out=$(dig @"$listen" +tries=1 +time=5 "$1" "$2")
	rc=$(echo "$out" | sed -n 's/.*status: \([A-Z]*\),.*/\1/p')
	ad=no
	echo "$out" | grep -q '^;; flags:.* ad[ ;]' && ad=yes
	ede=$(echo "$out" | sed -n 's/^; EDE: //p' | head -1)
	ans=$(echo "$out" | awk '/^;; ANSWER SECTION/ {a=1; next} /^$/ {a=0} a {print $NF}' |
		tr '\n' ' ')
	printf '  %-28s %-5s %-9s AD=%-3s %s%s\n' "$1" "$2" "$rc" "$ad" \
		"${ans:+answer: $ans}" "${ede:+EDE: $ede}"
}
echo
echo "== 3. What applications get (dig against dnstrustd's loopback listener)"
echo "-- secure: validated from the lab root down, AD set"
show www.secure.lab. A
show www.nsec3.lab. AAAA
show foo.wild.secure.lab. A
show nonexistent.secure.lab. A
echo "-- insecure: provably unsigned, returned without AD"
show www.insecure.lab. A
show to-insecure.secure.lab. A
echo "-- bogus: withheld, SERVFAIL with the reason"
show www.expired.lab. A
show www.tampered.lab. A
show www.wrongds.lab. A
show www.nosig.lab. A

echo
echo "== 3b. The same through the socket (dnstrust query): status and reason"
for n in www.insecure.lab. www.tampered.lab.; do
	"$dt" query --socket "$work/run/socket" "$n" A | sed 's/^/  /' || true
done
echo "-- the chain of trust behind a secure answer (dnstrust query --trace):"
"$dt" query --trace --socket "$work/run/socket" www.sub.secure.lab. A |
	head -40 | sed 's/^/  /' || true

echo
echo "== 4. resolv.conf rewritten to the attacker, as a rogue DHCP server would"
cp "$LAB_ATTACKER_RESOLV_CONF" "$work/resolv.conf.new"
mv "$work/resolv.conf.new" "$work/resolv.conf"
sleep 0.5
grep -o 'upstreams .*' "$work/dnstrustd.log" | tail -1 | sed 's/^/  dnstrustd: /'
"$dt" flush --socket "$work/run/socket" >/dev/null
echo "-- what the attacker itself says:"
printf '  %s\n' "$(dig @"$LAB_ATTACKER" +short www.secure.lab. A) (www.secure.lab. A, flags: $(dig @"$LAB_ATTACKER" www.ed.lab. A | sed -n 's/^;; flags: \([a-z ]*\);.*/\1/p') for www.ed.lab.)"
echo "-- what applications get through dnstrustd:"
show www.secure.lab. A
show www.ed.lab. A
show www.rsa.lab. A
show www.insecure.lab. A
echo
echo "== 5. Back to the honest upstream: no restart needed"
cp "$LAB_RESOLV_CONF" "$work/resolv.conf.new"
mv "$work/resolv.conf.new" "$work/resolv.conf"
sleep 0.5
"$dt" flush --socket "$work/run/socket" >/dev/null
show www.secure.lab. A

echo
echo "== 6. Offline: dnstrust verify checks a whole signed zone file"
for z in secure.lab. tampered.lab.; do
	echo "-- $z (anchored at its DS from lab.):"
	dig @"$LAB_RESOLVER" +noall +answer "$z" DS >"$work/z.ds"
	"$dt" verify --zone "$z" --anchor "$work/z.ds" \
		"$work/lab/zones/$z.zone" 2>&1 | tail -3 | sed 's/^/  /' || true
done

echo
echo "demo done."
