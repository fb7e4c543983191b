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
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

# Exit codes of dnstrust(1).
SECURE=0 INSECURE=1 BOGUS=2 INDETERMINATE=3 NOT_FOUND=5 UNAVAILABLE=69
REFUSED=77

lab_start query-lab

cat >"$conf" <<EOF
# written by query_lab.sh
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 2
query-timeout 5
log-level info
EOF

mkdir -p "$work/state"
# Runtime NTAs are saved there by the daemon (STATE_DIRECTORY, which only
# dnstrustd reads), which runs as _dnstrust (nobody where that does not
# exist).
duser=nobody
getent passwd _dnstrust >/dev/null && duser=_dnstrust
chown "$duser" "$work/state"
export STATE_DIRECTORY=$work/state
dt() { "$DNSTRUST" "$@" --socket "$sock"; }
# A JSON document on stdin (json.load refuses anything else), then the
# Python expression $1 over it (as j) must be true. One interpreter per
# call: its start-up is most of a check's time.
json_ok() {
	python3 -c "
import json, sys
try:
    j = json.load(sys.stdin)
except ValueError:
    sys.exit(1)
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
out=$(dt query --json www.secure.lab. BADTYPE 2>/dev/null); rc=$?
that "--json: an unknown type is a usage error, said in JSON" \
	'[ $rc = 64 ] && printf "%s" "$out" |
	 json_ok "j[\"error\"][\"usage\"] and \"BADTYPE\" in j[\"error\"][\"message\"] and j[\"exit\"] == 64"'
out=$(dt query "$(printf 'a%.0s' $(seq 64)).lab." A 2>&1); rc=$?
that "a label of 64 octets: usage error saying the limit" \
	'[ $rc = 64 ] && has "longer than 63 octets"'

# --- RDATA as dig prints it ---

for t in HTTPS CAA LOC; do
	want=$(dig @"$LAB_RESOLVER" +tries=1 +time=5 +cd +short svc.secure.lab "$t")
	out=$(dt query svc.secure.lab. "$t"); rc=$?
	that "query svc.secure.lab. $t: secure, the RDATA as dig prints it ($want)" \
		'[ $rc = 0 ] && [ -n "$want" ] &&
		 has -F "svc.secure.lab.${TAB}" && has -F "${TAB}IN${TAB}$t${TAB}$want"'
done

# --- several types in one call, -x ---

out=$(dt query www.secure.lab. A SSHFP); rc=$?
that "query NAME A SSHFP: two answers, both secure, exit 0" \
	'[ $rc = 0 ] && [ "$(printf "%s\n" "$out" | grep -c "^;; QUESTION SECTION:")" = 2 ] &&
	 has -E "^www\.secure\.lab\.${TAB}[0-9]+${TAB}IN${TAB}A${TAB}" &&
	 has -E "^www\.secure\.lab\.${TAB}[0-9]+${TAB}IN${TAB}SSHFP${TAB}"'
dt query --json www.secure.lab. A SSHFP >"$work/multi.json"; rc=$?
check "query --json NAME A SSHFP: an array of two answers, in order" \
	json_ok "[a['question']['type'] for a in j] == ['A', 'SSHFP'] and
		 all(a['status'] == 'secure' and a['exit'] == 0 for a in j)" \
	<"$work/multi.json"
out=$(dt query www.secure.lab. A TYPE65280); rc=$?
that "a secure answer and a secure NODATA: exit $NOT_FOUND (the worse)" \
	'[ $rc = $NOT_FOUND ]'
out=$(dt query --cd www.expired.lab. TYPE65280 A); rc=$?
that "a bogus answer among others: exit $BOGUS" '[ $rc = $BOGUS ]'
out=$(dt query www.secure.lab. A AAAA BADTYPE 2>&1); rc=$?
that "one bad type among several: usage error, nothing asked" \
	'[ $rc = 64 ] && ! has "QUESTION SECTION"'
dt query --json -x 192.0.2.1 >"$work/rev4.json"; rc=$?
check "query -x 192.0.2.1: PTR 1.2.0.192.in-addr.arpa." \
	json_ok "j['question']['name'] == '1.2.0.192.in-addr.arpa.' and
		 j['question']['type'] == 'PTR' and j['exit'] == $rc" \
	<"$work/rev4.json"
dt query --json -x 2001:db8::567:89ab AAAA PTR >"$work/rev6.json"; rc=$?
check "query -x 2001:db8::567:89ab AAAA PTR: both under ip6.arpa." \
	json_ok "[a['question']['type'] for a in j] == ['AAAA', 'PTR'] and
		 all(a['question']['name'] == 'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.'
		     for a in j)" <"$work/rev6.json"
out=$(dt query -x 192.0.2 2>&1); rc=$?
that "query -x with no address: usage error" \
	'[ $rc = 64 ] && has "bad address"'

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

# Every question's trace, then one interpreter over them all.
mkdir -p "$work/traces"
i=0
while read -r name type st rc ede; do
	i=$((i + 1))
	printf '%s %s %s\n' "$name" "$type" "$st" >"$work/traces/$i.q"
	dt query --trace --json "$name" "$type" >"$work/traces/$i.json" 2>&1
done <"$LAB_EXPECT"
disagree=$(python3 - "$work/traces" "$i" <<'EOF'
import json, sys
out = []
for i in range(1, int(sys.argv[2]) + 1):
    name, qtype, st = open(f"{sys.argv[1]}/{i}.q").read().split()
    try:
        t = json.load(open(f"{sys.argv[1]}/{i}.json"))["trace"]
        good = (t["agree"] and t["offline"]["status"] == st and
                t["offline"]["ede"] == t["daemon"]["ede"])
    except (ValueError, KeyError, TypeError):
        good = False
    if not good:
        out.append(f"{name}/{qtype}")
print(" " + " ".join(out) if out else "")
EOF
)
[ "$i" -gt 0 ] || disagree=" (no question read)"
check "--trace: the offline verdict (status and EDE) equals the daemon's on every question${disagree:+ (not:$disagree)}" \
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
out=$(dt reload); rc=$?
that "reload: exit 0, and the daemon reloads" \
	'[ $rc = 0 ] && has "^reloaded" && wait_log "configuration reloaded"'
# Another user than root and the daemon's (nobody where _dnstrust does
# not exist): a fixed uid that no account has.
# It runs a copy of dnstrust that it can read.
SHARED_DNSTRUST=$(shared_copy "$DNSTRUST") || bail "dnstrust copied for uid 4242"
as_nobody() { setpriv --reuid=4242 --regid=4242 --clear-groups "$@"; }
out=$(as_nobody "$SHARED_DNSTRUST" flush --socket "$sock" 2>&1); rc=$?
that "flush by another user: refused (EDE 18), exit $REFUSED" \
	'[ $rc = $REFUSED ] && has "REFUSED, EDE 18"'
out=$(as_nobody "$SHARED_DNSTRUST" reload --socket "$sock" 2>&1); rc=$?
that "reload by another user: refused, exit $REFUSED" \
	'[ $rc = $REFUSED ] && has "REFUSED, EDE 18"'
out=$(as_nobody "$SHARED_DNSTRUST" query www.secure.lab. A --socket "$sock" 2>&1); rc=$?
that "another user may query" '[ $rc = 0 ]'

# --- statistics, flush --bogus and --negative, log-level ---

out=$(dt statistics); rc=$?
that "statistics: exit 0, counters by status, by EDE (7 for expired), times" \
	'[ $rc = 0 ] && has -E "^queries: +[1-9]" && has -E "^bogus: +[1-9]" &&
	 has -E "^resolutions: +[1-9]" && has -E "^latency-p50-ms: +[0-9]+$" &&
	 has -E "^latency-p99-ms: +[0-9]+$" &&
	 has -E "^upstream $LAB_RESOLVER: +[1-9][0-9]* tries, [1-9][0-9]* answers, [0-9]+ timeouts, [0-9]+ errors, [0-9]+ ms average$" &&
	 has -E "^EDE 7 \(Signature Expired\): +[1-9]"'
dt statistics --json >"$work/stats.json"
check "statistics --json: numbers, and EDE 7 among the EDE counters" \
	json_ok "j['statistics']['queries'] > 0 and j['statistics']['secure'] > 0 and
		 [u['server'] for u in j['statistics']['upstreams']] == ['$LAB_RESOLVER'] and
		 j['statistics']['upstreams'][0]['answers'] > 0 and
		 any(e['code'] == 7 and e['count'] > 0 for e in j['statistics']['ede'])" \
	<"$work/stats.json"
out=$(as_nobody "$SHARED_DNSTRUST" statistics --reset --socket "$sock" 2>&1); rc=$?
that "statistics --reset by another user: refused, exit $REFUSED" \
	'[ $rc = $REFUSED ] && has "only root"'
out=$(as_nobody "$SHARED_DNSTRUST" statistics --socket "$sock" 2>&1); rc=$?
that "statistics by another user: allowed" '[ $rc = 0 ]'
out=$(dt statistics --reset); rc=$?
that "statistics --reset: exit 0" '[ $rc = 0 ] && has -E "^reset: +done"'
dt query www.secure.lab. A >/dev/null
dt statistics --json >"$work/stats2.json"
check "after --reset the counters start again from zero" \
	json_ok "j['statistics']['bogus'] == 0 and j['statistics']['queries'] <= 3 and
		 all(u['tries'] <= 2 for u in j['statistics']['upstreams']) and
		 not any(e['count'] for e in j['statistics']['ede'])" \
	<"$work/stats2.json"

cached_cd() {
	dt query --json --cd "$1" "${2:-A}" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["cached"])'
}
cached_cd www.expired.lab. >/dev/null
cached_cd nonexistent.secure.lab. >/dev/null
cached www.secure.lab. >/dev/null
out="$(cached_cd www.expired.lab.)/$(cached_cd nonexistent.secure.lab.)"
that "a bogus and an NXDOMAIN answer are cached" '[ "$out" = True/True ]'
out=$(dt flush --bogus); rc=$?
that "flush --bogus: exit 0, the bogus answers dropped" \
	'[ $rc = 0 ] && has -E "^flushed [1-9][0-9]* bogus answers?$"'
