#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The generated matrix of issue 3: dnstrust verify on real responses from
# zones signed here by both ldns-signzone and dnssec-signzone.
#
# Cells: signer {ldns, bind} x algorithm {5, 7, 8, 10, 13, 14, 15, 16} x
# denial {nsec, nsec3, optout} x variant, where the variant is
#   valid       signed inside its validity period
#   tampered    www's A record and every NSEC/NSEC3 bitmap changed after
#               signing (RDATA no longer matches its RRSIG)
#   expired     signed for a period that ended before --time
#   notyet      signed for a period that starts after --time
#   wrongds     the valid zone, anchored with the DS of a key not in it
#   nosig       the RRSIGs over A, NSEC and NSEC3 records removed
#   ksunsigned  the DNSKEY RRset's RRSIG by the KSK (the DS key) removed,
#               so only the ZSK signs it (ldns-signzone -A makes the ZSK
#               sign it; dnssec-signzone does by default)
#   unknownalg  every DNSKEY and RRSIG rewritten to algorithm 17
#               (SM2SM3, RFC 9563), which dnstrust does not implement,
#               with the RRSIG key tags and the DS to match
# Every zone is an island: the anchor is its KSK's DS (ldns-key2ds for
# ldns zones, dnssec-dsfromkey for bind zones; ldns-key2ds for the
# algorithm-17 DS, which dnssec-dsfromkey refuses to make).
#
# All zones, each with an unsigned child zone "unsigned.<zone>", are
# served by one NSD on 127.0.3.1 (first free port from 5301) started here
# in the foreground and stopped by its PID. Per zone, dig +dnssec +norec
# asks four questions, each a check (one TAP line):
#   pos  www.<zone> A             answer
#   nxd  nx.<zone> A              NXDOMAIN
#   nod  www.<zone> AAAA          NODATA
#   del  www.unsigned.<zone> A    answer from the unsigned child; the
#                                 parent's "unsigned.<zone> DS" denial is
#                                 part of the input
# and dnstrust verify --json --resolver --time reads the response, the
# zone's DNSKEY RRset (dig +noall +answer) and the DS denial (dig +noall
# +authority); each check also wants the resolver core (the daemon's
# resolution, served these records) to reach the same status, EDE and tag.
#
# Expected (exit status and status, RFC 8914 EDE code, reason tag), and
# the result (answer / nxdomain / nodata) of the question:
#   valid       secure, no EDE; nxd in optout zones insecure
#               [nsec3-optout] (RFC 5155 §9.2: every NSEC3 has the opt-out
#               flag); del insecure, no EDE [keys-insecure-delegation], or
#               [nsec3-optout] where the opt-out span covers the
#               delegation (RFC 5155 §8.6)
#   tampered    bogus, EDE 6 (DNSSEC Bogus) [sig-bad]; for del (the
#               tampered record is the DS denial, the answer is unsigned)
#               bogus only: dnstrust then reports the unsigned answer
#               (EDE 10 [resp-unsigned]), not the denial's bad signature
#   expired     bogus, EDE 7 (Signature Expired) [sig-expired]
#   notyet      bogus, EDE 8 (Signature Not Yet Valid) [sig-not-yet-valid]
#   wrongds     bogus, EDE 9 (DNSKEY Missing) [ks-no-match]
#   nosig       bogus, EDE 10 (RRSIGs Missing) [resp-unsigned; for a
#               denial resp-denial-unsigned]
#   ksunsigned  bogus, EDE 9 [ks-not-signed-by-trusted]
#   unknownalg  insecure, EDE 1 (Unsupported DNSKEY Algorithm)
#               [ks-ds-alg-unsupported] (RFC 6840 §5.2)
#
# Skipped cells, each check printed as "ok N # SKIP reason":
#   - algorithm 5 (RSASHA1) with nsec3 or optout, for both signers: a zone
#     signed with algorithm 5 cannot use NSEC3 (RFC 5155 §2: algorithm 7
#     exists to signal it); 2 signers x 2 denials x 8 variants x 4
#     questions = 128 checks;
#   - any cell whose key generator cannot make keys of that algorithm on
#     this machine (none with ldnsutils 1.8 and BIND 9.18), with the
#     tool's message.
# A signer that fails on a cell it should handle is a failure, not a skip.
#
# ldns-signzone -p sets the opt-out flag on every NSEC3 but keeps an NSEC3
# for the unsigned delegation; dnssec-signzone -A leaves it out, so the
# "del" check of bind optout zones is proven by a covering opt-out span.
#
# Usage: verify_matrix.sh PATH/TO/dnstrust      (output: TAP)

