#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd on imitations of the networks real hosts are attached to
# (tests/lab/netproxy.py in front of the lab's honest resolver, named by
# resolv.conf): a resolver that strips DNSSEC records, one that answers
# FORMERR to EDNS, one that truncates at 512 octets and refuses TCP, one
# that sets AD and drops RRSIGs, one that fails DS questions, a hotspot
# portal, a slow one, a router that knows the local names; resolv.conf
# switched from a dead server to a live one (roaming); a network that
# blocks queries to authoritative servers too; a network that hands out
# a signed zone as its DHCP search domain and forges the names under it
# (in forward and in recursive mode: secure or SERVFAIL, never
# insecure, and while recursing nothing of it asked of the network).
#
# Where the network's resolver cannot do DNSSEC, dnstrustd (resolution
# auto, the default) resolves from the lab root (root-hints: the lab's
# root.hints, in every configuration written here: nothing may be asked
# of the public root servers) with the same validator, says so in
# `dnstrust status --json` and `dnstrust audit`, and never counts good
# data as bogus. The proxy's own behaviour is checked first, with dig.
#
# usage: lab_networks.sh DNSTRUSTD DTQ LAB_SH NETPROXY DNSTRUST
#                                                       (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 NETPROXY=$4 CLI=$5
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
export LAB_GLUELESS=1 # glueless.lab. NS ns.secure.lab., for hijack
lab_start lab-networks
listen=$LAB_NET.103
proxy=$LAB_NET.91 # the network's resolver, in the mode of $mode
dead=$LAB_NET.98  # a server that never answers (packets dropped)
mode=$work/proxy.mode
plog=$work/proxy.log
resolv=$work/resolv.conf
search=branch.example # the DHCP search domain; not in the lab (the
		      # root proves example. does not exist)
portal_addr=10.77.0.1
portal_name=login.wifi.example. # without "portal": grep finds the word
# FORMERRs the proxy may send dnstrustd for all the questions of its
# section: enough for a probe or two, far fewer than the questions.
formerr_max=4
query_timeout=5

echo pass >"$mode"
python3 "$NETPROXY" "$proxy" "$LAB_RESOLVER" "$mode" >"$plog" 2>&1 &
extra_pids=$!
python3 "$NETPROXY" "$dead" "$LAB_RESOLVER" -m blackhole \
	>"$work/dead.log" 2>&1 &
extra_pids="$extra_pids $!"
if ! wait_for 50 grep -q ready "$plog" ||
	! wait_for 50 grep -q ready "$work/dead.log"; then
	bail "the proxies start" "$(cat "$plog" "$work/dead.log")"
fi
printf '. 3600000 NS ns1.lab.\nns1.lab. 3600000 A %s\n' "$dead" \
	>"$work/blocked.hints"

# --- the imitations themselves, through dig ---

# look DIG-ARGS...: dig through the proxy, summed up on one line as
# "RCODE flags=... an=N opt=0|1 rrsig=N addr=A,B" (rrsig: RRSIG records,
# not type bitmaps naming them; addr: the answer's A records)
look() {
	dig @"$proxy" +tries=1 +time=3 "$@" 2>&1 | awk '
		/^;; ->>HEADER/ { rc = $6; sub(",", "", rc) }
		/^;; flags:/ { sub(/^;; flags: /, ""); sub(/;.*/, ""); fl = $0 }
		/OPT PSEUDOSECTION/ { opt = 1 }
		/^;; ANSWER SECTION/ { sec = "an"; next }
		/^;; [A-Z]+ SECTION/ { sec = ""; next }
		/^$/ { sec = "" }
		!/^;/ && $4 == "RRSIG" { sig++ }
		sec == "an" && $4 == "A" { addr = addr (addr ? "," : "") $5 }
		sec == "an" { an++ }
		END { printf "%s flags=%s an=%d opt=%d rrsig=%d addr=%s\n",
		      rc ? rc : "none", fl, an, opt, sig, addr }'
}
# sees DESCRIPTION PATTERN DIG-ARGS...: look's line matches PATTERN (ERE).
sees() {
	local d="$1" pat="$2" got
	shift 2
	got=$(look "$@")
	if echo "$got" | grep -Eq -- "$pat"; then
		ok "proxy $(cat "$mode"): $d"
	else
		not_ok "proxy $(cat "$mode"): $d" "dig $*: $got (wanted /$pat/)"
	fi
}

