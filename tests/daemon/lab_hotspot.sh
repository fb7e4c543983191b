#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Private names and the hotspot sign-on in the integration lab, behind a
# captive portal imitation (tests/load/faultproxy.py in mode "portal":
# every A answered with the portal's address, AAAA empty, everything else
# forwarded to the lab's resolver, so DS and DNSKEY still come):
#   - router.lan. (built-in private lan.; the lab's root proves lan.
#     absent, also once its NSEC records are kept) and a name under
#     resolv.conf's search suffix are insecure, with the network's
#     address;
#   - before the sign-on the portal's own name (under a top-level domain
#     the root proves absent: NXDOMAIN from the kept NSEC records, or
#     SERVFAIL) and www.secure.lab. fail; status and the
#     log say a portal is suspected;
#   - dnstrust hotspot is refused to an unprivileged user (exit 77), taken
#     from a member of hotspot-group; then the portal's name gets the
#     portal's address, status unvalidated, no AD (dtq on the socket,
#     dnstrust query through libdnstrust, getent through the NSS module),
#     while www.secure.lab. stays SERVFAIL;
#   - dnstrust hotspot --done: the portal's name fails again (flushed);
#     a sign-on of one minute ends by itself, flushed as well;
#   - the probe of resolv.conf's server meets the portal (a name that
#     does not exist answered with its address): status and the log give
#     that server the verdict "dnssec no (captive portal (answers
#     rewritten to ADDR))" and the judgement is recursive; with
#     resolution forward configured (the checks above) nothing else
#     changes; with resolution auto the daemon recurses, and the
#     portal's forgeries are never served (the root is out of reach
#     behind it: SERVFAIL, nothing of the portal's), while a sign-on still
#     gets the portal's own name from the network, unvalidated;
#   - behind a portal that also answers DNSKEY and DS with SERVFAIL, a
#     portal is suspected from A answers that come without their keys,
#     and during a sign-on names whose chain cannot be had are
#     unvalidated.
#
# usage: lab_hotspot.sh DNSTRUSTD DTQ LAB_SH FAULTPROXY DNSTRUST MODULE
#        (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 PROXY=$4 DNSTRUST=$5 MODULE=$6
MODDIR=$(cd "$(dirname "$MODULE")" && pwd)
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
lab_start lab-hotspot
proxy=$LAB_NET.93
portal_addr=192.0.2.99
echo "portal $portal_addr" >"$work/proxy.mode"
python3 "$PROXY" "$proxy" "$LAB_RESOLVER" "$work/proxy.mode" \
	>"$work/proxy.log" 2>&1 &
extra_pids="$!"
wait_for 50 grep -q ready "$work/proxy.log"
printf 'nameserver %s\nsearch home.example\noptions timeout:2 attempts:1\n' \
	"$proxy" >"$work/resolv.conf"
chmod 644 "$work/resolv.conf"
# A portal lets no DNS out but its own: the root servers are out of
# reach (nothing listens at the hints' address), so a question asked
# again from the root (resolution auto) gets nothing there either.
printf '. 3600000 NS ns1.lab.\nns1.lab. 3600000 A %s\n' "$LAB_NET.89" \
	>"$work/portal.hints"
chmod 644 "$work/portal.hints"
write_conf() { # RESOLUTION
	cat >"$conf" <<EOF2
socket $sock
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
root-hints $work/portal.hints
resolution $1
threads 2
query-timeout 5
log-level info
hotspot-group users
EOF2
}
# Forwarding through the portal, whatever the probe's verdict: what a
# validator that is told to forward makes of a portal's answers.
write_conf forward

is() { # description, dtq output, then key=value pairs it must show
	local d=$1 out=$2 bad=""
	shift 2
	for kv in "$@"; do
		[ "$(echo "$out" | field "${kv%%=*}")" = "${kv#*=}" ] || bad="$bad $kv"
	done
	if [ -z "$bad" ]; then ok "$d"; else not_ok "$d" "want$bad; got: $out"; fi
}
has_addr() { # NAME: dnstrust query's answer holds the portal's address
	cli query "$1" A 2>&1 | grep -q "[[:space:]]$portal_addr\$"
}
fails() { # description, dtq output: SERVFAIL, or the root's NXDOMAIN
	local out=$2 rc
	rc=$(echo "$out" | field rcode)
	if [ "$(echo "$out" | field answers)" = 0 ] &&
		{ [ "$rc" = SERVFAIL ] || [ "$rc" = NXDOMAIN ]; }; then
		ok "$1 ($rc)"
	else
		not_ok "$1" "got: $out"
	fi
}
says() { # TEXT COMMAND...: COMMAND's output holds TEXT
	local text=$1
	shift
	"$@" 2>&1 | grep -q -- "$text"
}
cli() { "$DNSTRUST" "$@" --socket "$sock"; }
# Account-less uid 4242 (nobody may be the daemon's own user).
# They run a copy of dnstrust that they can read.
SHARED_DNSTRUST=$(shared_copy "$DNSTRUST") || bail "dnstrust copied for uid 4242"
as_user() { setpriv --reuid=4242 --regid=4242 --clear-groups "$@"; }
as_member() { setpriv --reuid=4242 --regid=100 --clear-groups "$@"; }
as_supplementary() { setpriv --reuid=4242 --regid=4242 --groups=100 "$@"; }
status_line() { q -c CH status.dnstrust. TXT | sed -n "s/^txt=\($1=.*\)/\1/p" | head -1; }
portal_name=portal.hotspot.example.