set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

DT=${1:?usage: verify_matrix.sh PATH/TO/dnstrust}
case $DT in
/*) ;;
*) DT=$(pwd)/$DT ;;
esac

for tool in ldns-keygen ldns-signzone ldns-key2ds dnssec-keygen \
	dnssec-signzone dnssec-dsfromkey dig; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip_all "$tool not installed (ldnsutils, bind9-utils, bind9-dnsutils)"
	fi
done
NSD=$(command -v nsd 2>/dev/null || true)
[ -n "$NSD" ] || for p in /usr/sbin/nsd /usr/local/sbin/nsd; do
	[ -x "$p" ] && NSD=$p && break
done
if [ -z "$NSD" ]; then
	skip_all "nsd not installed"
fi

ADDR=127.0.3.1
ADDR_HEX=0103007F # as /proc/net/{udp,tcp} print it
PORT_FIRST=5301
NOW=20250101000000 # dnstrust verify --time
VALID_WIN="20241201000000 20250201000000"
EXPIRED_WIN="20241001000000 20241201000000"
FUTURE_WIN="20250201000000 20250401000000"
UNKNOWN_ALG=17

ALGS="5 7 8 10 13 14 15 16"
SIGNERS="ldns bind"
DENIALS="nsec nsec3 optout"
VARIANTS="valid tampered expired notyet wrongds nosig ksunsigned unknownalg"
QUESTIONS="pos nxd nod del"

NJOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
case $NJOBS in '' | *[!0-9]*) NJOBS=2 ;; esac
[ "$NJOBS" -ge 1 ] || NJOBS=1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dt-verify-matrix.XXXXXX") || exit 1
NSD_PID=
BG_PIDS=
cleanup() {
	for p in $BG_PIDS; do kill "$p" 2>/dev/null; done
	if [ -n "$NSD_PID" ]; then
		kill "$NSD_PID" 2>/dev/null
		wait "$NSD_PID" 2>/dev/null
	fi
	if [ -n "${DT_MATRIX_KEEP:-}" ]; then
		echo "# kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

algname() { # SIGNER ALG
	case $2 in
	5) echo RSASHA1 ;;
	7) if [ "$1" = bind ]; then echo NSEC3RSASHA1; else echo RSASHA1-NSEC3-SHA1; fi ;;
	8) echo RSASHA256 ;;
	10) echo RSASHA512 ;;
	13) echo ECDSAP256SHA256 ;;
	14) echo ECDSAP384SHA384 ;;
	15) echo ED25519 ;;
	16) echo ED448 ;;
	esac
}

zonename() { # SIGNER ALG DENIAL VARIANT; wrongds is served by the valid zone
	v=$4
	[ "$v" = wrongds ] && v=valid
	echo "$v-a$2-$3-$1.test"
}

# skipreason SIGNER ALG DENIAL: why the cell cannot exist, or nothing.
skipreason() {
	if [ "$2" = 5 ] && [ "$3" != nsec ]; then
		echo "RSASHA1 (5) cannot sign an NSEC3 zone (RFC 5155 §2)"
	elif [ -e "$tmp/keys/$1-$2/failed" ]; then
		cat "$tmp/keys/$1-$2/failed"
	fi
}

# parallel FUNC LIST: FUNC on each line of LIST (words as arguments), the
# lines dealt round-robin to NJOBS background shells.
parallel() {
	pl_pids=
	pl_i=0
	while [ $pl_i -lt "$NJOBS" ]; do
		awk -v k=$pl_i -v n="$NJOBS" '(NR - 1) % n == k' "$2" |
			while read -r pl_line; do
				# shellcheck disable=SC2086
				"$1" $pl_line
			done &
		pl_pids="$pl_pids $!"
		BG_PIDS="$BG_PIDS $!"
		pl_i=$((pl_i + 1))
	done
	for p in $pl_pids; do wait "$p"; done
	BG_PIDS=
}

# ---------------------------------------------------------------- keys
# One KSK, one ZSK and one spare KSK (for the wrong DS) per signer and
# algorithm, owned by matrix.template. and renamed for each zone.
keygen() { # SIGNER ALG ROLE
	kd=$tmp/keys/$1-$2/$3
	mkdir -p "$kd"
	name=$(algname "$1" "$2")
	bits=
	case $2 in 5 | 7 | 8 | 10) bits="-b 2048" ;; esac
	ksk=
	[ "$3" = zsk ] || ksk=y
	made=y
	if [ "$1" = ldns ]; then
		tool=ldns-keygen
		# shellcheck disable=SC2086
		(cd "$kd" && ldns-keygen -a "$name" $bits ${ksk:+-k} matrix.template) \
			>"$kd/base" 2>"$kd/err" || made=
	else
		tool=dnssec-keygen
		# shellcheck disable=SC2086
		dnssec-keygen -q -K "$kd" -a "$name" $bits ${ksk:+-f KSK} \
			matrix.template >"$kd/base" 2>"$kd/err" || made=
	fi
	if [ -z "$made" ] || [ ! -s "$kd/$(cat "$kd/base").private" ]; then
		echo "$tool cannot make $name keys here: $(head -1 "$kd/err")" \
			>"$tmp/keys/$1-$2/failed"
	fi
}

tag_of() { # SIGNER ALG ROLE: the key tag, from the file name K...+alg+tag
	b=$(cat "$tmp/keys/$1-$2/$3/base" 2>/dev/null)
	echo "${b##*+}"
}

# Distinct key tags per signer and algorithm: a ZSK or spare key sharing
# the KSK's tag would blur what ksunsigned and wrongds remove (odds about
# 1 in 20,000 per run; new keys are made until the tags differ).
distinct_tags() {
	for s in $SIGNERS; do
		for a in $ALGS; do
			tries=0
			while [ ! -e "$tmp/keys/$s-$a/failed" ] && [ $tries -lt 5 ]; do
				k=$(tag_of "$s" "$a" ksk) z=$(tag_of "$s" "$a" zsk)
				o=$(tag_of "$s" "$a" other)
				[ "$k" != "$z" ] && [ "$k" != "$o" ] && [ "$z" != "$o" ] && break
				rm -rf "$tmp/keys/$s-$a/zsk" "$tmp/keys/$s-$a/other"
				keygen "$s" "$a" zsk
				keygen "$s" "$a" other
				tries=$((tries + 1))
			done
		done
	done
}

# ---------------------------------------------------------------- zones
base_zone() { # ZONE
	cat <<EOF
\$ORIGIN $1.
\$TTL 3600
@		SOA	ns hostmaster 1 7200 3600 1209600 300
		NS	ns
ns		A	192.0.2.1
www		A	192.0.2.80
		TXT	"matrix"
mail		A	192.0.2.25
unsigned	NS	ns.unsigned
ns.unsigned	A	192.0.2.53
EOF
}

child_zone() { # ZONE
	cat <<EOF
\$ORIGIN unsigned.$1.
\$TTL 3600
@	SOA	ns hostmaster 1 7200 3600 1209600 300
	NS	ns
ns	A	192.0.2.53
www	A	192.0.2.99
EOF
}

# key tag of the first DNSKEY in FILE (ldns-key2ds -f: any key, SEP or not)
keytag() { ldns-key2ds -f -n -2 "$1" | awk '$4 == "DS" { print $5; exit }'; }

# ds SIGNER KEYFILE: the DS (SHA-256) of a key, made by the signer's tool.
ds() {
	if [ "$1" = ldns ]; then ldns-key2ds -n -2 "$2"; else dnssec-dsfromkey -2 "$2"; fi
}

mkzone() { # SIGNER ALG DENIAL VARIANT
	s=$1 a=$2 d=$3 v=$4
	[ -z "$(skipreason "$s" "$a" "$d")" ] || return 0
	z=$(zonename "$s" "$a" "$d" "$v")
	zd=$tmp/z/$z
	mkdir -p "$zd"
	for r in ksk zsk other; do
		kd=$tmp/keys/$s-$a/$r
		b=$(cat "$kd/base")
		nb=K$z.${b#Kmatrix.template.}
		sed "s/matrix\\.template\\./$z./g" "$kd/$b.key" >"$zd/$nb.key"
		cp "$kd/$b.private" "$zd/$nb.private"
		echo "$nb" >"$zd/$r"
	done
	ksk=$(cat "$zd/ksk") zsk=$(cat "$zd/zsk")
	case $v in
	expired) win=$EXPIRED_WIN ;;
	notyet) win=$FUTURE_WIN ;;
	*) win=$VALID_WIN ;;
	esac
	inc=${win% *} exp=${win#* }
	signed=y
	base_zone "$z" >"$zd/zone"
	child_zone "$z" >"$zd/child"
	if [ "$s" = ldns ]; then
		case $d in
		nsec) o= ;;
		nsec3) o="-n -t 1 -s aabbccdd" ;;
		optout) o="-n -t 1 -s aabbccdd -p" ;;
		esac
		[ "$v" = ksunsigned ] && o="$o -A"
		# shellcheck disable=SC2086
		(cd "$zd" && ldns-signzone $o -i "$inc" -e "$exp" -o "$z" \
			-f signed zone "$ksk" "$zsk") >"$zd/sign.log" 2>&1 || signed=
	else
		case $d in
		nsec) o= ;;
		nsec3) o="-3 - -H 0" ;;
		optout) o="-3 - -H 0 -A" ;;
		esac
		cat "$zd/$ksk.key" "$zd/$zsk.key" >>"$zd/zone"
		# -P: no post-signing check, which would use today's date.
		# shellcheck disable=SC2086
		(cd "$zd" && dnssec-signzone -P -q $o -s "$inc" -e "$exp" -o "$z" \
			-O full -f signed -k "$ksk.key" zone "$zsk.key") \
			>"$zd/sign.log" 2>&1 || signed=
	fi
	if [ -z "$signed" ] || [ ! -s "$zd/signed" ]; then
		echo "$s signer failed:" >"$zd/error"
		cat "$zd/sign.log" >>"$zd/error"
		return 0
	fi
	ds "$s" "$zd/$ksk.key" >"$zd/anchor" 2>>"$zd/sign.log"
	[ "$v" = valid ] && ds "$s" "$zd/$(cat "$zd/other").key" >"$zd/anchor.wrong" 2>>"$zd/sign.log"
	kt=$(keytag "$zd/$ksk.key")
	map=
	if [ "$v" = unknownalg ]; then
		# Rewrite each DNSKEY to algorithm 17; note old tag -> new tag.
		: >"$zd/anchor"
		awk '$1 !~ /^;/ && $4 == "DNSKEY"' "$zd/signed" >"$zd/dnskeys"
		i=0
		while read -r line; do
			i=$((i + 1))
			printf '%s\n' "$line" >"$zd/dk$i"
			awk -v alg=$UNKNOWN_ALG '{ $7 = alg; print }' "$zd/dk$i" >"$zd/dk$i.u"
			map="$map $(keytag "$zd/dk$i"):$(keytag "$zd/dk$i.u")"
			if [ "$(awk '{ print $5 }' "$zd/dk$i")" = 257 ]; then
				ldns-key2ds -n -2 "$zd/dk$i.u" >>"$zd/anchor"
			fi
		done <"$zd/dnskeys"
	fi
	awk -v v="$v" -v www="www.$z." -v kt="$kt" -v map="$map" \
		-v alg=$UNKNOWN_ALG '
	BEGIN {
		n = split(map, m, " ")
		for (i = 1; i <= n; i++) { split(m[i], p, ":"); newtag[p[1]] = p[2] }
	}
	/^[;$]/ || NF < 4 { print; next }
	v == "tampered" && $1 == www && $4 == "A" { sub(/192\.0\.2\.80/, "192.0.2.81") }
	v == "tampered" && ($4 == "NSEC" || $4 == "NSEC3") { $0 = $0 " HINFO" }
	v == "nosig" && $4 == "RRSIG" && ($5 == "A" || $5 == "NSEC" || $5 == "NSEC3") { next }
	v == "ksunsigned" && $4 == "RRSIG" && $5 == "DNSKEY" && $11 == kt { next }
	v == "unknownalg" && $4 == "DNSKEY" { $7 = alg }
	v == "unknownalg" && $4 == "RRSIG" { $6 = alg; $11 = newtag[$11] }
	{ print }' "$zd/signed" >"$zd/served"
	if [ ! -s "$zd/anchor" ]; then
		echo "no DS made for the KSK:" >"$zd/error"
		cat "$zd/sign.log" >>"$zd/error"
	fi
}

# ---------------------------------------------------------------- checks
# want SIGNER VARIANT DENIAL QUESTION: sets w_status w_ede w_tag w_result
# (w_ede "null": no EDE; "*": not checked, see the header).
want() {
	case $4 in
	pos | del) w_result=answer ;;
	nxd) w_result=nxdomain ;;
	nod) w_result=nodata ;;
	esac
	case $2 in
	valid)
		w_status=secure w_ede=null w_tag=secure
		if [ "$4" = del ]; then
			w_status=insecure w_tag=keys-insecure-delegation
			# no NSEC3 at the delegation: a covering opt-out span
			[ "$1$3" = bindoptout ] && w_tag=nsec3-optout
		elif [ "$4" = nxd ] && [ "$3" = optout ]; then
			w_status=insecure w_tag=nsec3-optout
		fi
		;;
	tampered)
		w_status=bogus w_ede=6 w_tag=sig-bad
		[ "$4" = del ] && w_ede='*' w_tag='*'
		;;
	expired) w_status=bogus w_ede=7 w_tag=sig-expired ;;
	notyet) w_status=bogus w_ede=8 w_tag=sig-not-yet-valid ;;
	wrongds) w_status=bogus w_ede=9 w_tag=ks-no-match ;;
	nosig)
		w_status=bogus w_ede=10 w_tag=resp-unsigned
		# a denial's unsigned NSEC/NSEC3 is never a proof; it names
		# the reason (docs/DESIGN.md, "Every proof from its own zone")
		case $4 in nxd | nod) w_tag=resp-denial-unsigned ;; esac
		;;
	ksunsigned) w_status=bogus w_ede=9 w_tag=ks-not-signed-by-trusted ;;
	unknownalg) w_status=insecure w_ede=1 w_tag=ks-ds-alg-unsupported ;;
	esac
}

qname() { # QUESTION ZONE: the file name dig's answer is stored under
	case $1 in
	pos) echo "www.$2._A" ;;
	nxd) echo "nx.$2._A" ;;
	nod) echo "www.$2._AAAA" ;;
	del) echo "www.unsigned.$2._A" ;;
	esac
}

# fields FILE: status, EDE code ("null" for none), tag and result of the
# JSON object dnstrust verify --json printed ("-" for a missing one).
fields() {
	awk 'function str(k) {
		if (!match($0, "\"" k "\":\"[^\"]*\""))
			return "-"
		return substr($0, RSTART + length(k) + 4, RLENGTH - length(k) - 5)
	}
	/^\{/ {
		e = "-"
		if (match($0, /"ede":\{"code":[0-9]+/))
			e = substr($0, RSTART + 14, RLENGTH - 14)
		else if (index($0, "\"ede\":null"))
			e = "null"
		print str("status"), e, str("tag"), str("result")
		found = 1
		exit
	}
	END { if (!found) print "- - - -" }' "$1"
}

check_cell() { # IDX SIGNER ALG DENIAL VARIANT QUESTION
	idx=$1 s=$2 a=$3 d=$4 v=$5 q=$6
	res=$tmp/res/$idx
	want "$s" "$v" "$d" "$q"
	desc="$s $(algname "$s" "$a") ($a) $d $v $q: $w_status"
	case $w_ede in null | '*') ;; *) desc="$desc EDE $w_ede" ;; esac
	why=$(skipreason "$s" "$a" "$d")
	if [ -n "$why" ]; then
		echo "ok # SKIP $s $(algname "$s" "$a") ($a) $d $v $q: $why" >"$res"
		return 0
	fi
	z=$(zonename "$s" "$a" "$d" "$v")
	zd=$tmp/z/$z
	if [ -e "$zd/error" ]; then
		{ echo "not ok - $desc"; sed 's/^/# /' "$zd/error"; } >"$res"
		return 0
	fi
	resp=$tmp/resp/$(qname "$q" "$z")
	if [ ! -s "$resp" ]; then
		echo "not ok - $desc (no response from the server)" >"$res"
		return 0
	fi
	anchor=$zd/anchor
	[ "$v" = wrongds ] && anchor=$zd/anchor.wrong
	out=$tmp/res/$idx.out
	"$DT" verify --json --resolver --anchor "$anchor" --time "$NOW" \
		"$resp" "$tmp/mat/$z" >"$out" 2>&1
	rc=$?
	# shellcheck disable=SC2046
	set -- $(fields "$out")
	st=$1 ede=$2 tag=$3 result=$4
	case $w_status in
	secure) w_rc=0 ;;
	insecure) w_rc=1 ;;
	bogus) w_rc=2 ;;
	esac
	if [ "$rc" -eq "$w_rc" ] && [ "$st" = "$w_status" ] &&
		{ [ "$w_ede" = '*' ] || [ "$ede" = "$w_ede" ]; } &&
		{ [ "$w_tag" = '*' ] || [ "$tag" = "$w_tag" ]; } &&
		[ "$result" = "$w_result" ] &&
		grep -q '"agree":true' "$out"; then
		echo "ok - $desc, the resolver core agreeing" >"$res"
	else
		{
			echo "not ok - $desc"
			echo "# got exit $rc, status $st, EDE $ede, tag $tag, result $result"
			echo "# want exit $w_rc, status $w_status, EDE $w_ede, tag $w_tag, result $w_result, and the resolver core agreeing"
			echo "# $DT verify --json --anchor $anchor --time $NOW $resp $tmp/mat/$z"
			sed 's/^/# /' "$out"
		} >"$res"
	fi
}

# ---------------------------------------------------------------- server
port_busy() { # PORT: a socket is bound to ADDR:PORT or to *:PORT
	h=$(printf '%04X' "$1")
	awk '{ print $2 }' /proc/net/udp /proc/net/tcp /proc/net/udp6 \
		/proc/net/tcp6 2>/dev/null |
		grep -Eq "^(${ADDR_HEX}|0{8}|0{32}):$h\$"
}

start_nsd() {
	nd=$tmp/nsd
	mkdir -p "$nd"
	nonce="matrix-$$-$(date +%s)"
	# shellcheck disable=SC2016
	printf '$ORIGIN probe-matrix.test.\n$TTL 60\n@ SOA ns hostmaster 1 60 60 60 60\n@ NS ns\nns A 192.0.2.1\n@ TXT "%s"\n' \
		"$nonce" >"$nd/probe.zone"
	port=$PORT_FIRST
	while [ "$port" -lt $((PORT_FIRST + 20)) ]; do
		if port_busy "$port"; then
			port=$((port + 1))
			continue
		fi
		{
			cat <<EOF
server:
	ip-address: $ADDR@$port
	port: $port
	do-ip6: no
	username: ""
	chroot: ""
	zonesdir: "$tmp"
	database: ""
	pidfile: "$nd/nsd.pid"
	zonelistfile: "$nd/zone.list"
	xfrdfile: "$nd/xfrd.state"
	xfrdir: "$nd"
	logfile: "$nd/nsd.log"
	server-count: 1
	verbosity: 0
remote-control:
	control-enable: no
zone:
	name: probe-matrix.test
	zonefile: "$nd/probe.zone"
EOF
			cat "$nd/zones.conf"
		} >"$nd/nsd.conf"
		"$NSD" -d -c "$nd/nsd.conf" >"$nd/stderr" 2>&1 &
		NSD_PID=$!
		tries=0
		while [ $tries -lt 100 ] && kill -0 "$NSD_PID" 2>/dev/null; do
			got=$(dig @$ADDR -p "$port" +short +norec +time=1 +tries=1 \
				probe-matrix.test TXT 2>/dev/null)
			if [ "$got" = "\"$nonce\"" ]; then
				PORT=$port
				return 0
			fi
			sleep 0.1
			tries=$((tries + 1))
		done
		kill "$NSD_PID" 2>/dev/null
		wait "$NSD_PID" 2>/dev/null
		NSD_PID=
		port=$((port + 1))
	done
	return 1
}

stop_nsd() {
	[ -n "$NSD_PID" ] || return 0
	kill "$NSD_PID" 2>/dev/null
	wait "$NSD_PID" 2>/dev/null
	NSD_PID=
}

# ---------------------------------------------------------------- run
mkdir -p "$tmp/keys" "$tmp/z" "$tmp/resp" "$tmp/mat" "$tmp/res"

for s in $SIGNERS; do
	for a in $ALGS; do
		for r in ksk zsk other; do echo "$s $a $r"; done
	done
done >"$tmp/keyjobs"
parallel keygen "$tmp/keyjobs"
distinct_tags

for s in $SIGNERS; do
	for a in $ALGS; do
		for d in $DENIALS; do
			for v in $VARIANTS; do
				[ "$v" = wrongds ] || echo "$s $a $d $v"
			done
		done
	done
done >"$tmp/zonejobs"
parallel mkzone "$tmp/zonejobs"

# The server's zone list and the queries.
: >"$tmp/nsd.zones"
mkdir -p "$tmp/nsd"
for zd in "$tmp"/z/*; do
	if [ ! -s "$zd/served" ] || [ -e "$zd/error" ]; then continue; fi
	z=${zd##*/}
	printf 'zone:\n\tname: %s\n\tzonefile: "%s"\nzone:\n\tname: unsigned.%s\n\tzonefile: "%s"\n' \
		"$z" "$zd/served" "$z" "$zd/child" >>"$tmp/nsd/zones.conf"
	echo "$z" >>"$tmp/nsd.zones"
