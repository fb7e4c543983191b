#!/bin/bash
# SPDX-License-Identifier: MIT
#
# VPN split DNS learnt from per-interface sources, in the integration
# lab: two interfaces, a VPN whose server (tests/lab/netproxy.py router
# mode) alone knows the internal zone corp.example. (a name the lab root
# proves absent) and a Wi-Fi whose server (a pass-through netproxy) knows
# only the public tree, each in its own file, in a resolvconf directory
# and in systemd-networkd's link directory. The VPN's domains become
# routes (`dnstrust status`): internal names are answered from the VPN
# server only, insecure (the public tree proves the domain absent);
# public signed names stay secure; with networkd's routing-only domain
# the VPN is no default route and is asked nothing else. A search domain
# naming a signed public lab zone is routed but softens nothing: a
# tampered or forged name there is still SERVFAIL. A domain ... upstream
# rule of the configuration wins over a learnt route. A route goes when
# its interface goes.
#
# usage: lab_splitdns.sh DNSTRUSTD DTQ LAB_SH NETPROXY DNSTRUST
#                                                       (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 NETPROXY=$4 CLI=$5
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
lab_start lab-splitdns
listen=$LAB_NET.106
vpn=$LAB_NET.92  # the VPN's server: knows corp.example.
wifi=$LAB_NET.93 # the Wi-Fi's: the public tree only
mkdir -p "$work/ifaces" "$work/links"

echo "router corp.example" >"$work/vpn.mode"
echo pass >"$work/wifi.mode"
python3 "$NETPROXY" "$vpn" "$LAB_RESOLVER" "$work/vpn.mode" \
	>"$work/vpn.log" 2>&1 &
extra_pids=$!
python3 "$NETPROXY" "$wifi" "$LAB_RESOLVER" "$work/wifi.mode" \
	>"$work/wifi.log" 2>&1 &
extra_pids="$extra_pids $!"
if ! wait_for 50 grep -q ready "$work/vpn.log" ||
	! wait_for 50 grep -q ready "$work/wifi.log"; then
	bail "the two servers start" "$(cat "$work/vpn.log" "$work/wifi.log")"
fi

# put FILE: stdin written next to FILE, then renamed over it, as
# resolvconf and systemd-networkd replace their files.
put() {
	cat >"$1.tmp"
	chmod 644 "$1.tmp"
	mv "$1.tmp" "$1"
}
conf_with() { # conf_with SOURCE-LINE
	cat >"$conf" <<EOF2
socket $sock
listen $listen@53
$1
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
resolution forward
threads 2
log-level info
EOF2
}
is() { # description, dtq output, then key=value pairs it must show
	local d=$1 out=$2 bad=""
	shift 2
	for kv in "$@"; do
		[ "$(echo "$out" | field "${kv%%=*}")" = "${kv#*=}" ] || bad="$bad $kv"
	done
	if [ -z "$bad" ]; then ok "$d"; else not_ok "$d" "want$bad; got: $out"; fi
}
status() { q -c CH status.dnstrust. TXT; }
routes() { status | sed -n 's/^txt=route=//p'; }
routes_are() { [ "$(routes | tr '\n' '|')" = "$1" ]; }
upstreams() { status | sed -n 's/^txt=upstream=//p' | tr '\n' ' '; }
asked() { grep -q "^q $1 " "$work/$2.log"; } # asked NAME vpn|wifi
addr_of() { dig @"$listen" +tries=1 +time=6 +short "$1" A | tr '\n' ' '; }
note() { echo "$*" | diag; }

# --- a resolvconf directory: tun0 (the VPN) and wlan0 (the Wi-Fi) ---
printf 'nameserver %s\nsearch corp.example\n' "$vpn" |
	put "$work/ifaces/01-tun0"
printf 'nameserver %s\n' "$wifi" | put "$work/ifaces/02-wlan0"
conf_with "upstream-source resolvconf $work/ifaces"
check "dnstrustd starts (resolvconf, two interfaces)" start_daemon
check "  status lists the learnt route ($(routes))" \
	routes_are "corp.example. $vpn (01-tun0)|"
out=$("$CLI" status --socket "$sock" 2>&1)
check "  dnstrust status shows it" \
	grep -q "^route: *corp.example. $vpn (01-tun0)$" <<<"$out"
check "  the log says it was learnt" \
	grep -q "route learnt: corp.example. $vpn (01-tun0)" "$dlog"
name=host-$$.corp.example.
is "an internal name is answered, insecure" "$(q "$name" A)" \
	rcode=NOERROR status=insecure ad=0
check "  with the VPN server's address ($(addr_of "$name"))" \
	test "$(addr_of "$name")" = "192.168.1.3 "
check "  asked of the VPN server" asked "$name" vpn
check "  and never of the Wi-Fi's" bash -c "! grep -q '^q $name ' '$work/wifi.log'"
is "a public signed name is secure" "$(q www.secure.lab. A)" \
	rcode=NOERROR status=secure ad=1
is "a tampered public name is bogus" "$(q www.tampered.lab. A)" \
	rcode=SERVFAIL status=bogus

# The VPN names a signed public lab zone as a search domain: routed to
# it, but validated as ever (the public tree proves tampered.lab. signed).
printf 'nameserver %s\nsearch corp.example tampered.lab\n' "$vpn" |
	put "$work/ifaces/01-tun0"
