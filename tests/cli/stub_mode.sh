#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrust stub enable|disable|status on a temporary resolv.conf (never
# the host's): enable makes it a link to stub-resolv-conf and keeps the
# original (a file, or a link with its target) next to it; disable puts
# the original back exactly; enable refuses while the stub file is
# missing, when the daemon's source is the file replaced, and when an
# earlier original is still kept; disable refuses to clobber a file put
# there since. TAP output.
#
# usage: stub_mode.sh DNSTRUST
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
dt=$1
t=$(mktemp -d /tmp/dt-stub.XXXXXX)
trap 'rm -rf "$t"' EXIT
resolv=$t/resolv.conf
cat >"$t/dnstrust.conf" <<EOF2
upstream-source file $t/upstreams.conf
listen 127.0.0.53@53
stub-resolv-conf $t/stub.conf
EOF2
stub() { "$dt" stub "$1" --config "$t/dnstrust.conf" --resolv-conf "$resolv"; }
quiet() { stub "$1" >/dev/null; }
printf 'nameserver 192.0.2.1\n' >"$resolv"
printf 'nameserver 127.0.0.53\noptions edns0 trust-ad\n' >"$t/stub.conf"

check "status: off at first" grep -q "^off:" <(stub status)
check "enable succeeds" quiet enable
check "  resolv.conf is a link to the stub file" \
	test "$(readlink "$resolv")" = "$t/stub.conf"
check "  the original kept whole" \
	grep -qx "nameserver 192.0.2.1" "$resolv.dnstrust-orig"
check "  no temporary name left" test ! -e "$resolv.dnstrust-new"
check "  status: on" grep -q "^on: $resolv -> $t/stub.conf" <(stub status)
check "enable again: already on, nothing changed" \
	grep -q "already on" <(stub enable)
check "disable succeeds" quiet disable
check "  the original file is back" \
	test -f "$resolv" -a ! -L "$resolv" -a ! -e "$resolv.dnstrust-orig"
check "  with its content" grep -qx "nameserver 192.0.2.1" "$resolv"
check "disable again: nothing to do, exit 0" quiet disable

# An original that is a link (systemd-resolved's, resolvconf's) comes
# back as that link.
rm "$resolv"
ln -s ../run/elsewhere/resolv.conf "$resolv"
check "enable over a link" quiet enable
check "  the link kept as the original" \
	test "$(readlink "$resolv.dnstrust-orig")" = ../run/elsewhere/resolv.conf
stub disable >/dev/null
check "disable: the same link back" \
	test "$(readlink "$resolv")" = ../run/elsewhere/resolv.conf

# Refusals leave resolv.conf as it was.
rm "$resolv"
printf 'nameserver 192.0.2.1\n' >"$resolv"
mv "$t/stub.conf" "$t/stub.away"
stub enable >/dev/null 2>"$t/err"
check "enable refused while dnstrustd has not written the stub file" \
	test $? -eq 1 -a -f "$resolv" -a ! -L "$resolv" -a ! -e "$resolv.dnstrust-orig"
check "  saying why" grep -q "dnstrustd writes it once started" "$t/err"
mv "$t/stub.away" "$t/stub.conf"
sed -i "s|^upstream-source .*|upstream-source file $resolv|" "$t/dnstrust.conf"
stub enable >/dev/null 2>"$t/err"
check "enable refused when the daemon's source is the file replaced" \
	test $? -eq 1 -a ! -L "$resolv"
check "  saying why" grep -q "which stub mode replaces" "$t/err"
sed -i "s|^upstream-source .*|upstream-source file $t/upstreams.conf|" \
	"$t/dnstrust.conf"
echo old >"$resolv.dnstrust-orig"
stub enable >/dev/null 2>"$t/err"
check "enable refused while an earlier original is kept" \
	test $? -eq 1 -a ! -L "$resolv" -a "$(cat "$resolv.dnstrust-orig")" = old
rm "$resolv.dnstrust-orig"
stub enable >/dev/null
printf 'nameserver 198.51.100.1\n' >"$resolv.other"
mv "$resolv.other" "$resolv"
stub disable >/dev/null 2>"$t/err"
check "disable refuses to clobber a file put in place since" \
	test $? -eq 1 -a "$(cat "$resolv")" = "nameserver 198.51.100.1" -a \
	-e "$resolv.dnstrust-orig"
"$dt" stub frobnicate >/dev/null 2>&1
check "an unknown verb: usage, exit 64" test $? -eq 64
finish
