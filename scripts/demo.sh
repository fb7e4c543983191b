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
	ldns-signzone -n -s 0 -t 0 demo.example "$(cat ksk)" "$(cat zsk)")
echo "signed: $(grep -vc '^;' "$tmp/demo.example.signed") lines"

echo
echo "== 2. Read it with dnstrust's presentation-format reader (first 12 records)"
"$tool" zone -p "$tmp/demo.example.signed" | head -12 | cut -c1-110

echo
echo "== 3. Build one DNS response per RRset, then parse them back"
"$tool" mkmsgs "$tmp/demo.example.signed" "$tmp/responses.bin"
"$tool" msgs "$tmp/responses.bin"
echo "-- the response for www.demo.example/TXT, as dig would print it:"
"$tool" msgs -p "$tmp/responses.bin" | awk '
	/^;; ->>HEADER/ { blk = "" }
	{ blk = blk $0 "\n" }
	/^$/ && blk ~ /;www\.demo\.example\.\t\tIN\tTXT/ { printf "%s", blk; exit }' |
	cut -c1-110

echo
echo "== 4. A broken zone file gets a line-numbered error"
printf '$ORIGIN broken.example.\n@ 3600 IN SOA a b 1 2 3 4 5\nwww IN A 192.0.2.300\n' >"$tmp/broken"
if "$tool" zone "$tmp/broken"; then
	echo "unexpected: broken zone accepted" >&2
	exit 1
fi
echo
echo "demo done."