echo pass >"$mode"
sees "pass: RRSIGs with DO" '^NOERROR .*an=2 opt=1 rrsig=1 ' +dnssec www.secure.lab. A
echo strip >"$mode"
sees "no RRSIG, no OPT, no AD" '^NOERROR flags=qr rd ra an=1 opt=0 rrsig=0 addr=192.0.2.1$' \
	+dnssec +adflag www.secure.lab. A
sees "DS: no data" '^NOERROR .*an=0 opt=0' +dnssec secure.lab. DS
sees "DNSKEY: no data, over TCP too" '^NOERROR .*an=0 opt=0' +dnssec +tcp . DNSKEY
sees "NXDOMAIN without NSEC" '^NXDOMAIN .*opt=0 rrsig=0' +dnssec nonexistent.secure.lab. A
echo formerr-edns >"$mode"
sees "FORMERR without OPT to EDNS" '^FORMERR .*an=0 opt=0' +dnssec www.secure.lab. A
sees "a plain query answered" '^NOERROR .*opt=0 rrsig=0 addr=192.0.2.1$' +noedns www.secure.lab. A
echo trunc512 >"$mode"
sees "the root DNSKEY truncated, no records" '^NOERROR flags=qr tc.* an=0 ' +dnssec +ignore . DNSKEY
sees "a small answer whole" '^NOERROR .*rrsig=1 addr=192.0.2.1$' +dnssec www.secure.lab. A
sees "TCP closed" '^none ' +tcp +dnssec www.secure.lab. A
echo ad-strip >"$mode"
sees "AD set, RRSIG gone, data kept" '^NOERROR flags=qr rd ra ad an=1 opt=1 rrsig=0 addr=192.0.2.1$' \
	+dnssec www.secure.lab. A
echo ds-servfail >"$mode"
sees "DS SERVFAIL" '^SERVFAIL .*an=0' +dnssec secure.lab. DS
sees "the rest forwarded" '^NOERROR .*rrsig=1 addr=192.0.2.1$' +dnssec www.secure.lab. A
echo ds-nxdomain >"$mode"
sees "DS NXDOMAIN" '^NXDOMAIN .*an=0' +dnssec secure.lab. DS
echo ds-empty >"$mode"
sees "DS: no data, no denial" '^NOERROR .*an=0 opt=1 rrsig=0' +dnssec secure.lab. DS
sees "the rest forwarded" '^NOERROR .*rrsig=1 addr=192.0.2.1$' +dnssec www.secure.lab. A
echo nodata-dnskey >"$mode"
sees "the root DNSKEY: no data" '^NOERROR .*an=0 opt=1 rrsig=0' +dnssec . DNSKEY
sees "DS: no data" '^NOERROR .*an=0 opt=1 rrsig=0' +dnssec secure.lab. DS
sees "the rest forwarded" '^NOERROR .*rrsig=1 addr=192.0.2.1$' +dnssec www.secure.lab. A
echo no-do >"$mode"
sees "EDNS kept, no RRSIG" '^NOERROR .*an=1 opt=1 rrsig=0 addr=192.0.2.1$' +dnssec www.secure.lab. A
check "proxy no-do: DO=0 in the reply" \
	bash -c "dig @$proxy +tries=1 +time=3 +dnssec . DNSKEY | grep -q 'EDNS: version: 0, flags:;'"
echo "ds-servfail-slownx 300" >"$mode"
sees "DS SERVFAIL" '^SERVFAIL .*an=0' +dnssec secure.lab. DS
t0=$(date +%s%N)
sees "NXDOMAIN" '^NXDOMAIN ' +dnssec nonexistent.secure.lab. A
ms=$((($(date +%s%N) - t0) / 1000000))
check "proxy ds-servfail-slownx 300: the NXDOMAIN took $ms ms (at least 300)" \
	[ "$ms" -ge 300 ]
