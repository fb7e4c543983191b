#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libnss_dnstrust.so.2 as glibc will load it: its soname, the symbols it
# exports (the _nss_dnstrust_* entry points and nothing else: libdnstrust
# is linked in and stays local), and what it needs at run time (neither
# libdnstrust.so nor OpenSSL).
#
# usage: nss_symbols.sh MODULE        (TAP on stdout)
set -u

MODULE=$1
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

want="_nss_dnstrust_gethostbyaddr2_r
_nss_dnstrust_gethostbyaddr_r
_nss_dnstrust_gethostbyname2_r
_nss_dnstrust_gethostbyname3_r
_nss_dnstrust_gethostbyname4_r
_nss_dnstrust_gethostbyname_r"

check "the file is named libnss_dnstrust.so.2" \
	test "$(basename "$MODULE")" = libnss_dnstrust.so.2
soname=$(readelf -d "$MODULE" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
check "its soname is libnss_dnstrust.so.2 ($soname)" \
	test "$soname" = libnss_dnstrust.so.2

# Defined dynamic symbols, without the version suffix.
got=$(nm -D --defined-only "$MODULE" | awk '{ print $3 }' |
	sed 's/@.*//' | sort -u)
if [ "$got" = "$want" ]; then
	ok "exports exactly the six _nss_dnstrust_* entry points"
else
	not_ok "exports exactly the six _nss_dnstrust_* entry points" \
		"$(diff <(echo "$want") <(echo "$got"))"
fi
types=$(nm -D --defined-only "$MODULE" | awk '{ print $2 }' | sort -u)
check "all of them functions (T), no data ($types)" test "$types" = T

needed=$(readelf -d "$MODULE" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
check "needs neither libdnstrust.so nor libcrypto ($(echo $needed))" \
	bash -c "! echo '$needed' | grep -q -e libdnstrust -e libcrypto"
check "needs libc" bash -c "echo '$needed' | grep -q '^libc\.so'"

undef=$(nm -D --undefined-only "$MODULE" | awk '{ print $2 }' |
	grep -e '^dt_' -e '^dtlib_' -e '^dtnss_' -e '^wire_')
check "no libdnstrust or module symbol left undefined" test -z "$undef"

# The in-process engine (src/inproc, the resolver core and the validator)
# stays out: the module never sets a mode, and only src/lib/mode.c
# reaches the engine. The symbol table (nm without -D) still names the
# functions linked in.
engine=$(nm "$MODULE" 2>/dev/null | awk '{ print $NF }' |
	grep -E '^(inproc_|engine_ask$|rsv_|val_response_|dt_ctx_set_mode$)' |
	head -5 | tr '\n' ' ')
check "links none of the in-process engine (${engine:-none})" \
	test -z "$engine"
check "the symbol table is there to look in" \
	bash -c "nm '$MODULE' 2>/dev/null | grep -q dtlib_exchange"

plan
exit 0
