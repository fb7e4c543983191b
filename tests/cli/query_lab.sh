#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The dnstrust command against dnstrustd in the integration lab
# (tests/lab/lab.sh): query on every question of the lab's truth table
# (exit code, text and JSON), --cd, --dnssec and --require-secure, --trace
# (each zone cut with its key tags, the failing step of bogus answers, the
# offline verdict agreeing with the daemon's on every question), tlsa and
# sshfp (records only when secure), status, flush and reload (and their
# refusal to another user), an impostor on the socket, and every command
# with the daemon stopped.
#
# usage: query_lab.sh DNSTRUST DNSTRUSTD LAB_SH        (TAP on stdout)
set -u

DNSTRUST=$1 DNSTRUSTD=$2 LAB_SH=$3
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "$2" | head -40 | sed 's/^/#   /'
}
check() { # description, then a command that must succeed
	local d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

# Exit codes of dnstrust(1).
SECURE=0 INSECURE=1 BOGUS=2 INDETERMINATE=3 NOT_FOUND=5 UNAVAILABLE=69

work=$(mktemp -d /tmp/dt-query-lab.XXXXXX)
chmod 755 "$work" # another user must reach the socket
lab=$work/lab
dpid=""
fake_pid=""
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	[ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null
	"$LAB_SH" stop "$lab" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT

if ! "$LAB_SH" start "$lab" >"$work/lab.log" 2>&1; then
	echo "1..1"
	echo "not ok 1 - lab starts"
	sed 's/^/#   /' "$work/lab.log" | tail -20
	exit 1
fi
. "$lab/lab.env"

sock=$work/run/socket
conf=$work/dnstrust.conf
cat >"$conf" <<EOF
# written by query_lab.sh
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
threads 2
query-timeout 5
log-level info
EOF

start_daemon() {
	local old
	old=$(stat -c %i "$sock" 2>/dev/null)
	"$DNSTRUSTD" -c "$conf" -f 2>>"$work/dnstrustd.log" &
	dpid=$!
	# A socket left by a daemon that had given up root is replaced.
	for _ in $(seq 50); do
		[ -S "$sock" ] && [ "$(stat -c %i "$sock")" != "$old" ] && return 0
		sleep 0.1
	done
	return 1
}
dt() { "$DNSTRUST" "$@" --socket "$sock"; }
# A JSON document on stdin, checked by python3 -m json.tool, then the
# Python expression $1 over it (as j) must be true.
json_ok() {
	local doc
	doc=$(python3 -m json.tool) || return 1
	printf '%s' "$doc" | python3 -c "
import json, sys
j = json.load(sys.stdin)
sys.exit(0 if ($1) else 1)"
}
# NODATA or not: does the honest upstream's answer (CD) end in records of
# the type? (Independent of dnstrust.)
has_records() { # name type
	dig @"$LAB_RESOLVER" +tries=1 +time=5 +cd +noall +answer "$1" "$2" |
		awk -v t="$2" '$4 == t { f = 1 } END { exit !f }'
}
expected_code() { # name type status rcode
	case $3 in
	bogus) echo $BOGUS; return ;;
	indeterminate) echo $INDETERMINATE; return ;;
	esac
	if [ "$4" = NXDOMAIN ] || ! has_records "$1" "$2"; then
		echo $NOT_FOUND
	elif [ "$3" = secure ]; then
		echo $SECURE
	else
		echo $INSECURE
	fi
}

check "dnstrustd starts" start_daemon

# --- query: the truth table ---

