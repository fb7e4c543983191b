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

plan
exit 0
