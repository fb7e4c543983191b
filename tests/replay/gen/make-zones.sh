#!/bin/sh
# Signs the small zones of dnstrust's own replay scenarios (tests/replay/
# dt_*.rpl) with ldns-signzone (dnssec-signzone for NSEC3 opt-out), with
# the keys in keys/ (ECDSA P-256, made once with ldns-keygen and
# committed: test keys, never used elsewhere) and a fixed inception and
# expiration, then prints every signed record. gen/expand.py pastes them
# into the scenarios (templates/*.rpl.in -> ../dt_*.rpl). ECDSA
# signatures differ on each run; the keys, dates and verdicts do not.
# make check does not run this: the committed scenarios are the test.
#
# usage: make-zones.sh [OUTDIR]    (default: a fresh temporary folder)
#        ./expand.py OUTDIR       (then rewrites ../dt_*.rpl, selftest/)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out" "$here/keys"
inception=20260101000000
expiration=20270101000000
# soon.example.: signatures that expire an hour after the scenarios' date
# (val-override-date 20260601000000).
soon_expiration=20260601010000

# key NAME ZONE: the key file base name, made on first use.
key() {
	f=$(ls "$here/keys" | sed -n "s/^\(K$2+013+[0-9]*\)\.$1\.private\$/\1/p" | head -n 1)
	if [ -z "$f" ]; then
		( cd "$here/keys" && b=$(ldns-keygen -a ECDSAP256SHA256 -k "$2") &&
		  for x in key private ds; do mv "$b.$x" "$b.$1.$x"; done )
		f=$(ls "$here/keys" | sed -n "s/^\(K$2+013+[0-9]*\)\.$1\.private\$/\1/p" | head -n 1)
	fi
	# ldns-signzone wants BASE.key and BASE.private: link them per run.
	for x in key private; do
		ln -sf "$here/keys/$f.$1.$x" "$out/$f.$x"
	done
	echo "$out/$f"
}

ksk_example=$(key ksk example.)
evil_example=$(key evil example.)
ksk_secure=$(key ksk secure.example.)
evil_secure=$(key evil secure.example.)
ksk_n3=$(key ksk n3.example.)
ksk_w3=$(key ksk w3.example.)
ksk_w5=$(key ksk w5.example.)
ksk_soon=$(key ksk soon.example.)
ksk_root=$(key ksk .)

ds() { ldns-key2ds -n -2 "$1.key"; }

soa() { echo "$1 3600 IN SOA ns.$1 host.$1 1 3600 900 604800 300"; echo "$1 3600 IN NS ns.$1"; }

# example.: the trust anchor's zone (NSEC). Delegates to a signed child
# (secure), an NSEC3 opt-out child (n3), a child whose signatures expire
# soon (soon) and an unsigned one (insecure).
{
	soa example.
	echo "ns.example. 3600 IN A 192.0.2.53"
	echo "www.example. 3600 IN A 192.0.2.1"
	echo "www.example. 3600 IN A 192.0.2.2"
	echo "alias.example. 3600 IN CNAME www.example."
	echo "alias2.example. 3600 IN CNAME alias.example."
	echo "txt.example. 3600 IN TXT \"hello\""
	echo "old.example. 3600 IN DNAME secure.example."
	echo "toins.example. 3600 IN CNAME host.insecure.example."
	echo "short.example. 30 IN A 192.0.2.30"
	echo "long.example. 604800 IN A 192.0.2.31"
	echo "*.wild.example. 3600 IN TXT \"wild\""
	# a wildcard CNAME into the signed child: a chain whose proofs come
	# from two zones (dt_cname_wildcard_to_nx)
	echo "*.zwc.example. 3600 IN CNAME nx.secure.example."
	echo "secure.example. 3600 IN NS ns.secure.example."
	echo "ns.secure.example. 3600 IN A 192.0.2.54"
	ds "$ksk_secure"
	echo "n3.example. 3600 IN NS ns.n3.example."
	echo "ns.n3.example. 3600 IN A 192.0.2.55"
	ds "$ksk_n3"
	echo "w3.example. 3600 IN NS ns.w3.example."
	echo "ns.w3.example. 3600 IN A 192.0.2.59"
	ds "$ksk_w3"
	echo "w5.example. 3600 IN NS ns.w5.example."
	echo "ns.w5.example. 3600 IN A 192.0.2.60"
	ds "$ksk_w5"
	echo "soon.example. 3600 IN NS ns.soon.example."
	echo "ns.soon.example. 3600 IN A 192.0.2.56"
	ds "$ksk_soon"
	echo "insecure.example. 3600 IN NS ns.insecure.example."
	echo "ns.insecure.example. 3600 IN A 192.0.2.57"
} >"$out/example.zone"

