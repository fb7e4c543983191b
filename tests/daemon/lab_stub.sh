#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Where dnstrustd finds the network's servers (upstream-source) and stub
# mode (stub-resolv-conf), in the integration lab: for each layout a host
# may have (a plain resolv.conf-format file, NetworkManager's no-stub
# file, systemd-resolved's file, a resolvconf directory of per-interface
# files) dnstrustd asks the servers listed, follows changes, and writes
# a resolv.conf naming its own listener with options edns0 trust-ad and
# the source's search list, replaced whole when the source changes. A
# Go-style client (a plain UDP resolver that reads that file and asks its
# first nameserver, AD requested) gets AD=1 for a signed name and
# SERVFAIL for a tampered one. A source that lists dnstrustd's own
# listener has it skipped, with a warning in the log and in status; a
# configuration whose source is /etc/resolv.conf is refused stub mode.
#
# usage: lab_stub.sh DNSTRUSTD DTQ LAB_SH DNSTRUST     (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 DNSTRUST=$4
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
lab_start lab-stub
listen=$LAB_NET.105
dead=$LAB_NET.94
stub=$work/stub/resolv.conf
# The stub's directory is the daemon's user's, as /run/dnstrust/stub is
# in the package: it rewrites the file after dropping root.
duser=nobody
id _dnstrust >/dev/null 2>&1 && duser=_dnstrust
mkdir -p "$work/stub" "$work/nm" "$work/resolve" "$work/ifaces"
chown "$duser" "$work/stub"

# put FILE: stdin written next to FILE, then renamed over it, as
# NetworkManager, systemd-resolved and resolvconf replace their files.
put() {
	cat >"$1.tmp"
	chmod 644 "$1.tmp"
	mv "$1.tmp" "$1"
}
conf_with() { # conf_with SOURCE-LINE: the configuration for one source
	cat >"$conf" <<EOF2
socket $sock
listen $listen@53
$1
stub-resolv-conf $stub
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
resolution forward
threads 2
log-level info
EOF2
}
status() { q -c CH status.dnstrust. TXT; }
upstreams() { status | sed -n 's/^txt=upstream=//p' | tr '\n' ' '; }
upstreams_are() { [ "$(upstreams)" = "$1 " ]; }
stub_search() { sed -n 's/^search //p' "$stub"; }
stub_search_is() { [ "$(stub_search)" = "$1" ]; }
note() { echo "$*" | diag; }

