#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Presentation format of the types real zones and browsers use today (CAA,
# SVCB and HTTPS with every SvcParam, LOC, NAPTR, URI, ZONEMD, CSYNC,
# OPENPGPKEY, SMIMEA) against BIND and ldns:
#   - zone_roundtrip reads the zone, writes it and reads it back to the
#     same records;
#   - named-checkzone -D and ldns-read-zone print our output exactly as
#     they print the original (same records, octet for octet);
#   - for the types BIND prints on one unbroken line (all but the hex and
#     base64 ones, which it cuts into chunks), our text is BIND's text:
#     named-checkzone -D prints with the rdata printer dig uses;
#   - signed by ldns-signzone and by dnssec-signzone, the zone verifies
#     with dnstrust verify --zone (the canonical form of every type agrees
#     with theirs: SVCB target names keep their case, RFC 9460 §2.2).
#
# Usage: types.sh PATH/TO/zone_roundtrip [PATH/TO/dnstrust]   (output: TAP)

set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

RT=${1:?usage: types.sh PATH/TO/zone_roundtrip}
case $RT in
/*) ;;
*) RT=$(pwd)/$RT ;;
esac
ORIGIN=example.test.

for tool in named-checkzone ldns-read-zone; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip_all "$tool not installed (bind9-utils, ldnsutils)"
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dt-types.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# What both BIND 9.18 and ldns 1.8 read. (dohpath, ohttp and an empty
# CSYNC bitmap, which one of them does not, are in tests/unit/test_zone.c.)
cat >zone <<'ZONE'
$ORIGIN example.test.
$TTL 3600
@ IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.1
@ CAA 0 issue "letsencrypt.org"
@ CAA 0 issuewild ";"
@ CAA 128 tbs "Unknown \"quoted\" ;value \200"
@ CAA 0 iodef "mailto:security@example.com"
@ CAA 0 issue ""
s1 SVCB 0 foo.example.com.
s2 SVCB 1 .
s3 SVCB 16 foo.example.com. port=53
s4 SVCB 1 foo.example.com. key667=hello
s5 SVCB 1 foo.example.com. key667="hello\210qoo"
s6 SVCB 1 foo.example.com. ipv6hint="2001:db8::1,2001:db8::53:1"
s7 SVCB 1 example.com. ipv6hint="2001:db8:122:344::192.0.2.33"
s8 SVCB 16 foo.example.org. (alpn=h2,h3-19 mandatory=ipv4hint,alpn
	ipv4hint=192.0.2.1)
s9 SVCB 16 foo.example.org. alpn="f\\\\oo\\,bar,h2"
s10 SVCB 16 foo.example.org. alpn=f\\\092oo\092,bar,h2
s11 SVCB 2 svc.Example.NET. mandatory=port,key65000 port=853 key65000
h1 HTTPS 1 . alpn="h3,h2" ipv4hint=104.16.132.229,104.16.133.229 ech=AEX+DQBBpQAgACBe6vFLsQeudWY4OJ5+SmJz2+01k+ZvR0XaZeJ5qzckTAAEAAEAAQASY2xvdWRmbGFyZS1lY2guY29tAAA= ipv6hint=2606:4700::6810:84e5,2606:4700::6810:85e5
h2 HTTPS 1 . alpn=h2 no-default-alpn port=8443 key65000 key65001=""
h3 HTTPS 0 svc.example.net.
loc1 LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m
loc2 LOC 42 21 54 N 71 06 18 W -24m 30m
loc3 LOC 60 9 N 24 39 E 10m
loc4 LOC 0 0 0.001 S 180 0 0 W 42849672.95m 90000000m 90000000m 0.01m
loc5 LOC 37 46 30.123 S 144 58 0.5 E 0.5m 0.5m 5m 0m
naptr NAPTR 100 50 "s" "http+I2L+I2C+I2R" "" _http._tcp.example.com.
naptr NAPTR 100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .
_ftp._tcp URI 10 1 "ftp://ftp1.example.com/public"
_http._tcp URI 10 1 "http://www.example.com/path?a=\"b\""
@ ZONEMD 2018031900 1 1 c68090d90a7aed716bc459f9340e3d7c1370d4d24b7e2fc3a1ddc0b9a87153b9a9713b3c9ae5cc27777f98b8e730044c
@ CSYNC 66 3 A NS AAAA
pgp OPENPGPKEY mQINBFit2jsBEADrbl5vjVxYeAE0g0IDYCBpHirv1Sjlqxx5gjtPhb2YhvyDMXjq
sm SMIMEA 3 1 1 d2abde240d7cd3ee6b4b28c54df034b97983a1d16e8a410e4561cb106618e971
ZONE
want_types="CAA SVCB HTTPS LOC NAPTR URI ZONEMD CSYNC OPENPGPKEY SMIMEA"

"$RT" zone "$ORIGIN" zone.ours >zone.rt 2>zone.err
result $? "read, write, read back: same records"
diag zone.rt zone.err
for t in $want_types; do
	grep -q "^types.* $t=" zone.rt
	result $? "has $t records"
done

bind_print() {
	named-checkzone -q -D -o - "$ORIGIN" "$1" 2>&1
}
bind_print zone >zone.bind
bind_print zone.ours >zone.ours.bind
[ -s zone.bind ] && cmp -s zone.bind zone.ours.bind
result $? "named-checkzone -D prints our output as it prints the original"
diff zone.bind zone.ours.bind | head -10 | diag

ldns-read-zone -z zone 2>&1 | grep -v '^;' >zone.ldns
ldns-read-zone -z zone.ours 2>&1 | grep -v '^;' >zone.ours.ldns
[ -s zone.ldns ] && cmp -s zone.ldns zone.ours.ldns
result $? "ldns-read-zone prints our output as it prints the original"
diff zone.ldns zone.ours.ldns | head -10 | diag

# "owner ttl class type rdata" with single spaces, sorted.
norm() {
	awk -v types=" $1 " 'index(types, " " $4 " ") {
		$1 = $1; print }' | LC_ALL=C sort
}
same_text="CAA SVCB HTTPS LOC NAPTR URI CSYNC"
norm "$same_text" <zone.bind >text.bind
norm "$same_text" <zone.ours >text.ours
[ "$(wc -l <text.ours)" -eq 29 ] && cmp -s text.bind text.ours
result $? "$(wc -l <text.ours) records of $same_text: our text is BIND's text"
diff text.bind text.ours | head -20 | diag

# --- signed, and verified by dnstrust verify --zone ---

DT=${2:-}
case $DT in
/* | "") ;;
*) DT=$OLDPWD/$DT ;;
esac
if [ -n "$DT" ] && command -v ldns-signzone >/dev/null 2>&1 &&
	command -v dnssec-signzone >/dev/null 2>&1; then
	zone_keys ldns $ORIGIN 13
	# ldns 1.8.3 reads alpn="f\\\\oo\\,bar,h2" as three ids, the octets
	# 'f\\oo\', 'bar' and 'h2', where RFC 9460 App. D.2 and BIND read two,
	# 'f\oo,bar' and 'h2': it would sign other octets than the text says.
	grep -v '^s9 \|^s10 ' zone >zone.ldns-input
	sign_zone ldns $ORIGIN ldns.signed zone.ldns-input "$k13" "$z13" \
		2>ldns.err
	result $? "ldns-signzone signs the zone"
	"$DT" verify --zone $ORIGIN ldns.signed >ldns.verify 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q " 0 errors" ldns.verify
	result $? "dnstrust verify --zone: the ldns-signed zone verifies (exit $rc)"
	grep -v "^ok\|^zone\|^$" ldns.verify | head -10 | diag
	zone_keys bind $ORIGIN bind
	sign_zone bind $ORIGIN bind.signed bind zone >bind.err 2>&1
	result $? "dnssec-signzone signs the zone"
	"$DT" verify --zone $ORIGIN bind.signed >bind.verify 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q " 0 errors" bind.verify
	result $? "dnstrust verify --zone: the BIND-signed zone verifies (exit $rc)"
	grep -v "^ok\|^zone\|^$" bind.verify | head -10 | diag
fi

finish
