#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the replay runner over the peers' scenarios (unbound/, deckard/)
# and compares each outcome with expected-fail.txt, as TAP: a scenario
# agrees with its peer (passes) or is listed there; an unlisted failure
# and a listed scenario that passes both fail the test, so the list stays
# exact and can only shrink. Prints the agreement figure.
#   run_peer.sh RUNNER PEERDIR
# shellcheck shell=sh
. "${DT_HARNESS:-$(dirname "$0")/../../harness.sh}"
. "$(dirname "$0")/category.sh"
runner=$1
dir=$2
expected="$dir/expected-fail.txt"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
(cd "$dir" && "$runner" -p unbound/*.rpl deckard/*.rpl) >"$out" 2>/dev/null
total=0 agree=0
for suite in unbound deckard; do
	eval "t_$suite=0 a_$suite=0"
done
while IFS= read -r line; do
	case $line in
	"PASS "*) file=${line#PASS }; pass=1 ;;
	"FAIL "*) file=${line#FAIL }; file=${file%%: *}; pass=0 ;;
	*) continue ;;
	esac
	suite=${file%%/*}
	total=$((total + 1))
	eval "t_$suite=\$((t_$suite + 1))"
	listed=$(awk -v f="$file" '$1 == f { print $2 }' "$expected")
	if [ "$pass" -eq 1 ]; then
		agree=$((agree + 1))
		eval "a_$suite=\$((a_$suite + 1))"
		if [ -n "$listed" ]; then
			not_ok "$file passes but is listed ($listed): remove it from expected-fail.txt"
		else
			ok "$file agrees"
		fi
	elif [ -n "$listed" ]; then
		ok "$file disagrees as listed ($listed)"
	else
		why=$(printf '%s\n' "$line" | category)
		not_ok "$file fails and is not listed ($why)" "$line"
	fi
done <"$out"
# Every listed file must exist (a renamed or removed file is stale).
while read -r file _; do
	case $file in ''|'#'*) continue ;; esac
	[ -f "$dir/$file" ] || not_ok "$file is listed but not in $dir"
done <"$expected"
last=$(tail -n 1 "$out")
case $last in
*" passed, "*" failed") ok "runner finished: $last" ;;
*) not_ok "runner did not finish: $last" ;;
esac
if [ "$total" -gt 0 ]; then
	pct=$((agree * 1000 / total))
	printf "%s\n" "unbound: agree $a_unbound of $t_unbound; deckard: agree $a_deckard of $t_deckard" | diag
	printf "%s\n" "agree $agree of $total in scope, $((pct / 10)).$((pct % 10))%" | diag
	echo "agree $agree of $total in scope, $((pct / 10)).$((pct % 10))%" >&2
fi
finish
