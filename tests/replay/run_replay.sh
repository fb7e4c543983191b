#!/bin/sh
# Runs the replay runner over every scenario of a folder, as TAP: one test
# per scenario, and one more that the runner's last line says none failed
# (and that it exited 0).
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
runner=$1
dir=$2
out=$("$runner" "$dir"/*.rpl)
status=$?
printf '%s\n' "$out" | sed -n '$!p' | {
	while IFS= read -r line; do
		case $line in
		"PASS "*) ok "${line#PASS }" ;;
		*) not_ok "${line#FAIL }" ;;
		esac
	done
	last=$(printf '%s\n' "$out" | tail -n 1)
	case $last in
	[1-9]*" passed, 0 failed")
		if [ "$status" -eq 0 ]; then
			ok "$last"
		else
			not_ok "$last, but exit status $status"
		fi ;;
	*) not_ok "last line: $last (exit status $status)" ;;
	esac
	plan
}
case $(printf '%s\n' "$out" | tail -n 1) in
[1-9]*" passed, 0 failed") [ "$status" -eq 0 ] && exit 0 ;;
esac
exit 1