{
	soa secure.example.
	echo "host.secure.example. 3600 IN A 192.0.2.10"
	# back through old.example.'s DNAME: a chain that passes one DNAME
	# twice (dt_iter_dname_twice); after host., so the NSEC spans the
	# other scenarios use stay as they were
	echo "zloop.secure.example. 3600 IN CNAME host.old.example."
} >"$out/secure.zone"

# .: a root of its own for the scenarios that need the root's proof that
# a top-level domain does not exist (dt_private_*: no lan.); delegates
# example. with its DS.
{
	echo ". 86400 IN SOA ns.example. host.example. 1 1800 900 604800 86400"
	echo ". 518400 IN NS ns.example."
	echo "example. 172800 IN NS ns.example."
	echo "ns.example. 172800 IN A 192.0.2.53"
	ds "$ksk_example" | awk '{ $2 = "86400"; print }'
} >"$out/root.zone"

{
	soa n3.example.
	echo "host.n3.example. 3600 IN A 192.0.2.20"
	echo "unsig.n3.example. 3600 IN NS ns.unsig.n3.example."
	echo "ns.unsig.n3.example. 3600 IN A 192.0.2.58"
} >"$out/n3.zone"

# w3.example.: NSEC3 without opt-out (no salt, no extra iteration), with
# a wildcard below an empty non-terminal.
{
	soa w3.example.
	echo "host.w3.example. 3600 IN A 192.0.2.21"
	echo "*.w.w3.example. 3600 IN A 192.0.2.30"
} >"$out/w3.zone"

# w5.example.: NSEC3 as w3, with a wildcard CNAME to a name of its own
# (dt_iter_wild_cname_target).
{
	soa w5.example.
	echo "host.w5.example. 3600 IN A 192.0.2.22"
	echo "*.c.w5.example. 3600 IN CNAME host.w5.example."
} >"$out/w5.zone"

{
	soa soon.example.
	echo "host.soon.example. 86400 IN A 192.0.2.40"
} >"$out/soon.zone"

ldns-signzone -i "$inception" -e "$expiration" -o example. -f "$out/example.signed" "$out/example.zone" "$ksk_example"
# The same zone signed by a key the trust anchor does not name.
ldns-signzone -i "$inception" -e "$expiration" -o example. -f "$out/example-evil.signed" "$out/example.zone" "$evil_example"
ldns-signzone -i "$inception" -e "$expiration" -o secure.example. -f "$out/secure.signed" "$out/secure.zone" "$ksk_secure"
ldns-signzone -i "$inception" -e "$expiration" -o secure.example. -f "$out/secure-evil.signed" "$out/secure.zone" "$evil_secure"
# n3.example.: NSEC3 with opt-out (RFC 5155 §6), no salt, no extra
# iteration. dnssec-signzone, because ldns-signzone -p still gives the
# unsigned delegation unsig.n3.example. an NSEC3 record, and the point is
# a delegation inside an opt-out span.
cat "$out/n3.zone" "$ksk_n3.key" >"$out/n3k.zone"
dnssec-signzone -q -z -3 - -A -H 0 -O full -s "$inception" -e "$expiration" \
	-d "$out" -o n3.example. -f "$out/n3.signed" -K "$out" "$out/n3k.zone" "$ksk_n3" >/dev/null
ldns-signzone -n -t 0 -i "$inception" -e "$expiration" -o w3.example. -f "$out/w3.signed" "$out/w3.zone" "$ksk_w3"
ldns-signzone -n -t 0 -i "$inception" -e "$expiration" -o w5.example. -f "$out/w5.signed" "$out/w5.zone" "$ksk_w5"
ldns-signzone -i "$inception" -e "$soon_expiration" -o soon.example. -f "$out/soon.signed" "$out/soon.zone" "$ksk_soon"
ldns-signzone -i "$inception" -e "$expiration" -o . -f "$out/root.signed" "$out/root.zone" "$ksk_root"

# The DS an attacker would give for secure.example. (its own key).
ds "$evil_secure" | awk '{ $2 = "3600"; print }' >"$out/secure-evil-ds.signed"

echo "; trust anchor:"
ds "$ksk_example"
echo "; evil DS for secure.example.:"
ds "$evil_secure"
for f in example example-evil secure secure-evil secure-evil-ds n3 w3 w5 soon root; do
	echo "; $f.signed"
	cat "$out/$f.signed"
done
echo "; signed zones in $out" >&2
