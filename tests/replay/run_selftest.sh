#!/bin/sh
# The runner must fail where it should: each selftest/*.rpl names, in its
# "; expect-fail:" line, the reason its FAIL line must give (run with the
# options of its "; runner-flags:" line, if any).
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
runner=$1
dir=$2
for f in "$dir"/selftest/*.rpl; do
	want=$(sed -n 's/^; expect-fail: //p' "$f")
	flags=$(sed -n 's/^; runner-flags: //p' "$f")
	# shellcheck disable=SC2086 # flags are words
	out=$("$runner" $flags "$f")
	status=$?
	line=$(printf '%s\n' "$out" | head -n 1)
	if [ "$status" -eq 1 ] && [ "$line" = "FAIL $f: $want" ] &&
	   [ "$(printf '%s\n' "$out" | tail -n 1)" = "0 passed, 1 failed" ]; then
		ok "$(basename "$f")"
	else
		not_ok "$(basename "$f"): got '$line' (exit $status), want '$want'"
	fi
done
finish