check "dnstrustd starts behind the portal" start_daemon

# --- private names ---
# A missing top-level name (TXT: the portal forwards it): the root's
# NSEC records proving it absent are kept (aggressive-nsec); they cover
# lan. and example. too, and must answer neither below.
is "nothere-tld. TXT: secure NXDOMAIN from the root" \
	"$(q nothere-tld. TXT)" status=secure rcode=NXDOMAIN
is "router.lan. (private lan.): insecure, the network's address" \
	"$(q router.lan. A)" status=insecure rcode=NOERROR ad=0 answers=1
check "the router's address it is (dnstrust query)" \
	has_addr router.lan.
is "a name under resolv.conf's search home.example: insecure" \
	"$(q pc.home.example. A)" status=insecure rcode=NOERROR answers=1
is "a 10/8 reverse name is private too (no PTR: NOERROR, insecure)" \
	"$(q 1.0.0.10.in-addr.arpa. PTR)" status=insecure

# --- before the sign-on ---
fails "the portal's name fails" "$(q $portal_name A)"
is "www.secure.lab. forged by the portal: bogus" \
	"$(q www.secure.lab. A)" status=bogus rcode=SERVFAIL
is "www.nsec3.lab. forged by the portal: bogus" \
	"$(q www.nsec3.lab. A)" status=bogus rcode=SERVFAIL
is "mail.secure.lab. forged by the portal: bogus" \
	"$(q mail.secure.lab. A)" status=bogus rcode=SERVFAIL
line=$(status_line portal)
check "status: a portal is suspected ($(echo $line | cut -c1-60))" \
	bash -c "echo '$line' | grep -q '^portal=suspected reason=bogus A answers for [0-9]* names carry one address, $portal_addr'"
check "and the log says so, suggesting dnstrust hotspot" \
	wait_for 20 grep -q "a captive portal is suspected.*dnstrust hotspot" "$dlog"
check "status: hotspot=off" [ "$(status_line hotspot)" = "hotspot=off" ]
verdict="captive portal (answers rewritten to $portal_addr)"
line=$(status_line upstream-dnssec)
check "status: the portal's server is dnssec=no, $verdict ($line)" \
	bash -c "echo '$line' | grep -qF 'upstream-dnssec=$proxy dnssec=no ' &&
		 echo '$line' | grep -qF 'reason=$verdict'"
check "and the log says so" \
	wait_log "upstream $proxy: dnssec no ($verdict)"
check "status: upstream-judgement=recursive" \
	[ "$(status_line upstream-judgement)" = "upstream-judgement=recursive" ]
check "status: resolution=forward (configured so)" \
	[ "$(status_line resolution)" = "resolution=forward" ]

# --- who may sign on ---
out=$(as_user "$SHARED_DNSTRUST" hotspot --socket "$sock" 2>&1)
rc=$?
check "an unprivileged user is refused (exit $rc: $(echo $out | tail -c 70))" [ "$rc" = 77 ]
check "still off" [ "$(status_line hotspot)" = "hotspot=off" ]
out=$(as_member "$SHARED_DNSTRUST" hotspot --socket "$sock" 2>&1)
rc=$?
check "a member of hotspot-group signs on (exit $rc: $(echo $out | cut -c1-60))" \
	bash -c "[ $rc = 0 ] && echo '$out' | grep -q '^hotspot=until-.* left=[23][0-9][0-9]$'"
check "logged" grep -q "hotspot sign-on for 5 minutes" "$dlog"
out=$(as_supplementary "$SHARED_DNSTRUST" hotspot --minutes 4 --socket "$sock" 2>&1)
rc=$?
check "a supplementary member signs on too (exit $rc: $(echo $out | cut -c1-60))" \
	bash -c "[ $rc = 0 ] && echo '$out' | grep -q '^hotspot=until-.* left=2[0-9][0-9]$'"

# --- during it ---
is "the portal's name: its address, unvalidated, no AD" \
	"$(q $portal_name A)" status=unvalidated rcode=NOERROR ad=0 answers=1
is "www.secure.lab. stays SERVFAIL (its chain validates)" \
	"$(q www.secure.lab. A)" status=bogus rcode=SERVFAIL answers=0