while read -r name type st rc ede; do
	want=$(expected_code "$name" "$type" "$st" "$rc")
	out=$(dt query "$name" "$type" 2>&1)
	got=$?
	if [ "$got" = "$want" ] &&
		echo "$out" | grep -q "^;; DNSSEC: $st" &&
		echo "$out" | grep -q "status: $rc," &&
		{ [ -z "${ede:-}" ] || echo "$out" | grep -q "^;; EDE: $ede ("; }; then
		ok "query $name $type: exit $want, $st $rc ${ede:-}"
	else
		not_ok "query $name $type: exit $want, $st $rc ${ede:-} (got $got)" "$out"
	fi
	out=$(dt query --json "$name" "$type" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && printf '%s' "$out" | json_ok "
		j['status'] == '$st' and j['rcode'] == '$rc' and
		j['exit'] == $want and j['question']['type'] == '$type' and
		(('$ede' == '' and j['status'] == 'secure' and j['ede'] is None) or
		 ('$ede' == '' and j['status'] != 'secure') or
		 ('$ede' != '' and j['ede']['code'] == int('0$ede'))) and
		(j['result'] == 'answer') == ($want in (0, 1)) and
		(len(j['answer']) > 0) == (j['result'] == 'answer' and
					   j['withheld'] is None) and
		j['ad'] == ('$st' == 'secure' and j['withheld'] is None)"; then
		ok "query --json $name $type: status, rcode, EDE, result"
	else
		not_ok "query --json $name $type (exit $got, want $want)" "$out"
	fi
done <"$LAB_EXPECT"

# --- --cd, --dnssec, --require-secure, the cache ---

# shellcheck disable=SC2034 # used in the conditions of that()
TAB=$(printf '\t')
has() { printf '%s\n' "$out" | grep -q "$@"; }
# that DESCRIPTION CONDITION: CONDITION (shell code over $out and $rc)
# must hold; $out is shown when it does not.
that() {
	if eval "$2"; then ok "$1"; else not_ok "$1 (exit $rc)" "$out"; fi
}

out=$(dt query www.expired.lab. A); rc=$?
that "bogus without --cd: records withheld, SERVFAIL, EDE 7, exit 2" \
	'[ $rc = $BOGUS ] && has "^;; WITHHELD:" && ! has "ANSWER SECTION" &&
	 has "status: SERVFAIL," && has "^;; EDE: 7 "'
out=$(dt query --cd www.expired.lab. A); rc=$?
that "bogus with --cd: the data is shown, marked bogus, exit 2" \
	'[ $rc = $BOGUS ] && has "ANSWER SECTION" && has "^;; DNSSEC: bogus" &&
	 ! has "^;; WITHHELD:"'
out=$(dt query --dnssec www.secure.lab. A); rc=$?
that "--dnssec: the RRSIG comes with the answer" \
	'[ $rc = 0 ] && has -E "^www\.secure\.lab\.$TAB[0-9]+${TAB}IN${TAB}RRSIG${TAB}A 13 "'
out=$(dt query www.secure.lab. A); rc=$?
that "without --dnssec: no RRSIG" '[ $rc = 0 ] && ! has RRSIG'
out=$(dt query --require-secure www.insecure.lab. A); rc=$?
that "--require-secure on an insecure name: withheld, exit 1" \
	'[ $rc = $INSECURE ] && has "^;; WITHHELD:.*require-secure" &&
	 ! has "ANSWER SECTION"'
out=$(dt query --require-secure www.secure.lab. A); rc=$?
that "--require-secure on a secure name: the records, exit 0" \
	'[ $rc = 0 ] && has "ANSWER SECTION"'
dt query mail.secure.lab. A >/dev/null
out=$(dt query mail.secure.lab. A); rc=$?
that "a repeated question is marked as answered from the daemon's cache" \
	'has "^;; DNSSEC: secure.*; answered from the daemon.s cache"'
out=$(dt query www.secure.lab. BADTYPE 2>&1); rc=$?
that "an unknown type is a usage error" '[ $rc = 64 ]'

# --- --trace ---

tags_of() { # zone: key tags of its DNSKEY RRset, from the honest upstream
	dig @"$LAB_RESOLVER" +tries=1 +time=5 +cd +multi +noall +answer "$1" DNSKEY |
		sed -n 's/.*key id = \([0-9]*\).*/\1/p' | sort -u
}
zone_block() { # zone, then the --trace text on stdin: the lines of that zone
	awk -v z="zone $1:" 'index($0, z) == 1 { p = 1; print; next }
		/^(zone|answer|authority|validator) / { p = 0 } p'
}
trace=$(dt query --trace www.sub.secure.lab. A); rc=$?
out=$trace
that "--trace www.sub.secure.lab. A: exit 0, the verdicts agree" \
	'[ $rc = 0 ] && has "^the two verdicts agree"'
for z in . lab. secure.lab. sub.secure.lab.; do
	out=$(printf '%s\n' "$trace" | zone_block "$z")
	tags=$(tags_of "$z")
	missing=""
	for tag in $tags; do
		has -E "DNSKEY.* $tag alg [0-9]+ (KSK|ZSK)" || missing="$missing $tag"
	done
	that "--trace shows zone $z: secure, DS -> DNSKEY, key tags $(echo $tags)" \
		'has "^zone $z: secure" && [ -n "$tags" ] && [ -z "$missing" ] &&
		 has -E "^ +(trust anchor DS|DS) [0-9]+ alg [0-9]+ digest [0-9]+ -> DNSKEY [0-9]+" &&
		 has -E "^ +RRSIG DNSKEY by .* key [0-9]+ \((KSK|ZSK)\) alg [0-9]+, valid [0-9T:Z-]+ to [0-9T:Z-]+$"'
done
out=$trace
that "--trace: the answer's RRSIG names its signer and key" \
	'has -E "^ +RRSIG A by sub\.secure\.lab\. key [0-9]+ \((KSK|ZSK)\)"'
dt query --trace --json www.sub.secure.lab. A >"$work/trace.json"
check "--trace --json: zones ., lab., secure.lab., sub.secure.lab., all secure, agreeing" \
	json_ok "[z['zone'] for z in j['trace']['zones']] == ['.', 'lab.', 'secure.lab.', 'sub.secure.lab.'] and
		 all(z['status'] == 'secure' and z['dnskeys'] for z in j['trace']['zones']) and
		 j['trace']['agree'] and j['trace']['offline']['status'] == 'secure'" \
	<"$work/trace.json"

out=$(dt query --trace www.wrongds.lab. A); rc=$?
that "--trace on a DS that matches no key: the zone fails there, exit 2" \
	'[ $rc = $BOGUS ] && has "^zone wrongds.lab.: bogus.*<-- fails here" &&
	 has -E "DS [0-9]+ alg 13 digest 2 -> no DNSKEY matches" &&
	 has "^failing step: " && has "^the two verdicts agree"'
out=$(dt query --trace www.expired.lab. A); rc=$?
that "--trace on expired signatures: the windows say expired, exit 2" \
	'[ $rc = $BOGUS ] && has -E "^ +RRSIG A by expired\.lab\. .*: expired$" &&
	 has "^failing step: .*expired" && has -E "^verdict offline: +bogus, EDE 7"'
out=$(dt query --trace www.tampered.lab. A); rc=$?
that "--trace on tampered data: the failing step names www.tampered.lab A" \
	'[ $rc = $BOGUS ] && has -i "^failing step: .*www.tampered.lab.*A"'

disagree=""
while read -r name type st rc ede; do
	dt query --trace --json "$name" "$type" >"$work/t.json" 2>&1
	json_ok "j['trace']['agree'] and j['trace']['offline']['status'] == '$st'" \
		<"$work/t.json" || disagree="$disagree $name/$type"
done <"$LAB_EXPECT"
check "--trace: the offline verdict equals the daemon's on every question${disagree:+ (not:$disagree)}" \
	test -z "$disagree"

# --- tlsa, sshfp ---

want=$(dig @"$LAB_RESOLVER" +short _443._tcp.www.secure.lab TLSA | head -1 |
	awk '{ d = ""; for (i = 4; i <= NF; i++) d = d $i; print $1, $2, $3, toupper(d) }')
out=$(dt tlsa www.secure.lab 443 2>/dev/null); rc=$?
that "tlsa www.secure.lab 443: the secure record ($want)" \
	'[ $rc = 0 ] && [ -n "$want" ] &&
	 has -F "_443._tcp.www.secure.lab.${TAB}TLSA${TAB}$want"'
out=$(dt sshfp www.secure.lab. 2>/dev/null); rc=$?
that "sshfp www.secure.lab.: the secure records" \
	'[ $rc = 0 ] && has -E "^www\.secure\.lab\.${TAB}SSHFP${TAB}[0-9]+ [0-9]+ [0-9A-F]+$"'
refused() { # description, wanted exit, command...
	local d=$1 want=$2
	shift 2
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	out=$(cat "$work/out" "$work/err")
	that "$d: refused, exit $want, nothing on stdout" \
		'[ "$rc" = "$want" ] && [ ! -s "$work/out" ] &&
		 grep -q "refused: no secure" "$work/err"'
}
refused "tlsa on an insecure name" $INSECURE dt tlsa www.insecure.lab 443
refused "tlsa on a bogus name" $BOGUS dt tlsa www.expired.lab 443 udp
refused "sshfp on an insecure name" $INSECURE dt sshfp www.insecure.lab
refused "sshfp on a bogus name" $BOGUS dt sshfp www.expired.lab
refused "tlsa on a secure name without TLSA" $NOT_FOUND dt tlsa www.secure.lab 25
refused "sshfp on a name that does not exist" $NOT_FOUND \
	dt sshfp nonexistent.secure.lab
out=$(dt tlsa www.secure.lab 70000 2>&1); rc=$?
that "tlsa with a bad port is a usage error" '[ $rc = 64 ]'

# --- status, flush, reload ---

out=$(dt status); rc=$?
that "status: exit 0, the upstream and the trust anchor" \
	'[ $rc = 0 ] && has "^daemon: *reachable and trusted" &&
	 has -E "^upstream: +$LAB_RESOLVER\$" && has -E "^trust-anchor: +\. DS:[0-9]+/8"'
dt status --json >"$work/status.json"
check "status --json: reachable, trusted, upstreams, anchors, counters" \
	json_ok "j['reachable'] and j['trusted'] and
		 j['status']['upstream'] == ['$LAB_RESOLVER'] and
		 j['status']['trust-anchor'][0].startswith('. DS:') and
		 j['status']['queries'] > 0 and
		 isinstance(j['status']['cache-entries'], int)" <"$work/status.json"

cached() {
	dt query --json "$1" A |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["cached"])'
}
out=$(dt flush); rc=$?
that "flush: exit 0, everything at and below ." \
	'[ $rc = 0 ] && has -E "^flushed [0-9]+ cache entr(y|ies) at and below \.$"'
