#!/bin/sh
# dnstrust verify on the RFC example vectors (tests/data/rfc-vectors):
# each signed answer is secure at its VALIDATE-AT time with its zone's
# DNSKEY as the trust anchor, bogus (EDE 7) after EXPIRES-AT, and bogus
# after one bit of its signature is flipped; the whole RFC 4035 zone
# checks secure with --zone. Every case also goes through the resolver
# core (verify --resolver), which must reach the same status, EDE and
# tag as the offline walk. TAP output.
# usage: verify_vectors.sh DNSTRUST PEER_DIR
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
dt=$1
vec=$2/rfc-vectors
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_exit() { # description, wanted exit, command...
	d=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$d"; else
		not_ok "$d (exit $got, want $want)"
		diag "$tmp/out"
	fi
}

agrees() { # description, then verify's arguments: the resolver core agrees
	d=$1
	shift
	"$dt" verify --resolver --json "$@" >"$tmp/agree" 2>&1
	if grep -q '"agree":true' "$tmp/agree"; then ok "$d: the resolver core agrees"; else
		not_ok "$d: the resolver core agrees"
		diag "$tmp/agree"
	fi
}

if [ ! -d "$vec" ]; then
	bail "RFC vectors not found at $vec"
fi

for f in "$vec"/rfc5702-*.zone "$vec"/rfc6605-*.zone "$vec"/rfc8080-*.zone; do
	b=$(basename "$f")
	at=$(grep -o 'VALIDATE-AT: [0-9]*' "$f" | awk '{print $2}')
	exp=$(grep -o 'EXPIRES-AT: [0-9]*' "$f" | awk '{print $2}')
	grep -v '^;' "$f" | grep -E '[[:space:]]DNSKEY[[:space:]]' >"$tmp/anchor"
	check_exit "$b: secure at $at" 0 "$dt" verify --anchor "$tmp/anchor" --time "$at" "$f"
	agrees "$b: secure" --anchor "$tmp/anchor" --time "$at" "$f"
	check_exit "$b: bogus after expiry" 2 "$dt" verify --anchor "$tmp/anchor" --time $((exp + 3600)) "$f"
	agrees "$b: after expiry" --anchor "$tmp/anchor" --time $((exp + 3600)) "$f"
	if "$dt" verify --json --anchor "$tmp/anchor" --time $((exp + 3600)) "$f" | grep -q '"code":7'; then
		ok "$b: EDE 7 after expiry"
	else
		not_ok "$b: EDE 7 after expiry"
	fi
	# Flip one bit in the signature's first base64 character.
	awk '!/^;/ && $0 ~ /[[:space:]]RRSIG[[:space:]]/ && !done {
		n = split($0, f, /[ \t]+/)
		s = f[n]; c = substr(s, 1, 1)
		r = (c == "A") ? "B" : "A"
		sub(/[^ \t]+$/, r substr(s, 2)); done = 1
	} { print }' "$f" >"$tmp/flipped"
	check_exit "$b: bogus with a flipped signature" 2 "$dt" verify --anchor "$tmp/anchor" --time "$at" "$tmp/flipped"
	agrees "$b: flipped" --anchor "$tmp/anchor" --time "$at" "$tmp/flipped"
	check_exit "$b: indeterminate without a covering anchor" 3 "$dt" verify --time "$at" "$f"
	agrees "$b: no covering anchor" --time "$at" "$f"
done

# Example responses (RFC 4035 App. B, RFC 5155 App. B), validated with
# the example zone's DNSKEY RRset and its KSK as the anchor. The DS
# questions (RFC 4035 B.8, RFC 5155 B.6: the child's own NODATA) are
# indeterminate: the DS RRset of example. is the root's, which no anchor
# covers here (RFC 4033 §5); the child's apex NSEC never denies it (it
# would make them secure).
# usage: responses ZONE RESPONSES TIME "block:status:result ..."
responses() {
	"$wire" zone -p -o example. "$1" 2>/dev/null | awk -F'\t' \
		'$4 == "DNSKEY" || ($4 == "RRSIG" && $5 ~ /^DNSKEY /)' >"$tmp/keys"
	awk -F'\t' '$4 == "DNSKEY" && $5 ~ /^257 /' "$tmp/keys" >"$tmp/anchor"
	rm -f "$tmp"/blk*
	awk -v d="$tmp" '/^; ===== /{n++; f=sprintf("%s/blk%02d", d, n)} n{print > f}' "$2"
	for want in $4; do
		blk=${want%%:*} rest=${want#*:}
		st=${rest%%:*} kind=${rest#*:}
		title=$(head -1 "$tmp/blk$blk" | sed 's/^; ===== //; s/ =====$//')
		"$dt" verify --anchor "$tmp/anchor" --time "$3" "$tmp/keys" \
			"$tmp/blk$blk" >"$tmp/out" 2>&1
		if grep -q "^status: $st\$" "$tmp/out" &&
			grep -q "^result: $kind\$" "$tmp/out"; then
			ok "$title: $st $kind"
		else
			not_ok "$title: want $st $kind"
			diag "$tmp/out"
		fi
		agrees "$title" --anchor "$tmp/anchor" --time "$3" "$tmp/keys" \
			"$tmp/blk$blk"
	done
}
# dnstrust-wire is built in src/, dnstrust in src/cli/.
wire=$(dirname "$dt")/dnstrust-wire
[ -x "$wire" ] || wire=$(dirname "$(dirname "$dt")")/dnstrust-wire
responses "$vec/rfc4035-appendix-A-signed-zone.zone" \
	"$vec/rfc4035-appendix-B-responses.txt" 1082419200 \
	"01:secure:answer 02:secure:nxdomain 03:secure:nodata
	 06:secure:answer 07:secure:nodata 08:indeterminate:nodata"
# Every NSEC3 of the RFC 5155 zone has opt-out set: proofs through its
# spans are insecure (RFC 5155 §9.2); B.6 asks the child for its DS.
responses "$vec/rfc5155-appendix-A-nsec3-zone.zone" \
	"$vec/rfc5155-appendix-B-responses.txt" 1262304000 \
	"01:insecure:nxdomain 02:secure:nodata 03:secure:nodata
	 04:insecure:nodata 05:insecure:answer 06:insecure:nodata
	 07:indeterminate:nodata"

f="$vec/rfc4035-appendix-A-signed-zone.zone"
at=$(grep -o 'VALIDATE-AT: [0-9]*' "$f" | awk '{print $2}')
check_exit "RFC 4035 A zone: --zone secure" 0 "$dt" verify --zone example. --time "$at" "$f"
check_exit "RFC 4035 A zone: --zone bogus a year later" 2 "$dt" verify --zone example. --time $((at + 31536000)) "$f"

finish