t0=$(date +%s%N)
sees "an existing name, signed" '^NOERROR .*rrsig=1 addr=192.0.2.1$' +dnssec www.secure.lab. A
ms=$((($(date +%s%N) - t0) / 1000000))
check "proxy ds-servfail-slownx 300: the existing name took $ms ms (under 300)" \
	[ "$ms" -lt 300 ]
echo "portal $portal_addr $portal_name" >"$mode"
sees "every A is the portal" "^NOERROR flags=qr rd ra an=1 .*rrsig=0 addr=$portal_addr\$" \
	+dnssec www.secure.lab. A
sees "its own name too" "addr=$portal_addr\$" "$portal_name" A
sees "AAAA: no data" '^NOERROR .*an=0 ' +dnssec www.secure.lab. AAAA
sees "DS forwarded" '^NOERROR .*an=2 .*rrsig=1 ' +dnssec secure.lab. DS
echo "router $search" >"$mode"
sees "router.lan. itself, unsigned, AA=0" '^NOERROR flags=qr rd ra an=1 .*rrsig=0 addr=192.168.1.1$' \
	+dnssec router.lan. A
sees "a name of the search domain" 'addr=192.168.1.3$' "nas.$search." A
sees "a name below home.arpa." 'addr=192.168.1.2$' printer.home.arpa. A
sees "other names honestly, signed" '^NOERROR .*rrsig=1 addr=192.0.2.1$' +dnssec www.secure.lab. A
echo "slow 800" >"$mode"
t0=$(date +%s%N)
pids=""
for i in 1 2 3; do
	look www.secure.lab. A >"$work/slow.$i" &
	pids="$pids $!"
done
# shellcheck disable=SC2086 # one word per PID
wait $pids
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -ge 800 ] && [ "$ms" -lt 1600 ] &&
	[ "$(cat "$work"/slow.* | grep -c 'addr=192.0.2.1$')" = 3 ]
result $? "proxy slow 800: three questions at once answered in $ms ms (0.8-1.6 s)"
check "proxy blackhole: nothing answers" \
	test "$(dig @"$dead" +tries=1 +time=1 www.secure.lab. A >/dev/null 2>&1; echo $?)" = 9
check "the proxy logs one line per question" \
	test "$(grep -c '^q ' "$plog")" -ge 25

# --- dnstrustd behind each network ---

# Only a daemon that knows neither root-hints nor resolution (no recursion
# at all) runs without root-hints: one that can recurse never starts here
# without the lab's root hints.
hints_line="root-hints $LAB_DIR/root.hints"
printf 'socket %s\ntrust-anchor-file %s\n%s\n' "$sock" "$LAB_ANCHOR" \
	"$hints_line" >"$work/probe.conf"
if ! "$DNSTRUSTD" -n -c "$work/probe.conf" >/dev/null 2>&1; then
	sed -i "s|^$hints_line\$|resolution forward|" "$work/probe.conf"
	if "$DNSTRUSTD" -n -c "$work/probe.conf" >/dev/null 2>&1; then
		bail "dnstrustd knows 'resolution' but not 'root-hints'"
	fi
	echo "# dnstrustd knows neither root-hints nor resolution: it cannot"
	echo "# resolve from the root, and every check that needs it fails"
	hints_line=""
fi

# net RESOLV-LINE... : dnstrustd (re)started with the default resolution,
# the lab's root hints (or $hints) and a resolv.conf of these lines.
net() {
	[ -n "$dpid" ] && stop_daemon >/dev/null 2>&1
	printf '%s\n' "$@" >"$resolv"
	chmod 644 "$resolv"
	cat >"$conf" <<EOF
# written by lab_networks.sh
socket $sock
listen $listen@53
resolv-conf $resolv
trust-anchor-file $LAB_ANCHOR
${hints:-$hints_line}
${extra_conf:-}
query-timeout $query_timeout
log-level info
EOF
	mark=$(wc -l <"$plog")
	dmark=$(wc -l 2>/dev/null <"$dlog" || echo 0)
	start_daemon
}

