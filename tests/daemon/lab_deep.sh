#!/bin/bash
# SPDX-License-Identifier: MIT
#
# A long chain of trust in the integration lab (LAB_DEEP=1: deep.lab. >
# d3 > d4 > d5, five zone cuts below the root): a cold name at each depth
# validates secure through dnstrustd, its chain fetched at once; the
# walk nests one DS validation inside another per cut.
#
# usage: lab_deep.sh DNSTRUSTD DTQ LAB_SH        (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
export LAB_DEEP=1
lab_start lab-deep
cat >"$conf" <<EOF2
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 1
query-timeout 5
EOF2
check "dnstrustd starts" start_daemon
for name in h1.deep.lab. h1.d3.deep.lab. h1.d4.d3.deep.lab. \
	h1.d5.d4.d3.deep.lab.; do
	stop_daemon >/dev/null
	start_daemon
	out=$(q "$name" A)
	st=$(echo "$out" | field status)
	check "cold $name ($(($(echo "$name" | tr -cd . | wc -c) - 1)) cuts): secure ($st)" \
		[ "$st" = secure ]
done
out=$(q h2.d5.d4.d3.deep.lab. A)
check "a second name at depth 5, keys cached: secure" \
	[ "$(echo "$out" | field status)" = secure ]
finish
