#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrust audit on crafted hosts, each in a private mount namespace: the
# test's own resolv.conf and nsswitch.conf are bind-mounted over /etc's,
# a tmpfs covers /run, and dnstrustd (or an impostor) serves
# /run/dnstrust/socket there. The host's /etc and /run are never touched:
# the last check compares the host's /etc files before and after, and
# looks for the mark this test leaves in its own /run/dnstrust (other
# tests of the same run may make the host's /run/dnstrust meanwhile).
#
# usage: audit.sh DNSTRUST DNSTRUSTD      (TAP on stdout; needs root)
set -u

DNSTRUST=$1 DNSTRUSTD=$2
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

if [ "${DT_AUDIT_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ] || ! unshare --mount true 2>/dev/null; then
		skip_all "needs root and unshare --mount"
	fi
	for tool in python3 setpriv; do
		if ! command -v "$tool" >/dev/null; then
			skip_all "needs $tool"
		fi
	done
	host_files=$(sha256sum /etc/resolv.conf /etc/nsswitch.conf 2>&1)
	work=$(mktemp -d /tmp/dt-audit.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	DT_AUDIT_INSIDE=1 DT_AUDIT_WORK=$work \
		unshare --mount --propagation private -- \
		"$BASH" "$0" "$DNSTRUST" "$DNSTRUSTD"
	rc=$?
	n=$(cat "$work/count" 2>/dev/null || echo 0) # the checks inside
	now=$(sha256sum /etc/resolv.conf /etc/nsswitch.conf 2>&1)
	mark=/run/dnstrust/${work##*/}
	if [ "$now" = "$host_files" ] && [ -e "$work/marked" ] &&
		[ ! -e "$mark" ]; then
		ok "the host's /etc/resolv.conf and /etc/nsswitch.conf are untouched, and its /run has not the test's $mark"
	else
		not_ok "the host's files changed" \
			"$(echo "$host_files"; echo "$now"; ls -la "$mark" 2>&1)"
		rc=1
	fi
	plan
	exit "$rc"
fi

# --- inside the namespace ---

work=$DT_AUDIT_WORK
dpid="" fpid=""
stop_pid() { # PID: ends a process this script started
	[ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
	return 0
}
inside_done() { # the count of checks for the outer part
	stop_pid "$dpid"
	stop_pid "$fpid"
	echo "$n" >"$work/count"
}
trap inside_done EXIT

# Where glibc reads resolv.conf (it may be a link into /run), found before
# /run is covered.
rc_real=$(readlink -m /etc/resolv.conf)
mount -t tmpfs -o mode=755 dt-audit-run /run || exit 1
mkdir -m 755 /run/dnstrust
# The mark the outer part looks for on the host's /run.
: >"/run/dnstrust/${work##*/}" && : >"$work/marked"
case $rc_real in /run/*) mkdir -p "${rc_real%/*}" && : >"$rc_real" ;; esac

resolv=$work/resolv.conf
nss=$work/nsswitch.conf
: >"$resolv"
: >"$nss"
chmod 644 "$resolv" "$nss"
mount --bind "$resolv" "$rc_real" || exit 1
mount --bind "$nss" /etc/nsswitch.conf || exit 1

# dnstrustd's own upstream: a loopback address where nothing listens (the
# daemon probes it; the audit asks status only); resolution forward, so
# that it never resolves from the root.
printf 'nameserver 127.0.9.53\n' >"$work/upstream.conf"
conf=$work/dnstrust.conf
sock=/run/dnstrust/socket dlog=$work/dnstrustd.log # for start_daemon
write_conf() { # extra lines
	{
		echo "socket /run/dnstrust/socket"
		echo "resolv-conf $work/upstream.conf"
		echo "resolution forward"
		echo "threads 1"
		printf '%s\n' "$@"
	} >"$conf"
	chmod 644 "$conf"
}

stop_daemon() { # whatever its exit status
	stop_pid "$dpid"
	dpid=""
	# No longer root, the daemon could not remove its socket.
	rm -f /run/dnstrust/socket
}

good_host() {
	printf 'nameserver 192.0.2.1\noptions edns0\n' >"$resolv"
	chmod 644 "$resolv"
	chown root:root "$resolv"
	printf 'passwd: files\ngroup: files\nhosts: files dnstrust\n' >"$nss"
}

# audit [ARGS]: runs dnstrust audit --json; $out, $rc.
audit() {
	out=$("$DNSTRUST" audit --json --config "$conf" "$@" 2>&1)
	rc=$?
}

# The JSON must parse and have the documented shape; prints the findings
# one a line: SEVERITY ID MESSAGE.
findings() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert isinstance(d["trusted"], bool)
for f in d["findings"]:
    assert f["severity"] in ("OK", "INFO", "WARNING", "CRITICAL")
    for k in ("area", "id", "message", "fix"):
        assert isinstance(f[k], str), k
    if f["severity"] in ("WARNING", "CRITICAL"):
        assert f["fix"], f["id"]
    print(f["severity"], f["id"], f["message"])
crit = any(f["severity"] == "CRITICAL" for f in d["findings"])
assert d["trusted"] == (not crit), "trusted disagrees with the findings"
' <<<"$out"
}

# expect DESCRIPTION EXIT [SEVERITY:ID]... [!ID]...: the audit's exit
# status, findings present (with their severity), absent ids.
expect() {
	local d=$1 want=$2 list why=""
	shift 2
	if ! list=$(findings 2>&1); then
		not_ok "$d: --json parses" "$out"$'\n'"$list"
		return
	fi
	[ "$rc" = "$want" ] || why="exit $rc, want $want"
	for item in "$@"; do
		case $item in
		!*) grep -q " ${item#!} " <<<"$list" && why="$why; ${item#!} present" ;;
		*) grep -q "^${item%%:*} ${item#*:} " <<<"$list" ||
			why="$why; no ${item%%:*} ${item#*:}" ;;
		esac
	done
	if [ -z "$why" ]; then ok "$d"; else not_ok "$d ($why)" "$list"; fi
}

write_conf
good_host
if start_daemon; then
	ok "dnstrustd starts in the namespace"
else
	not_ok "dnstrustd starts in the namespace" "$(tail -5 "$work/dnstrustd.log")"
fi

# --- the good host ---

audit
expect "good host: trusted, exit 0" 0 OK:nss-ok OK:daemon-ok OK:st-anchor \
	OK:st-upstream INFO:rc-transport
if ! grep -q CRITICAL <<<"$(findings)"; then
	ok "good host: no CRITICAL finding"
else
	not_ok "good host: no CRITICAL finding" "$out"
fi
text=$("$DNSTRUST" audit --config "$conf")
text_rc=$?
if [ "$text_rc" = 0 ] &&
	head -1 <<<"$text" | grep -q '^results reaching applications can be trusted (0 critical, ' &&
	grep -q '^OK nsswitch.conf \[nss-ok\]$' <<<"$text" &&
	grep -q '^  fix: ' <<<"$text"; then
	ok "text output: the verdict first, then a block per finding"
else
	not_ok "text output: the verdict first, then a block per finding" "$text"
fi

# --- nsswitch.conf ---

printf 'hosts: files dnstrust dns\n' >"$nss"
audit
expect "hosts: files dnstrust dns: bogus answers fall through" 1 \
	CRITICAL:nss-notfound CRITICAL:nss-tryagain WARNING:nss-unavail
grep -q '"fix": "in /etc/nsswitch.conf: hosts: files dnstrust"' <<<"$out" &&
	ok "its fix is the line to write" || not_ok "its fix is the line to write" "$out"

printf 'hosts: files dnstrust [!UNAVAIL=return] dns\n' >"$nss"
audit
expect "hosts: files dnstrust [!UNAVAIL=return] dns: fail-open warning only" 0 \
	WARNING:nss-unavail '!nss-notfound' '!nss-tryagain' '!nss-ok'

printf 'hosts: files dns\n' >"$nss"
audit
expect "hosts: files dns: dnstrust absent" 1 CRITICAL:nss-absent

printf 'passwd: files\ngroup: files\n' >"$nss"
audit
expect "no hosts line: glibc's default dns line" 1 CRITICAL:nss-default

printf 'hosts: files dnstrust' >"$nss"
audit
expect "a hosts line without a newline is ignored by glibc" 1 \
	WARNING:nss-no-newline CRITICAL:nss-default

rm -f "$work/nss.gone"
audit --nsswitch "$work/nss.gone"
expect "no nsswitch.conf at all" 1 CRITICAL:nss-default
good_host

# --- resolv.conf ---

printf 'nameserver 192.0.2.1\noptions edns0 trust-ad\n' >"$resolv"
audit
expect "options trust-ad with 192.0.2.1" 1 CRITICAL:rc-trust-ad

printf 'nameserver 127.0.0.53\noptions edns0 trust-ad\n' >"$resolv"
audit
expect "options trust-ad with a local resolver that is not dnstrustd" 0 \
	WARNING:rc-trust-ad-local INFO:rc-loopback

good_host
chown 65534:65534 "$resolv"
chmod 666 "$resolv"
audit
expect "resolv.conf 0666 and owned by nobody" 1 CRITICAL:rc-owner \
	CRITICAL:rc-mode
good_host

mkdir -p /run/NetworkManager
printf 'nameserver 192.0.2.1\n' >/run/NetworkManager/resolv.conf
chmod 644 /run/NetworkManager/resolv.conf
ln -sf /run/NetworkManager/resolv.conf "$work/resolv.link"
audit --resolv-conf "$work/resolv.link"
expect "a link into /run/NetworkManager/: managed by NetworkManager" 0 \
	INFO:rc-managed INFO:rc-transport
grep -q 'managed by NetworkManager' <<<"$out" &&
	ok "the finding names the tool" || not_ok "the finding names the tool" "$out"

audit --resolv-conf "$work/resolv.none"
expect "no resolv.conf: glibc's 127.0.0.1" 0 INFO:rc-missing

# --- the socket and the daemon ---

chmod 777 /run/dnstrust
audit
expect "socket directory 0777: anyone could replace the socket" 1 \
	CRITICAL:sock-dir-mode OK:daemon-ok
chmod 755 /run/dnstrust

chmod 600 /run/dnstrust/socket
audit
expect "socket mode 0600: other users cannot reach the daemon" 0 \
	WARNING:sock-mode
chmod 666 /run/dnstrust/socket

stop_daemon
audit
expect "daemon stopped" 1 CRITICAL:daemon-down '!daemon-ok'

python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
' /run/dnstrust/socket
audit
expect "a stale socket nobody serves" 1 CRITICAL:daemon-down
rm -f /run/dnstrust/socket

# The impostor: uid 65534, allowed to create its socket in root's
# directory (as a careless setup would let it), serving nothing.
cat >"$work/fake.py" <<'EOF'
import os, socket, sys
path, ready = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
os.chmod(path, 0o666)
s.listen(8)
open(ready, "w").close()
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try:
        c.recv(4096)
    except OSError:
        pass
    c.close()
EOF
setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=+dac_override --ambient-caps=+dac_override \
	python3 "$work/fake.py" /run/dnstrust/socket "$work/fake.ready" &
fpid=$!
wait_for 50 [ -e "$work/fake.ready" ]
audit
expect "an impostor serving the socket as uid 65534" 1 \
	CRITICAL:daemon-impostor '!daemon-ok'
grep -q 'served by uid 65534' <<<"$out" &&
	ok "the finding names the impostor's uid" ||
	not_ok "the finding names the impostor's uid" "$out"
stop_pid "$fpid"
fpid=""
rm -f /run/dnstrust/socket

write_conf "mode permissive" "negative-trust-anchor broken.example"
if start_daemon; then
	audit
	expect "mode permissive: a warning; a negative trust anchor: info" 0 \
		WARNING:st-permissive INFO:st-nta OK:daemon-ok
else
	not_ok "dnstrustd starts with mode permissive" \
		"$(tail -5 "$work/dnstrustd.log")"
fi
stop_daemon

write_conf "trust-anchor-file $work/anchors"
printf '. 3600 IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D\n' \
	>"$work/anchors"
chmod 666 "$work/anchors"
if start_daemon; then
	audit
	expect "a trust anchor file anyone may write" 1 CRITICAL:cfg-mode \
		OK:st-anchor
else
	not_ok "dnstrustd starts with a trust anchor file" \
		"$(tail -5 "$work/dnstrustd.log")"
fi
stop_daemon

printf 'nonsense-key 1\n' >"$conf"
audit
expect "a configuration dnstrustd refuses" 1 CRITICAL:cfg-error \
	CRITICAL:daemon-down

"$DNSTRUST" audit --no-such-option >/dev/null 2>&1
rc=$?
[ "$rc" = 64 ] && ok "a bad option: exit 64" || not_ok "a bad option: exit 64 (got $rc)"

[ "$failed" = 0 ]
