#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd's policy keys in the integration lab, each applied by SIGHUP to
# a running daemon: negative-trust-anchor (a bogus zone's answers become
# insecure, marked; at the anchor's date they are bogus again), require-
# secure (an insecure answer fails), insecure reject, domain ... upstream
# (split DNS: the domain's questions reach only its own upstream, seen in
# that upstream's query log), domain ... validate no (indeterminate data
# returned), mode permissive (bogus data returned, marked bogus).
#
# usage: lab_policy.sh DNSTRUSTD DTQ LAB_SH        (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
lab_start lab-policy
base_conf() {
	cat <<EOF
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
threads 1
query-timeout 3
log-level info
EOF
}
reloads=0
apply() { # policy lines on stdin: written after the base, then SIGHUP
	{ base_conf; cat; } >"$conf"
	kill -HUP "$dpid"
	reloads=$((reloads + 1))
	wait_for 50 reloaded "$reloads"
}
reloaded() { [ "$(grep -c 'configuration reloaded' "$dlog")" -ge "$1" ]; }
stop_daemon() { kill "$dpid"; wait "$dpid"; dpid=""; reloads=0; cat "$dlog" >>"$work/d.all"; : >"$dlog"; }
is() { # description, dtq output, then key=value pairs it must show
	local d=$1 out=$2 bad=""
	shift 2
	for kv in "$@"; do
		[ "$(echo "$out" | field "${kv%%=*}")" = "${kv#*=}" ] || bad="$bad $kv"
	done
	if [ -z "$bad" ]; then ok "$d"; else not_ok "$d" "want$bad; got: $out"; fi
}

base_conf >"$conf"
check "dnstrustd starts" start_daemon
is "without policy, www.expired.lab. is bogus" "$(q www.expired.lab. A)" \
	status=bogus rcode=SERVFAIL ede=7

# --- negative trust anchors ---
tomorrow=$(date -u -d '+1 day' +%Y-%m-%d)
check "reload with two negative trust anchors" apply <<EOF
negative-trust-anchor expired.lab until $tomorrow
negative-trust-anchor tampered.lab.
EOF
is "under an NTA, the bogus zone's answer is insecure, marked, with data" \
	"$(q www.expired.lab. A)" status=insecure rcode=NOERROR ad=0 nta=1 answers=1
is "an NTA without an end date applies too" "$(q www.tampered.lab. A)" \
	status=insecure rcode=NOERROR nta=1
is "a CNAME into an NTA'd zone is insecure" "$(q to-bogus.secure.lab. A)" \
	status=insecure rcode=NOERROR
is "names outside the anchors stay secure" "$(q www.secure.lab. A)" \
	status=secure ad=1 nta=0
out=$(q -c CH status.dnstrust. TXT)
check "status lists the anchors with their dates" \
	bash -c "echo '$out' | grep -q 'negative-trust-anchor=expired.lab. until=$tomorrow active' &&
		 echo '$out' | grep -q 'negative-trust-anchor=tampered.lab. until=no end active'"
stop_daemon
# Two days on, the anchor's date has passed (the lab's good signatures run
# 30 days): the zone is bogus again without any change of configuration.
check "restarted with the clock two days on (-T)" start_daemon -T 172800
is "past its date the NTA no longer applies: bogus again" \
	"$(q www.expired.lab. A)" status=bogus rcode=SERVFAIL ede=7 nta=0
is "the NTA without a date still applies" "$(q www.tampered.lab. A)" \
	status=insecure nta=1
check "the expired anchor was logged" \
	grep -q "negative-trust-anchor expired.lab. expired on $tomorrow: ignored" "$dlog"
out=$(q -c CH status.dnstrust. TXT)
check "status shows it expired" \
	bash -c "echo '$out' | grep -q 'negative-trust-anchor=expired.lab. until=$tomorrow expired'"
stop_daemon
base_conf >"$conf"
check "restarted with the real clock" start_daemon

# --- require-secure and insecure reject ---
is "www.insecure.lab. is insecure" "$(q www.insecure.lab. A)" \
	status=insecure rcode=NOERROR
check "reload with require-secure insecure.lab" apply <<EOF
require-secure insecure.lab
EOF
is "require-secure: the insecure answer fails like bogus (cache dropped)" \
	"$(q www.insecure.lab. A)" status=bogus rcode=SERVFAIL ede=6 answers=0
out=$(q www.insecure.lab. A)
check "its reason names the policy" \
	bash -c "echo '$out' | grep -q 'text=\"require-secure insecure.lab.: the answer is insecure'"
is "secure names under no rule are untouched" "$(q www.secure.lab. A)" status=secure
is "insecure names outside the rule pass" "$(q www.unsigned.optout.lab. A)" \
	status=insecure rcode=NOERROR
check "reload with insecure reject" apply <<EOF
insecure reject
negative-trust-anchor tampered.lab
EOF
is "insecure reject: every insecure answer fails" \
	"$(q www.unsigned.optout.lab. A)" status=bogus rcode=SERVFAIL
is "but an NTA'd answer stays returned (insecure by the admin's choice)" \
	"$(q www.tampered.lab. A)" status=insecure rcode=NOERROR nta=1

# --- split DNS ---
check "reload with domain insecure.lab upstream (the lab's other Unbound)" apply <<EOF
domain insecure.lab upstream $LAB_VALIDATOR
EOF
: >"$work/mark"
is "a split-DNS name resolves through its upstream" \
	"$(q host-$$.insecure.lab. A)" rcode=NXDOMAIN status=insecure
check "its question reached that upstream" \
	grep -q "host-$$.insecure.lab. A IN" "$LAB_VALIDATOR_LOG"
check "and not the resolv.conf one" \
	bash -c "! grep -q 'host-$$.insecure.lab. A IN' '$LAB_UNBOUND_LOG'"
is "other names still go to resolv.conf's upstream" \
	"$(q www.nsec3.lab. A)" status=secure
check "(seen in its log)" grep -q "www.nsec3.lab. A IN" "$LAB_UNBOUND_LOG"

# --- validate no ---
check "reload with domain nosig.lab validate no" apply <<EOF
domain nosig.lab validate no
EOF
is "validate no: data returned unvalidated, indeterminate" \
	"$(q www.nosig.lab. A)" status=indeterminate rcode=NOERROR ad=0 answers=1
is "the zone next door is still bogus" "$(q www.expired.lab. A)" status=bogus

# --- permissive ---
check "reload with mode permissive" apply <<EOF
mode permissive
EOF
is "permissive: bogus data returned, marked bogus, with its EDE" \
	"$(q www.tampered.lab. A)" status=bogus rcode=NOERROR ad=0 ede=6 \
	permissive=1 answers=1
check "and logged" grep -q "permissive: returning the bogus answer for www.tampered.lab." "$dlog"
is "secure answers are unchanged" "$(q www.secure.lab. A)" status=secure permissive=0
check "reload back to enforce" apply </dev/null
is "enforce: bogus withheld again" "$(q www.tampered.lab. A)" \
	status=bogus rcode=SERVFAIL answers=0

plan
if [ "$failed" -ne 0 ]; then
	echo "# daemon log (last 20 lines):"
	cat "$work/d.all" "$dlog" 2>/dev/null | grep -v "^$" | tail -40 | sed 's/^/#   /'
fi
exit 0
