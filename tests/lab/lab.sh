#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrust integration lab: a real signed DNS hierarchy on loopback, served
# by real authoritative servers, with an honest iterating resolver, a
# validating reference resolver and an attacker resolver.
#
# Usage (as root: the servers bind port 53):
#
#     tests/lab/lab.sh start DIR    generate keys and zones, sign, start the
#                                   servers, wait until each answers, write
#                                   DIR/lab.env
#     tests/lab/lab.sh stop DIR     stop exactly the processes that start
#                                   left pid files for in DIR/run
#     tests/lab/lab.sh roll DIR STEP
#                                   re-sign the root for a step of an
#                                   RFC 5011 KSK roll (see "Rolling the
#                                   root KSK" below), reload it in NSD and
#                                   flush the Unbounds' caches
#
# By hand:
#
#     tests/lab/lab.sh start /tmp/lab
#     . /tmp/lab/lab.env
#     dig @$LAB_RESOLVER +dnssec www.secure.lab. A
#     delv @$LAB_RESOLVER -a $LAB_ANCHOR_BIND +root=. www.secure.lab. A
#     dig @$LAB_ATTACKER www.secure.lab. A        # forged: 10.66.0.1
#     tests/lab/lab.sh stop /tmp/lab
#
# Only one lab runs at a time on these addresses: start refuses to run when
# anything already listens on one of them. To run a second lab beside a
# running one (another developer's, say), set LAB_NET=127.X.Y in the
# environment of start (and of selftest.sh): the addresses below become
# 127.X.Y.1 and so on. Tests use the default, 127.0.2.
#
# Everything a lab writes is under DIR (keys, zones, configurations, logs,
# pid files, the Unbound control sockets); nothing under /etc is read or
# written, no system service is involved. DIR must be a path of
# [A-Za-z0-9_./+-] only. Every start makes new keys and signatures. Start
# takes 2 to 5 s on 2 cores (the three RSA keys, made in parallel, are the
# slowest part); stop under 1 s. LAB_VERBOSE=1 prints the time of each step.
#
# Addresses (127.0.2.0/24 is reserved for the lab; all port 53)
#
#     127.0.2.1   NSD   authoritative: "." and "lab." (signed)
#     127.0.2.2   Knot  authoritative: every zone below lab. (files signed
#                       here by ldns-signzone, optout.lab. by
#                       dnssec-signzone; Knot only serves them)
#     127.0.2.53  Unbound, iterator only (no validation): the honest
#                       upstream. Root hints: ns1.lab. = 127.0.2.1. Query
#                       log (log-queries) in $LAB_UNBOUND_LOG.
#     127.0.2.54  Unbound, validating with the lab root anchor, EDE on and
#                       NSEC3 iterations above 50 insecure (dnstrust's
#                       default): the reference verdicts to compare with.
#     127.0.2.66  Unbound, the ATTACKER upstream (see below).
#     127.0.2.67  NSD   authoritative: the attacker's copies of nsec3.lab.,
#                       ed.lab., sub.secure.lab., rsa.lab., iter.lab. and
#                       optout.lab., used only by 127.0.2.66.
#
# The hierarchy (signature windows: now - 1 day .. now + 30 days)
#
#     .                NSD   RSASHA256 (8) KSK 2048 + ZSK 2048, NSEC.
#                            The trust anchor: its KSK ($LAB_ANCHOR is the
#                            DS, $LAB_ANCHOR_DNSKEY the DNSKEY).
#     lab.             NSD   ECDSAP256SHA256 (13) KSK + ZSK, NSEC.
#                            ns1.lab. = 127.0.2.1, ns2.lab. = 127.0.2.2;
#                            every zone below is delegated to ns2.lab.
#     secure.lab.      Knot  13, KSK + ZSK, NSEC. Apex MX and TXT; www with
#                            A, AAAA, TXT, SSHFP; _443._tcp.www TLSA; svc
#                            with HTTPS (alpn, port, hints, ech), CAA, LOC; mail
#                            A/AAAA; wildcard *.wild (A, TXT); empty
#                            non-terminal ent (host.ent has an A); CNAMEs:
#                            cname -> www.nsec3.lab. (secure), chain ->
#                            cname (two links), to-insecure ->
#                            www.insecure.lab. (insecure), to-bogus ->
#                            www.tampered.lab. (bogus); DNAME dname ->
#                            nsec3.lab.; signed delegation sub.
#     sub.secure.lab.  Knot  13, one key (CSK, flags 257), NSEC.
#     nsec3.lab.       Knot  13, KSK + ZSK, NSEC3 (0 iterations, salt
#                            5eed); www, wildcard *.wild, host.ent.
#     optout.lab.      Knot  13, CSK, NSEC3 opt-out (signed by
#                            dnssec-signzone, which leaves the unsigned
#                            delegation out of the chain); www; unsigned
#                            delegation unsigned.optout.lab.: its DS
#                            denial and NXDOMAIN rest on opt-out, so they
#                            are insecure.
#     unsigned.optout.lab.   Knot, unsigned (insecure below opt-out).
#     insecure.lab.    Knot  unsigned, no DS in lab. (insecure).
#     ed.lab.          Knot  ED25519 (15), KSK + ZSK, NSEC.
#     rsa.lab.         Knot  RSASHA256 (8), CSK 2048, NSEC.
#     iter.lab.        Knot  13, CSK, NSEC3 with 150 iterations: denials
#                            are insecure, EDE 27, under a limit of 50
#                            (RFC 9276), but for a name's own NSEC3 (a
#                            NODATA there: one hash, checked in full,
#                            secure); positive answers stay secure.
#   Bogus on purpose (www.<zone> A is the name to ask):
#     expired.lab.     every signature expired (now - 31 d .. now - 1 d):
#                      EDE 7.
#     tampered.lab.    www A changed after signing (192.0.2.60 signed,
#                      192.0.2.61 served): EDE 6.
#     wrongds.lab.     the DS in lab. is that of a key the zone does not
#                      have: EDE 9.
#     nosig.lab.       the RRSIG over www A removed (SOA, NS, DNSKEY and
#                      NSEC stay signed, so the absence of a zone cut at
#                      www is provable): EDE 10.
#   nosuchtld. does not exist: NXDOMAIN from the root.
#   With LAB_DEEP=1 in the environment of start (off by default; for
#   bench/cold.sh, which needs chains of every depth), lab. also has
#   h1..h4.lab. (A) and a signed delegation deep., and Knot serves a chain
#   of four more zones, each 13 with one key (CSK), NSEC, names h1..h4 (A):
#     deep.lab. > d3.deep.lab. > d4.d3.deep.lab. > d5.d4.d3.deep.lab.
#   so that hN.lab. is 1 zone cut below the root anchor, hN.deep.lab. 2,
#   hN.d3.deep.lab. 3, hN.d4.d3.deep.lab. 4 and hN.d5.d4.d3.deep.lab. 5.
#   None of them is in expect.txt or forged.txt.
#   With LAB_GLUELESS=1 (off by default; for lab-recursive), lab. also
#   delegates two unsigned zones to name servers without glue, whose
#   addresses only a question of their own finds, both Knot's:
#     glueless.lab.    NS ns.secure.lab. (its A signed and genuine):
#                      www.glueless.lab. A 192.0.2.120 is insecure;
#     gluebogus.lab.   NS ns.tampered.lab., whose A was changed to Knot's
#                      address after signing: a resolver that validates
#                      the address of a name server never asks it, so
#                      www.gluebogus.lab. A (192.0.2.121) cannot be had.
#   and two delegations whose name servers are named in each other
#   (loopa.lab. NS ns.loopb.lab., loopb.lab. NS ns.loopa.lab.; nothing
#   serves them): a loop to be cut short. None is in expect.txt or
#   forged.txt.
#
# The truth table, $LAB_EXPECT (DIR/expect.txt): one line per question,
#     NAME TYPE STATUS RCODE [EDE]
# STATUS is secure, insecure, bogus or indeterminate (RFC 4033); RCODE is
# what a validating resolver answers a client without CD (bogus: SERVFAIL);
# EDE, when present, is the RFC 8914 code the answer must carry. No comment
# lines. No question is indeterminate: the lab anchor covers everything.
# selftest.sh checks every line with delv and with the validating Unbound
# at 127.0.2.54 (and says where BIND 9.18 differs: opt-out, iterations).
#
# The attacker, 127.0.2.66: an Unbound that iterates from the same lab root
# but forges every A and AAAA answer of a secure name of expect.txt that
# has addresses. It never forges an address of an insecure name, and
# passes everything else through untouched, except that the zones it
# copies (below) answer every question from the copy. Forged addresses are
# all in 10.66.0.0/16 and fd66::/16. $LAB_FORGED (DIR/forged.txt) lists
# them, one per line:
#     NAME TYPE FORGED-ADDRESS METHOD
# METHOD is one of:
#   unsigned     Unbound local-data, no RRSIG: A 10.66.0.1 and AAAA
#                fd66::1 at www and mail.secure.lab., A at
#                host.ent.secure.lab. (other types at those names are
#                resolved as usual); every name below wild.secure.lab.
#                answers A 10.66.0.1 and NODATA for every other type, so the
#                wildcard's TXT and AAAA denial are forged too.
#   copied-rrsig sub.secure.lab., rsa.lab., iter.lab. and optout.lab. come
#                from copies of the genuine signed zones (NSD at 127.0.2.67)
#                in which www A is 10.66.0.2 (www.rsa.lab. AAAA fd66::2)
#                under the genuine RRSIG of the original record; in
#                optout.lab. that RRSIG is the one of www.secure.lab. A
#                (another name, another signer). Every other record of
#                those zones is genuine.
#   stripped     all of nsec3.lab. comes from an UNSIGNED copy (NSD at
#                127.0.2.67: no DNSKEY, RRSIG or NSEC3) with www A 10.66.0.3,
#                AAAA fd66::3 and *.wild A 10.66.0.3; so do the targets of
#                cname, chain and dname in secure.lab.
#   attacker-ad  all of ed.lab. comes from a copy signed with the
#                attacker's own Ed25519 key (www A 10.66.0.4, AAAA fd66::4),
#                which the attacker's Unbound trusts and validates even for
#                CD=1 queries (ignore-cd-flag), so it answers with AD=1.
#
# DIR/lab.env (KEY=value lines, then one export line):
#   LAB_DIR, LAB_NET (127.0.2), LAB_ROOT_SERVER (127.0.2.1),
#   LAB_LEAF_SERVER (127.0.2.2), LAB_RESOLVER (127.0.2.53), LAB_VALIDATOR (127.0.2.54),
#   LAB_ATTACKER (127.0.2.66), LAB_ATTACKER_AUTH (127.0.2.67),
#   LAB_RESOLV_CONF, LAB_VALIDATOR_RESOLV_CONF, LAB_ATTACKER_RESOLV_CONF
#   (resolv.conf files naming one of the resolvers),
#   LAB_ANCHOR (root DS, presentation form), LAB_ANCHOR_DNSKEY (root KSK
#   DNSKEY), LAB_ANCHOR_BIND (the same DS as a trust-anchors{} clause for
#   delv -a), LAB_EXPECT, LAB_FORGED,
#   LAB_FORGED_NETS (10.66.0.0/16,fd66::/16),
#   LAB_UNBOUND_CONF, LAB_VALIDATOR_CONF, LAB_ATTACKER_CONF (each Unbound's
#   configuration, for unbound-control -c FILE, e.g. flush_bogus or
#   flush_zone; the control channel is a Unix socket in DIR),
#   LAB_UNBOUND_LOG, LAB_VALIDATOR_LOG, LAB_ATTACKER_LOG,
#   LAB_NSEC3_ITERATIONS_LIMIT (50, the limit expect.txt assumes).
# All three Unbounds log queries ("info: 127.0.0.1 NAME TYPE IN" lines).
# Start sends one "lab. SOA" query to each resolver to see it is up; that
# line is the first of each query log.
#
# Rolling the root KSK (RFC 5011), for tests of automated trust-anchor
# updates. Each `roll DIR STEP` re-signs the root (same window as start,
# from the time of the step: now - 1 day .. now + 30 days, SOA serial + 1)
# with the root ZSK and the KSKs of STEP:
#   publish  a new KSK (RSASHA256, 2048 bits, made at the first step) joins
#            the DNSKEY RRset; the old and the new KSK both sign it.
#   revoke   the old KSK is published with the REVOKE bit (flags 385, so
#            another key tag) and signs the RRset itself, with the new one.
#   remove   the old KSK is gone; the new one alone signs.
#   forge    an attacker's KSK joins the DNSKEY RRset of the last genuine
#            step (start, publish, revoke or remove), signed by that key and
#            the ZSK only, never by a KSK a validator trusts: the whole root
#            is bogus until the next genuine step, and the key must never
#            be taken.
# NSD is sent SIGHUP and the step waits until it serves the new serial;
# then every Unbound's cache is flushed (flush_zone . and flush_bogus).
# DIR/roll.env gets LAB_ROLL_STEP and the key tags LAB_KSK_OLD,
# LAB_KSK_OLD_REVOKED, LAB_KSK_NEW and LAB_KSK_FORGED. The DS in
# $LAB_ANCHOR stays that of the old KSK, so the validating Unbound at .54,
# which has it as a static anchor, fails from the revoke step on.

