#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libdnstrust's in-process mode in the integration lab (tests/lab/lab.sh),
# with no dnstrustd running: lab_check.c's whole "up" run (the lab's
# truth table through dt_query and dt_getaddrinfo, key material,
# dt_res_query, dt_trust_available) answered in-process, with
# DNSTRUST_CONF naming a dnstrust.conf whose resolv-conf is the lab's
# resolver and whose trust-anchor-file is the lab's anchor; the lab's
# attacker upstream (no forged answer secure or returned); the same run
# with resolution recursive from the lab's root hints; resolution auto
# behind a resolver that strips DNSSEC (tests/load/faultproxy.py strip:
# the probe judges it, answers validate from the root) and behind one
# that fails only DS questions (servfail-ds: the probe's first step
# passes, its DS step fails; cold calls are never insecure); resolv.conf
# rewritten under a running process; a nameserver
# that does not answer (lab_check nouplink, in-process); resolution auto
# behind the attacker: the genuine answers from the root; a
# fallback-upstream over DNS over TLS (tests/lab/dot.sh, as lab-dot)
# answering when resolv.conf's server is a black hole, never for a
# private name; DT_MODE_AUTO
# with the socket path pointing at nothing; `dnstrust query --in-process`
# and `dnstrust tlsa --in-process`; a container-like mount namespace
# (no /run/dnstrust, its own resolv.conf and /etc/dnstrust) where AUTO
# answers in-process without DNSTRUST_CONF; then the daemon started:
# AUTO answers through it, and both paths give the same status, RCODE,
# EDE and reason text for the same names; a negative trust anchor added
# with `dnstrust nta add` (the daemon's file) applies in-process, and
# goes with `dnstrust nta remove`. The servers from a networkd or
# resolvconf directory, a VPN's split-DNS route learnt from it (and gone
# with its interface, under a running process), and dnstrust.conf's
# upstream lines in place of resolv.conf's servers, as dnstrustd.
#
# usage: lab_inproc.sh DNSTRUSTD LAB_CHECK DNSTRUST LAB_SH FAULTPROXY
#        (TAP on stdout)
set -u

DNSTRUSTD=$1 LAB_CHECK=$2 DNSTRUST=$3 LAB_SH=$4 PROXY=$5
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

# (check's own local variables are d and rc: the exit codes here are
# kept in code.)

# Runs a command printing "ok - ..." lines and numbers them.
numbered() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done < <("$@" 2>&1)
}

has() { printf '%s\n' "$1" | grep -qE -- "$2"; } # TEXT, extended regex

lab_start lab-inproc
# The daemon's state directory, for both paths (never the host's): the
# daemon saves `dnstrust nta add` there (STATE_DIRECTORY; it runs as
# _dnstrust, nobody where that does not exist), the in-process engine
# reads it (DNSTRUST_STATE_DIRECTORY).
mkdir -p "$work/state"
duser=nobody
getent passwd _dnstrust >/dev/null && duser=_dnstrust
chown "$duser" "$work/state"
export STATE_DIRECTORY=$work/state DNSTRUST_STATE_DIRECTORY=$work/state

cat >"$conf" <<EOF
# written by lab_inproc.sh
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 5
log-level info
EOF
nosock=$work/no-such-socket

# --- no daemon: in-process ---

check "no daemon socket" test ! -e "$sock"
export DNSTRUST_CONF=$conf
numbered "$LAB_CHECK" inproc "$nosock" "$LAB_EXPECT"
numbered "$LAB_CHECK" auto "$nosock" inprocess

out=$("$DNSTRUST" query --in-process www.secure.lab A 2>&1)
code=$?
check "dnstrust query --in-process www.secure.lab: exit 0, secure" \
	eval '[ $code = 0 ] && has "$out" "secure"'
out=$("$DNSTRUST" query --in-process www.tampered.lab A 2>&1)
code=$?
check "dnstrust query --in-process www.tampered.lab: exit 2, bogus" \
	eval '[ $code = 2 ] && has "$out" "bogus"'
out=$("$DNSTRUST" query --in-process www.insecure.lab A 2>&1)
code=$?
check "dnstrust query --in-process www.insecure.lab: exit 1, insecure" \
	eval '[ $code = 1 ] && has "$out" "insecure"'
