#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dnstrustd resolving from the root itself (resolution recursive) in the
# integration lab (tests/lab/lab.sh, with LAB_DEEP=1): root hints are the
# lab's (root.hints: its NSD), resolv.conf names an address where nothing
# listens, so forwarding would fail. Every question of the lab's truth
# table gets its status, RCODE and EDE; none of the lab's resolvers is
# asked; DS records come from the parent side of each cut; a name five
# cuts deep resolves; the address of a name server without glue is a
# validated question of its own (LAB_GLUELESS=1): a genuine one is used, a
# bogus one never asked; status says recursive; root hints pointing at a
# dead or silent address fail closed within query-timeout, SERVFAIL with
# EDE 23 (Network Error) naming the network. A server distrusted for a
# bogus answer costs no iterated lookup of its address per question.
#
# Never the built-in (public) root hints: every configuration written
# here sets root-hints to a file of this test.
#
# usage: lab_recursive.sh DNSTRUSTD DTQ LAB_SH DNSTRUST   (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3 DNSTRUST=$4
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
export LAB_DEEP=1 LAB_GLUELESS=1
lab_start lab-recursive
resolv=$work/resolv.conf
printf 'nameserver %s.99\n' "$LAB_NET" >"$resolv"
write_conf() { # HINTS [QUERY-TIMEOUT [THREADS]]
	cat >"$conf" <<EOF
# written by lab_recursive.sh
socket $sock
resolv-conf $resolv
trust-anchor-file $LAB_ANCHOR
resolution recursive
root-hints $1
threads ${3:-2}
query-timeout ${2:-5}
log-level info
EOF
}
write_conf "$LAB_DIR/root.hints"

# Queries the lab's resolvers have logged ("info: 127.0.0.1 NAME TYPE IN").
logged() { grep -c ' IN$' "$1" || :; }
before_u=$(logged "$LAB_UNBOUND_LOG")
before_v=$(logged "$LAB_VALIDATOR_LOG")
before_a=$(logged "$LAB_ATTACKER_LOG")

check "dnstrustd starts in recursive mode" start_daemon
check "and says so" wait_log "resolution: recursive"

out=$(q -c CH status.dnstrust. TXT)
check "status: resolution=recursive, resolution-config=recursive" \
	bash -c "echo '$out' | grep -q 'txt=resolution=recursive' &&
		 echo '$out' | grep -q 'txt=resolution-config=recursive'"
check "status names the lab's root hints" \
	bash -c "echo '$out' | grep -qF 'txt=root-hints=$LAB_DIR/root.hints'"
json=$("$DNSTRUST" status --json --socket "$sock" 2>&1)
check "dnstrust status --json: \"resolution\":\"recursive\" at the top, once" \
	bash -c "echo '$json' | grep -q '^{\"socket\":.*,\"resolution\":\"recursive\",\"status\":{' &&
		 [ \$(echo '$json' | grep -o '\"resolution\":' | wc -l) = 1 ]"

# --- the truth table ---

start=$(date +%s%N)
while read -r name type st rc ede; do
	out=$(q "$name" "$type" 2>&1)
	ad=0
	[ "$st" = secure ] && ad=1
	if [ "$(echo "$out" | field status)" = "$st" ] &&
		[ "$(echo "$out" | field rcode)" = "$rc" ] &&
		[ "$(echo "$out" | field ad)" = "$ad" ] &&
		{ [ -z "${ede:-}" ] || [ "$(echo "$out" | field ede)" = "$ede" ]; }; then
		ok "recursive: $name $type is $st $rc ${ede:-}"
	else
		not_ok "recursive: $name $type is $st $rc ${ede:-}" "$out"
	fi
done <"$LAB_EXPECT"
ms=$((($(date +%s%N) - start) / 1000000))
echo "# the truth table ($(grep -c . "$LAB_EXPECT") questions) in $ms ms"