out="$(cached www.secure.lab.)/$(cached www.secure.lab.)"
that "after flush a question is not answered from the cache, then is" \
	'[ "$out" = False/True ]'
cached www.ed.lab. >/dev/null
out=$(dt flush secure.lab); rc=$?
that "flush secure.lab: exit 0, at and below secure.lab." \
	'[ $rc = 0 ] && has -E "^flushed [1-9][0-9]* cache entr(y|ies) at and below secure\.lab\.$"'
out="$(cached www.secure.lab.)/$(cached www.ed.lab.)"
that "flush NAME drops that name and keeps the others" '[ "$out" = False/True ]'
wait_log() { # a fixed string the daemon must log within 5 s
	for _ in $(seq 50); do
		grep -qF -- "$1" "$work/dnstrustd.log" && return 0
		sleep 0.1
	done
	return 1
}
out=$(dt reload); rc=$?
that "reload: exit 0, and the daemon reloads" \
	'[ $rc = 0 ] && has "^reload requested" && wait_log "configuration reloaded"'
# Another user than root and the daemon's (nobody where _dnstrust does
# not exist): a fixed uid that no account has.
as_other() { setpriv --reuid=4242 --regid=4242 --clear-groups "$@"; }
out=$(as_other "$DNSTRUST" flush --socket "$sock" 2>&1); rc=$?
that "flush by another user: refused (EDE 18), exit $UNAVAILABLE" \
	'[ $rc = $UNAVAILABLE ] && has "REFUSED, EDE 18"'