out=$("$DNSTRUST" tlsa --in-process www.secure.lab 443 2>&1)
code=$?
check "dnstrust tlsa --in-process www.secure.lab 443: exit 0, a record" \
	eval '[ $code = 0 ] && has "$out" "TLSA[[:space:]]+3 1 1 [0-9A-F]+"'
out=$("$DNSTRUST" status --socket "$nosock" 2>&1)
code=$?
check "dnstrust status without the daemon: exit 69, in-process available" \
	eval '[ $code = 69 ] && has "$out" "^in-process: available"'
out=$(DNSTRUST_CONF=$work/missing.conf "$DNSTRUST" query --in-process \
	www.secure.lab A 2>&1)
code=$?
check "a DNSTRUST_CONF that does not exist: no answer, exit 69 ($code)" \
	eval '[ $code = 69 ] && has "$out" "no in-process answer"'
unset DNSTRUST_CONF

# --- the attacker upstream: forged answers, in-process ---

sed "s|^resolv-conf .*|resolv-conf $LAB_ATTACKER_RESOLV_CONF|" "$conf" \
	>"$work/attacker-auto.conf"
cp "$work/attacker-auto.conf" "$work/attacker.conf"
echo "resolution forward" >>"$work/attacker.conf"
DNSTRUST_CONF=$work/attacker.conf numbered "$LAB_CHECK" forged "$nosock" \
	"$LAB_FORGED"
# resolution auto (the default): asked again twice, then from the lab's
# root, as dnstrustd asks it (lab-daemon): the genuine answer, secure.
DNSTRUST_CONF=$work/attacker-auto.conf numbered "$LAB_CHECK" forged-auto \
	"$nosock" "$LAB_FORGED"

# --- resolv.conf changes under a running process: read again ---

cp "$LAB_RESOLV_CONF" "$work/switch.resolv"
sed "s|^resolv-conf .*|resolv-conf $work/switch.resolv|" "$conf" \
	>"$work/switch.conf"
# (forward: with auto, the forgery would be asked again from the root)
echo "resolution forward" >>"$work/switch.conf"
DNSTRUST_CONF=$work/switch.conf numbered "$LAB_CHECK" switch "$nosock" \
	"$work/switch.resolv" "$LAB_ATTACKER_RESOLV_CONF"

# --- resolution recursive: from the lab's root hints, resolv.conf's
# server dead (nothing can come from forwarding) ---

printf 'nameserver %s.99\n' "$LAB_NET" >"$work/dead.resolv"
sed -e "s|^resolv-conf .*|resolv-conf $work/dead.resolv|" "$conf" \
	>"$work/recursive.conf"
echo "resolution recursive" >>"$work/recursive.conf"
DNSTRUST_CONF=$work/recursive.conf numbered "$LAB_CHECK" inproc "$nosock" \
	"$LAB_EXPECT"

# --- resolution auto behind a resolver that strips DNSSEC (the DO bit
# cleared): forwarding through it cannot validate; the engine's probe
# judges it "no" and AUTO recurses from the lab's root hints ---

strip=$LAB_NET.95
echo strip >"$work/strip.mode"
python3 "$PROXY" "$strip" "$LAB_RESOLVER" "$work/strip.mode" \
	>"$work/strip.log" 2>&1 &
extra_pids="${extra_pids:-} $!"
check "a stripping resolver in front of the lab's" \
	wait_for 50 grep -q ready "$work/strip.log"
printf 'nameserver %s\n' "$strip" >"$work/strip.resolv"
sed -e "s|^resolv-conf .*|resolv-conf $work/strip.resolv|" "$conf" \
	>"$work/strip.conf"
cp "$work/strip.conf" "$work/strip-forward.conf"
echo "resolution forward" >>"$work/strip-forward.conf"
out=$(DNSTRUST_CONF=$work/strip-forward.conf "$DNSTRUST" query \
	--in-process www.secure.lab A 2>&1)
code=$?
check "stripping resolver, resolution forward: www.secure.lab bogus (exit $code)" \
	eval '[ $code = 2 ] && has "$out" "bogus"'
DNSTRUST_CONF=$work/strip.conf numbered "$LAB_CHECK" auto "$nosock" \
	inprocess