out="$(cached_cd www.expired.lab.)/$(cached_cd nonexistent.secure.lab.)/$(cached www.secure.lab.)"
that "after flush --bogus: the bogus answer is asked again, the others kept" \
	'[ "$out" = False/True/True ]'
out=$(dt flush --negative); rc=$?
that "flush --negative: exit 0, the NXDOMAIN answer dropped" \
	'[ $rc = 0 ] && has -E "^flushed [1-9][0-9]* negative answers?$"'
out="$(cached_cd nonexistent.secure.lab.)/$(cached www.secure.lab.)"
that "after flush --negative: the NXDOMAIN asked again, the secure answer kept" \
	'[ "$out" = False/True ]'
out=$(dt flush --bogus secure.lab 2>&1); rc=$?
that "flush --bogus NAME: usage error" '[ $rc = 64 ]'
out=$(as_nobody "$SHARED_DNSTRUST" flush --negative --socket "$sock" 2>&1); rc=$?
that "flush --negative by another user: refused, exit $REFUSED" '[ $rc = $REFUSED ]'

out=$(dt log-level); rc=$?
that "log-level: the configured one (info)" '[ $rc = 0 ] && has "^log-level info$"'
out=$(dt log-level debug); rc=$?
that "log-level debug: set" '[ $rc = 0 ] && has "^log-level debug (until the next reload)"'
out=$(dt log-level); rc=$?
that "log-level: now debug, and the daemon said so" \
	'[ $rc = 0 ] && has "^log-level debug$" && wait_log "log-level debug, set by"'
