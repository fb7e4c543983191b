#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of src/ (docs/DESIGN.md, "Layers"): the table there lists
# the folders lowest first, and a folder includes only its own headers
# and those of folders listed before it. Checked here from the sources:
# - the table names every folder under src/ once, and no other;
# - src/meson.build builds the folders in the table's order;
# - every `#include "x/..."` under src/ names a folder at or below the
#   includer's.
# TAP output.
# usage: layer_includes.sh SRCROOT
set -u
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The table's folders, in its order: rows "| `src/NAME` | ...".
sed -n '/^## Layers/,/^### /p' "$root/docs/DESIGN.md" |
	sed -n 's/^| `src\/\([a-z0-9_]*\)` |.*/\1/p' >"$tmp/order"
(cd "$root/src" && for d in */; do echo "${d%/}"; done) | sort >"$tmp/dirs"
sort "$tmp/order" >"$tmp/table"
check "DESIGN.md lists $(wc -l <"$tmp/order") layers" [ -s "$tmp/order" ]
if cmp -s "$tmp/table" "$tmp/dirs" &&
	[ "$(sort -u "$tmp/order" | wc -l)" -eq "$(wc -l <"$tmp/order")" ]; then
	ok "the layer table names each folder of src/ once"
else
	not_ok "the layer table names each folder of src/ once" \
		"$(diff "$tmp/table" "$tmp/dirs")"
fi

# The build's order: where src/meson.build enters each folder, by
# subdir('NAME') or, for the folders it builds itself, its last 'NAME/
# source.
: >"$tmp/built"
while read -r d; do
	l=$(grep -n "^subdir('$d')" "$root/src/meson.build" | cut -d: -f1)
	[ -n "$l" ] || l=$(grep -n "'$d/" "$root/src/meson.build" |
		tail -n 1 | cut -d: -f1)
	echo "${l:-0} $d" >>"$tmp/built"
done <"$tmp/order"
if ! grep -q '^0 ' "$tmp/built" &&
	sort -n -k1,1 "$tmp/built" | cut -d' ' -f2 | cmp -s - "$tmp/order"; then
	ok "src/meson.build builds the layers in the table's order"
else
	not_ok "src/meson.build builds the layers in the table's order" \
		"$(sort -n "$tmp/built")"
fi

# Every include between folders: "FROM TO FILE:LINE".
(cd "$root" && grep -rn '^#[[:space:]]*include[[:space:]]*"[a-z0-9_]*/' src \
	--include='*.c' --include='*.h') |
	sed 's/^src\/\([a-z0-9_]*\)\/\([^:]*:[0-9]*\):.*include[[:space:]]*"\([a-z0-9_]*\)\/.*/\1 \3 src\/\1\/\2/' \
		>"$tmp/includes"
check "includes between folders found ($(wc -l <"$tmp/includes"))" \
	[ "$(wc -l <"$tmp/includes")" -ge 100 ]
awk 'NR == FNR { rank[$1] = FNR; next }
	!($1 in rank) || !($2 in rank) {
		print $3 ": " $1 " includes " $2 " (not in the table)"; next
	}
	rank[$2] > rank[$1] {
		print $3 ": " $1 " includes " $2 ", a layer above it"
	}' "$tmp/order" "$tmp/includes" >"$tmp/up"
if [ -s "$tmp/up" ]; then
	not_ok "no folder includes a folder above it" "$(cat "$tmp/up")"
else
	ok "no folder includes a folder above it"
fi
finish
