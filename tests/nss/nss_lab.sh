#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libnss_dnstrust.so.2 in the integration lab (tests/lab/lab.sh), used by
# programs that know nothing of it: getent (ahosts, ahostsv4, hosts,
# reverse lookups) and gai_prog (getaddrinfo, gethostbyname,
# gethostbyaddr). Each runs in a private mount namespace (unshare -m)
# where, by bind mounts that nobody outside sees:
#   /etc/nsswitch.conf  is one of the test's files (the hosts line varies)
#   /etc/resolv.conf    names the lab's honest, non-validating resolver
#                       (what the "dns" source would use)
#   /run                is a fresh tmpfs, with /run/dnstrust the test's
#                       socket directory: the module's fixed path
#                       /run/dnstrust/socket reaches the test's dnstrustd
# and LD_LIBRARY_PATH names the build directory holding the module.
# The host's own /etc is never written.
#
# Checked: secure and insecure names resolve to what the lab's reference
# validator says, CNAME chains give canonical names and aliases; bogus
# and NXDOMAIN names fail; with dnstrustd stopped, "files dnstrust" fails
# closed and "files dnstrust [!UNAVAIL=return] dns" falls back; with it
# running, that line does not fall back on bogus while "files dnstrust
# dns" does (the danger nss_dnstrust(8) describes); with the attacker as
# the daemon's upstream no forged address ever comes out; a daemon that
# dropped its privileges to another user is still trusted; one process
# keeps one connection between lookups and survives a daemon restart;
# the module loaded and unloaded again and again leaves nothing open.
#
# usage: nss_lab.sh DNSTRUSTD MODULE GAI_PROG LAB_SH     (TAP on stdout)
set -u

DNSTRUSTD=$1 MODULE=$2 GAI_PROG=$3 LAB_SH=$4
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip_all "needs root and mount namespaces"
fi