out=$(as_nobody "$SHARED_DNSTRUST" log-level error --socket "$sock" 2>&1); rc=$?
that "log-level by another user: refused, exit $REFUSED" '[ $rc = $REFUSED ]'
out=$(dt log-level --json); rc=$?
that "log-level --json" '[ $rc = 0 ] && printf "%s" "$out" |
	json_ok "j[\"log-level\"] == \"debug\" and not j[\"set\"]"'
out=$(dt log-level loud 2>&1); rc=$?
that "log-level with an unknown level: usage error" '[ $rc = 64 ]'
dt log-level info >/dev/null

# --- monitor ---

timeout 20 "$DNSTRUST" monitor --count 3 --socket "$sock" >"$work/mon.txt" 2>&1 &
mon_pid=$!
sleep 1
dt query www.secure.lab. A >/dev/null
dt query --cd www.expired.lab. TXT >/dev/null
dt query nothing-here.secure.lab. A >/dev/null
wait "$mon_pid"
rc=$?
out=$(cat "$work/mon.txt")
that "monitor --count 3: three lines, status, EDE, time, cache" \
	'[ $rc = 0 ] && [ "$(wc -l <"$work/mon.txt")" = 3 ] &&
	 has -E "^[0-9:.]+Z secure +www\.secure\.lab\. A, from the cache$" &&
	 has -E "^[0-9:.]+Z bogus +www\.expired\.lab\. TXT EDE 7 \(Signature Expired\), [0-9]+ ms$" &&
	 has -E "^[0-9:.]+Z secure +nothing-here\.secure\.lab\. A, [0-9]+ ms$"'