out=$(q www.secure.lab. A)
check "a repeated question is answered from the cache" \
	test "$(echo "$out" | field cached)" = 1

# --- identical questions in flight share one iterated fetch ---

counter_now() {
	q -c CH status.dnstrust. TXT | sed -n "s/^txt=$1=//p"
}
q shared0.wild.secure.lab. A >/dev/null # the chain of trust, cached
counters="iterator-questions iterator-queries iterator-keys-ahead iterator-keys-from-ahead iterator-ds-from-referral iterator-wild-synth joined joined-across-workers cache-hits upstream-queries"
declare -A before_c
for c in $counters; do before_c[$c]=$(counter_now "$c"); done
before=$(counter_now iterator-questions)
: >"$work/par"
for _ in $(seq 20); do q shared.wild.secure.lab. A >>"$work/par" & done
for p in $(jobs -p); do [ "$p" != "$dpid" ] && wait "$p"; done
iterated=$(($(counter_now iterator-questions) - before))
# On a failure, what each counter grew by (it failed in CI with 4: each
# worker also looked up the address of a server distrusted earlier, a
# lookup since answered from the answer cache).
grew=$(for c in $counters; do
	now_c=$(counter_now "$c")
	echo "$c grew by $((${now_c:-0} - ${before_c[$c]:-0}))"
done)
secure_n=$(grep -c status=secure "$work/par")
if [ "$secure_n" = 20 ] && [ "$iterated" -ge 1 ] && [ "$iterated" -le 2 ]; then
	ok "20 identical questions: $secure_n secure, $iterated iterated (at most one per worker)"
else
	not_ok "20 identical questions: $secure_n secure, $iterated iterated (at most one per worker)" "$grew"
fi

# --- DS records from the parent side of the cut ---

# insecure.lab. is an unsigned zone on the same server as its parent's
# children: asked of the child, "insecure.lab. DS" would be an unsigned
# NODATA (bogus under a signed lab.); from lab. it is a signed denial.
out=$(q insecure.lab. DS)
check "insecure.lab. DS: secure NODATA, lab.'s signed denial (the parent)" \
	test "$(echo "$out" | field status)/$(echo "$out" | field rcode)/$(echo "$out" | field answers)" = "secure/NOERROR/0"
# sub.secure.lab. has no DS at its own apex: only secure.lab. holds it.
out=$(q sub.secure.lab. DS)
check "sub.secure.lab. DS: the DS record, from secure.lab. (the parent)" \
	bash -c "[ '$(echo "$out" | field status)' = secure ] &&
		 [ '$(echo "$out" | field answers)' -ge 1 ]"

# --- a name five zone cuts below the root ---

out=$(q h1.d5.d4.d3.deep.lab. A)
if [ "$(echo "$out" | field status)/$(echo "$out" | field rcode)" = secure/NOERROR ]; then
	ok "h1.d5.d4.d3.deep.lab. A (5 cuts): secure"
else
	not_ok "h1.d5.d4.d3.deep.lab. A (5 cuts): secure" "$out"
fi

# --- name servers without glue: their addresses validated ---

# glueless.lab. NS ns.secure.lab.: lab. has no address for it, so the
# iterator asks for one, and the answer (signed in secure.lab.) is secure.
# The monitor shows the client's question, not that lookup, which the
# core finishes first.
timeout 20 "$DNSTRUST" monitor --count 1 --socket "$sock" >"$work/mon" 2>&1 &
mon_pid=$!
sleep 1
out=$(q www.glueless.lab. A)
wait "$mon_pid"
check "monitor: the client's www.glueless.lab. A, not the name server's lookup ($(cat "$work/mon"))" \
	grep -q 'www\.glueless\.lab\. A,' "$work/mon"
