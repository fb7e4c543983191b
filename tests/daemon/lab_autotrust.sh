#!/bin/bash
# SPDX-License-Identifier: MIT
#
# RFC 5011 in the integration lab (tests/lab/lab.sh): dnstrustd follows
# the lab root's KSK through a whole roll with auto-trust-anchor-file.
# The state file is made from $LAB_ANCHOR (the old KSK's DS); the lab
# root is then re-signed by `lab.sh roll` (forge, publish, revoke,
# remove) and dnstrustd restarted each time with its clock moved on (-T)
# past the next query and the hold-downs. The hold-downs are 7 days here
# (auto-trust-add-holddown, auto-trust-remove-holddown; RFC 5011's 30
# days, the default, would outlast the lab's signatures, valid for 30
# days from the lab's start); the unit test walks the 30 days.
#
# Checked at each step: the key states in the state file, the anchors the
# daemon uses (status.dnstrust.), the transitions logged, that
# www.secure.lab. A stays secure through the genuine roll, and that a key
# published by someone without a trusted key's signature is never taken,
# not even after the hold-down (while it is published, the whole root is
# bogus: nothing a trusted key signed is left to validate).
#
# usage: lab_autotrust.sh DNSTRUSTD DTQ LAB_SH        (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

HOUR=3600
DAY=86400
HOLD=$((7 * DAY))

lab_start lab-autotrust

state=$work/state/root.autotrust
log=$dlog
mkdir -p "$work/state"
# The daemon runs as _dnstrust (nobody where that does not exist) and
# writes its state there, as in /var/lib/dnstrust.
duser=nobody
getent passwd _dnstrust >/dev/null && duser=_dnstrust
chown "$duser" "$work/state"
: >"$log"
cat >"$conf" <<EOF
# written by lab_autotrust.sh
socket $sock
resolv-conf $LAB_RESOLV_CONF
trust-anchor-file $LAB_ANCHOR
root-hints $LAB_DIR/root.hints
auto-trust-anchor-file $state
auto-trust-add-holddown $HOLD
auto-trust-remove-holddown $HOLD
threads 2
log-level info
EOF

# last_query: the root's last-query in the state file.
last_query() {
	sed -n 's/^point \. last-query=\([0-9]*\) .*/\1/p' "$state" 2>/dev/null
}
# start_at SECONDS: (re)starts dnstrustd with its clock that far ahead and
# waits until its first refresh has written the state file (last-query at
# the shifted time) and any reload it asked for is done.
start_at() {
	local since
	if [ -n "$dpid" ]; then
		kill "$dpid" 2>/dev/null
		wait "$dpid" 2>/dev/null
		dpid=""
	fi
	since=$(($(date +%s) + $1))
	log_from=$(($(wc -l <"$log") + 1))
	"$DNSTRUSTD" -c "$conf" -f -T "$1" 2>>"$log" &
	dpid=$!
	wait_for 100 refreshed "$since" || return 1
	sleep 0.3
}
# refreshed TIME: the socket is there and the state file's last query at
# TIME or later.
refreshed() { [ -S "$sock" ] && [ "$(last_query)" -ge "$1" ] 2>/dev/null; }
log_from=1
# key_state TAG: the state of the key with that tag in the state file.
key_state() {
	awk -v t="tag=$1" '$1 == "key" && $3 == t { print $2 }' "$state"
}
# anchors: the daemon's anchors for ".", as status.dnstrust. lists them.
anchors() {
	q -c CH status.dnstrust. TXT | sed -n 's/^txt=trust-anchor=\. //p'
}
# anchors_are LIST: the anchors become LIST within 3 s (a reload the
# refresh asked for may still be under way).
anchors_are() {
	wait_for 30 anchors_is "$1"
}
anchors_is() { [ "$(anchors)" = "$1" ]; }
secure() { [ "$(q www.secure.lab. A | field status)" = secure ]; }
# logged TEXT: the log of the last start has a line with TEXT.
logged() { tail -n +"$log_from" "$log" | grep -qF -- "$1"; }
roll() {
	"$LAB_SH" roll "$lab" "$1" >>"$work/lab.log" 2>&1 && . "$lab/roll.env"
}

# --- the state file made from the lab's DS anchor ---

check "dnstrustd starts and makes its state file" start_at 0
old=$(awk '{ for (i = 1; i < NF; i++) if ($i == "DS") print $(i + 1) }' \
	"$LAB_ANCHOR")