host_nss=$(sha256sum /etc/nsswitch.conf /etc/resolv.conf 2>/dev/null)
lab_start lab-nss
# The module where every user reads it (the build tree may not be).
MODULE=$(shared_copy "$MODULE") || bail "the module copied"
MODDIR=${MODULE%/*}

# --- dnstrustd ---

rundir=$work/run
resolv=$work/resolv.conf
mkdir -m 755 "$rundir"
cp "$LAB_RESOLV_CONF" "$resolv"
cat >"$conf" <<EOF
# written by nss_lab.sh
socket $sock
resolv-conf $resolv
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 3
log-level info
EOF

# --- the namespace ---

for f in closed fallback danger; do
	printf 'passwd: files\ngroup: files\n' >"$work/nss.$f"
done
echo "hosts: files dnstrust" >>"$work/nss.closed"
echo "hosts: files dnstrust [!UNAVAIL=return] dns" >>"$work/nss.fallback"
echo "hosts: files dnstrust dns" >>"$work/nss.danger"
chmod 644 "$work"/nss.*

# ns NSSWITCH CMD...: runs CMD in a private mount namespace (above;
# ns_run) with $work/nss.NSSWITCH.
ns() {
	local nss=$work/nss.$1
	shift
	ns_run "$nss" "$LAB_RESOLV_CONF" "$rundir" "$MODDIR" "$@"
}

# addrs: the first column of getent or the addr lines of gai_prog, sorted.
addrs() {
	awk '$1 == "addr" { print $2; next } { print $1 }' | sort -u
}
# ref NAME: the A and AAAA addresses the lab's validating resolver gives.
ref() {
	{
		dig @"$LAB_VALIDATOR" +short +tries=2 +time=5 "$1" A
		dig @"$LAB_VALIDATOR" +short +tries=2 +time=5 "$1" AAAA
	} | grep -E '^[0-9a-f.:]+$' | grep -E '[.:][0-9a-f]+$' | grep -v '\.$' |
		sort -u
}

check "dnstrustd starts" start_daemon

out=$(ns closed cat /etc/nsswitch.conf /run/dnstrust/socket 2>&1)
check "inside the namespace: our nsswitch.conf and the daemon's socket" \
	bash -c "echo '$out' | grep -q '^hosts: files dnstrust$' &&
		 echo '$out' | grep -q 'No such device or address'"
out=$(ns closed getent hosts localhost)
check "the files source still answers (localhost: $(echo $out))" \
	test -n "$out"

# --- every A and AAAA question of the truth table ---

names=$(awk '$2 == "A" || $2 == "AAAA" { print $1 }' "$LAB_EXPECT" | sort -u)
for name in $names; do
	lines=$(awk -v n="$name" '$1 == n && ($2 == "A" || $2 == "AAAA")' \
		"$LAB_EXPECT")
	out=$(ns closed getent ahosts "$name" 2>&1)
	rc=$?
	if echo "$lines" | grep -q ' bogus '; then
		if [ "$rc" = 2 ] && [ -z "$out" ]; then
			ok "bogus $name: getent ahosts fails (exit 2), prints nothing"
		else
			not_ok "bogus $name: getent ahosts fails" "exit $rc: $out"
		fi
		continue
	fi
	status=$(echo "$lines" | awk '{ print $3 }' | sort -u | tr '\n' ' ')
	want=$(ref "$name")
	if [ -z "$want" ]; then
		if [ "$rc" = 2 ]; then
			ok "${status}$name: no address, getent ahosts exit 2"
		else
			not_ok "${status}$name: no address" "exit $rc: $out"
		fi
		continue
	fi
	got=$(echo "$out" | addrs)
	if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
		ok "${status}$name: getent ahosts gives $(echo $got)"
	else
		not_ok "${status}$name: getent ahosts" \
			"exit $rc, got: $(echo $got), want: $(echo $want)"
	fi
done

# --- the other ways in ---

want4=$(ref www.secure.lab | grep -v :)
out=$(ns closed getent ahostsv4 www.secure.lab)
check "getent ahostsv4 www.secure.lab gives $(echo $want4)" \
	test "$(echo "$out" | addrs)" = "$want4"
out=$(ns closed getent hosts www.secure.lab)
want=$(ref www.secure.lab)
check "getent hosts www.secure.lab (gethostbyname2): $(echo $out)" \
	bash -c "echo '$want' | grep -qx '$(echo "$out" | awk '{ print $1 }')'"
out=$(ns closed "$GAI_PROG" ai chain.secure.lab)
check "getaddrinfo chain.secure.lab: canonical name www.nsec3.lab" \
	bash -c "echo '$out' | grep -qx 'canon www.nsec3.lab' &&
		 echo '$out' | grep -q '^addr '"
out=$(ns closed "$GAI_PROG" name chain.secure.lab)
check "gethostbyname chain.secure.lab: the chain as aliases" \
	bash -c "echo '$out' | grep -qx 'canon www.nsec3.lab' &&
		 echo '$out' | grep -qx 'alias chain.secure.lab' &&
		 echo '$out' | grep -qx 'alias cname.secure.lab'"
out=$(ns closed "$GAI_PROG" name2 www.insecure.lab inet6)
check "gethostbyname2 AF_INET6 www.insecure.lab (insecure)" \
	bash -c "echo '$out' | grep -q '^addr .*:'"
out=$(ns closed "$GAI_PROG" ai to-insecure.secure.lab unspec)
check "getaddrinfo through a CNAME into an insecure zone" \
	bash -c "echo '$out' | grep -qx 'canon www.insecure.lab'"

out=$(ns closed "$GAI_PROG" ai www.tampered.lab)
check "getaddrinfo on a bogus name fails: $out" \
	bash -c "echo '$out' | grep -q '^error EAI_'"
out=$(ns closed "$GAI_PROG" name www.expired.lab)
check "gethostbyname on a bogus name: NO_RECOVERY ($out)" \
	test "$out" = "error NO_RECOVERY"
out=$(ns closed "$GAI_PROG" ai nonexistent.secure.lab)
check "getaddrinfo on NXDOMAIN: EAI_NONAME ($out)" \
	bash -c "echo '$out' | grep -q '^error EAI_NONAME'"
out=$(ns closed "$GAI_PROG" name nonexistent.secure.lab)
check "gethostbyname on NXDOMAIN: HOST_NOT_FOUND" \
	test "$out" = "error HOST_NOT_FOUND"
out=$(ns closed "$GAI_PROG" ai ent.secure.lab)
check "getaddrinfo on a name without addresses: EAI_NODATA ($out)" \
	bash -c "echo '$out' | grep -q '^error EAI_NODATA'"
out=$(ns closed "$GAI_PROG" name ent.secure.lab)
check "gethostbyname on a name without addresses: NO_DATA ($out)" \
	test "$out" = "error NO_DATA"

# Reverse lookups. The lab has no reverse zones: the signed lab root
# proves that in-addr.arpa. and ip6.arpa. do not exist (secure NXDOMAIN),
# except where the honest resolver answers from one of Unbound's built-in
# unsigned local zones (RFC 5737 and RFC 3849 documentation prefixes):
# an unsigned denial the signed root contradicts: bogus when the upstream
# is asked, or, once the root's NSEC records proving in-addr.arpa. absent
# are kept from an earlier NXDOMAIN (they cover every missing top-level
# name of the lab), a secure NXDOMAIN put together from them (RFC 8198)
# without asking. Either way the upstream's unsigned PTR never shows.
out=$(ns closed "$GAI_PROG" addr 192.0.2.10)
check "gethostbyaddr 192.0.2.10 (unsigned local zone of the upstream: bogus, or proven absent): $out" \
	test "$out" = "error NO_RECOVERY" -o "$out" = "error HOST_NOT_FOUND"
ns closed getent hosts 192.0.2.10 >/dev/null 2>&1
check "getent hosts 192.0.2.10 exit 2" test $? = 2
out=$(ns closed "$GAI_PROG" addr 193.0.2.10)
check "gethostbyaddr 193.0.2.10 (in-addr.arpa., secure NXDOMAIN): $out" \
	test "$out" = "error HOST_NOT_FOUND"
out=$(ns closed "$GAI_PROG" addr 2a00::10)
check "gethostbyaddr 2a00::10 (ip6.arpa., secure NXDOMAIN): $out" \
	test "$out" = "error HOST_NOT_FOUND"
out=$(ns closed getent hosts 127.0.0.1)
check "a reverse lookup the files source answers still works" \
	test -n "$out"

# An unprivileged program: the module needs nothing root has.
out=$(ns closed setpriv --reuid=65534 --regid=65534 --clear-groups \
	getent ahosts www.ed.lab)
check "as nobody: getent ahosts www.ed.lab resolves" test -n "$out"

# --- with dnstrustd running: fallback on bogus? ---

for name in www.tampered.lab www.expired.lab to-bogus.secure.lab; do
	out=$(ns fallback getent ahosts "$name")
	check "[!UNAVAIL=return] dns: bogus $name is not looked up in dns" \
		test $? = 2 -a -z "$out"
done
out=$(ns danger getent ahosts www.tampered.lab)
rc=$?
check "files dnstrust dns: bogus www.tampered.lab falls through to dns and gets the tampered 192.0.2.61 (exit $rc) - the danger" \
	bash -c "[ $rc = 0 ] && echo '$out' | grep -q '^192\.0\.2\.61 '"
out=$(ns fallback getent ahosts www.secure.lab)
check "[!UNAVAIL=return] dns: secure names still come from dnstrustd" \
	test "$(echo "$out" | addrs)" = "$(ref www.secure.lab)"
before=$(grep -c 'www.rsa.lab. A IN' "$LAB_UNBOUND_LOG")
ns fallback getent ahosts www.rsa.lab >/dev/null
after=$(grep -c 'www.rsa.lab. A IN' "$LAB_UNBOUND_LOG")
check "...and the dns source was not asked (honest resolver saw www.rsa.lab A $before -> $after times)" \
	test "$after" = "$before"

# --- one connection per process ---

# One process, lookups one after another: the connection made by the
# first is kept and reused; after a restart of the daemon the next
# lookup is answered on a new one.
mkfifo "$work/ctl"
ns closed "$GAI_PROG" again www.secure.lab <"$work/ctl" >"$work/again.out" 2>&1 &
gjob=$!
exec 9>"$work/ctl"
lines() { # N: until the program has printed N lines
	for _ in $(seq 200); do
		[ "$(wc -l <"$work/again.out")" -ge "$1" ] && return 0
		sleep 0.05
	done
	return 1
}
gpid=""
for _ in $(seq 100); do
	for p in $gjob $(ps --ppid "$gjob" -o pid= 2>/dev/null); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = gai_prog ] && gpid=$p
	done
	[ -n "$gpid" ] && break
	sleep 0.05
done
socks() { # the program's sockets, by inode
	find "/proc/$gpid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | sort
}
lines 1
s1=$(socks)
echo >&9
lines 2
s2=$(socks)
check "one process, two lookups: answered ($(tr '\n' ' ' <"$work/again.out"))" \
	test "$(head -2 "$work/again.out" | tr '\n' ' ')" = "ok ok "
check "... one connection kept between them, the same ($(echo $s1) / $(echo $s2))" \
	test -n "$s1" -a "$s1" = "$s2" -a "$(echo "$s1" | wc -l)" = 1
stop_daemon
start_daemon 9>&- # the daemon must not hold the program's input open
echo >&9
lines 3
s3=$(socks)
check "the daemon restarted: the same process's next lookup answered ($(sed -n 3p "$work/again.out"))" \
	test "$(sed -n 3p "$work/again.out")" = ok
check "... on a new connection ($(echo $s3))" \
	test -n "$s3" -a "$s3" != "$s1" -a "$(echo "$s3" | wc -l)" = 1
exec 9>&-
wait "$gjob"

# The module loaded and unloaded again and again (dlopen, a lookup,
# dlclose): every lookup answered, no descriptor left behind.
out=$(ns closed "$GAI_PROG" dlopen "$MODULE" www.secure.lab 50)
check "dlopen, lookup, dlclose 50 times: $out" \
	bash -c "echo '$out' | awk '\$2 == 50 && \$4 == \$5 { ok = 1 } END { exit !ok }'"

# --- with dnstrustd stopped ---

check "dnstrustd stops, its socket left unserved" stop_daemon
out=$(ns closed getent ahosts www.secure.lab)
rc=$?
check "daemon down, files dnstrust: fails closed (exit $rc)" \
	test "$rc" = 2 -a -z "$out"
out=$(ns closed "$GAI_PROG" ai www.secure.lab)
check "daemon down, files dnstrust: getaddrinfo $out" \
	bash -c "echo '$out' | grep -q '^error EAI_AGAIN'"
out=$(ns closed "$GAI_PROG" name www.secure.lab)
check "daemon down, files dnstrust: gethostbyname TRY_AGAIN ($out)" \
	test "$out" = "error TRY_AGAIN"
out=$(ns fallback getent ahosts www.secure.lab)
rc=$?
check "daemon down, [!UNAVAIL=return] dns: falls back to dns (exit $rc: $(echo "$out" | addrs | tr '\n' ' '))" \
	test "$rc" = 0 -a "$(echo "$out" | addrs)" = "$(ref www.secure.lab)"
out=$(ns fallback getent ahosts www.tampered.lab)
check "daemon down, [!UNAVAIL=return] dns: unvalidated, as the admin chose (tampered 192.0.2.61)" \
	bash -c "echo '$out' | grep -q '^192\.0\.2\.61 '"

# --- the attacker as the daemon's upstream ---

cp "$LAB_ATTACKER_RESOLV_CONF" "$resolv"
check "dnstrustd restarts with the attacker upstream (empty cache)" \
	start_daemon
while read -r name type addr method; do
	for nss in closed fallback; do
		out=$(ns "$nss" getent ahosts "$name" 2>&1)
		rc=$?
		if echo "$out" | grep -qF "$addr" ||
			echo "$out" | grep -qE '^(10\.66\.|fd66:)'; then
			not_ok "attacker ($method, $nss): $name gave a forged address" "$out"
		else
			ok "attacker ($method, $nss): $name $type: no forged address (exit $rc)"
		fi
	done
done <"$LAB_FORGED"
check "dnstrustd stops" stop_daemon

# --- privileges dropped: the socket was made by root, so it is trusted ---

cp "$LAB_RESOLV_CONF" "$resolv"
echo "user nobody" >>"$conf"
check "dnstrustd starts as root with user nobody" start_daemon
check "it runs as nobody" \
	test "$(ps -o user= -p "$dpid" | tr -d ' ')" = nobody
out=$(ns closed getent ahosts www.secure.lab)
check "the module trusts it: www.secure.lab resolves" \
	test "$(echo "$out" | addrs)" = "$(ref www.secure.lab)"
check "dnstrustd stops" stop_daemon

check "the host's /etc/nsswitch.conf and /etc/resolv.conf are untouched" \
	test "$(sha256sum /etc/nsswitch.conf /etc/resolv.conf 2>/dev/null)" = "$host_nss"

plan
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 30 lines):"
	tail -30 "$dlog" | sed 's/^/#   /'
fi
exit 0
