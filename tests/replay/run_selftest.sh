#!/bin/sh
# The runner must fail where it should: each selftest/*.rpl names, in its
# "; expect-fail:" line, the reason its FAIL line must give.
runner=$1
dir=$2
bad=0
n=0
for f in "$dir"/selftest/*.rpl; do
	n=$((n + 1))
	want=$(sed -n 's/^; expect-fail: //p' "$f")
	out=$("$runner" "$f")
	status=$?
	line=$(printf '%s\n' "$out" | head -n 1)
	if [ "$status" -eq 1 ] && [ "$line" = "FAIL $f: $want" ] &&
	   [ "$(printf '%s\n' "$out" | tail -n 1)" = "0 passed, 1 failed" ]; then
		echo "ok $n - $(basename "$f")"
	else
		echo "not ok $n - $(basename "$f"): got '$line' (exit $status), want '$want'"
		bad=1
	fi
done
echo "1..$n"
exit $bad