if [ "$(echo "$out" | field status)/$(echo "$out" | field rcode)" = insecure/NOERROR ] &&
	"$DNSTRUST" query www.glueless.lab. A --socket "$sock" 2>&1 |
	grep -q '192\.0\.2\.120'; then
	ok "www.glueless.lab. A (NS ns.secure.lab., no glue): insecure, 192.0.2.120"
else
	not_ok "www.glueless.lab. A (NS ns.secure.lab., no glue): insecure, 192.0.2.120" "$out"
fi
out=$(q ns.secure.lab. A)
check "the name server's address was a question of its own: secure, cached" \
	test "$(echo "$out" | field status)/$(echo "$out" | field cached)" = secure/1
# gluebogus.lab. NS ns.tampered.lab., whose address is the server's, but
# altered after signing: used unvalidated, it would answer.
out=$(q www.gluebogus.lab. A)
check "www.gluebogus.lab. A (its name server's address bogus): SERVFAIL" \
	bash -c "[ '$(echo "$out" | field rcode)' = SERVFAIL ] &&
		 ! '$DNSTRUST' query www.gluebogus.lab. A --socket '$sock' 2>&1 |
			grep -q '192\.0\.2\.121'"
check "and the log says why: the address is bogus, not asked" \
	wait_log "name server ns.tampered.lab.: address bogus, not asked"
out=$(q ns.tampered.lab. A)
check "ns.tampered.lab. A itself: bogus" \
	test "$(echo "$out" | field status)" = bogus

# loopa.lab. NS ns.loopb.lab., loopb.lab. NS ns.loopa.lab.: each
# address is a question nested in the other's, cut at the nesting limit.
start=$(date +%s%N)
out=$(q www.loopa.lab. A)
ms=$((($(date +%s%N) - start) / 1000000))
check "www.loopa.lab. A (name servers named in each other): SERVFAIL in $ms ms, within query-timeout" \
	bash -c "[ '$(echo "$out" | field rcode)' = SERVFAIL ] && [ $ms -lt 5000 ]"
sleep 1
out=$(q -c CH status.dnstrust. TXT)
check "and nothing of it is left under way: questions-under-way=$(echo "$out" | sed -n 's/^txt=questions-under-way=//p')" \
	test "$(echo "$out" | sed -n 's/^txt=questions-under-way=//p')" = 0
check "the next question is answered: www.secure.lab. secure" \
	test "$(q www.secure.lab. A | field status)" = secure

# --- nothing went to the lab's resolvers ---

check "the lab's iterating Unbound was not asked ($(logged "$LAB_UNBOUND_LOG") - $before_u)" \
	test "$(logged "$LAB_UNBOUND_LOG")" = "$before_u"
check "nor the validating one" \
	test "$(logged "$LAB_VALIDATOR_LOG")" = "$before_v"
check "nor the attacker" test "$(logged "$LAB_ATTACKER_LOG")" = "$before_a"

out=$(q -c CH status.dnstrust. TXT)
counter() { echo "$out" | sed -n "s/^txt=$1=//p"; }
check "status: root reachable, $(counter iterator-queries) queries, $(counter iterator-referrals) referrals" \
	bash -c "[ '$(counter root-reachable)' = yes ] &&
		 [ '$(counter iterator-queries)' -gt 0 ] &&
		 [ '$(counter iterator-referrals)' -gt 0 ] &&
		 [ '$(counter iterator-root-unreachable)' = 0 ]"
check "root primed (RFC 8109): the lab root's NS address, status root-primed=yes" \
	bash -c "[ '$(counter root-primed)' = yes ] &&
		 grep -q \"root primed: 1 address of the root's servers\" '$dlog'"
check "stops on SIGTERM" stop_daemon

# --- a distrusted server: its zones' name servers from the cache ---

# www.tampered.lab.'s bogus answer is asked again and its server (ns2.lab.,
# which serves every lab zone) tried last for a while: for its zones the
# iterator first looks up their name servers' addresses again, for
# another server. Those lookups are answered from the answer cache, not
# iterated for every question. One worker: one iterator sees it all.
write_conf "$LAB_DIR/root.hints" 5 1
check "restarted with one worker" start_daemon
q www.tampered.lab. A >/dev/null
check "a bogus answer, asked again: retried=$(counter_now retried)" \
	test "$(counter_now retried)" -ge 1