check "a search domain naming a signed lab zone: a route" \
	wait_for 50 routes_are "corp.example. $vpn (01-tun0)|tampered.lab. $vpn (01-tun0)|"
: >"$work/vpn.log"
is "  its tampered name is still SERVFAIL, not softened" \
	"$(q www.tampered.lab. A)" rcode=SERVFAIL status=bogus
check "  (asked of the VPN server)" asked www.tampered.lab. vpn
# ...and a VPN that forges the names of the signed zone it names.
echo "hijack secure.lab 10.66.0.9" >"$work/vpn.mode"
printf 'nameserver %s\nsearch corp.example secure.lab\n' "$vpn" |
	put "$work/ifaces/01-tun0"
check "a VPN claiming secure.lab.: routed there" \
	wait_for 50 routes_are "corp.example. $vpn (01-tun0)|secure.lab. $vpn (01-tun0)|"
is "  its forged answer is SERVFAIL, never insecure" \
	"$(q mail.secure.lab. A)" rcode=SERVFAIL status=bogus
check "  (the forgery came from the VPN server)" \
	grep -q "^q mail.secure.lab. A .*hijacked" "$work/vpn.log"
echo "router corp.example" >"$work/vpn.mode"
printf 'nameserver %s\nsearch corp.example\n' "$vpn" |
	put "$work/ifaces/01-tun0"
check "  the VPN names corp.example. alone again" \
	wait_for 50 routes_are "corp.example. $vpn (01-tun0)|"

# The administrator's domain ... upstream rule wins over the learnt route.
reloads() { grep -c "configuration reloaded" "$dlog"; }
more_reloads() { [ "$(reloads)" -gt "$1" ]; } # counted at each try
reload() {
	local before
	before=$(reloads)
	kill -HUP "$dpid" && wait_for 50 more_reloads "$before"
}
echo "domain corp.example upstream $wifi" >>"$conf"
check "reload with domain corp.example upstream (the Wi-Fi's server)" reload
name=rule-$$.corp.example.
is "  an internal name goes by the rule: the public NXDOMAIN" \
	"$(q "$name" A)" rcode=NXDOMAIN status=secure
check "  (asked of the rule's server, not the VPN's)" \
	bash -c "grep -q '^q $name ' '$work/wifi.log' && ! grep -q '^q $name ' '$work/vpn.log'"
conf_with "upstream-source resolvconf $work/ifaces"
check "reload without the rule" reload
name=back-$$.corp.example.
is "  the learnt route again: answered, insecure" "$(q "$name" A)" \
	rcode=NOERROR status=insecure
check "  (from the VPN server)" asked "$name" vpn

rm "$work/ifaces/01-tun0"
check "the VPN interface goes: its route goes" wait_for 50 routes_are ""
check "  the log says so" wait_log "route gone: corp.example. $vpn (01-tun0)"
check "  only the Wi-Fi's server is left ($(upstreams))" \
	test "$(upstreams)" = "$wifi "
name=gone-$$.corp.example.
is "  an internal name now: the public tree's NXDOMAIN" "$(q "$name" A)" \
	rcode=NXDOMAIN status=secure
check "  (asked of the Wi-Fi's server, not the VPN's)" \
	bash -c "grep -q '^q $name ' '$work/wifi.log' && ! grep -q '^q $name ' '$work/vpn.log'"
check "dnstrustd stops cleanly" stop_daemon

# --- systemd-networkd's links: the VPN's domain routing-only ---
printf 'ADMIN_STATE=configured\nOPER_STATE=routable\nDNS=%s\nDOMAINS=\nROUTE_DOMAINS=\n' \
	"$wifi" | put "$work/links/2"
printf 'ADMIN_STATE=configured\nOPER_STATE=routable\nDNS=%s\nDOMAINS=\nROUTE_DOMAINS=corp.example\n' \
	"$vpn" | put "$work/links/7"
conf_with "upstream-source networkd $work/links"
: >"$work/vpn.log"
: >"$work/wifi.log"
check "dnstrustd starts (networkd, two links)" start_daemon
check "  status: upstream-source=networkd" \
	grep -q "^txt=upstream-source=networkd $work/links$" <(status)
check "  the VPN is no default route: the Wi-Fi's server only ($(upstreams))" \
	test "$(upstreams)" = "$wifi "
check "  the routing-only domain is a route ($(routes))" \
	routes_are "corp.example. $vpn (7)|"
name=nd-$$.corp.example.
is "an internal name is answered, insecure" "$(q "$name" A)" \
	rcode=NOERROR status=insecure ad=0
check "  with the VPN server's address" test "$(addr_of "$name")" = "192.168.1.3 "
check "  asked of the VPN server only" \
	bash -c "grep -q '^q $name ' '$work/vpn.log' && ! grep -q '^q $name ' '$work/wifi.log'"
is "a public signed name is secure" "$(q www.nsec3.lab. A)" \
	rcode=NOERROR status=secure ad=1
check "  asked of the Wi-Fi's server" asked www.nsec3.lab. wifi
public=$(grep -v '^q [^ ]*corp\.example\. \|^ready' "$work/vpn.log")
check "  and nothing public of the VPN's" test -z "$public"
note "$public"
rm "$work/links/7"
check "the VPN link goes: its route goes" wait_for 50 routes_are ""
check "dnstrustd stops cleanly" stop_daemon
finish
