#!/bin/sh
# Runs the replay runner over every scenario of a folder, as TAP: one test
# per scenario, and one more that the runner's last line says none failed
# (and that it exited 0).
runner=$1
dir=$2
out=$("$runner" "$dir"/*.rpl)
status=$?
n=0
printf '%s\n' "$out" | sed -n '$!p' | {
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		"PASS "*) echo "ok $n - ${line#PASS }" ;;
		*) echo "not ok $n - ${line#FAIL }" ;;
		esac
	done
	last=$(printf '%s\n' "$out" | tail -n 1)
	n=$((n + 1))
	case $last in
	[1-9]*" passed, 0 failed")
		if [ "$status" -eq 0 ]; then
			echo "ok $n - $last"
		else
			echo "not ok $n - $last, but exit status $status"
		fi ;;
	*) echo "not ok $n - last line: $last (exit status $status)" ;;
	esac
	echo "1..$n"
}
case $(printf '%s\n' "$out" | tail -n 1) in
[1-9]*" passed, 0 failed") [ "$status" -eq 0 ] && exit 0 ;;
esac
exit 1
