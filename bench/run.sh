#!/bin/sh
# Benchmarks of src/wire against peer tools, in the same run on the same
# machine. Not a test: nothing here asserts a time.
#
#   zone parsing: a signed zone of about 100,000 records (16,667 names with
#   A and AAAA, signed by ldns-signzone with ECDSA P-256 and NSEC), read by
#   dnstrust-wire, ldns-read-zone and named-checkzone;
#   message parsing: one response per RRset of that zone (built with
#   dnstrust's builder: compressed, with EDNS), parsed back;
#   then bench/crypto.sh (RRset verifications per second per algorithm
#   against openssl speed) and bench/attacks.sh (time per attack question).
#
# usage: bench/run.sh [BUILD_DIR]   results go to bench/results/
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
tool="$top/$build/src/dnstrust-wire"
work="$top/$build/bench"
out="$top/bench/results"
names=${BENCH_NAMES:-16667}
runs=${BENCH_RUNS:-10}
mkdir -p "$work" "$out"

zone="$work/bench.example.signed"
if [ ! -s "$zone" ]; then
	echo "bench: generating and signing a zone of $names names"
	{
		echo '$ORIGIN bench.example.'
		echo '$TTL 3600'
		echo '@ IN SOA ns1 hostmaster 1 7200 3600 1209600 300'
		echo '  IN NS ns1'
		echo 'ns1 IN A 192.0.2.1'
		awk -v n="$names" 'BEGIN {
			for (i = 0; i < n; i++) {
				printf "host%d IN A 10.%d.%d.%d\n", i,
					int(i / 65536) % 256, int(i / 256) % 256, i % 256
				printf "host%d IN AAAA 2001:db8::%x\n", i, i
			}
		}'
	} >"$work/bench.example"
	(cd "$work" &&
		ldns-keygen -a ECDSAP256SHA256 -k bench.example >ksk &&
		ldns-keygen -a ECDSAP256SHA256 bench.example >zsk &&
		ldns-signzone -f "$zone" bench.example \
			"$(cat ksk)" "$(cat zsk)")
fi
records=$(grep -vc '^;' "$zone")
echo "bench: $zone: $records records"

"$tool" mkmsgs "$zone" "$work/responses.bin"

cd "$work"
hyperfine --warmup 2 --runs "$runs" -N \
	--export-markdown "$out/zone-parse.md" \
	-n "dnstrust-wire zone (parse only)" "$tool zone $zone" \
	-n "ldns-read-zone -E SOA (parse, print SOA only)" \
	"ldns-read-zone -E SOA $zone" \
	-n "named-checkzone (parse + load into BIND's database)" \
	"named-checkzone -q -i none -k ignore -n ignore -m ignore -M ignore -S ignore -T ignore -W ignore bench.example $zone"

hyperfine --warmup 2 --runs "$runs" \
	--export-markdown "$out/zone-print.md" \
	-n "dnstrust-wire zone -p (parse + print)" "$tool zone -p $zone >/dev/null" \
	-n "ldns-read-zone (parse + print)" "ldns-read-zone $zone >/dev/null"

hyperfine --warmup 2 --runs "$runs" -N \
	--export-markdown "$out/msg-parse.md" \
	-n "dnstrust-wire msgs (parse stream)" "$tool msgs $work/responses.bin"

echo
echo "bench: in-process rates (excluding start-up and file reading):"
"$tool" zone -t "$zone"
"$tool" msgs -t "$work/responses.bin"
echo "bench: markdown tables in $out/"

"$top/bench/crypto.sh" "$build"
"$top/bench/attacks.sh" "$build"
BENCH_CPUS=${BENCH_CPUS-0,0} "$top/bench/gai.sh" "$build"
# dnstrustd against Unbound and Knot Resolver (best with a release build:
# meson setup build-perf --buildtype=release).
"$top/bench/daemon.sh" "$build"
