#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The EXAMPLE of libdnstrust(3) is docs/examples/dt-lookup.c, verbatim
# (the program the lab test builds and runs).
#
# usage: man_example.sh MAN_PAGE EXAMPLE_C        (TAP on stdout)
set -u
man=$1 example=$2
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
# The first .EX block after .SH EXAMPLE, roff escapes undone.
if diff=$(sed -n '/^\.SH EXAMPLE/,/^\.EE/p' "$man" |
	sed '1,/^\.EX/d; /^\.EE/d' |
	sed 's/^\\&//; s/\\-/-/g; s/\\e/\\/g' | diff -u - "$example"); then
	ok "the EXAMPLE of $(basename "$man") is $(basename "$example")"
else
	not_ok "the EXAMPLE of $(basename "$man") differs from $(basename "$example")" \
		"$diff"
fi
plan