done

PORT=
if ! start_nsd; then
	bail "NSD serving the matrix zones on $ADDR" \
		"$(cat "$tmp/nsd/stderr" "$tmp/nsd/nsd.log" 2>/dev/null)"
fi

dopt="@$ADDR -p $PORT +dnssec +norec +time=5 +tries=2"
while read -r z; do
	echo "$dopt www.$z A"
	echo "$dopt nx.$z A"
	echo "$dopt www.$z AAAA"
	echo "$dopt www.unsigned.$z A"
done <"$tmp/nsd.zones" >"$tmp/queries"
while read -r z; do
	echo "$dopt +noall +answer $z DNSKEY"
	echo "$dopt +noall +authority unsigned.$z DS"
done <"$tmp/nsd.zones" >"$tmp/keyqueries"

# Each response as dig prints it, in a file named after its question.
dig -f "$tmp/queries" 2>&1 | awk -v d="$tmp/resp" '
	function flush() { if (f != "") close(f); f = ""; n = 0 }
	/^; <<>> DiG / { flush(); held = 0; next }
	/^;; Got answer:/ { flush(); held = 1; buf[n = 1] = $0; next }
	!held { next }
	f == "" && q { split(substr($0, 2), w, /[ \t]+/)
		f = d "/" w[1] "_" w[3]
		for (i = 1; i <= n; i++) print buf[i] > f
		q = 0 }
	f != "" { print > f; next }
	/^;; QUESTION SECTION:/ { q = 1 }
	{ buf[++n] = $0 }'
