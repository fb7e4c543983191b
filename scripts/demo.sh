#!/bin/bash
# make demo: dnstrust on an offline default. Brings up the integration lab
# (tests/lab/lab.sh: a private signed DNS hierarchy served by NSD and Knot
# on 127.0.2.0/24, an iterating Unbound as the honest upstream, an attacker
# resolver), starts dnstrustd against it and shows, one step at a time, the
# trust story: the host before (audit), what applications get for secure,
# insecure and bogus names over each path (a DNS listener, the socket, NSS
# through getent), the chain of trust behind a secure answer, resolv.conf
# rewritten to an attacker, offline verification, the daemon's status and
# the host after. Every shown outcome is compared with what it must be; the
# summary counts them and the demo exits 1 if any differed. Then stops
# everything. Needs root (the lab's servers bind port 53 on loopback; NSS
# runs in a private mount namespace so the host's /etc is never touched).
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
DNSTRUSTD="$build/src/daemon/dnstrustd"
dt="$build/src/cli/dnstrust"
nssdir="$build/src/nss"
LAB_SH=$top/tests/lab/lab.sh
# The tests' harness: the lab's start and stop, the daemon's, the mount
# namespace of NSS (its TAP counters are not used here).
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$top/tests/harness.sh}"

shown=0 wrong=0
expect() { # WHAT GOT WANT: one outcome, compared
	shown=$((shown + 1))
	if [ "$2" != "$3" ]; then
		wrong=$((wrong + 1))
		echo "  !! $1: got $2, expected $3"
	fi
}
step() { printf '\n== %s\n' "$*"; }
say() { printf '%s\n' "$@" | fold -s -w 76 | sed 's/^/   /'; }
indent() { sed 's/^/    /'; }

step "1. The lab: a private signed DNS hierarchy on loopback"
lab_start demo # $work, the lab in $work/lab, stopped on exit
say "Root and lab. on NSD ($LAB_ROOT_SERVER), the zones below on Knot" \
    "($LAB_LEAF_SERVER). The honest upstream is an iterating Unbound" \
    "($LAB_RESOLVER) that does not validate; the attacker ($LAB_ATTACKER)" \
    "forges addresses and sets AD=1 on them."

step "2. The host before: resolv.conf names a resolver, glibc believes it"
cp "$LAB_RESOLV_CONF" "$work/resolv.conf"
mkdir -m 755 "$work/run"
listen=$LAB_NET.100
cat >"$conf" <<EOF
socket $sock
listen $listen@53
resolv-conf $work/resolv.conf
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 3
EOF
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$work/nss.before"
printf 'passwd: files\ngroup: files\nhosts: files dnstrust\n' >"$work/nss.after"
chmod 644 "$work"/nss.*
audit() { # NSSWITCH: dnstrust audit of the demo host, its exit status
	"$dt" audit --resolv-conf "$work/resolv.conf" --nsswitch "$1" \
		--config "$conf" --socket "$sock"
}
rc=0
audit "$work/nss.before" >"$work/audit" || rc=$?
sed -n '1p; /^CRITICAL/p' "$work/audit" | indent
expect "audit before" "$rc" 1
say "dnstrust audit: the AD bit reaching applications means nothing here."

step "3. dnstrustd: queries go to resolv.conf, trust comes from its anchor"
indent <"$conf"
# The socket may be there before a listener fails to bind: alive, too?
if ! start_daemon || ! { sleep 0.3; kill -0 "$dpid" 2>/dev/null; }; then
	echo "  !! dnstrustd did not start:"
	tail -3 "$dlog" | indent
	if grep -q "in use" "$dlog"; then
		say "Another program holds $listen (LAB_NET=$LAB_NET): run the" \
		    "demo with LAB_NET set to a free 127.X.Y prefix, e.g." \
		    "LAB_NET=127.0.99 make demo."
	fi
	exit 1
fi

show() { # NAME TYPE WANT: a plain DNS client of the listener
	local out rc ad ede ans got
	out=$(dig @"$listen" +tries=1 +time=5 "$1" "$2")
	rc=$(echo "$out" | sed -n 's/.*status: \([A-Z]*\),.*/\1/p')
	ad=no
	echo "$out" | grep -q '^;; flags:.* ad[ ;]' && ad=yes
	ede=$(echo "$out" | sed -n 's/^; EDE: \([0-9]*\).*/\1/p' | head -1)
	ans=$(echo "$out" | awk '/^;; ANSWER SECTION/ {a=1; next}
		/^$/ {a=0} a {print $NF}' | tr '\n' ' ')
	printf '  %-26s %-4s %-8s AD=%-3s %s%s\n' "$1" "$2" "$rc" "$ad" \
		"${ans:+$ans}" "${ede:+EDE $ede}"
	case $rc/$ad in
	NOERROR/yes | NXDOMAIN/yes) got=secure ;;
	NOERROR/no | NXDOMAIN/no) got=insecure ;;
	SERVFAIL/no) got=withheld ;;
	*) got="$rc/AD=$ad" ;;
	esac
	expect "$1 $2" "$got" "$3"
}
step "4. What a DNS client gets (dig at dnstrustd's loopback listener)"
say "secure: validated from the lab root down, AD=1:"
show www.secure.lab. A secure
show www.nsec3.lab. AAAA secure
show foo.wild.secure.lab. A secure
show nonexistent.secure.lab. A secure
say "insecure: provably unsigned, served without AD:"
show www.insecure.lab. A insecure
show to-insecure.secure.lab. A insecure
say "bogus: withheld, SERVFAIL with an Extended DNS Error saying why:"
show www.expired.lab. A withheld
show www.tampered.lab. A withheld
show www.wrongds.lab. A withheld
show www.nosig.lab. A withheld

