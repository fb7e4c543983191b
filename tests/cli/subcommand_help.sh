#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Each subcommand's --help (every command `dnstrust --help` lists): exit
# 0, an "options:" block that names every option dnstrust(1)'s SYNOPSIS
# gives the command, and no option the man page does not document.
#
# usage: subcommand_help.sh DNSTRUST DNSTRUST_1        (TAP on stdout)
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
dt=$1 man=$2

# The commands, from the top-level usage's "commands:" block.
cmds=$("$dt" --help | awk '/^commands:/ { on = 1; next }
	on && /^  [a-z]/ { print $1 } on && !/^  / { on = 0 }')
check "dnstrust --help lists the commands ($(echo $cmds | wc -w))" \
	test -n "$cmds"

# synopsis CMD: the long options of CMD's SYNOPSIS lines in dnstrust(1),
# one a line ("\-\-name" as --name).
synopsis() {
	awk -v cmd="$1" '
		/^\.SH / { insyn = ($2 == "SYNOPSIS") }
		!insyn { next }
		/^\.B dnstrust / { c = $3; gsub(/\\/, "", c); on = (c == cmd) }
		/^\.br/ { on = 0 }
		on { print }' "$man" | sed 's/\\-/-/g' |
		grep -o -- '--[a-z][a-z-]*' | sort -u
}

for c in $cmds; do
	help=$("$dt" "$c" --help 2>&1)
	rc=$?
	want=$(synopsis "$c")
	check "$c --help: exit 0" test "$rc" -eq 0
	check "$c: dnstrust(1)'s SYNOPSIS has it" test -n "$want"
	check "$c --help: an options: block" grep -qx "options:" <<<"$help"
	opts=$(sed -n '/^options:/,$p' <<<"$help")
	missing=""
	for o in $want; do
		grep -q -- "$o\b" <<<"$opts" || missing="$missing $o"
	done
	check "$c --help names its options ($(echo $want))${missing:+; missing:$missing}" \
		test -z "$missing"
	undoc=""
	for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$opts" | sort -u); do
		[ "$o" = --help ] && continue
		sed 's/\\-/-/g' "$man" | grep -q -- "$o\b" || undoc="$undoc $o"
	done
	check "$c --help: every option is in dnstrust(1)${undoc:+; not:$undoc}" \
		test -z "$undoc"
done
finish
