#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libdnstrust against dnstrustd in the integration lab (tests/lab/lab.sh):
# lab_check.c with the daemon running (the lab's truth table through
# dt_query and dt_getaddrinfo, key material, dt_res_query,
# dt_trust_available), with no nameserver answering it (indeterminate),
# with it stopped, and with the opt-in fallback in a private mount
# namespace whose /etc/resolv.conf names the lab's validating Unbound; and
# the example program of libdnstrust(3).
#
# usage: lab_lib.sh DNSTRUSTD LAB_CHECK DT_LOOKUP LAB_SH   (TAP on stdout)
set -u

DNSTRUSTD=$1 LAB_CHECK=$2 DT_LOOKUP=$3 LAB_SH=$4
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

# Runs a command printing "ok - ..." lines and numbers them.
numbered() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done < <("$@" 2>&1)
}

lab_start lab-lib

cat >"$conf" <<EOF
# written by lab_lib.sh
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 5
log-level info
EOF

check "dnstrustd starts" start_daemon

# --- the daemon answers ---

numbered "$LAB_CHECK" up "$sock" "$LAB_EXPECT"

# --- the example program of libdnstrust(3) ---

has() { printf '%s\n' "$1" | grep -qE -- "$2"; } # TEXT, extended regex
out=$("$DT_LOOKUP" -s "$sock" www.secure.lab 2>&1)
rc=$?
check "example: www.secure.lab, exit 0" test $rc = 0
check "example: its IPv4 address, secure" \
	has "$out" '^www\.secure\.lab address 192\.0\.2\.1 secure$'
check "example: its IPv6 address, secure" \
	has "$out" '^www\.secure\.lab address 2001:db8:1::1 secure$'
check "example: its TXT record" \
	has "$out" '^www\.secure\.lab\.[[:space:]]+[0-9]+[[:space:]]+IN[[:space:]]+TXT[[:space:]]+"www\.secure\.lab"$'
check "example: the TXT answer is secure" \
	has "$out" '^www\.secure\.lab TXT rcode 0 secure$'
out=$("$DT_LOOKUP" -s "$sock" www.insecure.lab 2>&1)
check "example: www.insecure.lab is insecure" \
	has "$out" '^www\.insecure\.lab address 192\.0\.2\.40 insecure$'
out=$("$DT_LOOKUP" -s "$sock" www.expired.lab 2>&1)
rc=$?
check "example: www.expired.lab fails (exit 1), status bogus" \
	test $rc = 1
check "example: no address of www.expired.lab shown" \
	bash -c '! printf "%s\n" "$1" | grep -q address' _ "$out"
check "example: its error says bogus" has "$out" 'status bogus'

# --- no nameserver answers the daemon: indeterminate ---

check "dnstrustd stops" stop_daemon
printf 'nameserver %s.99\n' "$LAB_NET" >"$work/dead.conf"
sed -i "s|^resolv-conf .*|resolv-conf $work/dead.conf|" "$conf"
check "dnstrustd starts with a nameserver that does not answer" start_daemon
numbered "$LAB_CHECK" nouplink "$sock"

# --- the daemon stopped ---

check "dnstrustd stops" stop_daemon
numbered "$LAB_CHECK" down "$sock"
"$DT_LOOKUP" -s "$sock" www.secure.lab >"$work/down.out" 2>&1
rc=$?
check "example: daemon stopped, exit 2" test $rc = 2

# --- the opt-in fallback: resolv.conf names the validating Unbound, whose
# AD bit must not survive ---

numbered unshare -m bash -c \
	'mount --bind "$1" /etc/resolv.conf && exec "$2" fallback "$3"' \
	_ "$LAB_VALIDATOR_RESOLV_CONF" "$LAB_CHECK" "$sock"

plan
if [ "$failed" -ne 0 ] && [ -s "$dlog" ]; then
	echo "# daemon log (last 20 lines):"
	tail -20 "$dlog" | sed 's/^/#   /'
fi
exit 0