# The Go-style client: reads the resolv.conf it is given like a program
# that does not use NSS, asks its first nameserver over UDP with RD and
# AD set, and prints "RCODE ad|noad".
go_client() { # go_client RESOLV_CONF NAME
	python3 - "$1" "$2" <<'EOF2'
import socket, struct, sys, random
ns = None
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 2 and w[0] == "nameserver":
        ns = w[1]
        break
qid = random.randrange(65536)
q = struct.pack(">HHHHHH", qid, 0x0120, 1, 0, 0, 0)
for label in sys.argv[2].rstrip(".").split("."):
    q += bytes([len(label)]) + label.encode()
q += b"\0" + struct.pack(">HH", 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(10)
s.sendto(q, (ns, 53))
r, _ = s.recvfrom(4096)
rid, flags = struct.unpack(">HH", r[:4])
assert rid == qid
rcodes = {0: "NOERROR", 2: "SERVFAIL", 3: "NXDOMAIN", 5: "REFUSED"}
print(rcodes.get(flags & 15, str(flags & 15)),
      "ad" if flags & 0x20 else "noad")
EOF2
}

# --- a plain resolv.conf-format file (a DHCP client's) ---
printf 'nameserver %s\nsearch plain.example\n' "$LAB_RESOLVER" |
	put "$work/plain.conf"
conf_with "upstream-source file $work/plain.conf"
check "dnstrustd starts (upstream-source file)" start_daemon
check "  its servers: the file's ($(upstreams))" upstreams_are "$LAB_RESOLVER"
check "  status: upstream-source=file $work/plain.conf" \
	grep -qx "txt=upstream-source=file $work/plain.conf" <(status)
check "  the stub file is written" test -s "$stub"
note "$(cat "$stub")"
check "  it names the listener, and only it" \
	test "$(grep -c '^nameserver' "$stub")/$(sed -n 's/^nameserver //p' "$stub")" = "1/$listen"
check "  options edns0 trust-ad" grep -qx "options edns0 trust-ad" "$stub"
check "  the search list copied from the source" \
	test "$(stub_search)" = "plain.example"
check "  mode 0644, and no temporary file left" \
	test "$(stat -c %a "$stub")" = 644 -a ! -e "$stub.new"
ans=$(go_client "$stub" www.secure.lab.)
check "Go-style client through the stub: a signed name, AD=1 ($ans)" \
	test "$ans" = "NOERROR ad"
ans=$(go_client "$stub" www.tampered.lab.)
check "Go-style client through the stub: a tampered name, SERVFAIL ($ans)" \
	test "$ans" = "SERVFAIL noad"
ans=$(go_client "$stub" to-bogus.secure.lab.)
check "  and a CNAME to it, SERVFAIL ($ans)" test "$ans" = "SERVFAIL noad"
ans=$(dig @"$(awk '$1 == "nameserver" { print $2; exit }' "$stub")" \
	+tries=1 +time=8 +adflag www.secure.lab. A |
	awk '/^;; ->>HEADER/ { st = $6 } /^;; flags:/ { ad = / ad[ ;]/ }
	     END { print st, (ad ? "ad" : "noad") }')
check "dig at the stub's nameserver: AD=1 ($ans)" test "$ans" = "NOERROR, ad"
ino=$(stat -c %i "$stub")
printf 'nameserver %s\nsearch new.example other.example\n' "$LAB_RESOLVER" |
	put "$work/plain.conf"
check "the source's search list changes: the stub follows" \
	wait_for 50 stub_search_is "new.example other.example"
check "  replaced whole (a new inode, by rename)" \
	test "$(stat -c %i "$stub")" != "$ino"
check "dnstrustd stops cleanly" stop_daemon

# --- NetworkManager's no-stub file ---
{
	echo "# Generated by NetworkManager"
	echo "search corp.example"
	echo "nameserver $LAB_RESOLVER"
	echo "nameserver $dead"
} | put "$work/nm/no-stub-resolv.conf"
conf_with "upstream-source networkmanager $work/nm/no-stub-resolv.conf"
check "dnstrustd starts (upstream-source networkmanager)" start_daemon
check "  its servers: NetworkManager's ($(upstreams))" \
	upstreams_are "$LAB_RESOLVER $dead"
check "  status: upstream-source=networkmanager" \
	grep -q "^txt=upstream-source=networkmanager " <(status)
check "  the stub's search list: NetworkManager's" \
	test "$(stub_search)" = "corp.example"
printf '# Generated by NetworkManager\nnameserver %s\n' "$LAB_RESOLVER" |
	put "$work/nm/no-stub-resolv.conf"
check "NetworkManager drops a server: followed live" \
	wait_for 50 upstreams_are "$LAB_RESOLVER"
check "  the stub's search list goes too" \
	wait_for 50 stub_search_is ""
ans=$(go_client "$stub" www.secure.lab.)
check "  Go-style client: AD=1 ($ans)" test "$ans" = "NOERROR ad"
check "dnstrustd stops cleanly" stop_daemon

# --- systemd-resolved's file (the real servers, not 127.0.0.53) ---
{
	echo "# This is /run/systemd/resolve/resolv.conf managed by man:systemd-resolved(8)."
	echo "# Do not edit."
	echo "nameserver $LAB_RESOLVER"
	echo "search lan"
} | put "$work/resolve/resolv.conf"
conf_with "upstream-source resolved $work/resolve/resolv.conf"
check "dnstrustd starts (upstream-source resolved)" start_daemon
check "  its servers: systemd-resolved's ($(upstreams))" \
	upstreams_are "$LAB_RESOLVER"
check "  the stub's search list: resolved's" test "$(stub_search)" = "lan"
ans=$(go_client "$stub" www.tampered.lab.)
check "  Go-style client: tampered name SERVFAIL ($ans)" \
	test "$ans" = "SERVFAIL noad"
check "dnstrustd stops cleanly" stop_daemon

# --- a resolvconf directory, one file per interface ---
printf 'nameserver %s\nsearch vpn.example\n' "$LAB_RESOLVER" |
	put "$work/ifaces/01-tun0"
printf 'nameserver %s\nnameserver %s\nsearch home.lan vpn.example\n' \
	"$dead" "$LAB_RESOLVER" | put "$work/ifaces/02-wlan0"
printf 'nameserver 192.0.2.1\n' >"$work/ifaces/.03-eth0.tmp"
conf_with "upstream-source resolvconf $work/ifaces"
check "dnstrustd starts (upstream-source resolvconf)" start_daemon
check "  its servers: both interfaces', in order, each once ($(upstreams))" \
	upstreams_are "$LAB_RESOLVER $dead"
check "  the stub's search list: both interfaces', each once" \
	test "$(stub_search)" = "vpn.example home.lan"
rm "$work/ifaces/01-tun0"
check "the VPN interface goes: followed live" \
	wait_for 50 upstreams_are "$dead $LAB_RESOLVER"
check "  the stub's search list: the remaining interface's" \
	wait_for 50 stub_search_is "home.lan vpn.example"
ans=$(go_client "$stub" www.secure.lab.)
check "  Go-style client: AD=1 ($ans)" test "$ans" = "NOERROR ad"
check "dnstrustd stops cleanly" stop_daemon

# --- the loop check: never its own stub as an upstream ---
cp "$stub" "$work/copy-of-stub.conf"
printf 'nameserver %s\n' "$LAB_RESOLVER" >>"$work/copy-of-stub.conf"
conf_with "upstream-source file $work/copy-of-stub.conf"
: >"$dlog"
check "dnstrustd starts (a source that lists its own stub first)" start_daemon
check "  its own listener is skipped ($(upstreams))" \
	upstreams_are "$LAB_RESOLVER"
check "  the log says so" \
	grep -q "lists dnstrustd's own listener $listen: skipped" "$dlog"
check "  status says so" \
	grep -q "^txt=warning=.*lists dnstrustd's own listener $listen: skipped" \
	<(status)
ans=$(go_client "$stub" www.secure.lab.)
check "  answers still come, AD=1 ($ans)" test "$ans" = "NOERROR ad"
check "dnstrustd stops cleanly" stop_daemon

# --- stub mode needs a source other than /etc/resolv.conf ---
cat >"$work/etc.conf" <<EOF2
listen $listen@53
stub-resolv-conf $stub
EOF2
out=$("$DNSTRUSTD" -n -c "$work/etc.conf" 2>&1)
note "$out"
check "stub mode over /etc/resolv.conf is refused (dnstrustd -n)" \
	grep -q "stub-resolv-conf: the upstream source is /etc/resolv.conf" \
	<<<"$out"
finish
