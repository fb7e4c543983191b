#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes expected-fail.txt from what the runner does now: every peer
# scenario that fails, with the category of its failure. Run after a
# change that makes scenarios pass (the list may only shrink), and
# review the diff:
#   tests/replay/peer/update-expected.sh [BUILDDIR]   (default: build)
# shellcheck shell=sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../../build}" && pwd)
. "$here/category.sh"
runner="$build/tests/replay/replay"
[ -x "$runner" ] || { echo "no runner at $runner (ninja -C BUILDDIR first)" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	echo "# Peer scenarios dnstrust disagrees with (tests/replay/peer/README):"
	echo "# file, then the category of the failure. Written by update-expected.sh."
	(cd "$here" && "$runner" -p unbound/*.rpl deckard/*.rpl 2>/dev/null || true) |
		while IFS= read -r line; do
			case $line in
			"FAIL "*)
				file=${line#FAIL }
				file=${file%%: *}
				printf '%s %s\n' "$file" "$(printf '%s\n' "$line" | category)" ;;
			esac
		done
} >"$tmp"
mv "$tmp" "$here/expected-fail.txt"
trap - EXIT
grep -v '^#' "$here/expected-fail.txt" | awk '{ print $2 }' | sort | uniq -c | sort -rn