# asks NAME TYPE STATUS RCODE [EDE] [ADDR]: through the socket, STATUS,
# RCODE, AD for secure only, EDE when given; through the UDP listener the
# answer's A records are ADDR when given.
asks() {
	local name="$1" type="$2" st="$3" rc="$4" ede="${5:-}" addr="${6:-}"
	local out ad=0 got
	[ "$st" = secure ] && ad=1
	out=$(q "$name" "$type" 2>&1 | head -1)
	got=$(echo "$out" | field status)/$(echo "$out" | field rcode)/$(echo "$out" | field ad)
	if [ "$got" != "$st/$rc/$ad" ] ||
		{ [ -n "$ede" ] && [ "$(echo "$out" | field ede)" != "$ede" ]; }; then
		not_ok "$net_name: $name $type is $st $rc${ede:+ EDE $ede}" "$out"
		return
	fi
	if [ -n "$addr" ]; then
		got=$(dig @"$listen" +tries=1 +time=6 +short "$name" "$type" |
			sort | tr '\n' ',')
		if [ "$got" != "$addr," ]; then
			not_ok "$net_name: $name $type is $st $rc, $addr" \
				"through the listener: ${got:-nothing}"
			return
		fi
	fi
	ok "$net_name: $name $type is $st $rc${ede:+ EDE $ede}${addr:+, $addr}"
}

# fails NAME TYPE [EDE]: through the socket, SERVFAIL without records or
# AD (whatever the status), with EDE when given: failed closed.
fails() {
	local out
	out=$(q "$1" "$2" 2>&1 | head -1)
	if [ "$(echo "$out" | field rcode)/$(echo "$out" | field answers)/$(echo "$out" | field ad)" = SERVFAIL/0/0 ] &&
		{ [ -z "${3:-}" ] || [ "$(echo "$out" | field ede)" = "$3" ]; }; then
		ok "$net_name: $1 $2 fails closed${3:+ with EDE $3}"
	else
		not_ok "$net_name: $1 $2 fails closed${3:+ with EDE $3}" "$out"
	fi
}

# expected NAME TYPE: that question's line of $LAB_EXPECT without the name
# and type (STATUS RCODE [EDE]).
expected() {
	awk -v n="$1" -v t="$2" '$1 == n && $2 == t { print $3, $4, $5 }' \
		"$LAB_EXPECT"
}
# the address of NAME A from the validating Unbound.
truth() { dig @"$LAB_VALIDATOR" +tries=1 +time=6 +short "$1" A | sort | head -1; }

counter() { # KEY: a counter of `dnstrust statistics --json`
	"$CLI" statistics --json --socket "$sock" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["statistics"].get(sys.argv[1], "?"))' "$1" 2>/dev/null
}

# status_says RESOLUTION ADDR DNSSEC: `dnstrust status --json` has
# "resolution": RESOLUTION and, among "upstreams", ADDR with "dnssec":
# DNSSEC and a reason (the keys found wherever they are in the object).
status_says() {
	"$CLI" status --json --socket "$sock" >"$work/status.json" 2>&1
	python3 - "$@" "$work/status.json" <<'EOF'
import json, sys
want_res, addr, want_sec, path = sys.argv[1:]
def walk(o, key):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == key:
                yield v
            yield from walk(v, key)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v, key)
try:
    s = json.load(open(path))
except ValueError as e:
    sys.exit(f"not JSON: {e}")
res = list(walk(s, "resolution"))
ups = [u for l in walk(s, "upstreams") if isinstance(l, list)
       for u in l if isinstance(u, dict) and u.get("address") == addr]
if res != [want_res]:
    sys.exit(f"resolution {res}, wanted {want_res}")
if not ups or ups[0].get("dnssec") != want_sec or not ups[0].get("reason"):
    sys.exit(f"upstream {addr}: {ups}, wanted dnssec {want_sec} and a reason")
