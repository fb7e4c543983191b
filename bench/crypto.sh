#!/bin/sh
# RRset verifications per second per algorithm through dnstrust's
# validator (bench/crypto_bench: val_rrset_verify of a signed A RRset of
# two records, key parsed once), beside `openssl speed` verifications per
# second in the same run on the same machine. Not a test: nothing here
# asserts a rate.
#
# Both rates are per second of CPU time (openssl speed's default), each
# the median of BENCH_ROUNDS rounds (default 3) of BENCH_SECONDS (whole
# seconds, as openssl speed takes them; default 3)
# per measurement, dnstrust and openssl alternating per algorithm.
#
# usage: bench/crypto.sh [BUILD_DIR]
# writes bench/results/crypto.md
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
prog="$top/$build/bench/crypto_bench"
work="$top/$build/bench/crypto"
out="$top/bench/results"
secs=${BENCH_SECONDS:-3}
rounds=${BENCH_ROUNDS:-3}
mkdir -p "$work" "$out"

# name, ldns-keygen algorithm, key bits (RSA), openssl speed name
algs="
rsasha256 RSASHA256 2048 rsa2048
rsasha512 RSASHA512 2048 rsa2048
ecdsap256 ECDSAP256SHA256 - ecdsap256
ecdsap384 ECDSAP384SHA384 - ecdsap384
ed25519 ED25519 - ed25519
ed448 ED448 - ed448
rsasha1 RSASHA1 2048 rsa2048
"

echo "$algs" | while read -r name alg bits speed; do
	[ -n "$name" ] || continue
	d="$work/$name"
	[ -s "$d/signed" ] && continue
	mkdir -p "$d"
	{
		echo '$ORIGIN bench.test.'
		echo '$TTL 3600'
		echo '@ SOA ns hostmaster 1 7200 3600 1209600 300'
		echo '@ NS ns'
		echo 'ns A 192.0.2.1'
		echo 'www A 192.0.2.80'
		echo 'www A 192.0.2.81'
	} >"$d/zone"
	b=""
	[ "$bits" = - ] || b="-b $bits"
	# shellcheck disable=SC2086
	(cd "$d" &&
		ldns-keygen -a "$alg" $b -k bench.test >ksk &&
		ldns-keygen -a "$alg" $b bench.test >zsk &&
		ldns-signzone -f signed zone "$(cat ksk)" "$(cat zsk)") >/dev/null
done

# One round: for each algorithm, dnstrust then openssl speed, so that
# both see the same load; the table takes the median of the rounds.
: >"$work/dnstrust.txt"
: >"$work/openssl-verify.txt"
openssl version | tee "$work/openssl-version.txt"
r=1
while [ $r -le "$rounds" ]; do
	echo "bench: round $r of $rounds ($secs s per measurement)"
	echo "$algs" | while read -r name alg bits speed; do
		[ -n "$name" ] || continue
		"$prog" -s "$secs" "$work/$name/signed" |
			tee -a "$work/dnstrust.txt"
		# openssl speed's summary line, verify/s last:
		#   rsa 2048 bits 0.000582s 0.000016s 1718.9 62213.9
		#   256 bits ecdsa (nistp256)   0.0000s   0.0001s  39873.2  13017.3
		#   253 bits EdDSA (Ed25519)   0.0000s   0.0001s  25806.8   9290.8
		openssl speed -seconds "$secs" "$speed" 2>/dev/null | awk -v s="$speed" '
			($1 == "rsa" && $2 == 2048) ||
			(($3 == "ecdsa" || $3 == "EdDSA") && NF >= 8 && $NF + 0 > 0) {
				print s, $NF
			}' | tail -1 | tee -a "$work/openssl-verify.txt"
	done
	r=$((r + 1))
done

# median FILE KEY FIELD: median of FIELD over the lines starting with KEY.
median() {
	awk -v k="$2" -v f="$3" 'index($0, k) == 1 { print $f }' "$1" |
		sort -n | awk '{ v[NR] = $1 } END {
			if (NR) print (NR % 2) ? v[(NR + 1) / 2] \
				: (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

{
	echo "| algorithm | key | dnstrust RRset verify/s | openssl speed verify/s | ratio | key parses/s |"
	echo "|---|---|---:|---:|---:|---:|"
	echo "$algs" | while read -r name alg bits speed; do
		[ -n "$name" ] || continue
		num=$(awk -v a="$alg" '$3 == a { print $2; exit }' "$work/dnstrust.txt")
		ours=$(median "$work/dnstrust.txt" "alg $num $alg " 7)
		parse=$(median "$work/dnstrust.txt" "alg $num $alg " 9)
		keybits=$(awk -v a="$alg" '$3 == a { print $5; exit }' "$work/dnstrust.txt")
		raw=$(median "$work/openssl-verify.txt" "$speed " 2)
		ratio=$(awk -v a="$ours" -v b="$raw" \
			'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "-" }')
		printf '| %s | %s bits | %.0f | %.0f (%s) | %s | %.0f |\n' \
			"$alg" "$keybits" "$ours" "$raw" "$speed" "$ratio" "$parse"
	done
} | tee "$out/crypto.md"
echo "bench: medians of $rounds rounds; table in $out/crypto.md"
