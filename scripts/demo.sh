#!/bin/sh
# make demo: what dnstrust can show at this stage, offline. Signs a small
# zone with ldns-signzone, reads it with dnstrust's wire library, builds
# DNS responses from it, parses them back and prints them as dig does, and
# shows how a broken zone file is reported.
set -eu
build=${1:-build}
tool="$build/src/dnstrust-wire"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/demo.example" <<ZONE
\$ORIGIN demo.example.
\$TTL 3600
@	IN SOA ns1 hostmaster 2026120201 7200 3600 1209600 300
	IN NS ns1
ns1	IN A 192.0.2.53
www	IN A 192.0.2.80
	IN AAAA 2001:db8::80
	IN TXT "hello from \"dnstrust\"" "second string"
*.wild	IN A 192.0.2.99
mail	IN MX 10 mx.demo.example.
_443._tcp.www IN TLSA 3 1 1 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF
ZONE

echo "== 1. Sign a zone with ldns-signzone (ECDSA P-256, NSEC3)"
(cd "$tmp" && ldns-keygen -a ECDSAP256SHA256 -k demo.example >ksk &&
	ldns-keygen -a ECDSAP256SHA256 demo.example >zsk &&
	ldns-signzone -n -t 0 demo.example "$(cat ksk)" "$(cat zsk)")
echo "signed: $(grep -vc '^;' "$tmp/demo.example.signed") lines"

echo
echo "== 2. Read it with dnstrust's presentation-format reader (first 12 records)"
"$tool" zone -p "$tmp/demo.example.signed" | head -12 | cut -c1-110

echo
echo "== 3. Build one DNS response per RRset, then parse them back"
"$tool" mkmsgs "$tmp/demo.example.signed" "$tmp/responses.bin"
"$tool" msgs "$tmp/responses.bin"
echo "-- the response for www.demo.example/TXT, as dig would print it:"
"$tool" msgs -p "$tmp/responses.bin" 2>/dev/null | awk '
	/^;; ->>HEADER/ { if (hit) exit; blk = "" }
	{ blk = blk $0 "\n" }
	/^;www\.demo\.example\.\t\tIN\tTXT/ { hit = 1 }
	END { if (hit) printf "%s", blk }' | cut -c1-110

echo
echo "== 4. A broken zone file gets a line-numbered error"
printf '$ORIGIN broken.example.\n@ 3600 IN SOA a b 1 2 3 4 5\nwww IN A 192.0.2.300\n' >"$tmp/broken"
if "$tool" zone "$tmp/broken"; then
	echo "unexpected: broken zone accepted" >&2
	exit 1
fi
echo
echo "== 5. Validate offline with dnstrust verify"
dt="$build/src/cli/dnstrust"
echo "-- the whole zone, anchored at its own KSK (as ldns-verify-zone does):"
"$dt" verify --zone demo.example. "$tmp/demo.example.signed" | tail -2
echo "-- one answer (www.demo.example/AAAA) from the zone's keys, with its chain:"
"$build/src/dnstrust-wire" zone -p "$tmp/demo.example.signed" 2>/dev/null |
	awk -F'\t' '$4 == "DNSKEY" || ($4 == "RRSIG" && $5 ~ /^DNSKEY /)' >"$tmp/keys"
awk -F'\t' '$4 == "DNSKEY" && $5 ~ /^257 /' "$tmp/keys" >"$tmp/anchor"
"$build/src/dnstrust-wire" zone -p "$tmp/demo.example.signed" 2>/dev/null |
	awk -F'\t' '$1 == "www.demo.example." && ($4 == "AAAA" || $5 ~ /^AAAA /)' \
	>"$tmp/answer"
"$dt" verify --trace --anchor "$tmp/anchor" "$tmp/keys" "$tmp/answer" || true
echo "-- the same answer with its address changed (a forgery):"
sed 's/2001:db8::80/2001:db8::666/' "$tmp/answer" >"$tmp/forged"
"$dt" verify --anchor "$tmp/anchor" "$tmp/keys" "$tmp/forged" || true

echo
echo "demo done."