out=$(DNSTRUST_CONF=$work/strip.conf "$DNSTRUST" query --in-process \
	www.tampered.lab A 2>&1)
code=$?
check "stripping resolver, resolution auto: www.tampered.lab bogus (exit $code)" \
	eval '[ $code = 2 ] && has "$out" "bogus"'

# --- resolution auto behind a resolver that passes the probe's first
# step (the root's DNSKEY with its RRSIG) and fails its DS step (SERVFAIL
# to every DS question): a cold first call waits only for the first
# verdict ("yes"), so it forwards through that resolver before the DS
# step takes the "yes" back. Each question in a fresh process (a cold
# call): a signed name must come out secure (asked again, then from the
# root) or bogus, never insecure; an unsigned one insecure ---

nods=$LAB_NET.94
echo servfail-ds >"$work/nods.mode"
python3 "$PROXY" "$nods" "$LAB_RESOLVER" "$work/nods.mode" \
	>"$work/nods.log" 2>&1 &
extra_pids="${extra_pids:-} $!"
check "a resolver that answers SERVFAIL to DS in front of the lab's" \
	wait_for 50 grep -q ready "$work/nods.log"
printf 'nameserver %s\n' "$nods" >"$work/nods.resolv"
sed -e "s|^resolv-conf .*|resolv-conf $work/nods.resolv|" "$conf" \
	>"$work/nods.conf"
for name in www.secure.lab www.sub.secure.lab www.rsa.lab www.nsec3.lab \
	mail.secure.lab www.ed.lab; do
	out=$(DNSTRUST_CONF=$work/nods.conf "$DNSTRUST" query --in-process \
		"$name" A 2>&1)
	code=$?
	check "no DS from the resolver, cold call: $name A secure, never insecure (exit $code)" \
		eval '[ $code = 0 ] && has "$out" "secure"'
done
out=$(DNSTRUST_CONF=$work/nods.conf "$DNSTRUST" query --in-process \
	www.insecure.lab A 2>&1)
code=$?
check "no DS from the resolver, cold call: www.insecure.lab A insecure (exit $code)" \
	eval '[ $code = 1 ] && has "$out" "insecure"'

# --- no nameserver answers: indeterminate at query-timeout, as the daemon
# says it ---

sed -e "s|^resolv-conf .*|resolv-conf $work/dead.resolv|" \
	-e "s|^query-timeout .*|query-timeout 2|" "$conf" >"$work/dead.conf"
DNSTRUST_CONF=$work/dead.conf LAB_CHECK_MODE=inproc numbered \
	"$LAB_CHECK" nouplink "$nosock"

# --- fallback-upstream (DNS over TLS, the lab-dot setup): resolv.conf's
# server a black hole, the fallback answers public names, validated, and
# never hears of a private one ---

# shellcheck source=tests/lab/dot.sh
. "$(dirname "$0")/../lab/dot.sh"
dot=$LAB_NET.96 hole=$LAB_NET.98
dot_pki
dot_unbound dot "$dot" good
printf 'nameserver %s\noptions timeout:1 attempts:1\n' "$hole" \
	>"$work/hole.resolv"
sed -e "s|^resolv-conf .*|resolv-conf $work/hole.resolv|" \
	-e "s|^query-timeout .*|query-timeout 8|" "$conf" >"$work/fallback.conf"
cat >>"$work/fallback.conf" <<EOF
resolution forward
tls-ca $pki/ca.pem
fallback-upstream $dot#dot.lab
private-domain corp.example.
EOF
before=$(dot_asked dot)
out=$(DNSTRUST_CONF=$work/fallback.conf "$DNSTRUST" query --in-process \
	www.secure.lab A 2>&1)
code=$?
check "network silent: the fallback answers in-process, secure (exit $code)" \
	eval '[ $code = 0 ] && has "$out" "secure" && has "$out" "192\.0\.2\.1"'
out=$(DNSTRUST_CONF=$work/fallback.conf "$DNSTRUST" query --in-process \
	www.tampered.lab A 2>&1)
code=$?
check "network silent: the fallback's answer for a tampered name is bogus (exit $code)" \
	eval '[ $code = 2 ] && has "$out" "bogus"'
mid=$(dot_asked dot)
check "the fallback was asked over TLS ($before, then $mid)" \
	[ "$mid" -gt "$before" ]
