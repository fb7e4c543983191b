#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The resolvconf subscriber (etc/resolvconf/dnstrust) with a stand-in for
# Debian's resolvconf (list-records and its interface directory) and for
# openresolv (resolvconf -i / -l): each interface's record becomes
# NN-INTERFACE in the directory, NN its place in resolvconf's order; an
# interface gone loses its file; no hidden temporary is left; with no
# resolvconf at all the directory is emptied, and the hook exits 0.
#
# usage: resolvconf_hook.sh HOOK          (TAP on stdout)
set -u
HOOK=$1
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
t=$(mktemp -d /tmp/dt-rchook.XXXXXX)
trap 'rm -rf "$t"' EXIT
export DNSTRUST_INTERFACES=$t/interfaces
export DNSTRUST_RESOLVCONF_LIB=$t/lib DNSTRUST_RESOLVCONF_RUN=$t/run
mkdir -p "$t/lib" "$t/run" "$t/bin"
listing() { (cd "$t/interfaces" && ls -A | tr '\n' ' '); }

# Debian's resolvconf: list-records prints the records in its order.
printf '#!/bin/sh\necho tun0\necho wlan0\n' >"$t/lib/list-records"
chmod 755 "$t/lib/list-records"
printf 'nameserver 10.8.0.1\nsearch corp.example\n' >"$t/run/tun0"
printf 'nameserver 192.168.1.1\n' >"$t/run/wlan0"
check "Debian resolvconf: the hook exits 0" sh "$HOOK"
check "  one file per interface, in resolvconf's order ($(listing))" \
	test "$(listing)" = "01-tun0 02-wlan0 "
check "  each the interface's record" \
	cmp -s "$t/run/tun0" "$t/interfaces/01-tun0"
check "  readable by the daemon's user (0644)" \
	test "$(stat -c %a "$t/interfaces/02-wlan0")" = 644
printf '#!/bin/sh\necho wlan0\n' >"$t/lib/list-records"
sh "$HOOK"
check "the VPN goes: its file goes ($(listing))" \
	test "$(listing)" = "01-wlan0 "
check "  the remaining record kept" \
	grep -qx "nameserver 192.168.1.1" "$t/interfaces/01-wlan0"

# openresolv: resolvconf -i lists the interfaces, -l IFACE prints one.
rm -r "$t/lib"
cat >"$t/bin/resolvconf" <<'EOF2'
#!/bin/sh
case $1 in
-i) echo eth0 wg0 ;;
-l) echo "# resolv.conf from $2"; echo "nameserver 192.0.2.$([ "$2" = eth0 ] && echo 1 || echo 2)" ;;
*) exit 1 ;;
esac
EOF2
chmod 755 "$t/bin/resolvconf"
check "openresolv: the hook exits 0" env PATH="$t/bin:$PATH" sh "$HOOK"
check "  one file per interface, in openresolv's order ($(listing))" \
	test "$(listing)" = "01-eth0 02-wg0 "
check "  each the interface's record" \
	grep -qx "nameserver 192.0.2.2" "$t/interfaces/02-wg0"

rm "$t/bin/resolvconf"
check "no resolvconf at all: exits 0" env PATH="$t/bin:/usr/bin:/bin" sh "$HOOK"
check "  the directory left empty ($(listing))" test -z "$(listing)"
finish
