#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Work limits against crafted attack zones, through dnstrust verify --json.
# Each zone is signed here with ldns-signzone and then given its attack
# part; every attack question is also asked of the same zone without the
# attack part, which must be secure, so that the limit is what changes the
# outcome. count_verify (preloaded) counts the signature verifications and
# SHA-1 digests OpenSSL really performed; "net" below is that count minus
# the one verification of the DNSKEY RRset by the KSK.
#
#   trap.test. (RSASHA256, 2048 bits):
#   - DT_VAL_SIGS_PER_RRSET (8) with DT_VAL_RRSIGS_PER_RRSET (8): RRSIGs
#     that fail (original TTL changed, so the signed data differs) before
#     the valid one: 7 + 1 is secure after 8 verifications, 8 + 1 is bogus
#     after 8, the 9th never looked at;
#   - KeyTrap (CVE-2023-50387): 20 DNSKEYs crafted to share the ZSK's key
#     tag and algorithm, and 20 failing RRSIGs: bogus after 8
#     verifications, not 21 keys x 21 RRSIGs (336 with the three
#     signature limits removed: 21 keys x the 8 RRSIGs examined);
#   - DT_VAL_KEYS_PER_TAG (4): the valid ZSK as the 4th key of its tag is
#     found, as the 5th it is not tried;
#   - DT_VAL_RRSIGS_PER_RRSET (8): RRSIGs naming a key tag no key has
#     (refused before any cryptography) before the valid one: 7 + 1 is
#     secure, 8 + 1 is bogus and the 9th is never looked at;
#   - DT_VAL_CRYPTO_PER_QUERY (32): a CNAME chain whose every RRset costs
#     8 verifications: 4 RRsets are secure after 32, 5 are bogus after 32.
#   iter.test., deep.test. (ECDSA P-256, NSEC3):
#   - DT_VAL_NSEC3_ITERATIONS (50): NXDOMAIN with 50 iterations is secure,
#     with 51 insecure with EDE 27 after one hash (the question's own, to
#     look for its NSEC3: none matches a name that does not exist);
#   - DT_VAL_NSEC3_HASHES_PER_QUERY (150): NXDOMAIN for the longest name
#     the zone can hold (122 labels below deep.test.) hashes each ancestor
#     once (124 hashes), and behind 9 wildcard CNAME expansions 133: the
#     deepest answers stay within the budget and are secure.
#
# usage: verify_attacks.sh DNSTRUST LIBCOUNT_VERIFY      (TAP output)
# With DT_ATTACK_DIR set, the zones are made there and kept, and each
# check's question is listed in DT_ATTACK_DIR/questions (description,
# anchor, file, question, options; tab-separated) for bench/attacks.sh.
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
dt=$(abs "$1")
shim=$(abs "$2")
# dnstrust-wire sits beside dnstrust or one directory up (src/ and src/cli/).
wire=$(dirname "$dt")/dnstrust-wire
[ -x "$wire" ] || wire=$(dirname "$(dirname "$dt")")/dnstrust-wire

for tool in ldns-keygen ldns-signzone python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip_all "$tool not installed"
	fi
done

if [ -n "${DT_ATTACK_DIR-}" ]; then
	tmp=$(abs "$DT_ATTACK_DIR")
	# Only a directory this script made before (it holds "questions") is
	# emptied; any other that is not empty is refused.
	if [ -f "$tmp/questions" ]; then
		rm -rf "$tmp"
	elif [ -d "$tmp" ] && [ -n "$(ls -A "$tmp")" ]; then
		echo "Bail out! DT_ATTACK_DIR $tmp is not empty"
		exit 1
	fi
	mkdir -p "$tmp" || exit 1
	: >"$tmp/questions"
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/dt-verify-attacks.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
fi

# run FILE QUESTION [VERIFY OPTIONS...]: dnstrust verify --json on FILE
# with the current $anchor; sets rc, vfy (verifications), sha1 (SHA-1
# digests) and leaves the output in $tmp/out.
run() {
	f=$1
	q=$2
	shift 2
	opts=$*
	rm -f "$tmp/count"
	DT_COUNT_FILE=$tmp/count LD_PRELOAD=$shim "$dt" verify --json \
		--anchor "$anchor" --question "$q" "$@" "$f" >"$tmp/out" 2>&1
	rc=$?
	vfy=$(sed -n 's/^verify //p' "$tmp/count" 2>/dev/null)
	sha1=$(sed -n 's/^sha1 //p' "$tmp/count" 2>/dev/null)
	: "${vfy:=-1}" "${sha1:=-1}"
}