sockq() { # WANT_EXIT NAME TYPE: dnstrust query over the socket
	local want=$1 rc=0
	shift
	echo "  \$ dnstrust query $*"
	"$dt" query --socket "$sock" "$@" >"$work/q" || rc=$?
	grep -E '^;; (DNSSEC|EDE|WITHHELD)|IN' "$work/q" | grep -v '^;[a-z]' |
		indent
	expect "dnstrust query $*" "$rc" "$want"
}
step "5. The same over the socket: the four-valued status and the reason"
sockq 1 www.insecure.lab. A
sockq 2 www.tampered.lab. A
say "(dnstrust exits 0 secure, 1 insecure, 2 bogus, 3 indeterminate.)"

step "6. The chain of trust behind one secure answer (dnstrust query --trace)"
rc=0
"$dt" query --trace --socket "$sock" www.sub.secure.lab. A >"$work/trace" ||
	rc=$?
sed -n '/^;; CHAIN OF TRUST/,$p' "$work/trace" | indent
expect "--trace www.sub.secure.lab." "$rc" 0

step "7. Unmodified programs: getaddrinfo through the NSS module (getent)"
nss() { # CMD...: in a mount namespace with nss.after and our socket
	ns_run "$work/nss.after" - "$work/run" "$nssdir" "$@"
}
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	say "/etc/nsswitch.conf: hosts: files dnstrust (fail closed)"
	for n in www.secure.lab www.insecure.lab www.tampered.lab; do
		rc=0
		out=$(nss getent ahostsv4 "$n" 2>&1) || rc=$?
		case $rc/$n in
		0/*) why=$(echo "$out" | awk 'NR==1 {print $1}') ;;
		2/*tampered*) why="exit 2 (no address: the bogus answer is withheld)" ;;
		*) why="exit $rc (no address: unexpected, see dnstrust status)" ;;
		esac
		printf '  $ getent ahostsv4 %-18s -> %s\n' "$n" "$why"
		case $n in
		*tampered*) expect "getent $n" "$rc" 2 ;;
		*) expect "getent $n" "$rc" 0 ;;
		esac
	done
else
	say "(skipped: needs root and mount namespaces)"
fi

step "8. resolv.conf rewritten to the attacker, as a rogue DHCP server would"
cp "$LAB_ATTACKER_RESOLV_CONF" "$work/resolv.conf.new"
mv "$work/resolv.conf.new" "$work/resolv.conf"
sleep 0.5
grep -o 'upstreams .*' "$dlog" | tail -1 |
	sed 's/^/  dnstrustd follows it: /'
"$dt" flush --socket "$sock" >/dev/null
forged=$(dig @"$LAB_ATTACKER" +short www.secure.lab. A | head -1)
flags=$(dig @"$LAB_ATTACKER" www.ed.lab. A |
	sed -n 's/^;; flags: \([a-z ]*\);.*/\1/p')
echo "  the attacker itself: www.secure.lab. A $forged; flags for www.ed.lab.: $flags"
say "Through dnstrustd: the forgeries are not signed by the zones' keys; asked"
say "again, twice, then from the root (resolution auto): the genuine answer."
show www.secure.lab. A secure
show www.ed.lab. A secure
show www.rsa.lab. A secure
show www.insecure.lab. A insecure
got=$(dig @"$listen" +short www.secure.lab. A | head -1)
expect "www.secure.lab. A: the forged $forged never reaches the client" \
	"$([ -n "$got" ] && [ "$got" != "$forged" ] && echo genuine || echo "forged: $got")" genuine

step "9. Back to the honest upstream: no restart needed"
cp "$LAB_RESOLV_CONF" "$work/resolv.conf.new"
mv "$work/resolv.conf.new" "$work/resolv.conf"
sleep 0.5
"$dt" flush --socket "$sock" >/dev/null
show www.secure.lab. A secure

step "10. Offline: dnstrust verify checks a whole signed zone file"
for z in secure.lab. tampered.lab.; do
	dig @"$LAB_RESOLVER" +noall +answer "$z" DS >"$work/z.ds"
	rc=0
	"$dt" verify --zone "$z" --anchor "$work/z.ds" \
		"$work/lab/zones/$z.zone" >"$work/v" 2>&1 || rc=$?
	echo "  \$ dnstrust verify --zone $z (anchored at its DS from lab.)"
	grep -E '^(error|zone)' "$work/v" | indent
	case $z in
	tampered*) expect "verify $z" "$rc" 2 ;;
	*) expect "verify $z" "$rc" 0 ;;
	esac
done

step "11. The daemon's own account (dnstrust status)"
"$dt" status --socket "$sock" | head -20 | indent

step "12. The host after: dnstrust in nsswitch.conf, the daemon running"
rc=0
audit "$work/nss.after" >"$work/audit" || rc=$?
sed -n '1p; /^CRITICAL/p; /^WARNING/p' "$work/audit" | indent
expect "audit after" "$rc" 0

step "Summary"
say "Secure names were validated from the lab's root anchor and marked" \
    "AD=1; provably unsigned names were served as insecure; tampered," \
    "expired, unsigned-in-a-signed-zone and wrongly delegated names were" \
    "withheld with their reason on every path (listener, socket, NSS);" \
    "an attacker named in resolv.conf got no forged address through;" \
    "the offline verifier agrees on the zone files."
echo "  $((shown - wrong)) of $shown outcomes as expected."
[ "$wrong" -eq 0 ]
