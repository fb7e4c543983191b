#!/bin/sh
# SPDX-License-Identifier: MIT
#
# include/dnstrust.h compiles alone in strict ISO C (no POSIX feature
# macros) and in C++, without a warning.
#
# usage: header_c11.sh CC INCLUDE_DIR        (TAP on stdout)
set -u

CC=$1 INC=$2
work=$(mktemp -d /tmp/dt-header.XXXXXX)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
printf '#include <dnstrust.h>\nint main(void) { return 0; }\n' >"$work/h.c"
for std in c99 c11 c17; do
	n=$((n + 1))
	if out=$($CC -std=$std -Wall -Wextra -pedantic -Werror -I"$INC" \
		-c "$work/h.c" -o "$work/h.o" 2>&1); then
		echo "ok $n - dnstrust.h under -std=$std -Wall -Wextra -pedantic -Werror"
	else
		failed=$((failed + 1))
		echo "not ok $n - dnstrust.h under -std=$std -pedantic -Werror"
		echo "$out" | sed 's/^/#   /'
	fi
done
n=$((n + 1))
if command -v g++ >/dev/null; then
	cp "$work/h.c" "$work/h.cc"
	if out=$(g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$INC" \
		-c "$work/h.cc" -o "$work/h.o" 2>&1); then
		echo "ok $n - dnstrust.h in C++11"
	else
		failed=$((failed + 1))
		echo "not ok $n - dnstrust.h in C++11"
		echo "$out" | sed 's/^/#   /'
	fi
else
	echo "ok $n # SKIP no g++"
fi
echo "1..$n"
[ "$failed" = 0 ]
