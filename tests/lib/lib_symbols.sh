#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libdnstrust.so as programs link it: its soname, and the symbols it
# exports: every function declared in include/dnstrust.h, each in the
# version node src/lib/libdnstrust.map gives it (DNSTRUST_1.0, or
# DNSTRUST_1.1 for the in-process mode), and nothing else (src/wire,
# src/common, src/inproc and the library's own insides stay local).
#
# usage: lib_symbols.sh LIBRARY HEADER        (TAP on stdout)
set -u

LIB=$1 HEADER=$2
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

soname=$(readelf -d "$LIB" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = libdnstrust.so.1 ]; then
	ok "soname libdnstrust.so.1"
else
	not_ok "soname libdnstrust.so.1" "got '$soname'"
fi

# The version of each symbol, from the version script beside the library's
# sources: "NAME NODE" for each global of each node.
MAP=$(dirname "$HEADER")/../src/lib/libdnstrust.map
nodes=$(awk '/^DNSTRUST_[0-9.]+ *\{/ { node = $1 }
	/global:/ { g = 1; next } /local:/ { g = 0 }
	/^}/ { g = 0 }
	g && /^[[:space:]]*dt_[a-z0-9_]+;/ {
		gsub(/[[:space:];]/, ""); print $0, node
	}' "$MAP")

# Functions of the header: an identifier dt_* followed by "(" at the
# start of a declaration (return type on the same line), each with the
# version the map gives it (NONE when it gives none).
want=$(grep -oE '^[a-z][^(;]*[ *]dt_[a-z0-9_]+\(' "$HEADER" |
	sed -E 's/.*(dt_[a-z0-9_]+)\($/\1/' | sort |
	while read -r f; do
		v=$(printf '%s\n' "$nodes" | awk -v f="$f" '$1 == f { print $2 }')
		echo "$f@@${v:-NONE}"
	done)
got=$(nm -D --defined-only "$LIB" | awk '$2 != "A" { print $3 }' | sort)
if [ "$got" = "$want" ]; then
	ok "exports exactly the $(echo "$want" | wc -l) functions of dnstrust.h, each in its version of libdnstrust.map"
else
	not_ok "exports exactly the functions of dnstrust.h" \
		"$(diff <(echo "$want") <(echo "$got"))"
fi
# The ABI only grows: DNSTRUST_1.0 keeps its 30 functions, and each later
# node adds to it.
n10=$(printf '%s\n' "$want" | grep -c '@@DNSTRUST_1\.0$')
check "DNSTRUST_1.0 keeps its 30 functions ($n10)" test "$n10" = 30
for v in DNSTRUST_1.0 DNSTRUST_1.1; do
	if nm -D --defined-only "$LIB" | awk '$2 == "A" { print $3 }' |
		grep -qx "$v"; then
		ok "version node $v"
	else
		not_ok "version node $v"
	fi
done
if grep -qE '^} DNSTRUST_1\.0;' "$MAP"; then
	ok "DNSTRUST_1.1 inherits DNSTRUST_1.0"
else
	not_ok "DNSTRUST_1.1 inherits DNSTRUST_1.0"
fi
plan
