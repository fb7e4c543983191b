#!/bin/sh
# SPDX-License-Identifier: MIT
#
# include/dnstrust.h compiles alone in strict ISO C (no POSIX feature
# macros) and in C++, without a warning.
#
# usage: header_c11.sh CC INCLUDE_DIR        (TAP on stdout)
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

CC=$1 INC=$2
work=$(mktemp -d /tmp/dt-header.XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '#include <dnstrust.h>\nint main(void) { return 0; }\n' >"$work/h.c"
for std in c99 c11 c17; do
	if out=$($CC -std=$std -Wall -Wextra -pedantic -Werror -I"$INC" \
		-c "$work/h.c" -o "$work/h.o" 2>&1); then
		ok "dnstrust.h under -std=$std -Wall -Wextra -pedantic -Werror"
	else
		not_ok "dnstrust.h under -std=$std -pedantic -Werror" "$out"
	fi
done
if command -v g++ >/dev/null; then
	cp "$work/h.c" "$work/h.cc"
	if out=$(g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$INC" \
		-c "$work/h.cc" -o "$work/h.o" 2>&1); then
		ok "dnstrust.h in C++11"
	else
		not_ok "dnstrust.h in C++11" "$out"
	fi
else
	skip "no g++"
fi
finish