is "a name of the signed lab. zone stays SERVFAIL" \
	"$(q nosuch.lab. A)" rcode=SERVFAIL answers=0
is "router.lan. is still insecure (private before hotspot)" \
	"$(q router.lan. A)" status=insecure rcode=NOERROR
check "dnstrust query (libdnstrust): unvalidated" \
	says "DNSSEC: unvalidated" cli query $portal_name A
check "dnstrust query: the portal's address" has_addr $portal_name
printf 'passwd: files\ngroup: files\nhosts: files dnstrust\n' >"$work/nss.conf"
chmod 644 "$work/nss.conf"
out=$(ns_run "$work/nss.conf" - "$(dirname "$sock")" "$MODDIR" \
	getent ahostsv4 $portal_name 2>&1)
check "getent through the NSS module gets it ($(echo $out | cut -c1-60))" \
	bash -c "echo '$out' | grep -q '^$portal_addr '"
out=$(ns_run "$work/nss.conf" - "$(dirname "$sock")" "$MODDIR" \
	getent ahostsv4 www.secure.lab 2>&1)
check "and not a forged address for www.secure.lab ($(echo $out | cut -c1-40))" \
	bash -c "! echo '$out' | grep -q '$portal_addr'"

# --- the end ---
out=$(as_member "$SHARED_DNSTRUST" hotspot --done --socket "$sock" 2>&1)
check "dnstrust hotspot --done ($(echo $out | cut -c1-40))" \
	bash -c "echo '$out' | grep -q '^hotspot=off'"
check "logged, with the flush" \
	grep -q "hotspot sign-on ended (dnstrust hotspot --done).*dropped" "$dlog"
fails "the portal's name fails again" "$(q $portal_name A)"
out=$(cli hotspot --minutes 1 2>&1)
check "a sign-on of one minute (root)" \
	bash -c "echo '$out' | grep -q 'left=[56][0-9]$'"
is "during it, unvalidated again" "$(q $portal_name A)" status=unvalidated
check "it ends by itself within 75 s" \
	wait_for 750 grep -q "hotspot sign-on ended (time is up)" "$dlog"
fails "then the portal's name fails again" "$(q $portal_name A)"
check "status: hotspot=off" [ "$(status_line hotspot)" = "hotspot=off" ]
out=$(cli hotspot --minutes 61 2>&1)
check "--minutes past 60 is refused by the command" [ $? = 64 ]
check "dnstrustd stops" stop_daemon

# --- resolution auto: the portal's "no" makes the daemon recurse ---
write_conf auto
check "dnstrustd starts behind the portal with resolution auto" start_daemon
check "the judgement is recursive, for the portal" \
	wait_log "upstream judgement: recursive: no upstream can do DNSSEC ($proxy $verdict)"
check "and resolution follows it" wait_log "resolution: recursive"
check "status: resolution=recursive" \
	[ "$(status_line resolution)" = "resolution=recursive" ]
is "www.secure.lab.: the portal's forgery is not served" \
	"$(q www.secure.lab. A)" rcode=SERVFAIL answers=0
fails "the portal's name fails" "$(q $portal_name A)"
out=$(cli hotspot --minutes 2 2>&1)
check "dnstrust hotspot" bash -c "echo '$out' | grep -q '^hotspot=until-'"
is "the portal's name: its address from the network, unvalidated" \
	"$(q $portal_name A)" status=unvalidated rcode=NOERROR answers=1
check "dnstrust hotspot --done" says "hotspot=off" cli hotspot --done
check "dnstrustd stops" stop_daemon

# --- a portal that also withholds DNSKEY and DS ---
echo "portal $portal_addr nokeys" >"$work/proxy.mode"
check "dnstrustd starts again, cold, behind it" start_daemon
for name in www.nsec3.lab. www.ed.lab. www.rsa.lab.; do
	fails "$name: fails (no keys to be had)" "$(q $name A)"
done
line=$(status_line portal)
check "status: a portal is suspected ($(echo $line | cut -c1-60))" \
	bash -c "echo '$line' | grep -q '^portal=suspected reason=A answers for [0-9]* names come back while the keys to validate them cannot be had'"
out=$(cli hotspot --minutes 2 2>&1)
check "dnstrust hotspot" bash -c "echo '$out' | grep -q '^hotspot=until-'"
is "the portal's name: unvalidated" "$(q $portal_name A)" \
	status=unvalidated rcode=NOERROR answers=1
is "www.nsec3.lab., whose chain cannot be had: unvalidated too" \
	"$(q www.nsec3.lab. A)" status=unvalidated rcode=NOERROR answers=1
check "dnstrust hotspot --done" says "hotspot=off" cli hotspot --done
check "dnstrustd stops" stop_daemon
finish