out=$(DNSTRUST_CONF=$work/fallback.conf "$DNSTRUST" query --in-process \
	host.corp.example A 2>&1)
code=$?
check "a private name: no answer in-process (exit $code), never sent to the fallback" \
	eval '[ $code != 0 ] &&
		[ "$(grep -c "corp\.example" "$work/dot/unbound.log")" = 0 ]'
DNSTRUST_CONF=$work/fallback.conf numbered "$LAB_CHECK" auto "$nosock" \
	inprocess

# --- where the servers come from, as dnstrustd: a networkd or resolvconf
# directory (split-DNS routes learnt from a VPN's interface, as
# lab-splitdns checks for the daemon), and dnstrust.conf's upstream
# lines in place of the source's servers ---

vpn=$LAB_NET.92 # the VPN's server: alone knows corp.example.
echo "router corp.example" >"$work/vpn.mode"
python3 "$(dirname "$0")/../lab/netproxy.py" "$vpn" "$LAB_RESOLVER" \
	"$work/vpn.mode" >"$work/vpn.log" 2>&1 &
extra_pids="${extra_pids:-} $!"
check "a VPN's server in front of the lab's (knows corp.example.)" \
	wait_for 50 grep -q ready "$work/vpn.log"
vpn_asked() { grep -q "^q $1 " "$work/vpn.log"; }
# source_conf SOURCE-LINE: the in-process configuration with that source.
source_conf() {
	grep -v '^resolv-conf ' "$conf" >"$work/source.conf"
	printf '%s\nresolution forward\n' "$1" >>"$work/source.conf"
}
mkdir -p "$work/links" "$work/ifaces"
printf 'ADMIN_STATE=configured\nOPER_STATE=routable\nDNS=%s\nDOMAINS=\nROUTE_DOMAINS=\n' \
	"$LAB_RESOLVER" >"$work/links/2"
printf 'ADMIN_STATE=configured\nOPER_STATE=routable\nDNS=%s\nDOMAINS=\nROUTE_DOMAINS=corp.example\n' \
	"$vpn" >"$work/links/7"
source_conf "upstream-source networkd $work/links"
name=nd-$$.corp.example
out=$(DNSTRUST_CONF=$work/source.conf "$DNSTRUST" query --in-process \
	--json "$name" A 2>&1)
check "networkd links: an internal name in-process, insecure, the VPN's address" \
	eval 'has "$out" "\"rcode\":\"NOERROR\",\"status\":\"insecure\"" &&
		has "$out" "192\.168\.1\.3"'
check "  asked of the VPN's server (the routing-only domain's route)" \
	vpn_asked "$name."
out=$(DNSTRUST_CONF=$work/source.conf "$DNSTRUST" query --in-process \
	--json www.nsec3.lab A 2>&1)
check "networkd links: a public signed name in-process, secure" \
	has "$out" '"status":"secure"'
check "  never asked of the VPN's server (no default route)" \
	eval '! vpn_asked www.nsec3.lab.'
printf 'nameserver %s\nsearch corp.example\n' "$vpn" >"$work/ifaces/01-tun0"
printf 'nameserver %s\n' "$LAB_RESOLVER" >"$work/ifaces/02-wlan0"
source_conf "upstream-source resolvconf $work/ifaces"
name=rc-$$.corp.example
out=$(DNSTRUST_CONF=$work/source.conf "$DNSTRUST" query --in-process \
	--json "$name" A 2>&1)
check "resolvconf interfaces: an internal name in-process, insecure, from the VPN" \
	eval 'has "$out" "\"status\":\"insecure\"" && has "$out" "192\.168\.1\.3" &&
		vpn_asked "$name."'
DNSTRUST_CONF=$work/source.conf numbered "$LAB_CHECK" routegone "$nosock" \
	"live-$$.corp.example" "$work/ifaces/01-tun0" "gone-$$.corp.example"
check "  the name after the interface went never reached the VPN" \
	eval '! vpn_asked "gone-$$.corp.example."'
# upstream lines: resolv.conf names a black hole; the configured server
# answers.
sed -e "s|^resolv-conf .*|resolv-conf $work/hole.resolv|" "$conf" \
	>"$work/upstream.conf"