timeout 20 "$DNSTRUST" monitor --json --count 1 --socket "$sock" >"$work/mon.json" 2>&1 &
mon_pid=$!
sleep 1
dt query --cd www.expired.lab. TXT >/dev/null
wait "$mon_pid"
check "monitor --json: one object per question" \
	json_ok "j['name'] == 'www.expired.lab.' and j['type'] == 'TXT' and
		 j['status'] == 'bogus' and j['ede']['code'] == 7 and j['cached']" \
	<"$work/mon.json"
out=$(as_nobody timeout 10 "$SHARED_DNSTRUST" monitor --count 1 --socket "$sock" 2>&1); rc=$?
that "monitor by another user: refused (their questions are private), exit $REFUSED" \
	'[ $rc = $REFUSED ]'

# --- negative trust anchors at run time ---

out=$(dt nta list); rc=$?
that "nta list: none yet" '[ $rc = 0 ] && has "^no negative trust anchor"'
out=$(dt query www.expired.lab. A); rc=$?
that "before nta add: www.expired.lab. is bogus" '[ $rc = $BOGUS ]'
out=$(dt nta add expired.lab --until 1d); rc=$?
that "nta add expired.lab --until 1d: exit 0, the end said" \
	'[ $rc = 0 ] && has -E "^negative trust anchor expired\.lab\. until 20[0-9-]+T"'
out=$(dt query www.expired.lab. A); rc=$?
that "under the NTA: the records, not validated, exit $INSECURE" \
	'[ $rc = $INSECURE ] && has "ANSWER SECTION" && ! has "^;; WITHHELD"'
out=$(dt query www.secure.lab. A); rc=$?
that "under the NTA: other zones still validated" '[ $rc = 0 ]'
dt nta list --json >"$work/nta.json"
check "nta list --json: expired.lab., runtime, with its end" \
	json_ok "[(n['domain'], n['source']) for n in j['nta']] == [('expired.lab.', 'runtime')] and
		 j['nta'][0]['until'] > 0 and j['file'] == '$work/state/negative-trust-anchors'" \
	<"$work/nta.json"
out=$(cat "$work/state/negative-trust-anchors" 2>&1)
that "the NTA is in the state file" 'has -E "^expired\.lab\. [0-9]+$"'
out=$(dt status); rc=$?
that "status lists the runtime NTA with its end" \
	'[ $rc = 0 ] && has -E "^negative-trust-anchor: +expired\.lab\. until=20[0-9-]+T[0-9:]+Z runtime active$"'
