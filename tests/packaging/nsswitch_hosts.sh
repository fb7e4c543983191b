#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/nsswitch-hosts.sh (libnss-dnstrust's hosts line editor) on
# copies of nsswitch.conf, case by case: the hosts line before, after
# "wire" (the package installed), and after "unwire" (removed). Each case
# also checks that the other lines stay and that a second "wire" changes
# nothing. (tests/cli/test_audit.c checks that dnstrust audit trusts the
# wired lines.)
#
# usage: nsswitch_hosts.sh NSSWITCH_HOSTS_SH      (TAP on stdout)
set -u

HELPER=$1
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

work=$(mktemp -d /tmp/dt-nsswitch.XXXXXX)
trap 'rm -rf "$work"' EXIT
nss=$work/nsswitch.conf state=$work/state
TAB=$(printf '\t')

# run wire|unwire: the helper on the copy.
run() {
	sh "$HELPER" "$1" "$nss" "$state" >>"$work/log" 2>&1
}

# write LINE: the copy with LINE between two other lines (no LINE: none).
write() {
	{
		echo "passwd:         files"
		[ -z "$1" ] || printf '%s\n' "$1"
		echo "networks:       files"
	} >"$nss"
}

# hosts: the copy's hosts line, or "(none)".
hosts() {
	grep -E '^[[:space:]]*hosts([[:space:]]|:)' "$nss" || echo "(none)"
}

others_kept() {
	[ "$(grep -c -E '^(passwd|networks):' "$nss")" = 2 ]
}

# case_ DESC BEFORE INSTALLED REMOVED
case_() {
	local d=$1 before=$2 installed=$3 removed=$4 got
	rm -rf "$state"
	write "$before"
	run wire
	got=$(hosts)
	if [ "$got" = "$installed" ] && others_kept; then
		ok "$d: installed '$got'"
	else
		not_ok "$d: installed" "got '$got', want '$installed'"
	fi
	cp "$nss" "$work/wired"
	run wire
	if cmp -s "$nss" "$work/wired"; then
		ok "$d: a second wire changes nothing"
	else
		not_ok "$d: a second wire changes nothing" "got '$(hosts)'"
	fi
	run unwire
	got=$(hosts)
	if [ "$got" = "$removed" ] && others_kept; then
		ok "$d: removed '$got'"
	else
		not_ok "$d: removed" "got '$got', want '$removed'"
	fi
}

MDNS="mdns4_minimal [NOTFOUND=return]"
RESOLVE="resolve [!UNAVAIL=return]"
case_ "Debian's default" \
	"hosts:          files dns" \
	"hosts:          files dnstrust" \
	"hosts:          files dns"
case_ "no space after the colon" \
	"hosts:files dns" "hosts:files dnstrust" "hosts:files dns"
case_ "tabs" \
	"hosts:${TAB}files${TAB}dns" "hosts:${TAB}files dnstrust" \
	"hosts:${TAB}files${TAB}dns"
case_ "mDNS before dns, myhostname after" \
	"hosts: files $MDNS dns myhostname" \
	"hosts: files $MDNS dnstrust myhostname" \
	"hosts: files $MDNS dns myhostname"
case_ "mDNS with spaces inside its action" \
	"hosts: files mdns_minimal [ NOTFOUND = return ] dns" \
	"hosts: files mdns_minimal [NOTFOUND=return] dnstrust" \
	"hosts: files mdns_minimal [ NOTFOUND = return ] dns"
case_ "libnss-resolve's line" \
	"hosts: files $RESOLVE dns" "hosts: files dnstrust" \
	"hosts: files $RESOLVE dns"
case_ "systemd's recommended line" \
	"hosts: mymachines $RESOLVE files myhostname dns" \
	"hosts: mymachines files dnstrust myhostname" \
	"hosts: mymachines $RESOLVE files myhostname dns"
case_ "resolve, mDNS and myhostname together" \
	"hosts: files $MDNS $RESOLVE dns myhostname" \
	"hosts: files $MDNS dnstrust myhostname" \
	"hosts: files $MDNS $RESOLVE dns myhostname"
case_ "dns before files" \
	"hosts: dns files" "hosts: files dnstrust" "hosts: dns files"
case_ "no network source" \
	"hosts: files" "hosts: files dnstrust" "hosts: files"
case_ "no hosts line: one added, then removed" \
	"" "hosts: files dnstrust" "(none)"
case_ "the administrator's fail-closed line: kept, then dns back" \
	"hosts: files dnstrust" "hosts: files dnstrust" "hosts: files dns"

# The explicit fallback is the administrator's too: kept; the audit
# warns about it (nss-unavail), so it is not in the table above.
rm -rf "$state"
write "hosts: files dnstrust [!UNAVAIL=return] dns"
run wire
got=$(hosts)
check "the fail-open fallback line: kept" \
	test "$got" = "hosts: files dnstrust [!UNAVAIL=return] dns"
run unwire
got=$(hosts)
check "the fail-open fallback line: removed, dns kept ($got)" \
	test "$got" = "hosts: files dns"

# A line changed by hand after the installation: only dnstrust goes.
rm -rf "$state"
write "hosts: files dns"
run wire
sed -i 's/^hosts:.*/hosts: files dnstrust wins/' "$nss"
run unwire
got=$(hosts)
check "a line edited since: dnstrust taken off, the rest kept ($got)" \
	test "$got" = "hosts: files wins"

# The last hosts line is the one glibc reads: the only one edited.
rm -rf "$state"
printf 'hosts: files\nhosts: files dns\n' >"$nss"
run wire
check "two hosts lines: the last wired" \
	test "$(cat "$nss")" = "$(printf 'hosts: files\nhosts: files dnstrust')"

# The file keeps its mode and inode.
rm -rf "$state"
write "hosts: files dns"
chmod 640 "$nss"
ino=$(stat -c %i "$nss")
run wire
check "the file keeps its inode and mode" \
	test "$(stat -c %i.%a "$nss")" = "$ino.640"

# No nsswitch.conf: nothing to do, no error.
rm -f "$nss"
# shellcheck disable=SC2016 # the arguments of sh -c
check "no nsswitch.conf: nothing done" \
	sh -c 'sh "$1" wire "$2" "$3" && [ ! -e "$2" ]' sh "$HELPER" "$nss" "$state"

sh "$HELPER" rewire "$nss" "$state" 2>/dev/null; rc=$?
check "an unknown action: usage error, exit 64" test "$rc" = 64

finish
