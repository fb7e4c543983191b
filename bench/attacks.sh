#!/bin/sh
# Time per attack question: every question of tests/cli/verify_attacks.sh
# (each attack zone's worst-case question beside the same question on the
# zone without the attack part), timed with hyperfine as whole
# `dnstrust verify` runs, with the signature verifications and SHA-1
# digests OpenSSL performed for each (tests/cli/count_verify); the whole
# process is timed, start-up (about 2 ms of CPU) included, so CPU time and
# the fastest run say more than the mean on a loaded machine. Also the
# offline key source's walk for unsigned data below a deep name, which no
# per-question limit bounds yet. Not a test: nothing here asserts a time.
#
# usage: bench/attacks.sh [BUILD_DIR]   (BENCH_RUNS, default 20)
# writes bench/results/attacks.md
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
dt="$top/$build/src/cli/dnstrust"
shim="$top/$build/tests/cli/libcount_verify.so"
work="$top/$build/bench/attacks"
out="$top/bench/results"
runs=${BENCH_RUNS:-20}
mkdir -p "$out"

echo "bench: making the attack zones (tests/cli/verify_attacks.sh)"
DT_ATTACK_DIR="$work" sh "$top/tests/cli/verify_attacks.sh" "$dt" "$shim" \
	>"$work.tap"
if grep -q '^not ok' "$work.tap"; then
	echo "bench: warning: verify_attacks.sh failed; see $work.tap" >&2
fi

# The open case: an unsigned RRset at the 124-label name of deep.test.
# (NSEC3, 19 NSEC3 RRsets). The offline key source looks for an insecure
# delegation at each of its 123 ancestors below the apex, each look a
# DS-denial validation with a budget of its own.
d="$work/deep"
deep=$(awk 'BEGIN { for (i = 0; i < 122; i++) printf "a."; print "deep.test." }')
{
	cat "$d/all"
	printf '%s\t3600\tIN\tA\t192.0.2.1\n' "$deep"
} >"$d/unsigned1"
{
	cat "$d/all"
	i=1000
	while [ $i -lt 1020 ]; do
		printf '%s\t3600\tIN\tTYPE%s\t\\# 1 00\n' "$deep" $i
		i=$((i + 1))
	done
} >"$d/unsigned20"
slow="$work/slow"
{
	printf 'open: unsigned A at the 124-label name (bag.c)\t%s\t%s\t%s\t\n' \
		"$d/anchor" "$d/unsigned1" "$deep A"
	printf 'open: 20 unsigned RRsets there, qtype ANY (bag.c)\t%s\t%s\t%s\t\n' \
		"$d/anchor" "$d/unsigned20" "$deep ANY"
} >"$slow"

# count LIST: one line per question: verifications, SHA-1 digests, status.
count() {
	while IFS='	' read -r desc anchor file q opts; do
		# shellcheck disable=SC2086
		DT_COUNT_FILE="$work/count" LD_PRELOAD="$shim" "$dt" verify \
			--json --anchor "$anchor" --question "$q" $opts "$file" \
			>"$work/out" 2>&1 || true
		status=$(sed -n 's/.*"status":"\([a-z]*\)".*"tag":"\([^"]*\)".*/\1 \2/p' "$work/out")
		printf '%s %s %s\n' "$(sed -n 's/^verify //p' "$work/count")" \
			"$(sed -n 's/^sha1 //p' "$work/count")" "$status"
	done <"$1"
}

# time_list: hyperfine over every question of $list, $runs_ runs each,
# results to $json.
time_list() {
	set --
	while IFS='	' read -r desc anchor file q opts; do
		set -- "$@" -n "$desc" \
			"$dt verify --anchor $anchor --question '$q' $opts $file"
	done <"$list"
	hyperfine -N -i --warmup 2 --runs "$runs_" --export-json "$json" "$@" \
		>/dev/null
}

count "$work/questions" >"$work/counts"
count "$slow" >"$work/slow-counts"
echo "bench: timing $(wc -l <"$work/questions") questions, $runs runs each"
list="$work/questions" runs_=$runs json="$work/times.json"
time_list
echo "bench: timing the open case, 3 runs each"
list="$slow" runs_=3 json="$work/slow-times.json"
time_list

python3 - "$work" "$out/attacks.md" <<'EOF'
import json, sys
work, out = sys.argv[1], sys.argv[2]
rows = []
for q, c, t in (("questions", "counts", "times.json"),
                ("slow", "slow-counts", "slow-times.json")):
    qs = [l.rstrip("\n").split("\t") for l in open(f"{work}/{q}")]
    cs = [l.split() for l in open(f"{work}/{c}")]
    ts = json.load(open(f"{work}/{t}"))["results"]
    for qq, cc, tt in zip(qs, cs, ts):
        rows.append((qq[0], qq[3].split()[-1], cc, tt))
with open(out, "w") as f:
    f.write("| check (tests/cli/verify_attacks.sh) | qtype | status, tag "
            "| verifications | SHA-1 | CPU ms (user + sys) | wall ms, min "
            "| wall ms, mean ± σ |\n")
    f.write("|---|---|---|---:|---:|---:|---:|---:|\n")
    for desc, qtype, c, t in rows:
        verify, sha1, status = c[0], c[1], " ".join(c[2:])
        cpu = (t["user"] + t["system"]) * 1000
        f.write(f"| {desc} | {qtype} | {status} | {verify} | {sha1} "
                f"| {cpu:.2f} | {t['min'] * 1000:.2f} "
                f"| {t['mean'] * 1000:.2f} ± {t['stddev'] * 1000:.2f} |\n")
print(open(out).read())
EOF
echo "bench: table in $out/attacks.md"
