#!/bin/bash
# SPDX-License-Identifier: MIT
#
# DNS over TLS to upstreams, in the integration lab: an Unbound serving
# DNS over TLS only (port 853, a certificate from a test CA made here
# with openssl, recursing from the lab's root hints), and dnstrustd with
# `upstream ADDR#dot.lab tls` and `tls-ca` in place of resolv.conf's
# servers (a black hole). Answers come over TLS and are validated as any
# upstream's (secure, insecure, bogus as the truth table says); a server
# whose certificate names another host, or has expired, or is not from
# the CA, gets no question at all; `fallback-upstream` answers when the
# network's servers do not, and only then.
#
# usage: lab_dot.sh DNSTRUSTD DTQ LAB_SH   (TAP on stdout)
set -u

DNSTRUSTD=$1 DTQ=$2 LAB_SH=$3
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
if [ "$(id -u)" != 0 ]; then
	skip_all "needs root (the lab binds port 53)"
fi
for tool in openssl unbound; do
	command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
		bail "$tool installed" "scripts/deps.sh installs it"
done
lab_start lab-dot
listen=$LAB_NET.104
dot=$LAB_NET.96     # the certificate says dot.lab
stale=$LAB_NET.97   # an expired certificate for dot.lab
hole=$LAB_NET.98    # resolv.conf's server: nobody answers

# --- a test CA, server certificates, Unbound over TLS only ---
# shellcheck source=tests/lab/dot.sh
. "$(dirname "$0")/../lab/dot.sh"
dot_pki
dot_unbound dot "$dot" good
dot_unbound stale "$stale" expired
# Unbound's own TLS service works with this CA (openssl as a client).
check "the lab's DoT server presents a certificate for dot.lab from the test CA" \
	bash -c "openssl s_client -connect $dot:853 -servername dot.lab \
		-verify_hostname dot.lab -CAfile $pki/ca.pem -verify_return_error \
		</dev/null 2>&1 | grep -q 'Verify return code: 0 (ok)'"

printf 'nameserver %s\noptions timeout:1 attempts:1\n' "$hole" \
	>"$work/resolv.conf"
chmod 644 "$work/resolv.conf"
write_conf() { # the upstream line ($1) and more lines on stdin
	{
		cat <<-EOF
			socket $sock
			listen $listen@53
			resolv-conf $work/resolv.conf
			resolution forward
			trust-anchor-file $LAB_ANCHOR
			root-hints $LAB_DIR/root.hints
			tls-ca $pki/ca.pem
			threads 1
			query-timeout 8
			log-level info
		EOF
		cat
	} >"$conf"
}
asked() { dot_asked "$1"; } # how many questions the DoT Unbound NAME has logged
verdict() { # NAME TYPE: status/rcode as dnstrustd's socket says
	local out
	out=$(q "$1" "$2")
	echo "$(echo "$out" | field status)/$(echo "$out" | field rcode)"
}

tls_error() { # the status line that says why TLS failed
	q -c CH status.dnstrust. TXT | sed -n 's/^txt=upstream-tls-error=//p'
}
write_conf <<EOF
upstream $dot#dot.lab tls
EOF
check "dnstrustd starts with a DoT upstream" start_daemon
before=$(asked dot)
v=$(verdict www.secure.lab. A)
check "secure name over TLS: secure ($v)" [ "$v" = secure/NOERROR ]
check "no TLS failure to report" [ -z "$(tls_error)" ]
v=$(verdict www.insecure.lab. A)
check "unsigned name over TLS: insecure ($v)" [ "$v" = insecure/NOERROR ]
v=$(verdict www.tampered.lab. A)
check "tampered name over TLS: still bogus, TLS makes nothing true ($v)" \
	[ "$v" = bogus/SERVFAIL ]
after=$(asked dot)
check "the questions went to the DoT server ($before, then $after)" \
	[ "$after" -gt "$before" ]
st=$(q -c CH status.dnstrust. TXT | grep -c "upstream=$dot:853 tls dot.lab")
check "status names the TLS server, port 853, and its name" [ "$st" = 1 ]
stop_daemon >/dev/null

# A certificate for another name: no question reaches the server.
write_conf <<EOF
upstream $dot#wrong.lab tls
EOF
check "dnstrustd starts with a DoT upstream under the wrong name" start_daemon
before=$(asked dot)
v=$(verdict www2.secure.lab. A)
check "wrong name: no answer ($v)" [ "${v#*/}" = SERVFAIL ]
check "wrong name: the server was asked nothing ($before, $(asked dot))" \
	[ "$(asked dot)" = "$before" ]
e=$(tls_error)
check "wrong name: status says why ($e)" \
	bash -c "echo '$e' | grep -q 'wrong.lab.*hostname mismatch'"
stop_daemon >/dev/null

# An expired certificate, and one from a CA we do not trust.
write_conf <<EOF
upstream $stale#dot.lab tls
EOF
check "dnstrustd starts with a DoT upstream whose certificate expired" \
	start_daemon
v=$(verdict www3.secure.lab. A)
check "expired certificate: no answer ($v)" [ "${v#*/}" = SERVFAIL ]
check "expired certificate: the server was asked nothing" \
	[ "$(asked stale)" = 0 ]
e=$(tls_error)
check "expired certificate: status says why ($e)" \
	bash -c "echo '$e' | grep -q 'certificate has expired'"
stop_daemon >/dev/null
write_conf <<EOF
upstream $dot#dot.lab tls
EOF
sed -i "s|^tls-ca .*|tls-ca $pki/other.pem|" "$conf"
check "dnstrustd starts trusting another CA" start_daemon
before=$(asked dot)
v=$(verdict www4.secure.lab. A)
check "unknown CA: no answer ($v)" [ "${v#*/}" = SERVFAIL ]
check "unknown CA: the server was asked nothing" [ "$(asked dot)" = "$before" ]
e=$(tls_error)
check "unknown CA: status says why ($e)" \
	bash -c "echo '$e' | grep -q 'local issuer'"
stop_daemon >/dev/null

# fallback-upstream: the network's server (a black hole) fails, the
# fallback answers; a private name never goes there.
write_conf <<EOF
fallback-upstream $dot#dot.lab
private-domain corp.example.
EOF
check "dnstrustd starts with a fallback upstream" start_daemon
before=$(asked dot)
v=$(verdict www.secure.lab. A)
check "network silent: the fallback answers, validated ($v)" \
	[ "$v" = secure/NOERROR ]
fb=$(q -c CH status.dnstrust. TXT | sed -n 's/^txt=fallback-queries=//p')
check "status counts the fallback's questions ($fb)" [ "${fb:-0}" -ge 1 ]
mid=$(asked dot)
q host.corp.example. A >/dev/null
check "a private name is never sent to the fallback" \
	[ "$(grep -c 'corp\.example' "$work/dot/unbound.log")" = 0 ]
check "the fallback was asked ($before, then $mid)" [ "$mid" -gt "$before" ]
stop_daemon >/dev/null
finish
