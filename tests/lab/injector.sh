#!/bin/bash
# SPDX-License-Identifier: MIT
#
# An upstream that adds unvalidated records to genuine signed answers
# (tests/lab/injector.c, in front of the lab's honest Unbound), case by
# case, with dnstrustd behind it; every case asked through every client
# path: the UDP and TCP listener with and without DO (dig), dt_query,
# dt_getaddrinfo, dt_tlsa, dt_sshfp (inj_client), the NSS module (getent
# in a private mount namespace, as nss_lab.sh does) and the dnstrust
# command (query, tlsa, sshfp). Pass: no injected record (evil.plain.,
# 6.6.6.6, 2001:db8:666::6, TXT "evil", 0xee key data) ever reaches a
# client, and the genuine answer is served (what was added stripped) or
# SERVFAIL; never an NXDOMAIN for a name that exists.
#
# A validating Unbound behind the same injector is asked too, for the
# comparison of docs/INTEGRITY.md (not a pass condition); with
# INJ_TABLE=FILE the comparison rows are written there.
#
# usage: injector.sh DNSTRUSTD DTQ LAB_SH INJECTOR INJ_CLIENT DNSTRUST MODULE
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 INJECTOR=$4 INJ_CLIENT=$5 DNSTRUST=$6 MODULE=$7
MODDIR=$(cd "$(dirname "$MODULE")" && pwd)
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip_all "needs root and mount namespaces"
fi
lab_start lab-injector
inj=$LAB_NET.70
ubaddr=$LAB_NET.71
listen=$LAB_NET.100
control=$work/case
rundir=$work/run
sock=$rundir/socket
mkdir -m 755 "$rundir"
: >"$control"

"$INJECTOR" -l "$inj" -u "$LAB_RESOLVER" -c "$control" 2>"$work/injector.log" &
extra_pids="$!"
echo "nameserver $inj" >"$work/resolv.conf"
cat >"$conf" <<EOF
# written by injector.sh
socket $sock
listen $listen@53
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 3
log-level info
EOF

# The lab's validating Unbound, copied, forwarding to the injector.
ub=$work/ub
mkdir "$ub"
sed -e "s|^\( *\)interface: .*|\1interface: $ubaddr|" \
	-e "s|$(dirname "$LAB_VALIDATOR_CONF")|$ub|g" \
	"$LAB_VALIDATOR_CONF" >"$ub/unbound.conf"
printf 'forward-zone:\n    name: "."\n    forward-addr: %s\n' "$inj" \
	>>"$ub/unbound.conf"
/usr/sbin/unbound -d -c "$ub/unbound.conf" 2>"$ub/stderr" &
extra_pids="$extra_pids $!"

check "dnstrustd starts with the injector as its upstream" start_daemon
echo "cname-beside www.secure.lab." >"$control"
check "the injector adds records (evil.plain. beside www.secure.lab. A)" \
	bash -c "dig @$inj +tries=2 +time=3 +dnssec www.secure.lab. A | grep -q evil.plain"
: >"$control"
ub_up() { dig @"$ubaddr" +tries=1 +time=1 lab. SOA >/dev/null 2>&1; }
wait_for 50 ub_up

# --- the namespace of the NSS module (ns_run, as nss_lab.sh) ---

printf 'passwd: files\ngroup: files\nhosts: files dnstrust\n' >"$work/nss"
chmod 644 "$work/nss"
ns() { ns_run "$work/nss" "$LAB_RESOLV_CONF" "$rundir" "$MODDIR" "$@"; }

# --- checks ---

INJECTED='evil|6\.6\.6\.6|2001:db8:666|eeeeeeeeeeeeeeee|wire injected'
injected() { grep -qiE "$INJECTED"; }

# dig_ok OUT GENUINE_RCODE: nothing injected; the genuine RCODE with
# data (NOERROR, unless the genuine answer is NODATA) or SERVFAIL.
dig_ok() {
	local st
	st=$(echo "$1" | sed -n 's/.*status: \([A-Z]*\),.*/\1/p')
	echo "$1" | injected && return 1
	[ "$st" = SERVFAIL ] && return 0
	[ "$st" = "$2" ] || return 1
	[ "$2" != NOERROR ] || [ "$nodata" = 1 ] ||
		echo "$1" | grep -q 'ANSWER: [1-9]'
}
dig_summary() { # OUT: "RCODE ad" or "RCODE", "+inj" when injected
	local st ad=""
	st=$(echo "$1" | sed -n 's/.*status: \([A-Z]*\),.*/\1/p')
	echo "$1" | grep -q '^;; flags:.* ad[ ;]' && ad=" AD"
	echo "$1" | injected && ad="$ad, injected"
	echo "${st:-no answer}$ad"
}