q "w0-$$.wild.secure.lab." A >/dev/null # the first lookups
before=$(counter_now iterator-questions)
for i in 1 2 3 4 5 6; do q "w$i-$$.wild.secure.lab." A >/dev/null; done
iterated=$(($(counter_now iterator-questions) - before))
check "6 new names on the distrusted server: 6 iterated questions, none for its address ($iterated)" \
	test "$iterated" = 6
stop_daemon

# --- a network where no root server answers ---

# Refused: nothing listens at the hinted address (ICMP port unreachable).
printf '. 3600000 NS ns1.lab.\nns1.lab. 3600000 A %s.97\n' "$LAB_NET" \
	>"$work/dead.hints"
write_conf "$work/dead.hints" 3
check "restarted with root hints where nothing listens" start_daemon
start=$(date +%s%N)
out=$(q www.secure.lab. A)
ms=$((($(date +%s%N) - start) / 1000000))
check "no root server: SERVFAIL, EDE 23, in $ms ms" \
	bash -c "[ '$(echo "$out" | field rcode)/$(echo "$out" | field ede)' = SERVFAIL/23 ] &&
		 [ $ms -lt 3000 ]"
check "and its reason names the network" \
	bash -c "echo '$out' | grep -q 'network blocks queries to authoritative servers'"
out=$(q -c CH status.dnstrust. TXT)
check "status: root-reachable=no, the network blocks it; iterator-root-unreachable counted" \
	bash -c "[ '$(counter root-reachable | cut -c1-36)' = 'no (the network blocks queries to au' ] &&
		 [ '$(counter iterator-root-unreachable)' -ge 1 ]"
check "priming failed: status root-primed=no, logged once" \
	bash -c "[ '$(counter root-primed)' = no ] &&
		 [ \$(grep -c 'root priming failed: no hint address answered' '$dlog') = 1 ]"
# A reload to a hints file that does not load is refused; one to the
# lab's hints takes effect at once.
write_conf "$work/missing.hints" 3
out=$("$DNSTRUST" reload --socket "$sock" 2>&1)
check "reload to a missing root-hints file: refused, naming it" \
	bash -c "echo '$out' | grep -q 'missing.hints'"
write_conf "$LAB_DIR/root.hints" 3
out=$("$DNSTRUST" reload --socket "$sock" 2>&1)
check "reload to the lab's root hints: taken" \
	bash -c "echo '$out' | grep -q reloaded"
out=$(q mail.secure.lab. A)
check "and the next name resolves from the new root: secure" \
	test "$(echo "$out" | field status)" = secure
stop_daemon

# Silent: the hinted address takes the query and never answers.
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 53))
open(sys.argv[2], "w").close()
time.sleep(60)' "$LAB_NET.98" "$work/sink.ready" &
extra_pids=$!
wait_for 50 [ -e "$work/sink.ready" ]
printf '. 3600000 NS ns1.lab.\nns1.lab. 3600000 A %s.98\n' "$LAB_NET" \
	>"$work/silent.hints"
write_conf "$work/silent.hints" 3
check "restarted with root hints that never answer" start_daemon
start=$(date +%s%N)
out=$(q www.silent.lab. A)
ms=$((($(date +%s%N) - start) / 1000000))
check "a silent root: SERVFAIL, EDE 23, within query-timeout (3 s): $ms ms" \
	bash -c "[ '$(echo "$out" | field rcode)/$(echo "$out" | field ede)' = SERVFAIL/23 ] &&
		 [ $ms -lt 3500 ]"
stop_daemon
kill "$extra_pids" 2>/dev/null
extra_pids=""

finish
