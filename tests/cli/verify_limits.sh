#!/bin/sh
# Work limits through dnstrust verify, on zones signed here with
# ldns-signzone: a CNAME chain at and over DT_VAL_CHAIN_MAX (12) links, and
# an RRset at and over DT_VAL_RRS_PER_RRSET (1024) records. TAP output.
# usage: verify_limits.sh DNSTRUST
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
dt=$1
# dnstrust-wire is built in src/, dnstrust in src/cli/.
wire=$(dirname "$dt")/dnstrust-wire
[ -x "$wire" ] || wire=$(dirname "$(dirname "$dt")")/dnstrust-wire
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect DESCRIPTION STATUS TAG QUESTION: runs verify on the signed zone.
expect() {
	"$dt" verify --anchor "$tmp/anchor" --question "$4" "$tmp/all" \
		>"$tmp/out" 2>&1
	if grep -q "^status: $2\$" "$tmp/out" &&
		{ [ -z "$3" ] || grep -q "\[$3\]\$" "$tmp/out"; }; then
		ok "$1"
	else
		not_ok "$1"
		diag "$tmp/out"
	fi
}

{
	echo '$ORIGIN limits.test.'
	echo '$TTL 3600'
	echo '@ SOA ns hostmaster 1 7200 3600 1209600 300'
	echo '@ NS ns'
	echo 'ns A 192.0.2.1'
	i=0
	while [ $i -le 15 ]; do
		echo "c$i CNAME c$((i + 1))"
		i=$((i + 1))
	done
	echo 'c16 A 192.0.2.16'
	i=0
	while [ $i -lt 1025 ]; do
		echo "big A 10.0.$((i / 256)).$((i % 256))"
		[ $i -lt 1024 ] && echo "fits A 10.1.$((i / 256)).$((i % 256))"
		i=$((i + 1))
	done
} >"$tmp/limits.test"
(cd "$tmp" && zone_keys ldns limits.test 13 &&
	sign_zone ldns limits.test limits.test.signed limits.test \
		"$k13" "$z13") >/dev/null 2>&1 ||
	bail "signing the test zone"
"$wire" zone -p "$tmp/limits.test.signed" >"$tmp/all" 2>/dev/null
awk -F'\t' '$4 == "DNSKEY" && $5 ~ /^257 /' "$tmp/all" >"$tmp/anchor"

expect "CNAME chain of 12 links: secure" secure "" "c4.limits.test. A"
expect "CNAME chain of 13 links: bogus" bogus resp-chain-limit "c3.limits.test. A"
expect "RRset of 1024 records: secure" secure "" "fits.limits.test. A"
expect "RRset of 1025 records: bogus" bogus sig-too-many-rrs "big.limits.test. A"

finish