set -eu
set -o pipefail

NET=${LAB_NET:-127.0.2}
[[ $NET =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || {
	echo "lab: LAB_NET must look like 127.X.Y" >&2
	exit 2
}
ROOT_ADDR=$NET.1
LEAF_ADDR=$NET.2
RESOLVER_ADDR=$NET.53
VALIDATOR_ADDR=$NET.54
ATTACKER_ADDR=$NET.66
ATTACKER_AUTH_ADDR=$NET.67
ALL_ADDRS="$ROOT_ADDR $LEAF_ADDR $RESOLVER_ADDR $VALIDATOR_ADDR $ATTACKER_ADDR $ATTACKER_AUTH_ADDR"
# Zones Knot serves.
LEAF_ZONES="secure.lab. sub.secure.lab. nsec3.lab. optout.lab.
	unsigned.optout.lab. insecure.lab. expired.lab. tampered.lab.
	wrongds.lab. nosig.lab. iter.lab. ed.lab. rsa.lab."
# LAB_DEEP=1: a chain of zones below lab., one cut per level (see above).
DEEP=${LAB_DEEP:-0}
DEEP_ZONES="d5.d4.d3.deep.lab. d4.d3.deep.lab. d3.deep.lab. deep.lab."
[ "$DEEP" = 1 ] && LEAF_ZONES="$LEAF_ZONES $DEEP_ZONES"
# LAB_GLUELESS=1: two zones whose name servers have no glue (see above).
GLUELESS=${LAB_GLUELESS:-0}
[ "$GLUELESS" = 1 ] && LEAF_ZONES="$LEAF_ZONES glueless.lab. gluebogus.lab."
# Zones the attacker serves from its own copies (at .67).
ATTACKER_ZONES="nsec3.lab. ed.lab. sub.secure.lab. rsa.lab. iter.lab. optout.lab."
ITER_LIMIT=50
WAIT_SECONDS=10

NSD=/usr/sbin/nsd
KNOTD=/usr/sbin/knotd
UNBOUND=/usr/sbin/unbound

die() {
	echo "lab: $*" >&2
	exit 1
}

# note MESSAGE: with LAB_VERBOSE=1, prints the time since start and MESSAGE.
T0=${EPOCHREALTIME/./}
note() {
	[ "${LAB_VERBOSE:-0}" = 1 ] || return 0
	local d=$((${EPOCHREALTIME/./} - T0))
	printf 'lab: %d.%03d s %s\n' $((d / 1000000)) $((d / 1000 % 1000)) "$*" >&2
}

usage() {
	echo "usage: $0 start|stop DIR | roll DIR publish|revoke|remove|forge" >&2
	exit 2
}

# --- processes -------------------------------------------------------------

# running PID: the process exists and is not a zombie (a container's init
# may take seconds to reap the servers once they exit).
running() {
	[ -r "/proc/$1/status" ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# pid_ours PIDFILE: prints the pid if that process is alive and was started
# with a configuration file under $DIR (so a recycled pid is never touched).
pid_ours() {
	local pid
	[ -s "$1" ] || return 1
	pid=$(cat "$1")
	case $pid in '' | *[!0-9]*) return 1 ;; esac
	running "$pid" || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- " $DIR/" || return 1
	echo "$pid"
}

# launch NAME LOG CMD...: starts CMD in the background, pid in run/NAME.pid.
launch() {
	local name=$1 log=$2
	shift 2
	"$@" </dev/null >>"$log" 2>&1 &
	echo $! >"$DIR/run/$name.pid"
}

# descendants PID...: the given pids and all their descendants (NSD forks
# a main and a server process below the one started).
descendants() {
	local all=" $* " new p c
	new="$*"
	while [ -n "$new" ]; do
		p=$new
		new=""
		# shellcheck disable=SC2086
		for c in $(ps -o pid= --ppid "$(echo $p | tr ' ' ,)" 2>/dev/null); do
			case $all in *" $c "*) ;; *) all="$all$c " new="$new $c" ;; esac
		done
	done
	# shellcheck disable=SC2086
	echo $all
}

stop_all() {
	local f pid pids="" alive
	[ -d "$DIR/run" ] || return 0
	for f in "$DIR"/run/*.pid; do
		[ -e "$f" ] || continue
		pid=$(pid_ours "$f") && pids="$pids $pid"
	done
	if [ -n "$pids" ]; then
		# shellcheck disable=SC2086
		pids=$(descendants $pids)
		for f in "$DIR"/run/*.pid; do
			pid=$(pid_ours "$f") && { kill -TERM "$pid" 2>/dev/null || true; }
		done
	fi
	# Up to 5 s for a clean exit, then SIGKILL.
	for _ in $(seq 100); do
		alive=""
		for pid in $pids; do
			running "$pid" && alive="$alive $pid"
		done
		pids=$alive
		[ -z "$pids" ] && break
		sleep 0.05
	done
	for pid in $pids; do
		echo "lab: pid $pid did not stop within 5 s: SIGKILL" >&2
		kill -KILL "$pid" 2>/dev/null || true
	done
	rm -f "$DIR"/run/*.pid
}

# listening ADDR: true if some UDP or TCP socket is bound to ADDR:53.
listening() {
	ss -Hlnut 2>/dev/null | awk '{print $5}' | grep -qxF "$1:53"
}

# --- zones ----------------------------------------------------------------

# keygen NAME ZONE ALG ksk|-: makes a key in DIR/keys/NAME/, prints its
# base path.
keygen() {
	local dir=$DIR/keys/$1 zone=$2 alg=$3 flag="" bits="" base
	[ "$4" = ksk ] && flag=-k
	[ "$alg" = RSASHA256 ] && bits="-b 2048"
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	base=$(cd "$dir" && ldns-keygen -r /dev/urandom -a "$alg" $bits $flag "$zone")
	rm -f "$dir/$base.ds"
	echo "$dir/$base"
}

# ds KEYBASE: the SHA-256 DS of a key, one line.
ds() {
	ldns-key2ds -n -2 "$1.key" | tr -s ' \t' ' '
}

# dnskey_of KEYBASE: the DNSKEY record, without ldns-keygen's comment.
dnskey_of() {
	awk '{ sub(/[ \t]*;.*$/, ""); if ($2 == "IN") $2 = "3600 IN"; print }' "$1.key"
}

# sign ZONE INCEPTION EXPIRATION [ldns-signzone options] -- KEYBASE...:
# signs zones/ZONE.src into zones/ZONE.zone.
sign() {
	local zone=$1 inc=$2 exp=$3 opts=()
	shift 3
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	ldns-signzone "${opts[@]}" -i "$inc" -e "$exp" -o "$zone" \
		-f "$DIR/zones/$zone.zone" "$DIR/zones/$zone.src" "$@" \
		2>"$DIR/zones/$zone.log" ||
		die "ldns-signzone $zone failed: $(cat "$DIR/zones/$zone.log")"
}

# sign_optout ZONE INCEPTION EXPIRATION KEYBASE: NSEC3 opt-out with
# dnssec-signzone, which (unlike ldns-signzone) leaves unsigned delegations
# out of the NSEC3 chain. One key (flags 257) signs everything.
sign_optout() {
	local zone=$1 key=$4 inc exp
	inc=$(date -u -d "@$2" +%Y%m%d%H%M%S)
	exp=$(date -u -d "@$3" +%Y%m%d%H%M%S)
	dnskey_of "$key" >>"$DIR/zones/$zone.src"
	dnssec-signzone -q -3 - -H 0 -A -z -O full -d "$DIR/zones" \
		-o "$zone" -s "$inc" -e "$exp" -f "$DIR/zones/$zone.zone" \
		"$DIR/zones/$zone.src" "$key" >"$DIR/zones/$zone.log" 2>&1 ||
		die "dnssec-signzone $zone failed: $(cat "$DIR/zones/$zone.log")"
}

# forge ZONE OLD NEW...: copies a signed zone into the attacker's zones with
# the given address(es) of www.ZONE replaced, genuine RRSIGs kept.
forge() {
	local zone=$1
	shift
	awk -v www="www.$zone" -v subst="$*" '
		BEGIN { n = split(subst, a, " "); for (i = 1; i < n; i += 2) m[a[i]] = a[i + 1] }
		$1 == www && ($4 == "A" || $4 == "AAAA") && ($5 in m) { $5 = m[$5] }
		{ print }' "$DIR/zones/$zone.zone" >"$DIR/attacker/zones/$zone.zone"
	grep -q '10\.66\.0\.' "$DIR/attacker/zones/$zone.zone" ||
		die "forging $zone failed"
}

# The RRSIG covering TYPE at NAME in a signed zone, rdata only.
rrsig_of() {
	awk -v n="$2" -v t="$3" '$1 == n && $4 == "RRSIG" && $5 == t {
		$1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print; exit }' "$1"
}

soa() {
	# shellcheck disable=SC2016
	printf '$ORIGIN %s\n$TTL 3600\n@ IN SOA %s hostmaster.lab. %s 1800 900 604800 300\n' \
		"$1" "$2" "$SERIAL"
}

hexhash() {
	printf '%s' "$1" | sha256sum | cut -c1-64
}

write_root() {
	{
		# shellcheck disable=SC2016
		printf '$ORIGIN .\n$TTL 86400\n'
		printf '. IN SOA ns1.lab. hostmaster.lab. %s 1800 900 604800 300\n' "$SERIAL"
		printf '. IN NS ns1.lab.\n'
		printf 'lab. 172800 IN NS ns1.lab.\n'
		printf 'ns1.lab. 172800 IN A %s\n' "$ROOT_ADDR"
		printf '%s\n' "$DS_LAB"
	} >"$DIR/zones/..src"
}

write_lab() {
	local z
	{
		soa lab. ns1.lab.
		printf '@ NS ns1\nns1 A %s\nns2 A %s\n' "$ROOT_ADDR" "$LEAF_ADDR"
		for z in secure nsec3 optout insecure expired tampered wrongds \
			nosig iter ed rsa; do
			printf '%s NS ns2\n' "$z"
		done
		printf '%s\n' "${DS_CHILD[@]}"
		if [ "$DEEP" = 1 ]; then
			printf 'deep NS ns2\n%s\n' "$DS_DEEP"
			printf 'h%d A 192.0.2.%d\n' 1 201 2 202 3 203 4 204
		fi
		if [ "$GLUELESS" = 1 ]; then
			printf 'glueless NS ns.secure.lab.\n'
			printf 'gluebogus NS ns.tampered.lab.\n'
			printf 'loopa NS ns.loopb.lab.\nloopb NS ns.loopa.lab.\n'
		fi
	} >"$DIR/zones/lab..src"
}

# leaf ZONE A AAAA: SOA, NS and www A/AAAA.
leaf() {
	soa "$1" ns2.lab.
	printf '@ NS ns2.lab.\nwww A %s\n' "$2"
	[ -n "${3:-}" ] && printf 'www AAAA %s\n' "$3"
	return 0
}

write_secure() {
	{
		leaf secure.lab. 192.0.2.1 2001:db8:1::1
		cat <<-EOF
			@ MX 10 mail
			@ TXT "dnstrust lab: secure.lab, ECDSA P-256, NSEC"
			www TXT "www.secure.lab"
			www SSHFP 4 2 $(hexhash "dnstrust lab sshfp")
			_443._tcp.www TLSA 3 1 1 $(hexhash "dnstrust lab tlsa")
			svc HTTPS 1 . alpn="h3,h2" port=8443 ipv4hint=192.0.2.1 ech=AEX+DQBBpQAgACBe6vFLsQeudWY4OJ5+SmJz2+01k+ZvR0XaZeJ5qzckTAAEAAEAAQASY2xvdWRmbGFyZS1lY2guY29tAAA= ipv6hint=2001:db8:1::1
			svc CAA 0 issue "ca.example; account=1"
			svc LOC 52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m
			mail A 192.0.2.2
			mail AAAA 2001:db8:1::2
			*.wild A 192.0.2.3
			*.wild TXT "wildcard"
			host.ent A 192.0.2.4
			cname CNAME www.nsec3.lab.
			chain CNAME cname
			to-insecure CNAME www.insecure.lab.
			to-bogus CNAME www.tampered.lab.
			dname DNAME nsec3.lab.
			sub NS ns2.lab.
			$DS_SUB
		EOF
		[ "$GLUELESS" = 1 ] && printf 'ns A %s\n' "$LEAF_ADDR"
		return 0
	} >"$DIR/zones/secure.lab..src"
}

# nsec3.lab. with the given addresses (genuine, or the attacker's copy).
write_nsec3() { # FILE A AAAA WILD_A ENT_A
	{
		leaf nsec3.lab. "$2" "$3"
		printf '*.wild A %s\nhost.ent A %s\n' "$4" "$5"
	} >"$1"
}

# make_deep INCEPTION EXPIRATION: the LAB_DEEP chain, signed from the
# deepest zone up (each parent holds its child's DS); DS_DEEP is the DS of
# deep.lab. for lab.
make_deep() {
	local z key child="" ds="" i=0
	for z in $DEEP_ZONES; do
		i=$((i + 1))
		key=$(keygen "deep$i" "$z" ECDSAP256SHA256 ksk) ||
			die "key generation for $z failed"
		{
			soa "$z" ns2.lab.
			printf '@ NS ns2.lab.\n'
			printf 'h%d A 192.0.2.%d\n' 1 $((210 + 4 * i)) 2 $((211 + 4 * i)) \
				3 $((212 + 4 * i)) 4 $((213 + 4 * i))
			if [ -n "$child" ]; then
				printf '%s NS ns2.lab.\n%s\n' "${child%".$z"}" "$ds"
			fi
		} >"$DIR/zones/$z.src"
		sign "$z" "$1" "$2" -- "$key"
		ds=$(ds "$key")
		child=$z
	done
	DS_DEEP=$ds
}

make_zones() {
	local now inc exp old_inc old_exp k
	now=$(date +%s)
	inc=$((now - 86400))
	exp=$((now + 30 * 86400))
	old_inc=$((now - 31 * 86400))
	old_exp=$((now - 86400))
	SERIAL=$now

	# Keys, all made at once, each in its own directory (two keys of one
	# zone with the same tag cannot overwrite each other). RSA only where
	# the algorithm is the point (root, rsa.lab.): it is the slow part.
	local -A K
	local spec name zone alg flag jobs=()
	local specs=(
		"root_ksk . RSASHA256 ksk" "root_zsk . RSASHA256 -"
		"lab_ksk lab. ECDSAP256SHA256 ksk" "lab_zsk lab. ECDSAP256SHA256 -"
		"sec_ksk secure.lab. ECDSAP256SHA256 ksk"
		"sec_zsk secure.lab. ECDSAP256SHA256 -"
		"sub sub.secure.lab. ECDSAP256SHA256 ksk"
		"n3_ksk nsec3.lab. ECDSAP256SHA256 ksk"
		"n3_zsk nsec3.lab. ECDSAP256SHA256 -"
		"oo optout.lab. ECDSAP256SHA256 ksk"
		"exp expired.lab. ECDSAP256SHA256 ksk"
		"tam tampered.lab. ECDSAP256SHA256 ksk"
		"wds wrongds.lab. ECDSAP256SHA256 ksk"
		"wds_decoy wrongds.lab. ECDSAP256SHA256 ksk"
		"nos_ksk nosig.lab. ECDSAP256SHA256 ksk"
		"nos_zsk nosig.lab. ECDSAP256SHA256 -"
		"iter iter.lab. ECDSAP256SHA256 ksk"
		"ed_ksk ed.lab. ED25519 ksk" "ed_zsk ed.lab. ED25519 -"
		"rsa rsa.lab. RSASHA256 ksk"
		"evil_ed ed.lab. ED25519 ksk"
	)
	for spec in "${specs[@]}"; do
		read -r name zone alg flag <<<"$spec"
		keygen "$name" "$zone" "$alg" "$flag" >"$DIR/keys/$name.base" &
		jobs+=($!)
	done
	for spec in "${jobs[@]}"; do
		wait "$spec" || die "key generation failed"
	done
	for spec in "${specs[@]}"; do
		read -r name _ <<<"$spec"
		K[$name]=$(cat "$DIR/keys/$name.base")
		[ -s "${K[$name]}.private" ] || die "no key $name"
	done

	note "keys generated"

	# Leaf zones: sources, then all signed at once.
	local z=$DIR/zones
	DS_SUB=$(ds "${K[sub]}")
	leaf sub.secure.lab. 192.0.2.10 2001:db8:a::1 >"$z/sub.secure.lab..src"
	write_nsec3 "$z/nsec3.lab..src" 192.0.2.20 2001:db8:14::1 \
		192.0.2.21 192.0.2.22
	{
		leaf optout.lab. 192.0.2.30 2001:db8:1e::1
		printf 'unsigned NS ns2.lab.\n'
	} >"$z/optout.lab..src"
	leaf unsigned.optout.lab. 192.0.2.31 2001:db8:1f::1 \
		>"$z/unsigned.optout.lab..zone"
	leaf insecure.lab. 192.0.2.40 2001:db8:28::1 >"$z/insecure.lab..zone"
	leaf expired.lab. 192.0.2.50 >"$z/expired.lab..src"
	{
		leaf tampered.lab. 192.0.2.60
		[ "$GLUELESS" = 1 ] && printf 'ns A 192.0.2.62\n'
	} >"$z/tampered.lab..src"
	if [ "$GLUELESS" = 1 ]; then
		{
			soa glueless.lab. ns.secure.lab.
			printf '@ NS ns.secure.lab.\nwww A 192.0.2.120\n'
		} >"$z/glueless.lab..zone"
		{
			soa gluebogus.lab. ns.tampered.lab.
			printf '@ NS ns.tampered.lab.\nwww A 192.0.2.121\n'
		} >"$z/gluebogus.lab..zone"
	fi
	leaf wrongds.lab. 192.0.2.70 >"$z/wrongds.lab..src"
	leaf nosig.lab. 192.0.2.80 >"$z/nosig.lab..src"
	leaf iter.lab. 192.0.2.90 2001:db8:5a::1 >"$z/iter.lab..src"
	leaf ed.lab. 192.0.2.100 2001:db8:64::1 >"$z/ed.lab..src"
	leaf rsa.lab. 192.0.2.110 2001:db8:6e::1 >"$z/rsa.lab..src"
	write_secure

	jobs=()
	sign sub.secure.lab. "$inc" "$exp" -- "${K[sub]}" &
	jobs+=($!)
	sign nsec3.lab. "$inc" "$exp" -n -t 0 -s 5eed -- "${K[n3_ksk]}" "${K[n3_zsk]}" &
	jobs+=($!)
	sign_optout optout.lab. "$inc" "$exp" "${K[oo]}" &
	jobs+=($!)
	sign expired.lab. "$old_inc" "$old_exp" -- "${K[exp]}" &
	jobs+=($!)
	{
		sign tampered.lab. "$inc" "$exp" -- "${K[tam]}"
		sed -i -E 's/^(www\.tampered\.lab\.[[:space:]]+[0-9]+[[:space:]]+IN[[:space:]]+A[[:space:]]+)192\.0\.2\.60$/\1192.0.2.61/' \
			"$z/tampered.lab..zone"
		grep -qE '[[:space:]]A[[:space:]]+192\.0\.2\.61$' "$z/tampered.lab..zone" ||
			die "tampering www.tampered.lab. failed"
		if [ "$GLUELESS" = 1 ]; then
			sed -i -E "s/^(ns\.tampered\.lab\.[[:space:]]+[0-9]+[[:space:]]+IN[[:space:]]+A[[:space:]]+)192\.0\.2\.62\$/\1$LEAF_ADDR/" \
				"$z/tampered.lab..zone"
			grep -qE "^ns\.tampered\.lab\..*[[:space:]]A[[:space:]]+$LEAF_ADDR\$" "$z/tampered.lab..zone" ||
				die "tampering ns.tampered.lab. failed"
		fi
	} &
	jobs+=($!)
	sign wrongds.lab. "$inc" "$exp" -- "${K[wds]}" &
	jobs+=($!)
	{
		sign nosig.lab. "$inc" "$exp" -- "${K[nos_ksk]}" "${K[nos_zsk]}"
		awk '$4 == "RRSIG" && ($5 == "A" || $5 == "AAAA") { next } { print }' \
			"$z/nosig.lab..zone" >"$z/nosig.tmp"
		mv "$z/nosig.tmp" "$z/nosig.lab..zone"
	} &
	jobs+=($!)
	sign iter.lab. "$inc" "$exp" -n -t 150 -- "${K[iter]}" &
	jobs+=($!)
	sign ed.lab. "$inc" "$exp" -- "${K[ed_ksk]}" "${K[ed_zsk]}" &
	jobs+=($!)
	sign rsa.lab. "$inc" "$exp" -- "${K[rsa]}" &
	jobs+=($!)
	sign secure.lab. "$inc" "$exp" -- "${K[sec_ksk]}" "${K[sec_zsk]}" &
	jobs+=($!)
	for spec in "${jobs[@]}"; do
		wait "$spec" || die "signing a leaf zone failed"
	done

	DS_DEEP=""
	[ "$DEEP" = 1 ] && make_deep "$inc" "$exp"

	DS_CHILD=()
	# wrongds.lab. gets the DS of its decoy key, a key it does not have.
	for k in sec_ksk n3_ksk oo exp tam wds_decoy nos_ksk iter ed_ksk rsa; do
		k=${K[$k]}
		DS_CHILD+=("$(ds "$k")")
	done
	write_lab
	sign lab. "$inc" "$exp" -- "${K[lab_ksk]}" "${K[lab_zsk]}"

	DS_LAB=$(ds "${K[lab_ksk]}")
	write_root
	sign . "$inc" "$exp" -- "${K[root_ksk]}" "${K[root_zsk]}"

	note "genuine zones signed"

	# Trust anchors: the root KSK as DS, as DNSKEY, and for delv.
	ds "${K[root_ksk]}" >"$DIR/anchor.ds"
	dnskey_of "${K[root_ksk]}" >"$DIR/anchor.dnskey"
	awk '{ printf "trust-anchors {\n\t. static-ds %s %s %s \"%s\";\n};\n",
		$(NF-3), $(NF-2), $(NF-1), $NF }' "$DIR/anchor.ds" >"$DIR/anchor.bind"

	# The attacker's zones (see the top of this file): an unsigned
	# nsec3.lab., an ed.lab. signed with the attacker's key, and genuine
	# signed zones with forged addresses, where www.optout.lab. A also
	# gets the RRSIG of www.secure.lab. A instead of its own.
	local az=$DIR/attacker/zones sig
	mkdir -p "$az"
	write_nsec3 "$az/nsec3.lab..zone" 10.66.0.3 fd66::3 10.66.0.3 10.66.0.3
	leaf ed.lab. 10.66.0.4 fd66::4 >"$az/ed.lab..src"
	ldns-signzone -i "$inc" -e "$exp" -o ed.lab. -f "$az/ed.lab..zone" \
		"$az/ed.lab..src" "${K[evil_ed]}" 2>"$az/ed.lab..log" ||
		die "ldns-signzone ed.lab. (attacker) failed: $(cat "$az/ed.lab..log")"
	EVIL_ED_DNSKEY=$(dnskey_of "${K[evil_ed]}")

	forge sub.secure.lab. 192.0.2.10 10.66.0.2
	forge rsa.lab. 192.0.2.110 10.66.0.2 2001:db8:6e::1 fd66::2
	forge iter.lab. 192.0.2.90 10.66.0.2
	forge optout.lab. 192.0.2.30 10.66.0.2
	sig=$(rrsig_of "$DIR/zones/secure.lab..zone" www.secure.lab. A)
	[ -n "$sig" ] || die "no RRSIG over www.secure.lab. A"
	awk -v sig="$sig" '$1 == "www.optout.lab." && $4 == "RRSIG" && $5 == "A" {
		$0 = $1 " " $2 " IN RRSIG " sig } { print }' \
		"$az/optout.lab..zone" >"$az/optout.tmp"
	mv "$az/optout.tmp" "$az/optout.lab..zone"
	grep -qF "$sig" "$az/optout.lab..zone" ||
		die "copying an RRSIG into optout.lab. failed"
}

# --- configurations ---------------------------------------------------------

nsd_conf() { # NAME ADDR ZONESDIR ZONE=FILE...
	local d=$DIR/$1 addr=$2 zdir=$3 z
	shift 3
	cat <<-EOF
		server:
		    ip-address: $addr
		    port: 53
		    do-ip6: no
		    reuseport: no
		    server-count: 1
		    username: ""
		    chroot: ""
		    zonesdir: "$zdir"
		    database: ""
		    zonelistfile: "$d/zone.list"
		    xfrdfile: "$d/xfrd.state"
		    xfrdir: "$d"
		    pidfile: "$d/nsd.pid"
		    logfile: "$d/nsd.log"
		    verbosity: 1
		remote-control:
		    control-enable: no
	EOF
	for z in "$@"; do
		printf 'zone:\n    name: "%s"\n    zonefile: "%s"\n' "${z%%=*}" "${z#*=}"
	done
}

knot_conf() {
	local d=$DIR/knot z
	cat <<-EOF
		server:
		    rundir: "$d"
		    pidfile: "$d/knot.pid"
		    listen: $LEAF_ADDR@53
		    udp-workers: 1
		    tcp-workers: 1
		    background-workers: 1
		control:
		    listen: "$d/knot.sock"
		database:
		    storage: "$d/db"
		log:
		  - target: "$d/knot.log"
		    any: info
		template:
		  - id: default
		    storage: "$DIR/zones"
		    zonefile-sync: -1
		    zonefile-load: whole
		    journal-content: none
		    semantic-checks: off
		zone:
	EOF
	for z in $LEAF_ZONES; do
		printf '  - domain: %s\n    file: "%s.zone"\n' "$z" "$z"
	done
}

unbound_conf() { # NAME ADDR MODULES (extra server: lines on stdin)
	local d=$DIR/$1
	cat <<-EOF
		server:
		    interface: $2
		    port: 53
		    interface-automatic: no
		    so-reuseport: no
		    do-ip6: no
		    do-daemonize: no
		    num-threads: 1
		    username: ""
		    chroot: ""
		    directory: "$d"
		    pidfile: "$d/unbound.pid"
		    logfile: "$d/unbound.log"
		    use-syslog: no
		    log-queries: yes
		    log-servfail: yes
		    verbosity: 1
		    access-control: 127.0.0.0/8 allow
		    do-not-query-localhost: no
		    root-hints: "$DIR/root.hints"
		    module-config: "$3"
		    prefetch: no
		    ede: yes
	EOF
	sed 's/^/    /'
	cat <<-EOF
		remote-control:
		    control-enable: yes
		    control-interface: "$d/control.sock"
		    control-use-cert: no
	EOF
}

attacker_local_data() { # extra server: lines of the attacker Unbound
	local n
	# typetransparent: other types at these names are resolved as usual.
	for n in www.secure.lab. mail.secure.lab.; do
		printf 'local-zone: "%s" typetransparent\n' "$n"
		printf 'local-data: "%s 3600 IN A 10.66.0.1"\n' "$n"
		printf 'local-data: "%s 3600 IN AAAA fd66::1"\n' "$n"
	done
	printf 'local-zone: "host.ent.secure.lab." typetransparent\n'
	printf 'local-data: "host.ent.secure.lab. 3600 IN A 10.66.0.1"\n'
	printf 'local-zone: "wild.secure.lab." redirect\n'
	printf 'local-data: "wild.secure.lab. 3600 IN A 10.66.0.1"\n'
	# Validate ed.lab. with the attacker's own key, even when the client
	# sets CD, so that the forged ed.lab. answers carry AD=1.
	printf 'ignore-cd-flag: yes\n'
	printf 'trust-anchor: "%s"\n' "$EVIL_ED_DNSKEY"
}

write_forged() {
	cat <<-EOF
		www.secure.lab. A 10.66.0.1 unsigned
		www.secure.lab. AAAA fd66::1 unsigned
		mail.secure.lab. A 10.66.0.1 unsigned
		mail.secure.lab. AAAA fd66::1 unsigned
		host.ent.secure.lab. A 10.66.0.1 unsigned
		foo.wild.secure.lab. A 10.66.0.1 unsigned
		www.sub.secure.lab. A 10.66.0.2 copied-rrsig
		www.rsa.lab. A 10.66.0.2 copied-rrsig
		www.rsa.lab. AAAA fd66::2 copied-rrsig
		www.iter.lab. A 10.66.0.2 copied-rrsig
		www.optout.lab. A 10.66.0.2 copied-rrsig
		www.nsec3.lab. A 10.66.0.3 stripped
		www.nsec3.lab. AAAA fd66::3 stripped
		foo.wild.nsec3.lab. A 10.66.0.3 stripped
		host.ent.nsec3.lab. A 10.66.0.3 stripped
		cname.secure.lab. A 10.66.0.3 stripped
		chain.secure.lab. A 10.66.0.3 stripped
		www.dname.secure.lab. A 10.66.0.3 stripped
		www.ed.lab. A 10.66.0.4 attacker-ad
		www.ed.lab. AAAA fd66::4 attacker-ad
	EOF
}

write_expect() {
	cat <<-EOF
		. SOA secure NOERROR
		. DNSKEY secure NOERROR
		nosuchtld. A secure NXDOMAIN
		lab. SOA secure NOERROR
		lab. DS secure NOERROR
		secure.lab. DS secure NOERROR
		secure.lab. DNSKEY secure NOERROR
		secure.lab. MX secure NOERROR
		secure.lab. TXT secure NOERROR
		www.secure.lab. A secure NOERROR
		www.secure.lab. AAAA secure NOERROR
		www.secure.lab. TXT secure NOERROR
		www.secure.lab. SSHFP secure NOERROR
		_443._tcp.www.secure.lab. TLSA secure NOERROR
		www.secure.lab. MX secure NOERROR
		mail.secure.lab. A secure NOERROR
		mail.secure.lab. AAAA secure NOERROR
		foo.wild.secure.lab. A secure NOERROR
		foo.wild.secure.lab. TXT secure NOERROR
		foo.wild.secure.lab. AAAA secure NOERROR
		ent.secure.lab. A secure NOERROR
		host.ent.secure.lab. A secure NOERROR
		nonexistent.secure.lab. A secure NXDOMAIN
		cname.secure.lab. A secure NOERROR
		chain.secure.lab. A secure NOERROR
		to-insecure.secure.lab. A insecure NOERROR
		to-bogus.secure.lab. A bogus SERVFAIL 6
		dname.secure.lab. DNAME secure NOERROR
		www.dname.secure.lab. A secure NOERROR
		sub.secure.lab. DS secure NOERROR
		www.sub.secure.lab. A secure NOERROR
		nonexistent.sub.secure.lab. A secure NXDOMAIN
		www.nsec3.lab. A secure NOERROR
		www.nsec3.lab. AAAA secure NOERROR
		www.nsec3.lab. MX secure NOERROR
		foo.wild.nsec3.lab. A secure NOERROR
		ent.nsec3.lab. A secure NOERROR
		host.ent.nsec3.lab. A secure NOERROR
		nonexistent.nsec3.lab. A secure NXDOMAIN
		www.optout.lab. A secure NOERROR
		www.unsigned.optout.lab. A insecure NOERROR
		unsigned.optout.lab. DS insecure NOERROR
		nonexistent.optout.lab. A insecure NXDOMAIN
		insecure.lab. DS secure NOERROR
		www.insecure.lab. A insecure NOERROR
		www.insecure.lab. AAAA insecure NOERROR
		nonexistent.insecure.lab. A insecure NXDOMAIN
		www.ed.lab. A secure NOERROR
		www.ed.lab. AAAA secure NOERROR
		nonexistent.ed.lab. A secure NXDOMAIN
		www.rsa.lab. A secure NOERROR
		www.rsa.lab. AAAA secure NOERROR
		nonexistent.rsa.lab. A secure NXDOMAIN
		www.iter.lab. A secure NOERROR
		nonexistent.iter.lab. A insecure NXDOMAIN 27
		www.iter.lab. MX secure NOERROR
		www.expired.lab. A bogus SERVFAIL 7
		expired.lab. DNSKEY bogus SERVFAIL 7
		www.tampered.lab. A bogus SERVFAIL 6
		www.wrongds.lab. A bogus SERVFAIL 9
		wrongds.lab. DNSKEY bogus SERVFAIL 9
		www.nosig.lab. A bogus SERVFAIL 10
	EOF
}

write_configs() {
	mkdir -p "$DIR/nsd" "$DIR/attacker/nsd" "$DIR/knot/db" \
		"$DIR/unbound" "$DIR/validator" "$DIR/attacker"
	nsd_conf nsd "$ROOT_ADDR" "$DIR/zones" .=..zone lab.=lab..zone \
		>"$DIR/nsd/nsd.conf"
	local z zones=()
	for z in $ATTACKER_ZONES; do
		zones+=("$z=$z.zone")
	done
	nsd_conf attacker/nsd "$ATTACKER_AUTH_ADDR" "$DIR/attacker/zones" \
		"${zones[@]}" >"$DIR/attacker/nsd/nsd.conf"
	knot_conf >"$DIR/knot/knot.conf"

	printf '. 3600000 NS ns1.lab.\nns1.lab. 3600000 A %s\n' "$ROOT_ADDR" \
		>"$DIR/root.hints"
	unbound_conf unbound "$RESOLVER_ADDR" iterator </dev/null \
		>"$DIR/unbound/unbound.conf"
	printf '%s\n' "trust-anchor-file: \"$DIR/anchor.ds\"" \
		"val-nsec3-keysize-iterations: \"1024 $ITER_LIMIT 2048 $ITER_LIMIT 4096 $ITER_LIMIT\"" \
		"val-log-level: 2" |
		unbound_conf validator "$VALIDATOR_ADDR" "validator iterator" \
			>"$DIR/validator/unbound.conf"
	attacker_local_data |
		unbound_conf attacker "$ATTACKER_ADDR" "validator iterator" \
			>"$DIR/attacker/unbound.conf"
	for z in $ATTACKER_ZONES; do
		printf 'stub-zone:\n    name: "%s"\n    stub-addr: %s\n' \
			"$z" "$ATTACKER_AUTH_ADDR"
	done >>"$DIR/attacker/unbound.conf"
}

# --- waiting ----------------------------------------------------------------

# answers ADDR NAME TYPE [dig options]: true when ADDR answers NOERROR
# (authoritatively when +norec is given).
answers() {
	local addr=$1 name=$2 type=$3 out
	shift 3
	out=$(dig +time=1 +tries=1 "$@" @"$addr" "$name" "$type" 2>/dev/null) ||
		return 1
	grep -q 'status: NOERROR' <<<"$out" || return 1
	case " $* " in
	*" +norec "*) grep -qE '^;; flags: qr aa' <<<"$out" ;;
	esac
}

# wait_for WHAT PIDNAME LOG ADDR NAME TYPE [dig options]
wait_for() {
	local what=$1 pidname=$2 log=$3 deadline=$((SECONDS + WAIT_SECONDS))
	shift 3
	until answers "$@"; do
		if ! pid_ours "$DIR/run/$pidname.pid" >/dev/null; then
			echo "lab: $what exited; last lines of $log:" >&2
			tail -n 15 "$log" >&2 || true
			return 1
		fi
		if [ $SECONDS -ge $deadline ]; then
			echo "lab: $what does not answer $2 $3 at $1 after ${WAIT_SECONDS}s; last lines of $log:" >&2
			tail -n 15 "$log" >&2 || true
			return 1
		fi
		sleep 0.05
	done
}

start_servers() {
	launch nsd "$DIR/nsd/nsd.log" "$NSD" -d -c "$DIR/nsd/nsd.conf"
	launch attacker-nsd "$DIR/attacker/nsd/nsd.log" \
		"$NSD" -d -c "$DIR/attacker/nsd/nsd.conf"
	launch knot "$DIR/knot/knot.log" "$KNOTD" -c "$DIR/knot/knot.conf"

	wait_for NSD nsd "$DIR/nsd/nsd.log" "$ROOT_ADDR" . SOA +norec
	wait_for NSD nsd "$DIR/nsd/nsd.log" "$ROOT_ADDR" lab. SOA +norec
	local z
	note "authoritative servers launched"
	for z in $ATTACKER_ZONES; do
		wait_for "attacker NSD" attacker-nsd "$DIR/attacker/nsd/nsd.log" \
			"$ATTACKER_AUTH_ADDR" "$z" SOA +norec
	done
	for z in $LEAF_ZONES; do
		wait_for Knot knot "$DIR/knot/knot.log" "$LEAF_ADDR" "$z" SOA +norec
	done

	note "authoritative servers answer"
	launch unbound "$DIR/unbound/unbound.log" \
		"$UNBOUND" -d -c "$DIR/unbound/unbound.conf"
	launch validator "$DIR/validator/unbound.log" \
		"$UNBOUND" -d -c "$DIR/validator/unbound.conf"
	launch attacker "$DIR/attacker/unbound.log" \
		"$UNBOUND" -d -c "$DIR/attacker/unbound.conf"
	note "resolvers launched"
	wait_for "Unbound (resolver)" unbound "$DIR/unbound/unbound.log" \
		"$RESOLVER_ADDR" lab. SOA
	wait_for "Unbound (validator)" validator "$DIR/validator/unbound.log" \
		"$VALIDATOR_ADDR" lab. SOA +adflag
	wait_for "Unbound (attacker)" attacker "$DIR/attacker/unbound.log" \
		"$ATTACKER_ADDR" lab. SOA
	note "resolvers answer"
}

write_env() {
	cat <<-EOF
		LAB_DIR=$DIR
		LAB_NET=$NET
		LAB_ROOT_SERVER=$ROOT_ADDR
		LAB_LEAF_SERVER=$LEAF_ADDR
		LAB_RESOLVER=$RESOLVER_ADDR
		LAB_VALIDATOR=$VALIDATOR_ADDR
		LAB_ATTACKER=$ATTACKER_ADDR
		LAB_ATTACKER_AUTH=$ATTACKER_AUTH_ADDR
		LAB_RESOLV_CONF=$DIR/resolv.conf
		LAB_VALIDATOR_RESOLV_CONF=$DIR/resolv.conf.validator
		LAB_ATTACKER_RESOLV_CONF=$DIR/resolv.conf.attacker
		LAB_ANCHOR=$DIR/anchor.ds
		LAB_ANCHOR_DNSKEY=$DIR/anchor.dnskey
		LAB_ANCHOR_BIND=$DIR/anchor.bind
		LAB_EXPECT=$DIR/expect.txt
		LAB_FORGED=$DIR/forged.txt
		LAB_FORGED_NETS=10.66.0.0/16,fd66::/16
		LAB_UNBOUND_CONF=$DIR/unbound/unbound.conf
		LAB_VALIDATOR_CONF=$DIR/validator/unbound.conf
		LAB_ATTACKER_CONF=$DIR/attacker/unbound.conf
		LAB_UNBOUND_LOG=$DIR/unbound/unbound.log
		LAB_VALIDATOR_LOG=$DIR/validator/unbound.log
		LAB_ATTACKER_LOG=$DIR/attacker/unbound.log
		LAB_NSEC3_ITERATIONS_LIMIT=$ITER_LIMIT
	EOF
	printf 'export'
	printf ' %s' LAB_DIR LAB_NET LAB_ROOT_SERVER LAB_LEAF_SERVER LAB_RESOLVER \
		LAB_VALIDATOR LAB_ATTACKER LAB_ATTACKER_AUTH LAB_RESOLV_CONF \
		LAB_VALIDATOR_RESOLV_CONF LAB_ATTACKER_RESOLV_CONF LAB_ANCHOR \
		LAB_ANCHOR_DNSKEY LAB_ANCHOR_BIND LAB_EXPECT LAB_FORGED \
		LAB_FORGED_NETS LAB_UNBOUND_CONF LAB_VALIDATOR_CONF \
		LAB_ATTACKER_CONF LAB_UNBOUND_LOG LAB_VALIDATOR_LOG \
		LAB_ATTACKER_LOG LAB_NSEC3_ITERATIONS_LIMIT
	printf '\n'
}

start() {
	local f a
	for f in "$DIR"/run/*.pid; do
		[ -e "$f" ] || continue
		pid_ours "$f" >/dev/null &&
			die "a lab is already running from $DIR; run: $0 stop $DIR"
	done
	for a in $ALL_ADDRS; do
		listening "$a" && die "something already listens on $a:53 (another lab? stop it first)"
	done
	for f in "$NSD" "$KNOTD" "$UNBOUND"; do
		[ -x "$f" ] || die "$f missing (scripts/deps.sh installs nsd, knot, unbound)"
	done
	for f in ldns-keygen ldns-signzone ldns-key2ds dig ss; do
		command -v "$f" >/dev/null ||
			die "$f missing (scripts/deps.sh installs ldnsutils, bind9-dnsutils, iproute2)"
	done

	rm -rf "$DIR/keys" "$DIR/zones" "$DIR/nsd" "$DIR/knot" "$DIR/unbound" \
		"$DIR/validator" "$DIR/attacker" "$DIR/run" "$DIR/lab.env" \
		"$DIR/roll.last" "$DIR/roll.env"
	mkdir -p "$DIR/keys" "$DIR/zones" "$DIR/run"

	cd "$DIR"
	make_zones
	write_configs
	write_expect >"$DIR/expect.txt"
	write_forged >"$DIR/forged.txt"
	echo "nameserver $RESOLVER_ADDR" >"$DIR/resolv.conf"
	echo "nameserver $VALIDATOR_ADDR" >"$DIR/resolv.conf.validator"
	echo "nameserver $ATTACKER_ADDR" >"$DIR/resolv.conf.attacker"

	trap 'stop_all' EXIT
	start_servers
	trap - EXIT
	write_env >"$DIR/lab.env.tmp"
	mv "$DIR/lab.env.tmp" "$DIR/lab.env"
}

# --- rolling the root KSK (see the top of this file) ---------------------

# keytag KEYBASE: the key tag of a key as its .key file has it.
keytag() {
	ldns-key2ds -n -2 "$1.key" | awk '{ for (i = 1; i < NF; i++)
		if ($i == "DS") { print $(i + 1); exit } }'
}

# roll_key NAME: the base path of key NAME, made (a root KSK) if missing.
roll_key() {
	local base=$DIR/keys/$1.base
	[ -s "$base" ] || keygen "$1" . RSASHA256 ksk >"$base" ||
		die "making the root KSK $1 failed"
	cat "$base"
}

# revoked_key: the old root KSK with the REVOKE bit, in keys/root_ksk_revoked.
revoked_key() {
	local old dir=$DIR/keys/root_ksk_revoked f
	old=$(cat "$DIR/keys/root_ksk.base")
	f=$dir/$(basename "$old")
	if [ ! -s "$f.key" ]; then
		mkdir -p "$dir"
		cp "$old.private" "$f.private"
		# Flags 257 (zone key, SEP) + 128 (REVOKE, RFC 5011 §7).
		awk '{ for (i = 1; i < NF; i++)
			if ($i == "DNSKEY" && $(i + 1) == 257) $(i + 1) = 385 }
			{ print }' "$old.key" >"$f.key"
		grep -q 'DNSKEY[[:space:]]385 ' "$f.key" || die "revoking the old KSK failed"
	fi
	echo "$f"
}

# step_ksks STEP: the KSKs that sign the root at a genuine step.
step_ksks() {
	case $1 in
	start) cat "$DIR/keys/root_ksk.base" ;;
	publish) echo "$(cat "$DIR/keys/root_ksk.base") $(roll_key root_ksk_new)" ;;
	revoke) echo "$(revoked_key) $(roll_key root_ksk_new)" ;;
	remove) roll_key root_ksk_new ;;
	esac
}

# roll_sign SRC KEYBASE...: signs SRC into zones/..zone (atomically).
roll_sign() {
	local src=$1 now
	shift
	now=$(date +%s)
	ldns-signzone -i $((now - 86400)) -e $((now + 30 * 86400)) -o . \
		-f "$DIR/zones/..zone.new" "$src" "$@" 2>"$DIR/zones/roll.log" ||
		die "ldns-signzone . failed: $(cat "$DIR/zones/roll.log")"
	mv "$DIR/zones/..zone.new" "$DIR/zones/..zone"
}

# reload_root SERIAL: SIGHUP to NSD until it serves SERIAL.
reload_root() {
	local pid deadline=$((SECONDS + WAIT_SECONDS)) got
	pid=$(pid_ours "$DIR/run/nsd.pid") || die "NSD of $DIR is not running"
	while :; do
		kill -HUP "$pid"
		sleep 0.2
		got=$(dig +norec +short +time=1 +tries=1 @"$ROOT_ADDR" . SOA |
			awk '{ print $3 }')
		[ "$got" = "$1" ] && return 0
		[ $SECONDS -ge $deadline ] &&
			die "NSD still serves serial '$got', not $1"
		# A file replaced within the same second may look unchanged.
		touch -d "@$(($(date +%s) + 1))" "$DIR/zones/..zone"
	done
}

flush_caches() {
	local c
	for c in unbound validator attacker; do
		unbound-control -c "$DIR/$c/unbound.conf" flush_zone . >/dev/null ||
			die "unbound-control flush_zone . ($c) failed"
		unbound-control -c "$DIR/$c/unbound.conf" flush_bogus >/dev/null ||
			die "unbound-control flush_bogus ($c) failed"
	done
}

roll() {
	local step=$1 serial src=$DIR/zones/roll.src last keys k
	case $step in
	publish | revoke | remove | forge) ;;
	*) usage ;;
	esac
	pid_ours "$DIR/run/nsd.pid" >/dev/null || die "no lab running from $DIR"
	# The addresses of the lab as started (LAB_NET may differ here).
	ROOT_ADDR=$(sed -n 's/^LAB_ROOT_SERVER=//p' "$DIR/lab.env")
	# The serial goes up by one in the source kept for the next step.
	awk '$3 == "SOA" { $6 = $6 + 1 } { print }' "$DIR/zones/..src" \
		>"$DIR/zones/..src.new" && mv "$DIR/zones/..src.new" "$DIR/zones/..src"
	serial=$(awk '$3 == "SOA" { print $6 }' "$DIR/zones/..src")
	last=$(cat "$DIR/roll.last" 2>/dev/null || echo start)
	cp "$DIR/zones/..src" "$src"
	if [ "$step" = forge ]; then
		# The genuine keys are published, but only the forger signs.
		for k in $(step_ksks "$last"); do
			dnskey_of "$k" >>"$src"
		done
		keys=$(roll_key root_ksk_forged)
	else
		keys=$(step_ksks "$step")
		echo "$step" >"$DIR/roll.last"
	fi
	# shellcheck disable=SC2086
	roll_sign "$src" $keys "$(cat "$DIR/keys/root_zsk.base")"
	reload_root "$serial"
	flush_caches
	{
		echo "LAB_ROLL_STEP=$step"
		echo "LAB_KSK_OLD=$(keytag "$(cat "$DIR/keys/root_ksk.base")")"
		echo "LAB_KSK_OLD_REVOKED=$(keytag "$(revoked_key)")"
		echo "LAB_KSK_NEW=$(keytag "$(roll_key root_ksk_new)")"
		echo "LAB_KSK_FORGED=$(keytag "$(roll_key root_ksk_forged)")"
		echo "export LAB_ROLL_STEP LAB_KSK_OLD LAB_KSK_OLD_REVOKED LAB_KSK_NEW LAB_KSK_FORGED"
	} >"$DIR/roll.env"
}

[ $# -eq 2 ] || { [ $# -eq 3 ] && [ "$1" = roll ]; } || usage
case $2 in
/*) DIR=$2 ;;
*) DIR=$(pwd)/$2 ;;
esac
DIR=${DIR%/}
case $DIR in
*[!A-Za-z0-9_./+-]* | '') die "DIR must be a path of [A-Za-z0-9_./+-] only" ;;
esac

case $1 in
start)
	[ "$(id -u)" = 0 ] || die "must run as root (the servers bind port 53)"
	mkdir -p "$DIR"
	DIR=$(cd "$DIR" && pwd -P)
	start
	;;
stop)
	[ -d "$DIR" ] || exit 0
	DIR=$(cd "$DIR" && pwd -P)
	stop_all
	rm -f "$DIR/lab.env"
	;;
roll)
	[ "$(id -u)" = 0 ] || die "must run as root (NSD is signalled)"
	[ -f "$DIR/lab.env" ] || die "no lab running from $DIR"
	DIR=$(cd "$DIR" && pwd -P)
	roll "$3"
	;;
*) usage ;;
esac