printf 'upstream %s\nresolution forward\n' "$LAB_RESOLVER" \
	>>"$work/upstream.conf"
out=$(DNSTRUST_CONF=$work/upstream.conf "$DNSTRUST" query --in-process \
	--json www.secure.lab A 2>&1)
check "upstream lines in place of resolv.conf's (a black hole): secure in-process" \
	eval 'has "$out" "\"status\":\"secure\"" && has "$out" "192\.0\.2\.1"'

# --- a container: no /run/dnstrust, its own resolv.conf, /etc/dnstrust ---

mkdir -p "$work/etc-dnstrust" "$work/empty-run"
cp "$conf" "$work/etc-dnstrust/dnstrust.conf"
sed -i "s|^resolv-conf .*|resolv-conf /etc/resolv.conf|" \
	"$work/etc-dnstrust/dnstrust.conf"
if unshare -m true 2>/dev/null; then
	numbered unshare -m bash -c '
		mount --bind "$1" /etc/resolv.conf &&
		mount -t tmpfs none /run &&
		mkdir -p /etc/dnstrust &&
		mount --bind "$2" /etc/dnstrust &&
		test ! -e /run/dnstrust/socket &&
		exec "$3" auto /run/dnstrust/socket inprocess' \
		_ "$LAB_RESOLV_CONF" "$work/etc-dnstrust" "$LAB_CHECK"
else
	not_ok "a mount namespace for the container-like check (unshare -m)"
fi

# --- the daemon: AUTO takes it, and both paths agree ---

check "dnstrustd starts" start_daemon
numbered "$LAB_CHECK" auto "$sock" daemon
same=0 differ=""
for q in "www.secure.lab A" "www.insecure.lab A" "www.tampered.lab A" \
	"www.expired.lab A" "nonexistent.secure.lab A" "www.nsec3.lab AAAA" \
	"chain.secure.lab A" "mail.secure.lab SSHFP"; do
	# shellcheck disable=SC2086
	dmn=$("$DNSTRUST" query --json --cd --socket "$sock" $q 2>&1 |
		grep -oE '"(status|rcode|code|text)":("[^"]*"|[0-9]+)' | sort | tr '\n' ' ')
	# shellcheck disable=SC2086
	inp=$(DNSTRUST_CONF=$conf "$DNSTRUST" query --json --cd --in-process \
		$q 2>&1 | grep -oE '"(status|rcode|code|text)":("[^"]*"|[0-9]+)' | sort |
		tr '\n' ' ')
	if [ -n "$dmn" ] && [ "$dmn" = "$inp" ]; then
		same=$((same + 1))
	else
		differ="$differ [$q] daemon: $dmn in-process: $inp"
	fi
done
check "8 names: the daemon and in-process give the same status, RCODE, EDE and reason" \
	eval '[ $same = 8 ]' || echo "# $differ"

# --- runtime negative trust anchors: the daemon's file, in-process ---

inq() { DNSTRUST_CONF=$conf "$DNSTRUST" query --in-process "$@" 2>&1; }
out=$(inq www.tampered.lab A)
code=$?
check "before nta add: in-process www.tampered.lab bogus (exit $code)" \
	eval '[ $code = 2 ]'
out=$("$DNSTRUST" nta add tampered.lab --until 1d --socket "$sock" 2>&1)
code=$?
check "dnstrust nta add tampered.lab: the daemon's file has it" \
	eval '[ $code = 0 ] &&
		grep -q "^tampered\.lab\. " "$work/state/negative-trust-anchors"'
out=$(inq www.tampered.lab A)
code=$?
check "under the runtime NTA: in-process www.tampered.lab insecure (exit $code)" \
	eval '[ $code = 1 ] && has "$out" "insecure"'
out=$(DNSTRUST_STATE_DIRECTORY=$work/no-state inq www.tampered.lab A)
code=$?
check "another state directory: no NTA, bogus (exit $code)" \
	eval '[ $code = 2 ]'
out=$("$DNSTRUST" nta remove tampered.lab --socket "$sock" 2>&1)
code=$?
out=$(inq www.tampered.lab A)
code2=$?
check "after nta remove: in-process www.tampered.lab bogus again (exit $code2)" \
	eval '[ $code = 0 ] && [ $code2 = 2 ]'

plan
exit 0
