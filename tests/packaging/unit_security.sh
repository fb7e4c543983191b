#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dnstrustd.service as built: systemd-analyze's offline security review
# rates its exposure at most 2.0 (of 10), systemd-analyze verify finds
# nothing wrong with it and dnstrustd.socket, and the unit keeps the
# settings the daemon relies on.
#
# usage: unit_security.sh UNIT SOCKET_UNIT     (TAP on stdout; SOCKET_UNIT
# when none is beside UNIT)
set -u

UNIT=$1 SOCKET=${2:-}
MAX=2.0
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

if ! command -v systemd-analyze >/dev/null; then
	skip_all "systemd-analyze not installed"
fi
out=$(systemd-analyze security --offline=true "$UNIT" 2>&1)
level=$(echo "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
if [ -n "$level" ] && awk -v l="$level" -v m="$MAX" 'BEGIN { exit !(l <= m) }'; then
	ok "exposure $level, at most $MAX"
else
	not_ok "exposure '$level', at most $MAX" "$(echo "$out" | grep -E '✗|Overall')"
fi
# Every directive known to this systemd (the binaries need not be
# installed where the unit names them).
sock=$(dirname "$UNIT")/dnstrustd.socket
[ -e "$sock" ] || sock=$SOCKET
out=$(systemd-analyze verify --man=no "$UNIT" "$sock" 2>&1 |
	grep -v 'is not executable: No such file or directory')
if [ -z "$out" ]; then
	ok "systemd-analyze verify: the service and the socket"
else
	not_ok "systemd-analyze verify: the service and the socket" "$out"
fi
for want in Type=notify ExecReload= Before=nss-lookup.target \
	Wants=nss-lookup.target Requires=dnstrustd.socket User=_dnstrust \
	StateDirectory=dnstrust; do
	if grep -q "^$want" "$UNIT"; then
		ok "$want"
	else
		not_ok "$want"
	fi
done
finish
