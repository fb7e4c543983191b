#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libdnstrust.so as programs link it: its soname, and the symbols it
# exports: every function declared in include/dnstrust.h, each in version
# DNSTRUST_1.0, and nothing else (src/wire, src/common and the library's
# own insides stay local).
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

# Functions of the header: an identifier dt_* followed by "(" at the
# start of a declaration (return type on the same line).
want=$(grep -oE '^[a-z][^(;]*[ *]dt_[a-z0-9_]+\(' "$HEADER" |
	sed -E 's/.*(dt_[a-z0-9_]+)\($/\1@@DNSTRUST_1.0/' | sort)
got=$(nm -D --defined-only "$LIB" | awk '$2 != "A" { print $3 }' | sort)
if [ "$got" = "$want" ]; then
	ok "exports exactly the $(echo "$want" | wc -l) functions of dnstrust.h, version DNSTRUST_1.0"
else
	not_ok "exports exactly the functions of dnstrust.h" \
		"$(diff <(echo "$want") <(echo "$got"))"
fi
if nm -D --defined-only "$LIB" | awk '$2 == "A" { print $3 }' |
	grep -qx DNSTRUST_1.0; then
	ok "version node DNSTRUST_1.0"
else
	not_ok "version node DNSTRUST_1.0"
fi
plan