EOF
}
# audit_finds PATTERN...: `dnstrust audit --json` has a finding, not OK,
# with a fix, whose message matches every PATTERN (Python regular
# expressions, case ignored).
audit_finds() {
	"$CLI" audit --json --config "$conf" --resolv-conf "$resolv" \
		--socket "$sock" >"$work/audit.json" 2>&1
	python3 - "$work/audit.json" "$@" <<'EOF'
import json, re, sys
path, pats = sys.argv[1], sys.argv[2:]
try:
    a = json.load(open(path))
except ValueError as e:
    sys.exit(f"not JSON: {e}")
for f in a.get("findings", []):
    if f.get("severity") != "OK" and f.get("fix") and all(
            re.search(p, f.get("message", ""), re.I) for p in pats):
        sys.exit(0)
sys.exit("no such finding: " + "; ".join(
    f"{f.get('severity')} {f.get('id')}: {f.get('message')}"
    for f in a.get("findings", [])))
EOF
}
# says DESCRIPTION COMMAND...: check, with COMMAND's output as diagnostics.
says() {
	local d="$1" out
	shift
	if out=$("$@" 2>&1); then ok "$d"; else not_ok "$d" "$out"; fi
}
# proxy_saw PATTERN: lines of the proxy's log since the daemon started
# that match PATTERN.
proxy_saw() { tail -n +"$((mark + 1))" "$plog" | grep -c -- "$1"; }

# --- networks whose resolver cannot do DNSSEC ---

# ds-empty, nodata-dnskey and no-do each reach "no" within the probe's
# three steps, and resolution auto recurses.
# ds-servfail-slownx: the probe's "yes" (its first step) comes before
# its DS step can take it back; the first questions must not be let go
# to meet the DS failure first (the start-up hold waits for the probe's
# every step).
for net_name in strip formerr-edns trunc512 ad-strip ds-servfail ds-nxdomain \
	ds-servfail-slownx ds-empty nodata-dnskey no-do; do
	echo "$net_name" >"$mode"
	if ! net "nameserver $proxy"; then
		not_ok "$net_name: dnstrustd starts" "$(tail -5 "$dlog")"
		continue
	fi
	# Good data first: nothing of it may be counted bogus.
	for nt in "www.secure.lab. A" "www.insecure.lab. A" \
		"nonexistent.secure.lab. A" "www.sub.secure.lab. A" \
		"www.unsigned.optout.lab. A"; do
		# shellcheck disable=SC2046,SC2086 # words: name, type, verdict
		asks $nt $(expected $nt)
	done
	asks www.secure.lab. A secure NOERROR "" "$(truth www.secure.lab.)"
	says "$net_name: good data counted bogus 0 times (bogus=$(counter bogus))" \
		test "$(counter bogus)" = 0
	# shellcheck disable=SC2046
	asks www.expired.lab. A $(expected www.expired.lab. A)
	# shellcheck disable=SC2046
	asks to-bogus.secure.lab. A $(expected to-bogus.secure.lab. A)
	says "$net_name: status: resolution recursive, $proxy dnssec no, with a reason" \
		status_says recursive "$proxy" no
	says "$net_name: audit names $proxy as unable to do DNSSEC, with the fix" \
		audit_finds "$proxy" dnssec
	if [ "$net_name" = formerr-edns ]; then
		f=$(proxy_saw '> FORMERR')
		check "formerr-edns: $f FORMERRs for 8 questions (at most $formerr_max)" \
			[ "$f" -le "$formerr_max" ]
	fi
done

# --- a slow resolver that can do DNSSEC ---

net_name="slow 800"
echo "slow 800" >"$mode"
if net "nameserver $proxy"; then
	t0=$(date +%s%N)
	out=$(q www.sub.secure.lab. A | head -1)
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "# slow 800: www.sub.secure.lab. A cold in $ms ms: $out"
	[ "$(echo "$out" | field status)" = secure ] &&
		[ "$ms" -lt $((query_timeout * 1000)) ]
	result $? "slow 800: www.sub.secure.lab. A secure within query-timeout ($ms ms)"
else
	not_ok "slow 800: dnstrustd starts" "$(tail -5 "$dlog")"
fi

# --- the router that knows the local names ---

net_name=router
echo "router $search" >"$mode"
if net "nameserver $proxy" "search $search"; then
	asks router.lan. A insecure NOERROR "" 192.168.1.1
	asks "nas.$search." A insecure NOERROR "" 192.168.1.3
	asks printer.home.arpa. A insecure NOERROR "" 192.168.1.2
	asks www.secure.lab. A secure NOERROR "" "$(truth www.secure.lab.)"
	# shellcheck disable=SC2046
	asks www.expired.lab. A $(expected www.expired.lab. A)
	says "router: status: resolution forward, $proxy dnssec yes" \
		status_says forward "$proxy" yes
