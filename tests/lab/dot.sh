# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# DNS over TLS in the integration lab, sourced by lab_dot.sh and
# lab_inproc.sh after lab_start: a test CA made here with openssl, server
# certificates for dot.lab from it, and an Unbound serving DNS over TLS
# only (port 853, recursing from the lab's root hints).
#
#   dot_pki          makes $work/pki: ca.pem (the test CA), good.pem (dot.lab,
#                    30 days), expired.pem (dot.lab, expired), other.pem (a
#                    CA nobody trusts), each with its .key
#   dot_unbound NAME ADDR CERT
#                    an Unbound answering on ADDR@853 over TLS with
#                    $work/pki/CERT.pem; its log is $work/NAME/unbound.log
#   dot_asked NAME   how many questions that Unbound has logged
#
# (work, LAB_DIR, extra_pids, bail and wait_for are the harness's and
# lab_start's.)
# shellcheck disable=SC2154

dot_gen() { # NAME DAYS: a P-256 key and a certificate for dot.lab
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$pki/$1.key" -out "$pki/$1.csr" -subj "/CN=dot.lab" \
		2>>"$pki/log" &&
		openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.pem" \
			-CAkey "$pki/ca.key" -CAcreateserial -days "$2" \
			-extfile "$pki/ext" -out "$pki/$1.pem" 2>>"$pki/log"
}

dot_pki() {
	pki=$work/pki
	mkdir -p "$pki"
	printf 'subjectAltName=DNS:dot.lab\n' >"$pki/ext"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$pki/ca.key" -out "$pki/ca.pem" -days 30 \
		-subj "/CN=dnstrust lab CA" 2>>"$pki/log" ||
		bail "test CA made" "$(cat "$pki/log")"
	if ! dot_gen good 30 || ! dot_gen expired -1; then
		bail "certificates made" "$(cat "$pki/log")"
	fi
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$pki/other.key" -out "$pki/other.pem" -days 30 \
		-subj "/CN=another CA" 2>>"$pki/log"
	chmod 755 "$pki"
	chmod 644 "$pki"/*
}

dot_unbound() { # NAME ADDR CERT
	local d=$work/$1
	mkdir -p "$d"
	cat >"$d/unbound.conf" <<-EOF
		server:
		    interface: $2@853
		    tls-port: 853
		    tls-service-key: "$pki/$3.key"
		    tls-service-pem: "$pki/$3.pem"
		    interface-automatic: no
		    so-reuseport: no
		    do-ip6: no
		    do-daemonize: no
		    num-threads: 1
		    username: ""
		    chroot: ""
		    directory: "$d"
		    pidfile: "$d/unbound.pid"
		    logfile: "$d/unbound.log"
		    use-syslog: no
		    log-queries: yes
		    verbosity: 1
		    access-control: 127.0.0.0/8 allow
		    do-not-query-localhost: no
		    root-hints: "$LAB_DIR/root.hints"
		    module-config: "iterator"
		    prefetch: no
	EOF
	/usr/sbin/unbound -d -c "$d/unbound.conf" >>"$d/stderr" 2>&1 &
	extra_pids="${extra_pids:-} $!"
	wait_for 50 grep -qs "start of service" "$d/unbound.log" ||
		bail "Unbound over TLS on $2 starts" "$(cat "$d/unbound.log" "$d/stderr" 2>/dev/null | tail -5)"
}

dot_asked() { # NAME
	grep -c " info: 127\.[0-9.]* .* IN" "$work/$1/unbound.log"
}