# expect DESCRIPTION STATUS EDE TAG NET [SHA1 [TEXT]]: checks the last run.
# EDE "-" means none; NET is the expected verifications less the key
# set's one; SHA1 the expected SHA-1 digests ("-": not checked); TEXT a
# fixed string the output must hold.
expect() {
	res=0
	case $2 in
	secure) want=0 ;;
	insecure) want=1 ;;
	bogus) want=2 ;;
	*) want=3 ;;
	esac
	[ "$rc" -eq "$want" ] || res=1
	grep -qF "\"status\":\"$2\"" "$tmp/out" || res=1
	if [ "$3" = - ]; then
		grep -qF '"ede":null' "$tmp/out" || res=1
	else
		grep -qF "\"ede\":{\"code\":$3," "$tmp/out" || res=1
	fi
	grep -qF "\"tag\":\"$4\"" "$tmp/out" || res=1
	[ "$((vfy - 1))" -eq "$5" ] || res=1
	[ "${6:--}" = - ] || [ "$sha1" -eq "$6" ] || res=1
	[ -z "${7-}" ] || grep -qF -- "$7" "$tmp/out" || res=1
	[ ! -f "$tmp/questions" ] ||
		printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$anchor" "$f" "$q" "$opts" \
			>>"$tmp/questions"
	if [ $res -eq 0 ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# exit $rc, $vfy verifications, $sha1 SHA-1 digests"
		sed 's/^/# /' "$tmp/out"
	fi
}

# sign DIR ORIGIN ALG [LDNS-SIGNZONE OPTIONS...]: makes a KSK and a ZSK
# in DIR (once) and signs DIR/zone into DIR/signed, then DIR/all (one
# record a line, tab-separated) and DIR/anchor (the KSK).
sign() {
	d=$1
	o=$2
	a=$3
	shift 3
	(cd "$d" &&
		{ [ -s ksk ] || ldns-keygen -a "$a" -b 2048 -k "$o" >ksk; } &&
		{ [ -s zsk ] || ldns-keygen -a "$a" -b 2048 "$o" >zsk; } &&
		ldns-signzone -f signed "$@" zone "$(cat ksk)" "$(cat zsk)" &&
		"$wire" zone -p signed >all &&
		awk -F'\t' '$4 == "DNSKEY" && $5 ~ /^257 /' all >anchor) \
		>/dev/null 2>&1
}

# sigs OWNER TYPE BAD JUNK < FILE: FILE with BAD copies of the RRSIG over
# OWNER/TYPE that fail to verify (original TTL changed: other signed
# data), then JUNK copies naming key tag $junktag, which no key has, placed
# before it.
sigs() {
	awk -F'\t' -v OFS='\t' -v o="$1" -v t="$2" -v bad="$3" -v junk="$4" \
		-v jt="$junktag" '
	function text(ottl, tag, s, k) {
		s = f[1]
		for (k = 2; k <= nf; k++)
			s = s " " (k == 4 ? ottl : k == 7 ? tag : f[k])
		return s
	}
	$1 == o && $4 == "RRSIG" && index($5, t " ") == 1 {
		nf = split($5, f, " ")
		r = $5
		for (i = 1; i <= bad; i++) {
			$5 = text(f[4] + i, f[7])
			print
		}
		for (i = 1; i <= junk; i++) {
			$5 = text(f[4] + i, jt)
			print
		}
		$5 = r
	}
	{ print }'
}

# keyorder N < FILE: FILE with the DNSKEYs ordered N crafted keys, the
# ZSK, the other crafted keys (the order in which keys are tried).
keyorder() {
	awk -F'\t' -v z="$zskkey" -v before="$1" '
	$4 == "DNSKEY" && index($5, z) { zsk = $0; next }
	$4 == "DNSKEY" && $5 ~ /^256 / { fake[++nf] = $0; next }
	{ rest[++nr] = $0 }
	END {
		for (i = 1; i <= before; i++) print fake[i]
		print zsk
		for (i = before + 1; i <= nf; i++) print fake[i]
		for (i = 1; i <= nr; i++) print rest[i]
	}'
}

# --- trap.test.: signatures and keys ---

z=$tmp/trap
mkdir "$z"
{
	echo '$ORIGIN trap.test.'
	echo '$TTL 3600'
	echo '@ SOA ns hostmaster 1 7200 3600 1209600 300'
	echo '@ NS ns'
	echo 'ns A 192.0.2.1'
	for h in www trap s7 s8 r7 r8; do echo "$h A 192.0.2.80"; done
	for i in 0 1 2 3; do echo "q$i CNAME q$((i + 1))"; done
	echo 'q4 A 192.0.2.4'
} >"$z/zone"
sign "$z" trap.test. RSASHA256 || bail "signing trap.test."
anchor=$z/anchor
cp "$z/all" "$tmp/clean"
# Key tags from the key file names (K<zone>+<alg>+<tag>, zero-padded).
zsktag=$(sed 's/.*+0*//; s/^$/0/' "$z/zsk")
ksktag=$(sed 's/.*+0*//; s/^$/0/' "$z/ksk")
junktag=$(((zsktag + 1) % 65536))
[ "$junktag" -ne "$ksktag" ] || junktag=$(((zsktag + 2) % 65536))