else
	not_ok "router: dnstrustd starts" "$(tail -5 "$dlog")"
fi

# --- a DHCP search domain naming a signed zone ---

# The network hands out `search lab` (the lab's signed TLD) and claims
# it: its resolver answers every A at or below lab. with the address of
# the server that never answers, and no data for DS and DNSKEY there. A
# search suffix is private only once the public tree proves it unsigned
# or absent (docs/DESIGN.md): lab. is signed, so its names are validated
# like any other: secure, or SERVFAIL when the network is the only way
# to them (forward), never insecure with the forged address.
# secure_or_fails NAME TYPE ADDR: secure with ADDR through the listener,
# or SERVFAIL without records; with $strict set, secure only.
secure_or_fails() {
	local out st rc got
	out=$(q "$1" "$2" 2>&1 | head -1)
	st=$(echo "$out" | field status) rc=$(echo "$out" | field rcode)
	if [ "$st/$rc/$(echo "$out" | field ad)" = secure/NOERROR/1 ]; then
		got=$(dig @"$listen" +tries=1 +time=6 +short "$1" "$2" |
			sort | tr '\n' ',')
		if [ "$got" = "$3," ]; then
			ok "$net_name: $1 $2 secure, $3"
		else
			not_ok "$net_name: $1 $2 secure, $3" "listener: $got"
		fi
	elif [ -z "${strict:-}" ] &&
		[ "$rc/$(echo "$out" | field answers)/$(echo "$out" | field ad)" = SERVFAIL/0/0 ]; then
		ok "$net_name: $1 $2 fails closed ($st)"
	else
		not_ok "$net_name: $1 $2 secure${strict:+ (recursing)}${strict:- or SERVFAIL}, never the network's" "$out"
	fi
}
for res in forward recursive; do
	net_name="hijack lab. ($res)"
	echo "hijack lab. $dead" >"$mode"
	extra_conf="resolution $res"
	strict=""
	[ "$res" = recursive ] && strict=1
	if [ "$res" = recursive ] && [ -z "$hints_line" ]; then
		not_ok "$net_name: dnstrustd can recurse" "no root-hints"
		continue
	fi
	if ! net "nameserver $proxy" "search lab"; then
		not_ok "$net_name: dnstrustd starts" "$(tail -5 "$dlog")"
		continue
	fi
	secure_or_fails www.secure.lab. A 192.0.2.1
	secure_or_fails mail.secure.lab. A "$(truth mail.secure.lab.)"
	secure_or_fails www.sub.secure.lab. A 192.0.2.10
	secure_or_fails www.nsec3.lab. A "$(truth www.nsec3.lab.)"
	says "$net_name: none of it insecure or cached from the network (insecure=$(counter insecure))" \
		test "$(counter insecure)" = 0
	if [ "$res" = recursive ]; then
		seen=$(proxy_saw '^q [^ ]*[.]lab[.] ')
		check "$net_name: no name below lab. asked of the network ($seen)" \
			[ "$seen" = 0 ]
	fi
done
# The network claims secure.lab., where glueless.lab.'s name server is
# named (ns.secure.lab., no glue): while recursing, that address is a
# question to the public tree, not to the network.
net_name="hijack secure.lab. (recursive)"
echo "hijack secure.lab. $dead" >"$mode"
extra_conf="resolution recursive"
if [ -n "$hints_line" ] && net "nameserver $proxy" "search secure.lab"; then
	asks www.glueless.lab. A insecure NOERROR "" 192.0.2.120
	asks ns.secure.lab. A secure NOERROR
	seen=$(proxy_saw '^q [^ ]*secure[.]lab[.] ')
	check "$net_name: no name below secure.lab. asked of the network ($seen)" \
		[ "$seen" = 0 ]
else
	not_ok "$net_name: dnstrustd starts" "$(tail -5 "$dlog")"
fi
extra_conf=""

# --- a hotspot before and after sign-on ---

