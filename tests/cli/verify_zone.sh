#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dnstrust verify --zone against real signers.
#
# Builds a small zone (apex SOA/NS, A/AAAA/MX/TXT names, a wildcard, empty
# non-terminals, a signed delegation with DS, insecure delegations with
# glue), signs it with ldns-signzone (algorithms 8, 13, 15; NSEC, NSEC3,
# NSEC3 opt-out) and dnssec-signzone (NSEC, NSEC3 with salt, opt-out), and
# checks that
#   - every signed zone verifies: exit 0, "0 errors", and ldns-verify-zone
#     agrees;
#   - tampering is found, with exit 2 and the matching error line: an A
#     record changed without re-signing, an RRSIG, an NSEC or an NSEC3
#     deleted, signatures expired or not yet valid;
#   - --anchor with the KSK's DS (or DNSKEY) gives secure, a wrong DS
#     bogus, a DS of an unsupported algorithm insecure;
#   - --json is one JSON document;
#   - a zone of 100,000 records checks in a few seconds.
#
# Usage: verify_zone.sh PATH/TO/dnstrust      (output: TAP)

set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

DT=${1:?usage: verify_zone.sh PATH/TO/dnstrust}
case $DT in
/*) ;;
*) DT=$(pwd)/$DT ;;
esac
ORIGIN=example.test.

for tool in ldns-keygen ldns-signzone ldns-verify-zone ldns-key2ds \
	ldns-nsec3-hash dnssec-keygen dnssec-signzone; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip_all "$tool not installed (ldnsutils, bind9-utils)"
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dt-verify-zone.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# verify OUT ARGS...: runs dnstrust verify --zone, output to OUT; sets rc.
verify() {
	out=$1
	shift
	"$DT" verify --zone "$ORIGIN" "$@" >"$out" 2>&1
	rc=$?
}

# expect NAME RC OUT PATTERN...: rc was RC and OUT has each fixed string.
expect() {
	name=$1
	want=$2
	out=$3
	shift 3
	res=0
	[ "$rc" -eq "$want" ] || res=1
	for pat in "$@"; do
		grep -qF -- "$pat" "$out" || res=1
	done
	result $res "$name: exit $rc (want $want)"
	[ $res -eq 0 ] || head -20 "$out" | diag
}

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
www		A	192.0.2.80
		AAAA	2001:db8::80
		TXT	"v=spf1 -all" "second string"
*.wild		TXT	"wildcard"
*		MX	5 mail
a.b.ent		A	192.0.2.99
sub		NS	ns.sub
ns.sub		A	192.0.2.53
insecure	NS	ns.insecure
ns.insecure	A	192.0.2.54
deleg.ent2	NS	ns2.other.test.
EOF
	cat "$1"
	i=1
	while [ "$i" -le 40 ]; do
		echo "host$i A 10.0.$i.1"
		[ $((i % 3)) -eq 0 ] && echo "host$i AAAA 2001:db8:1::$i"
		[ $((i % 5)) -eq 0 ] && echo "host$i MX 10 mail"
		i=$((i + 1))
	done
}

# --- keys and zones ---

child=$(ldns-keygen -a ECDSAP256SHA256 -k sub.$ORIGIN 2>/dev/null)
gen_zone "$child.ds" >zone
result $? "generated a zone of $(grep -c . zone) lines"

zone_keys ldns $ORIGIN 8 13 15
result $? "ldns-keygen: KSK and ZSK for algorithms 8, 13 and 15"

zone_keys bind $ORIGIN bind
result $? "dnssec-keygen: ECDSAP256SHA256 KSK and ZSK"

sign_ldns() {
	out=$1
	shift
	sign_zone ldns $ORIGIN "$out" "$@" >>ldns.err 2>&1
	result $? "ldns-signzone $*"
}

sign_bind() {
	out=$1
	shift
	sign_zone bind $ORIGIN "$out" bind "$@" zone >>bind.err 2>&1
	result $? "dnssec-signzone $*"
}

sign_ldns alg8-nsec.zone zone "$k8" "$z8"
sign_ldns alg13-nsec.zone zone "$k13" "$z13"
sign_ldns alg15-nsec.zone zone "$k15" "$z15"
sign_ldns alg13-nsec3.zone -n -t 0 -s aabbccdd zone "$k13" "$z13"
sign_ldns alg8-nsec3.zone -n -t 5 zone "$k8" "$z8"
sign_ldns alg15-optout.zone -n -p -t 0 zone "$k15" "$z15"
sign_ldns alg13-optout.zone -n -p -s 0102 zone "$k13" "$z13"
sign_ldns multi.zone -A zone "$k8" "$k13" "$z13" "$k15"
sign_bind bind-nsec.zone
sign_bind bind-nsec3.zone -3 aabbccdd
sign_bind bind-optout.zone -3 - -A
grep -v -e '^Verifying' -e '^Zone fully' -e '^Algorithm' -e 'KSKs:' \
	-e 'ZSKs:' -e '\.zone$' bind.err ldns.err | diag

# --- valid zones ---

for z in alg8-nsec alg13-nsec alg15-nsec alg13-nsec3 alg8-nsec3 \
	alg15-optout alg13-optout multi bind-nsec bind-nsec3 bind-optout; do
	verify "$z.out" "$z.zone"
	expect "$z: valid" 0 "$z.out" "0 errors" "status: secure" \
		"keys: self-signed, not anchored"
	ldns-verify-zone "$z.zone" >"$z.ldns" 2>&1
	result $? "$z: ldns-verify-zone agrees"
	grep -v '^Zone is verified' "$z.ldns" | head -5 | diag
done

# ldns-signzone -p only sets the flag; dnssec-signzone -A leaves out the
# NSEC3s of the insecure delegations and of ent2, a non-terminal leading
# only to one: the zone verified above relies on the opt-out exemption.
res=0
for name in insecure deleg.ent2 ent2; do
	h=$(ldns-nsec3-hash -t 0 "$name.$ORIGIN" | cut -d. -f1)
	! grep -qi "^$h" bind-optout.zone || res=1
done
result $res "bind-optout: no NSEC3 for insecure delegations and their non-terminal"

# --- tampering ---

# tamper NAME SRC AWK-PROGRAM: writes NAME.zone from SRC.
tamper() {
	awk "$3" "$2" >"$1.zone"
	cmp -s "$1.zone" "$2"
	[ $? -eq 1 ]
	result $? "$1: zone changed"
}

tamper changed-a alg13-nsec.zone \
	'$1 == "mail.example.test." && $4 == "A" { $5 = "192.0.2.222" } { print }'
verify changed-a.out changed-a.zone
expect "A RDATA changed" 2 changed-a.out "error: mail.example.test./A: " \
	"1 error," "status: bogus"

tamper no-rrsig alg8-nsec.zone \
	'!($1 == "www.example.test." && $4 == "RRSIG" && $5 == "AAAA")'
verify no-rrsig.out no-rrsig.zone
expect "RRSIG deleted" 2 no-rrsig.out "error: www.example.test./AAAA: " \
	"1 error," "status: bogus"

tamper no-nsec alg13-nsec.zone \
	'!($1 == "mail.example.test." && $4 == "NSEC")'
verify no-nsec.out no-nsec.zone
expect "NSEC deleted" 2 no-nsec.out \
	"error: mail.example.test./NSEC: no NSEC record at this name [zone-nsec-missing]"

tamper bad-next alg15-nsec.zone \
	'$1 == "ns1.example.test." && $4 == "NSEC" { $5 = "zzz.example.test." } { print }'
verify bad-next.out bad-next.zone
expect "NSEC next name changed" 2 bad-next.out \
	"error: ns1.example.test./NSEC: next name is zzz.example.test., expected" \
	"[zone-nsec-next]"

hash_www=$(ldns-nsec3-hash -t 0 -s aabbccdd www.$ORIGIN | cut -d. -f1)
tamper no-nsec3 alg13-nsec3.zone \
	"!(tolower(\$1) == \"$hash_www.example.test.\" && \$4 == \"NSEC3\")"
verify no-nsec3.out no-nsec3.zone
expect "NSEC3 deleted" 2 no-nsec3.out \
	"error: www.example.test./NSEC3: no NSEC3 with hashed owner" \
	"[zone-nsec3-missing]" "[zone-nsec3-next]"

# In an opt-out span, a signed name still needs its NSEC3.
hash_www=$(ldns-nsec3-hash -t 0 www.$ORIGIN | cut -d. -f1)
# (a multi-line zone: drop the hashed owner's records and their lines)
awk -v h="$(echo "$hash_www.$ORIGIN" | tr a-z A-Z)" '
	/^[^ \t;]/ { skip = toupper($1) == h }
	!skip' bind-optout.zone >optout-www.zone
cmp -s optout-www.zone bind-optout.zone
[ $? -eq 1 ]
result $? "optout-www: zone changed"
verify optout-www.out optout-www.zone
expect "opt-out span: a signed name without NSEC3" 2 optout-www.out \
	"error: www.example.test./NSEC3: no NSEC3 with hashed owner" \
	"[zone-nsec3-missing]"

for z in changed-a no-rrsig no-nsec bad-next no-nsec3; do
	ldns-verify-zone "$z.zone" >/dev/null 2>&1
	[ $? -ne 0 ]
	result $? "$z: ldns-verify-zone also fails"
done

# Signatures valid only in 2019.
sign_zone ldns $ORIGIN old.zone -i 20190101000000 -e 20200101000000 \
	zone "$k13" "$z13" >>ldns.err 2>&1
result $? "ldns-signzone with an expiration in the past"
verify old.out old.zone
expect "expired signatures" 2 old.out "error: example.test./DNSKEY: " \
	"error: mail.example.test./A: " "status: bogus"
verify old.json --json old.zone
expect "expired signatures: EDE 7 in JSON" 2 old.json '"ede":7'
verify early.out --json --time 20181201000000 old.zone
expect "--time before inception: EDE 8" 2 early.out '"ede":8' \
	'"status":"bogus"'
verify inside.out --time 20190601000000 old.zone
expect "--time inside the validity period" 0 inside.out "0 errors"
ldns-verify-zone -t 20190601000000 old.zone >/dev/null 2>&1
result $? "ldns-verify-zone -t agrees inside the validity period"

# --- trust anchors ---

ldns-key2ds -n -2 "$k13.key" >ds.good 2>/dev/null
result $? "ldns-key2ds: DS of the KSK"
verify anchor-ds.out --anchor ds.good alg13-nsec.zone
expect "--anchor with the KSK's DS" 0 anchor-ds.out "keys: anchored" \
	"0 errors" "status: secure"

verify anchor-key.out --anchor "$k13.key" alg13-nsec3.zone
expect "--anchor with the KSK's DNSKEY" 0 anchor-key.out "keys: anchored" \
	"status: secure"

awk '{ d = $NF; c = substr(d, 1, 1) == "0" ? "1" : "0";
	$NF = c substr(d, 2); print }' ds.good >ds.bad
verify anchor-bad.out --anchor ds.bad alg13-nsec.zone
expect "--anchor with a wrong DS" 2 anchor-bad.out \
	"error: example.test./DNSKEY: " "status: bogus"

verify anchor-other.out --anchor ds.good alg8-nsec.zone
expect "--anchor with the DS of another zone's key" 2 anchor-other.out \
	"error: example.test./DNSKEY: " "status: bogus"

echo "$ORIGIN 3600 IN DS 12345 253 2 $(printf '%064d' 0)" >ds.unsupported
verify anchor-unsup.out --anchor ds.unsupported alg13-nsec.zone
expect "--anchor with a DS of an unsupported algorithm" 1 anchor-unsup.out \
	"status: insecure"

echo "other.test. 3600 IN DS 12345 13 2 $(printf '%064d' 0)" >ds.elsewhere
verify anchor-elsewhere.out --anchor ds.elsewhere alg13-nsec.zone
expect "--anchor for another zone" 3 anchor-elsewhere.out \
	"status: indeterminate"

# --- other outcomes ---

verify unsigned.out zone
expect "unsigned zone: no DNSKEY" 3 unsigned.out "status: indeterminate"

verify missing.out no-such-file.zone
expect "unreadable file" 4 missing.out "no-such-file.zone"

"$DT" verify --zone "$ORIGIN" alg13-nsec.zone zone >usage.out 2>&1
rc=$?
expect "two zone files" 64 usage.out "one zone file"

verify json.out --json alg13-nsec3.zone
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "secure" and d["error_count"] == 0
assert d["errors"] == [] and d["rrsets_verified"] > 0
assert d["keys"]["anchored"] is False
' json.out
	result $? "--json: one JSON document, secure, no errors"
fi
verify json-bad.out --json no-nsec.zone
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "bogus" and d["error_count"] == len(d["errors"])
e = [x for x in d["errors"] if x["tag"] == "zone-nsec-missing"]
assert e and e[0]["owner"] == "mail.example.test." and e[0]["type"] == "NSEC"
' json-bad.out
	result $? "--json: errors are objects with owner, type, reason, tag"
fi

# --- a zone of 100,000 records ---

{
	printf '$ORIGIN %s\n$TTL 3600\n' $ORIGIN
	echo "@ SOA ns1 hostmaster 1 7200 3600 1209600 300"
	echo "@ NS ns1"
	echo "ns1 A 192.0.2.1"
	awk 'BEGIN { for (i = 0; i < 25000; i++)
		printf "h%d.g%d A 10.%d.%d.%d\n", i, i % 100, i % 256,
			int(i / 256) % 256, 1 }'
} >big
sign_zone ldns $ORIGIN big.zone big "$k13" "$z13" >>ldns.err 2>&1
result $? "ldns-signzone: a zone of $(grep -vc '^;' big.zone) records"
start=$(date +%s)
verify big.out big.zone
end=$(date +%s)
expect "100,000 records: valid" 0 big.out "0 errors"
[ $((end - start)) -le 20 ]
result $? "100,000 records checked in $((end - start)) s"

finish