sigs s7.trap.test. A 7 0 <"$tmp/clean" |
	sigs s8.trap.test. A 8 0 |
	sigs r7.trap.test. A 0 7 |
	sigs r8.trap.test. A 0 8 |
	sigs q0.trap.test. CNAME 7 0 | sigs q1.trap.test. CNAME 7 0 |
	sigs q2.trap.test. CNAME 7 0 | sigs q3.trap.test. CNAME 7 0 |
	sigs q4.trap.test. A 7 0 >"$tmp/attack"

# The same zone with 20 DNSKEYs crafted to have the ZSK's key tag and
# algorithm (random 2048-bit moduli, exponent 65537, two octets of the
# modulus chosen to hit the tag), signed with them in the DNSKEY RRset;
# the ZSK is listed explicitly (ldns-signzone takes a key with its tag for
# it otherwise).
zskkey=$(awk '{ for (i = 1; i < NF; i++) if ($i == "DNSKEY") {
	print $(i + 4); exit } }' "$z/$(cat "$z/zsk").key")
python3 - trap.test. "$zsktag" 20 >"$z/fakes" <<'EOF' || bail "crafting keys"
import base64, os, sys
origin, tag, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for _ in range(count):
    rd = bytearray(b'\x01\x00\x03\x08\x03\x01\x00\x01') + os.urandom(256)
    rd[8] |= 0x80           # 2048 bits
    rd[-1] |= 1             # odd
    rd[100] = rd[101] = 0   # the 16-bit word that sets the tag
    ac = sum(b if i & 1 else b << 8 for i, b in enumerate(rd))
    # RFC 4034 Appendix B: tag = (ac + (ac >> 16)) & 0xFFFF
    w = next(w for w in range(65536)
             if (ac + w + ((ac + w) >> 16)) & 0xFFFF == tag)
    rd[100], rd[101] = w >> 8, w & 0xFF
    print(origin, 3600, 'IN DNSKEY 256 3 8',
          base64.b64encode(bytes(rd[4:])).decode())
EOF
mkdir "$tmp/col"
cp "$z/ksk" "$z/zsk" "$z"/K* "$tmp/col/"
cat "$z/zone" "$z/$(cat "$z/zsk").key" "$z/fakes" >"$tmp/col/zone"
sign "$tmp/col" trap.test. RSASHA256 || bail "signing trap.test. with colliding keys"
[ "$(grep -c "	DNSKEY	256 " "$tmp/col/all")" -eq 21 ] ||
	bail "the signed DNSKEY RRset holds the ZSK and 20 crafted keys"
sigs trap.trap.test. A 20 0 <"$tmp/col/all" | keyorder 0 >"$tmp/keytrap"
keyorder 3 <"$tmp/col/all" >"$tmp/tag4"
keyorder 4 <"$tmp/col/all" >"$tmp/tag5"

run "$tmp/clean" "www.trap.test. A"
expect "trap.test. without attack: www secure, 1 verification" \
	secure - secure 1

run "$tmp/attack" "s7.trap.test. A"
expect "sigs per RRset: 7 failing RRSIGs then the valid one: secure after 8 verifications" \
	secure - secure 8
run "$tmp/attack" "s8.trap.test. A"
expect "sigs per RRset: 8 failing RRSIGs then the valid one: bogus after 8, the 9th not examined" \
	bogus 6 sig-bad 8 - "1 more RRSIGs not examined (limit 8)"
run "$tmp/clean" "s8.trap.test. A"
expect "sigs per RRset: the same RRset without the failing RRSIGs: secure" \
	secure - secure 1

run "$tmp/keytrap" "trap.trap.test. A"
expect "KeyTrap: 21 keys with one tag x 21 RRSIGs: bogus sig-limit-rrset after 8 verifications" \
	bogus 6 sig-limit-rrset 8
run "$tmp/keytrap" "www.trap.test. A"
expect "KeyTrap: the colliding keys alone do not break www (1 verification)" \
	secure - secure 1
run "$tmp/clean" "trap.trap.test. A"
expect "KeyTrap: the same RRset without colliding keys and failing RRSIGs: secure" \
	secure - secure 1

run "$tmp/tag4" "www.trap.test. A"
expect "keys per tag: the ZSK 4th of 21 keys with its tag: secure after 4 verifications" \
	secure - secure 4
run "$tmp/tag5" "www.trap.test. A"
expect "keys per tag: the ZSK 5th of 21 keys with its tag: bogus, not tried" \
	bogus 6 sig-bad 4 - "17 more keys with that tag not tried, limit 4"

