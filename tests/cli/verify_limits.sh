#!/bin/sh
# Work limits through dnstrust verify, on zones signed here with
# ldns-signzone: a CNAME chain at and over DT_VAL_CHAIN_MAX (12) links, and
# an RRset at and over DT_VAL_RRS_PER_RRSET (1024) records. TAP output.
# usage: verify_limits.sh DNSTRUST
set -u
dt=$1
# dnstrust-wire is built in src/, dnstrust in src/cli/.
wire=$(dirname "$dt")/dnstrust-wire
[ -x "$wire" ] || wire=$(dirname "$(dirname "$dt")")/dnstrust-wire
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }

# expect DESCRIPTION STATUS TAG QUESTION: runs verify on the signed zone.
expect() {
	"$dt" verify --anchor "$tmp/anchor" --question "$4" "$tmp/all" \
		>"$tmp/out" 2>&1
	if grep -q "^status: $2\$" "$tmp/out" &&
		{ [ -z "$3" ] || grep -q "\[$3\]\$" "$tmp/out"; }; then
		ok "$1"
	else
		nok "$1"
		sed 's/^/# /' "$tmp/out"
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
(cd "$tmp" &&
	ldns-keygen -a ECDSAP256SHA256 -k limits.test >ksk &&
	ldns-keygen -a ECDSAP256SHA256 limits.test >zsk &&
	ldns-signzone limits.test "$(cat ksk)" "$(cat zsk)") >/dev/null 2>&1 ||
	{ echo "not ok 1 - signing the test zone"; echo "1..1"; exit 1; }
"$wire" zone -p "$tmp/limits.test.signed" >"$tmp/all" 2>/dev/null
awk -F'\t' '$4 == "DNSKEY" && $5 ~ /^257 /' "$tmp/all" >"$tmp/anchor"

expect "CNAME chain of 12 links: secure" secure "" "c4.limits.test. A"
expect "CNAME chain of 13 links: bogus" bogus resp-chain-limit "c3.limits.test. A"
expect "RRset of 1024 records: secure" secure "" "fits.limits.test. A"
expect "RRset of 1025 records: bogus" bogus sig-too-many-rrs "big.limits.test. A"

echo "1..$n"
exit $fail
