#!/bin/sh
# SPDX-License-Identifier: MIT
# The modules of dnstrustd call one another without a circle: from the
# object files of its sources (DIR, e.g. build/src/daemon/dnstrustd.p),
# each module's calls into the others are read with nm, and tsort must
# find an order. The resolver core (src/resolver) is a library below
# them and never calls them; it reports through callbacks. TAP output.
# usage: module_graph.sh DIR
set -u
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for o in "$dir"/*.o; do
	m=$(basename "$o" .c.o)
	nm --defined-only "$o" | awk -v m="$m" '$2 ~ /[TDBR]/ { print m, $3 }'
done >"$tmp/defs"
n_mod=$(ls "$dir"/*.o 2>/dev/null | wc -l)
for o in "$dir"/*.o; do
	m=$(basename "$o" .c.o)
	nm -u "$o" | awk -v m="$m" '{ print m, $2 }'
done >"$tmp/undefs"
# One pass: each module's undefined symbol joined to the module that
# defines it.
awk 'NR == FNR { def[$2] = $1; next }
	($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
	"$tmp/defs" "$tmp/undefs" | sort -u >"$tmp/edges"
check "the object files of $n_mod modules are there" [ "$n_mod" -ge 10 ]
check "modules call one another ($(wc -l <"$tmp/edges") edges)" \
	[ -s "$tmp/edges" ]
if tsort "$tmp/edges" >"$tmp/order" 2>"$tmp/err"; then
	ok "no circle among the modules of dnstrustd"
else
	not_ok "no circle among the modules of dnstrustd" \
		"$(cat "$tmp/err" "$tmp/edges")"
fi
# The resolver core is not among them: nothing of src/resolver defines
# a symbol these objects define, and the server never calls the core.
if grep -q '^server rsv_' "$tmp/edges" || nm -u "$dir"/server.c.o |
	grep -q ' rsv_'; then
	not_ok "server.c knows resolution only through resolve.c"
else
	ok "server.c knows resolution only through resolve.c"
fi
finish
