#!/bin/sh
# Runs each libFuzzer target for a bounded time on a scratch copy of its
# seed corpus, so new inputs never land in the repository. A crash leaves
# its input in tests/fuzz/artifacts/ and fails the run.
# usage: fuzz.sh BUILD_DIR SECONDS TARGET...
set -u
build=$1 secs=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
art="$top/tests/fuzz/artifacts"
mkdir -p "$art"
status=0
for t in "$@"; do
	scratch=$(mktemp -d)
	echo "fuzz: $t for ${secs}s"
	if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" \
		-max_len=65535 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$art/$t-" -print_final_stats=1 \
		"$scratch" "$top/tests/fuzz/corpus/$t" 2>"$scratch.log"; then
		echo "fuzz: $t FAILED; see $scratch.log and $art" >&2
		tail -40 "$scratch.log" >&2
		status=1
	else
		grep -E "stat::number_of_executed_units|cov:" "$scratch.log" |
			tail -2
		rm -f "$scratch.log"
	fi
	rm -rf "$scratch"
done
exit $status