net_name=portal
echo "portal $portal_addr $portal_name" >"$mode"
portal_said() {
	"$CLI" status --socket "$sock" 2>&1 | grep -qi portal ||
		tail -n +"$((dmark + 1))" "$dlog" | grep -qi portal
}
# Before sign-on a portal lets nothing through: no query to the lab's
# root either.
[ -n "$hints_line" ] && hints="root-hints $work/blocked.hints"
if net "nameserver $proxy"; then
	fails www.secure.lab. A
	fails "$portal_name" A
	check "portal: status or the log says a portal is suspected" \
		wait_for 30 portal_said
	check "portal: the probe's name that does not exist got an address: the log names $proxy" \
		wait_log "upstream $proxy answers names that do not exist with addresses: a captive portal is suspected"
	says "portal: dnstrust hotspot" "$CLI" hotspot --socket "$sock"
	# This portal forwards DS and DNSKEY questions: the chain proves
	# insecure.lab. unsigned, so its (forged) address is insecure, as
	# any answer for a provably unsigned name; unvalidated is for names
	# nothing proves either way.
	asks www.insecure.lab. A insecure NOERROR "" "$portal_addr"
	asks "$portal_name" A unvalidated NOERROR "" "$portal_addr"
	fails www.secure.lab. A
	says "portal: dnstrust hotspot --done" "$CLI" hotspot --done --socket "$sock"
	fails "$portal_name" A
	out=$(q www.insecure.lab. A | head -1)
	[ "$(echo "$out" | field status)" != unvalidated ] &&
		[ -n "$(echo "$out" | field status)" ]
	result $? "portal: after --done, www.insecure.lab. A is no longer unvalidated"
else
	not_ok "portal: dnstrustd starts" "$(tail -5 "$dlog")"
fi
hints=""

# --- roaming: from a network that fails everything to a good one ---

# The first network: its resolver never answers and direct queries are
# dropped too, so www.secure.lab. fails (and the failure may be kept);
# then resolv.conf names the router, and the name, the failed one too,
# resolves within a second; in-flight and later questions go to the new
# server, which alone knows router.lan.
net_name=roaming
echo "router $search" >"$mode"
[ -n "$hints_line" ] && hints="root-hints $work/blocked.hints"
secure_now() { # NAME: the daemon answers it secure, within 2 s
	timeout 2 "$DTQ" -s "$sock" "$1" A 2>/dev/null | head -1 |
		grep -q ' status=secure '
}
if net "nameserver $dead" "search $search"; then
	fails www.secure.lab. A
	printf 'nameserver %s\nsearch %s\n' "$proxy" "$search" >"$resolv.new"
	chmod 644 "$resolv.new"
	t0=$(date +%s%N)
	mv "$resolv.new" "$resolv"
	until secure_now www.secure.lab.; do
		ms=$((($(date +%s%N) - t0) / 1000000))
		[ "$ms" -lt 10000 ] || break
		sleep 0.05
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "# roaming: www.secure.lab. A secure $ms ms after the change (10000: never)"
	[ "$ms" -le 1000 ]
	result $? "roaming: www.secure.lab. A, which had failed, secure within 1 s of the change ($ms ms)"
	asks mail.secure.lab. A secure NOERROR
	asks router.lan. A insecure NOERROR "" 192.168.1.1
else
	not_ok "roaming: dnstrustd starts" "$(tail -5 "$dlog")"
fi
hints=""

# --- a network that blocks queries to authoritative servers too ---

net_name=blocked
echo strip >"$mode"
[ -n "$hints_line" ] && hints="root-hints $work/blocked.hints"
if net "nameserver $proxy"; then
	fails www.secure.lab. A 23
	fails www.insecure.lab. A
	check "blocked: status says the network blocks it" \
		bash -c "'$CLI' status --socket '$sock' | grep -qi block"
	says "blocked: audit says the network blocks it, with the fix" \
		audit_finds block
else
	not_ok "blocked: dnstrustd starts" "$(tail -5 "$dlog")"
fi
hints=""

if [ "$failed" -gt 0 ]; then
	echo "# the daemon's log, last lines:"
	tail -30 "$dlog" | diag
fi
finish