out=$(as_other "$DNSTRUST" reload --socket "$sock" 2>&1); rc=$?
that "reload by another user: refused, exit $UNAVAILABLE" \
	'[ $rc = $UNAVAILABLE ] && has "REFUSED, EDE 18"'
out=$(as_other "$DNSTRUST" query www.secure.lab. A --socket "$sock" 2>&1); rc=$?
that "another user may query" '[ $rc = 0 ]'

# --- an impostor on a socket: not trusted ---

mkdir -p "$work/fake" && chown 65534 "$work/fake"
# The system's python3: a per-user one (pyenv) may not run as nobody.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
# setpriv execs python3, so $! is the server itself (a function run in
# the background would be a subshell, and killing it would leave python3).
setpriv --reuid=65534 --regid=65534 --clear-groups "$py" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(8)
while True:
    c, _ = s.accept()
    c.recv(65535)
    c.close()' "$work/fake/socket" &
fake_pid=$!
for _ in $(seq 50); do [ -S "$work/fake/socket" ] && break; sleep 0.1; done
"$DNSTRUST" status --json --socket "$work/fake/socket" >"$work/fake.json" 2>/dev/null
rc=$?
out=$(cat "$work/fake.json")
that "a socket served by another user: exit $UNAVAILABLE, reachable, not trusted" \
	'[ $rc = $UNAVAILABLE ] &&
	 json_ok "j[\"reachable\"] and not j[\"trusted\"]" <"$work/fake.json"'
out=$("$DNSTRUST" query www.secure.lab. A --socket "$work/fake/socket" 2>&1); rc=$?
that "query to the impostor: exit $UNAVAILABLE" '[ $rc = $UNAVAILABLE ]'
kill "$fake_pid" 2>/dev/null
wait "$fake_pid" 2>/dev/null
fake_pid=""

# --- the daemon stopped: every command is unavailable ---

kill -TERM "$dpid"
wait "$dpid"
dpid=""
for cmd in "query www.secure.lab. A" "query --json www.secure.lab. A" \
	"query --trace www.secure.lab. A" "status" "status --json" \
	"tlsa www.secure.lab 443" "sshfp www.secure.lab" "flush" \
	"flush secure.lab" "reload"; do
	# shellcheck disable=SC2086 # the words of $cmd are the arguments
	out=$(dt $cmd 2>&1); rc=$?
	that "daemon stopped: $cmd exits $UNAVAILABLE" \
		'[ $rc = $UNAVAILABLE ] && has "unavailable"'
done
dt status --json 2>/dev/null >"$work/down.json"
check "daemon stopped: status --json says not reachable" \
	json_ok "not j['reachable'] and not j['trusted'] and j['error']" \
	<"$work/down.json"

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 30 lines):"
	tail -30 "$work/dnstrustd.log" | sed 's/^/#   /'
fi
exit 0
