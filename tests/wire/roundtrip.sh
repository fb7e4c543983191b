#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Round trip of src/wire's presentation format against real signers.
#
# Generates a zone of a few hundred names (A, AAAA, MX, TXT with spaces,
# quotes and escapes, SRV, CNAME, a wildcard, an empty non-terminal, a
# signed delegation with DS, an unsigned one, an unknown type), signs it
# with ldns-signzone (algorithms 8, 13 and 15; NSEC, NSEC3, NSEC3 opt-out,
# ZONEMD) and with dnssec-signzone (ECDSAP256SHA256; NSEC and NSEC3), and
# for every signed zone checks that
#   - zone_roundtrip reads it, writes every record and reads the text back
#     to the same records (owner, type, class, TTL, RDATA octets);
#   - our record count equals ldns-read-zone's;
#   - ldns-read-zone (and named-compilezone) accept what we wrote and print
#     it exactly as they print the original.
#
# Usage: roundtrip.sh PATH/TO/zone_roundtrip      (output: TAP)

set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

RT=${1:?usage: roundtrip.sh PATH/TO/zone_roundtrip}
case $RT in
/*) ;;
*) RT=$(pwd)/$RT ;;
esac
ORIGIN=example.test.

for tool in ldns-keygen ldns-signzone ldns-read-zone dnssec-keygen \
	dnssec-signzone; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip_all "$tool not installed (ldnsutils, bind9-utils)"
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dt-roundtrip.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# The unsigned zone. $1: file with the DS records of sub.example.test.
gen_zone() {
	cat <<'EOF'
$ORIGIN example.test.
$TTL 3600
@		IN SOA	ns1 hostmaster ( 2024010101 7200 3600 1209600 300 )
		NS	ns1
		NS	ns2.other.test.
		MX	10 mail
ns1		A	192.0.2.1
		AAAA	2001:db8::1
mail	300	IN A	192.0.2.2
*		TXT	"wildcard \"match\"" "semi;colon (paren)"
*.wild		MX	5 mail
sub		NS	ns.sub
ns.sub		A	192.0.2.53
insecure	NS	ns.insecure
ns.insecure	A	192.0.2.54
a.b.c.ent	A	192.0.2.99
esc\.dot	TXT	"owner with an escaped dot"
_sip._tcp	SRV	10 20 5060 sip
_sip._udp 600 IN SRV	0 0 5060 sip.other.test.
sip		AAAA	2001:db8::5060
unknown		TYPE65280 \# 3 abcdef
EOF
	cat "$1"
	i=1
	while [ "$i" -le 300 ]; do
		echo "host$i A 10.$((i / 256)).$((i % 256)).1"
		if [ $((i % 3)) -eq 0 ]; then
			printf 'host%d AAAA 2001:db8:1::%x\n' "$i" "$i"
		fi
		if [ $((i % 5)) -eq 0 ]; then
			echo "host$i MX $((i % 50)) mail"
		fi
		if [ $((i % 7)) -eq 0 ]; then
			printf '%s TXT "text %d with spaces" "q\\"uote" "back\\\\slash" "\\000\\255\\009tab" plain%d\n' \
				"host$i" "$i" "$i"
		fi
		if [ $((i % 11)) -eq 0 ]; then
			echo "_svc$i._tcp SRV 1 2 $((1000 + i)) host$i"
		fi
		if [ $((i % 13)) -eq 0 ]; then
			echo "alias$i CNAME host$i"
		fi
		i=$((i + 1))
	done
}

# Canonical print of a zone by ldns-read-zone (sorted, comments dropped).
ldns_print() {
	ldns-read-zone -z "$1" 2>/dev/null | grep -v '^;'
}

# check_zone NAME FILE EXPECTED_TYPES...
check_zone() {
	name=$1
	file=$2
	shift 2

	"$RT" "$file" "$ORIGIN" "$file.ours" >"$file.rt" 2>"$file.err"
	result $? "$name: read, write, read back: same records"
	diag "$file.rt" "$file.err"

	ours=$(sed -n 's/^read //p' "$file.rt")
	theirs=$(ldns-read-zone "$file" 2>/dev/null | grep -vc '^;')
	[ -n "$ours" ] && [ "$ours" -eq "$theirs" ] && [ "$ours" -gt 700 ]
	result $? "$name: $ours records, ldns-read-zone counts $theirs"

	for t in "$@"; do
		grep -q "^types.* $t=" "$file.rt"
		result $? "$name: has $t records"
	done

	ldns_print "$file" >"$file.ldns"
	ldns_print "$file.ours" >"$file.ours.ldns"
	[ -s "$file.ldns" ] && cmp -s "$file.ldns" "$file.ours.ldns"
	result $? "$name: ldns-read-zone prints our output as it prints the original"
	diff "$file.ldns" "$file.ours.ldns" | head -5 | diag

	if command -v named-compilezone >/dev/null 2>&1; then
		named-compilezone -q -i none -s full -o "$file.bind" \
			"$ORIGIN" "$file" >/dev/null 2>&1 &&
			named-compilezone -q -i none -s full \
				-o "$file.ours.bind" "$ORIGIN" "$file.ours" \
				>/dev/null 2>&1 &&
			cmp -s "$file.bind" "$file.ours.bind"
		result $? "$name: named-compilezone prints our output as the original"
	fi
}

# --- keys ---

child=$(ldns-keygen -a ECDSAP256SHA256 -k sub.$ORIGIN 2>/dev/null)
gen_zone "$child.ds" >zone
result $? "generated a zone of $(grep -c . zone) lines"

zone_keys ldns $ORIGIN 8 13 15
result $? "ldns-keygen: keys for algorithms 8, 13 and 15"

zone_keys bind $ORIGIN .
result $? "dnssec-keygen: ECDSAP256SHA256 KSK and ZSK"

# --- signing ---

sign_zone ldns $ORIGIN alg8-nsec.zone zone "$k8" "$z8" 2>ldns.err
result $? "ldns-signzone: algorithm 8, NSEC"
sign_zone ldns $ORIGIN alg13-nsec3.zone -n -t 0 -s aabbccdd -z simple:sha384 \
	zone "$k13" "$z13" 2>>ldns.err
result $? "ldns-signzone: algorithm 13, NSEC3 with salt, ZONEMD"
sign_zone ldns $ORIGIN alg15-optout.zone -n -p -t 0 -b zone "$k15" \
	2>>ldns.err
result $? "ldns-signzone: algorithm 15, NSEC3 opt-out, layout and comments"
sign_zone ldns $ORIGIN multi.zone -A zone "$k8" "$k13" "$k15" 2>>ldns.err
result $? "ldns-signzone: algorithms 8, 13 and 15 together"
diag ldns.err

sign_zone bind $ORIGIN bind-nsec.zone . zone >bind.err 2>&1
result $? "dnssec-signzone: NSEC"
sign_zone bind $ORIGIN bind-nsec3.zone . -3 aabb zone >>bind.err 2>&1
result $? "dnssec-signzone: NSEC3 with salt"
sign_zone bind $ORIGIN bind-optout.zone . -3 - -A -O full zone >>bind.err 2>&1
result $? "dnssec-signzone: NSEC3 opt-out, no salt, one record per line"
grep -v -e '^Verifying' -e '^Zone fully' -e '^Algorithm' -e 'KSKs:' \
	-e 'ZSKs:' -e '\.zone$' bind.err | diag

# --- round trips ---

check_zone "ldns alg 8 NSEC" alg8-nsec.zone RRSIG NSEC DNSKEY DS TXT SRV \
	CNAME TYPE65280
check_zone "ldns alg 13 NSEC3" alg13-nsec3.zone NSEC3 NSEC3PARAM ZONEMD DS
check_zone "ldns alg 15 opt-out" alg15-optout.zone NSEC3 NSEC3PARAM
check_zone "ldns algs 8+13+15" multi.zone NSEC RRSIG DNSKEY
check_zone "BIND NSEC" bind-nsec.zone NSEC RRSIG DNSKEY DS
check_zone "BIND NSEC3" bind-nsec3.zone NSEC3 NSEC3PARAM
check_zone "BIND NSEC3 opt-out, full" bind-optout.zone NSEC3 NSEC3PARAM

finish