check "the state file says where it comes from" \
	logged "$state: RFC 5011 state made from $LAB_ANCHOR"
check "the DS anchor $old became the root's DNSKEY, VALID" \
	test "$(key_state "$old")" = VALID
check "logged: DS $old is DNSKEY $old" logged "DS $old is DNSKEY $old (alg 8), VALID"
check "the daemon's anchor is that DNSKEY" anchors_are "DNSKEY:$old/8"
check "www.secure.lab. A is secure" secure
check "no temporary file is left beside the state file" \
	test "$(ls "$work/state")" = root.autotrust
check "the state file reads as a state file" \
	grep -q '^dnstrust-autotrust 1$' "$state"

# --- a forged key: published, but signed only by itself ---

roll forge
check "lab.sh roll forge" test "${LAB_ROLL_STEP:-}" = forge
forged=$LAB_KSK_FORGED
t=$((13 * HOUR))
check "restarted 13 h later" start_at $t
check "the forged RRset does not validate" \
	logged "ks-not-signed-by-trusted"
check "the forged key $forged is not in the state" test -z "$(key_state "$forged")"
check "www.secure.lab. A is not secure meanwhile (the root is bogus)" \
	test "$(q www.secure.lab. A | field status)" = bogus
t=$((t + HOLD + HOUR))
check "restarted after the add hold-down" start_at $t
check "the forged key is still not in the state" \
	test -z "$(key_state "$forged")"
check "the anchors are unchanged" anchors_are "DNSKEY:$old/8"

# --- publish: a new KSK signed by the old one ---

roll publish
new=$LAB_KSK_NEW
t=$((t + 13 * HOUR))
check "roll publish; restarted 13 h later" start_at $t
check "the new key $new is ADDPEND" test "$(key_state "$new")" = ADDPEND
check "logged: START -> ADDPEND" \
	logged "key $new (alg 8) START -> ADDPEND: trusted from"
check "the anchors are still the old key alone" \
	anchors_are "DNSKEY:$old/8"
check "www.secure.lab. A is secure again" secure
t=$((t + HOLD + HOUR))
check "restarted after the add hold-down" start_at $t
check "the new key is VALID" test "$(key_state "$new")" = VALID
check "logged: ADDPEND -> VALID" logged "key $new (alg 8) ADDPEND -> VALID"
check "logged: the reload for the new anchors" \
	logged "the trusted keys changed: reloading"
check "the daemon trusts both keys" \
	anchors_are "DNSKEY:$old/8 DNSKEY:$new/8"
check "www.secure.lab. A is secure" secure

# --- revoke: the old key, REVOKE bit set, signs itself ---

roll revoke
revoked=$LAB_KSK_OLD_REVOKED
t=$((t + 13 * HOUR))
check "roll revoke; restarted 13 h later" start_at $t
check "the old key is REVOKED, under its new tag $revoked" \
	test "$(key_state "$revoked")" = REVOKED
check "logged: VALID -> REVOKED" \
	logged "key $old (alg 8) VALID -> REVOKED; its tag is now $revoked"
check "the daemon trusts the new key alone" \
	anchors_are "DNSKEY:$new/8"
check "www.secure.lab. A is secure" secure

# --- remove: the old key is gone ---

roll remove
t=$((t + HOLD + HOUR))
check "roll remove; restarted after the remove hold-down" start_at $t
check "the old key is REMOVED" test "$(key_state "$revoked")" = REMOVED
check "logged: REVOKED -> REMOVED" \
	logged "key $revoked (alg 8) REVOKED -> REMOVED"
check "the daemon trusts the new key alone" \
	anchors_are "DNSKEY:$new/8"
check "www.secure.lab. A is secure" secure
check "the forged key never entered the state" \
	test -z "$(key_state "$forged")"
check "no temporary file is left beside the state file" \
	test "$(ls "$work/state")" = root.autotrust

kill -TERM "$dpid"
wait "$dpid"
rc=$?
dpid=""
check "SIGTERM: exit 0" test "$rc" = 0

plan
if [ "$failed" -ne 0 ]; then
	echo "# state file:"
	sed 's/^/#   /' "$state" | cut -c1-160
	echo "# daemon log (last 40 lines):"
	tail -40 "$log" | sed 's/^/#   /'
fi
exit 0