kill -TERM "$dpid"
wait "$dpid"
dpid=""
check "dnstrustd starts again" start_daemon
out=$(dt query www.expired.lab. A); rc=$?
that "after a restart the NTA still applies" '[ $rc = $INSECURE ]'
out=$(as_nobody "$SHARED_DNSTRUST" nta add secure.lab --socket "$sock" 2>&1); rc=$?
that "nta add by another user: refused, exit $REFUSED" '[ $rc = $REFUSED ]'
out=$(as_nobody "$SHARED_DNSTRUST" nta list --socket "$sock" 2>&1); rc=$?
that "nta list by another user: allowed" '[ $rc = 0 ] && has "^expired\.lab\."'
out=$(dt nta add secure.lab --until 2000-01-01 2>&1); rc=$?
that "nta add with an end in the past: refused by the daemon, exit 4" \
	'[ $rc = 4 ] && has "bad end time"'
out=$(dt nta add secure.lab --until 2000-01-01 --json 2>/dev/null); rc=$?
that "nta add --json with an end in the past: the error in JSON, exit 4" \
	'[ $rc = 4 ] && printf "%s" "$out" |
	 json_ok "\"bad end time\" in j[\"error\"] and j[\"exit\"] == 4 and j[\"action\"] == \"add\""'
out=$(dt nta add . 2>&1); rc=$?
that "nta add for the root: usage error" '[ $rc = 64 ]'
out=$(dt nta add secure.lab --until soon 2>&1); rc=$?
that "nta add --until soon: usage error" '[ $rc = 64 ]'
out=$(dt nta remove expired.lab); rc=$?
that "nta remove expired.lab: exit 0" '[ $rc = 0 ] && has "removed"'
out=$(dt query www.expired.lab. A); rc=$?
that "after nta remove: bogus again (its cached answers dropped)" '[ $rc = $BOGUS ]'
out=$(dt nta remove expired.lab 2>&1); rc=$?
that "nta remove of an absent NTA: exit $NOT_FOUND" '[ $rc = $NOT_FOUND ]'
out=$(dt nta remove --json expired.lab 2>/dev/null); rc=$?
that "nta remove --json of an absent NTA: exit $NOT_FOUND, said in JSON" \
	'[ $rc = $NOT_FOUND ] && printf "%s" "$out" |
	 json_ok "j[\"domain\"] == \"expired.lab.\" and j[\"exit\"] == $NOT_FOUND"'
out=$(dt nta list); rc=$?
that "nta list: none again" '[ $rc = 0 ] && has "^no negative trust anchor"'

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
extra_pids=$fake_pid
wait_for 50 [ -S "$work/fake/socket" ]
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
fake_pid="" extra_pids=""

# --- the daemon stopped: every command is unavailable ---

kill -TERM "$dpid"
wait "$dpid"
dpid=""
for cmd in "query www.secure.lab. A" "query --json www.secure.lab. A" \
	"query --trace www.secure.lab. A" "status" "status --json" \
	"tlsa www.secure.lab 443" "sshfp www.secure.lab" "flush" \
	"flush secure.lab" "reload" "statistics" "flush --bogus" \
	"log-level" "nta list" "nta add secure.lab" "monitor"; do
	# shellcheck disable=SC2086 # the words of $cmd are the arguments
	out=$(dt $cmd 2>&1); rc=$?
	that "daemon stopped: $cmd exits $UNAVAILABLE" \
		'[ $rc = $UNAVAILABLE ] && has "unavailable"'
done
dt query --json www.secure.lab. A AAAA >"$work/down-query.json" 2>/dev/null
rc=$?
out=$(cat "$work/down-query.json")
that "daemon stopped: query --json with two types: one error in the array, exit $UNAVAILABLE" \
	'[ $rc = $UNAVAILABLE ] && printf "%s" "$out" |
	 json_ok "len(j) == 1 and j[0][\"error\"][\"unavailable\"] and j[0][\"exit\"] == $UNAVAILABLE"'
dt status --json 2>/dev/null >"$work/down.json"
check "daemon stopped: status --json says not reachable" \
	json_ok "not j['reachable'] and not j['trusted'] and j['error']" \
	<"$work/down.json"

plan
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 30 lines):"
	tail -30 "$dlog" | sed 's/^/#   /'
fi
exit 0