run "$tmp/attack" "r7.trap.test. A"
expect "RRSIGs per RRset: 7 RRSIGs by no key then the valid one: secure" \
	secure - secure 1
run "$tmp/attack" "r8.trap.test. A"
expect "RRSIGs per RRset: 8 RRSIGs by no key then the valid one: bogus, 9th not examined" \
	bogus 9 sig-no-key 0 - "1 more RRSIGs not examined (limit 8)"
run "$tmp/clean" "r8.trap.test. A"
expect "RRSIGs per RRset: the same RRset without them: secure" \
	secure - secure 1

run "$tmp/attack" "q1.trap.test. A"
expect "crypto per question: 4 RRsets x 8 verifications: secure after 32" \
	secure - secure 32
run "$tmp/attack" "q0.trap.test. A"
expect "crypto per question: 5 RRsets x 8 verifications: bogus sig-limit-query after 32" \
	bogus 6 sig-limit-query 32 - "limit of 32 signature verifications per question"
run "$tmp/clean" "q0.trap.test. A"
expect "crypto per question: the same chain without failing RRSIGs: secure after 5" \
	secure - secure 5

# --- iter.test.: NSEC3 iterations ---

for it in 0 50 51; do
	mkdir "$tmp/it$it"
	{
		echo '$ORIGIN iter.test.'
		echo '$TTL 3600'
		echo '@ SOA ns hostmaster 1 7200 3600 1209600 300'
		echo '@ NS ns'
		echo 'ns A 192.0.2.1'
		echo 'www A 192.0.2.80'
	} >"$tmp/it$it/zone"
	[ $it -eq 0 ] || cp "$tmp/it0/ksk" "$tmp/it0/zsk" "$tmp/it0"/K* "$tmp/it$it/"
	sign "$tmp/it$it" iter.test. ECDSAP256SHA256 -n -t $it ||
		bail "signing iter.test. with NSEC3 and $it iterations"
done
anchor=$tmp/it0/anchor
# 3 NSEC3 RRsets and the SOA verified; ancestors hashed: nx, iter.test.,
# then *.iter.test.; each hash iterations + 1 SHA-1 digests.
run "$tmp/it0/all" "nx.iter.test. A" --rcode NXDOMAIN
expect "NSEC3 iterations 0: NXDOMAIN secure (3 hashes)" \
	secure - secure 4 3 '"result":"nxdomain"'
run "$tmp/it50/all" "nx.iter.test. A" --rcode NXDOMAIN
expect "NSEC3 iterations 50 (the limit): NXDOMAIN secure (3 x 51 SHA-1)" \
	secure - secure 4 153 '"result":"nxdomain"'
run "$tmp/it51/all" "nx.iter.test. A" --rcode NXDOMAIN
expect "NSEC3 iterations 51: insecure, EDE 27, only the question's own hash (52 SHA-1)" \
	insecure 27 nsec3-iterations 4 52 "NSEC3 iterations 51 above the limit 50"

# --- deep.test.: the NSEC3 hash budget ---

# The longest name deep.test. can hold: 122 one-octet labels (255 octets).
deep=$(awk 'BEGIN { for (i = 0; i < 122; i++) printf "a."; print "deep.test." }')
d=$tmp/deep
mkdir "$d"
{
	echo '$ORIGIN deep.test.'
	echo '$TTL 3600'
	echo '@ SOA ns.example. hostmaster 1 7200 3600 1209600 300'
	echo '@ NS ns.example.'
	for i in 1 2 3 4 5 6 7 8; do echo "*.w$i CNAME x.w$((i + 1))"; done
	echo "*.w9 CNAME $deep"
} >"$d/zone"
sign "$d" deep.test. ECDSAP256SHA256 -n -t 0 || bail "signing deep.test."
anchor=$d/anchor
# 19 NSEC3 RRsets and the SOA verified; 123 ancestors of the name (itself
# up to the apex) and the wildcard *.deep.test. hashed once each.
run "$d/all" "$deep A" --rcode NXDOMAIN
expect "NSEC3 budget: NXDOMAIN for a 124-label name: 124 hashes, secure" \
	secure - secure 20 124 '"result":"nxdomain"'
# Then 9 wildcard CNAMEs before it, as a server expands them (x.wN from
# *.wN, RRSIG and all), each proven with one hash of its next closer name:
# 133 hashes, 9 + 20 verifications.
awk -F'\t' -v OFS='\t' '{ print }
	$1 ~ /^\*\.w/ && ($4 == "CNAME" || $5 ~ /^CNAME /) {
		$1 = "x" substr($1, 2)
		print
	}' "$d/all" >"$d/expanded"
run "$d/expanded" "x.w1.deep.test. A" --rcode NXDOMAIN
expect "NSEC3 budget: 9 wildcard CNAME links then that NXDOMAIN: 133 hashes, secure" \
	secure - secure 29 133 '"links":9'

finish