# The DNSKEY RRsets and the DS denials, one file per zone (the label
# before .test. names it).
dig -f "$tmp/keyqueries" 2>&1 | awk -v d="$tmp/mat" '
	/^;/ || NF < 4 { next }
	{ n = split($1, l, "."); f = d "/" l[n - 2] ".test" }
	f != last { if (last != "") close(last); last = f }
	{ print >> f }'
stop_nsd

idx=0
for s in $SIGNERS; do
	for a in $ALGS; do
		for d in $DENIALS; do
			for v in $VARIANTS; do
				for q in $QUESTIONS; do
					idx=$((idx + 1))
					echo "$idx $s $a $d $v $q"
				done
			done
		done
	done
done >"$tmp/checks"
parallel check_cell "$tmp/checks"

i=0 skipped=0
while [ $i -lt "$idx" ]; do
	i=$((i + 1))
	f=$tmp/res/$i
	if [ ! -s "$f" ]; then
		not_ok "check $i produced no result"
		continue
	fi
	line=$(head -1 "$f")
	case $line in
	"not ok - "*) not_ok "${line#not ok - }" ;;
	"ok # SKIP "*)
		skip "${line#ok # SKIP }"
		skipped=$((skipped + 1))
		;;
	*) ok "${line#ok - }" ;;
	esac
	tail -n +2 "$f"
done
echo "# $n checks, $failed failed, $skipped skipped"
finish