# lib_ok OUT GENUINE_RCODE: dt_query refused (bogus) or gave the genuine
# RCODE or SERVFAIL; dt_getaddrinfo never EAI_NONAME for a name that
# exists; no injected octet anywhere.
lib_ok() {
	local r
	echo "$1" | injected && return 1
	for r in $(echo "$1" | sed -n 's/^query[+do]* rc=0 rcode=\([0-9]*\).*/\1/p'); do
		[ "$r" = "$2" ] || [ "$r" = 2 ] || return 1
	done
	[ "$2" = 3 ] || ! echo "$1" | grep -q '^gai rc=-2$'
}

run_case() { # CASE TARGET TYPE GENUINE_RCODE(NOERROR|NXDOMAIN) [nodata]
	local c=$1 name=$2 type=$3 rc=$4 out ub_out num=0 tag
	nodata=${5:-0}
	[ "$rc" = NXDOMAIN ] && num=3
	tag="$c $name $type"
	echo "$c $name" >"$control"
	q -c CH flush.dnstrust. TXT >/dev/null 2>&1
	unbound-control -c "$ub/unbound.conf" flush_zone . >/dev/null 2>&1
	unbound-control -c "$ub/unbound.conf" flush_bogus >/dev/null 2>&1
	unbound-control -c "$ub/unbound.conf" flush_negative >/dev/null 2>&1
	for mode in "" +dnssec "+tcp" "+tcp +dnssec"; do
		# shellcheck disable=SC2086
		out=$(dig @"$listen" +tries=1 +time=6 $mode "$name" "$type" 2>&1)
		if dig_ok "$out" "$rc"; then
			ok "$tag: listener ${mode:-udp}: $(dig_summary "$out")"
		else
			not_ok "$tag: listener ${mode:-udp}" "$out"
		fi
	done
	out=$("$INJ_CLIENT" "$sock" "$name" "$type" 2>&1)
	if lib_ok "$out" "$num"; then
		ok "$tag: dt_query, dt_getaddrinfo, dt_tlsa, dt_sshfp"
	else
		not_ok "$tag: dt_query, dt_getaddrinfo, dt_tlsa, dt_sshfp" "$out"
	fi
	out=$(ns getent ahosts "$name" 2>&1)
	if ! echo "$out" | injected; then
		ok "$tag: getent ahosts (NSS): ${out:+$(echo "$out" | awk '{print $1}' | sort -u | tr '\n' ' ')}"
	else
		not_ok "$tag: getent ahosts (NSS)" "$out"
	fi
	out=$("$DNSTRUST" query "$name" "$type" --socket "$sock" 2>&1)
	case $type in
	TLSA) out="$out
$("$DNSTRUST" tlsa "${name#_443._tcp.}" 443 --socket "$sock" 2>&1)" ;;
	SSHFP) out="$out
$("$DNSTRUST" sshfp "$name" --socket "$sock" 2>&1)" ;;
	esac
	if ! echo "$out" | injected &&
		{ [ "$rc" = NXDOMAIN ] || ! echo "$out" | grep -q NXDOMAIN; }; then
		ok "$tag: dnstrust query${type:+/$type}"
	else
		not_ok "$tag: dnstrust query" "$out"
	fi
	ub_out=$(dig @"$ubaddr" +tries=1 +time=6 +dnssec "$name" "$type" 2>&1)
	out=$(dig @"$listen" +tries=1 +time=6 +dnssec "$name" "$type" 2>&1)
	[ -n "${INJ_TABLE:-}" ] &&
		echo "| $c | $name $type | $(dig_summary "$out") | $(dig_summary "$ub_out") |" >>"$INJ_TABLE"
}

while read -r c name type rc extra; do
	run_case "$c" "$name" "$type" "$rc" "${extra:-0}"
done <<'EOF'
cname-beside www.secure.lab. A NOERROR
cname-before www.secure.lab. AAAA NOERROR
cname-beside chain.secure.lab. A NOERROR
dname-beside www.secure.lab. A NOERROR
dname-nocname www.secure.lab. A NOERROR
mid-chain chain.secure.lab. A NOERROR
offchain www.secure.lab. A NOERROR
split www.secure.lab. A NOERROR
case-variant www.secure.lab. A NOERROR
other-class www.secure.lab. A NOERROR
wrong-type www.secure.lab. A NOERROR
auth-ns-glue www.secure.lab. A NOERROR
split _443._tcp.www.secure.lab. TLSA NOERROR
cname-beside _443._tcp.www.secure.lab. TLSA NOERROR
split www.secure.lab. SSHFP NOERROR
cname-before www.secure.lab. SSHFP NOERROR
nx-answer nx.secure.lab. A NXDOMAIN
nodata-answer mail.secure.lab. TXT NOERROR 1
rcode-nx www.secure.lab. A NOERROR
rcode-nx-cname www.secure.lab. A NOERROR
rcode-nx _443._tcp.www.secure.lab. TLSA NOERROR
EOF

finish
