#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The Debian packages: scripts/deb.sh builds them from debian/ (debhelper)
# and lintian finds no error or warning; every package holds exactly the
# files docs/PACKAGING.md lists; dnstrust.conf is a conffile with the
# service's settings; libdnstrust1 has its symbols; the packaged unit's
# exposure is at most 2.0; libnss-dnstrust's maintainer scripts add and
# remove the hosts line's entry as documented (run on a copy of
# nsswitch.conf).
#
# usage: deb.sh SOURCE_ROOT UNIT_SECURITY_SH        (TAP on stdout)
set -u

TOP=$1 SECURITY=$2
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"

for tool in dpkg-buildpackage dh lintian; do
	if ! command -v $tool >/dev/null; then
		skip_all "$tool not installed (make deps)"
	fi
done
work=$(mktemp -d /tmp/dt-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$work/deb

if "$TOP/scripts/deb.sh" "$out" >"$work/deb.log" 2>&1; then
	ok "make deb: packages built, lintian: no error, no warning"
else
	not_ok "make deb: packages built, lintian: no error, no warning" \
		"$(tail -30 "$work/deb.log")"
fi

# The files docs/PACKAGING.md lists under "### PACKAGE" (lines of the
# code block that start with /).
listed() {
	awk -v p="### $1" '
		$0 == p { inpkg = 1; next }
		/^#/ && inpkg { exit }
		/^```/ && inpkg { blk = !blk; next }
		inpkg && blk && /^\// { print $1 }' "$TOP/docs/PACKAGING.md" | sort
}
# The files and links a .deb holds (not directories).
held() {
	dpkg-deb -c "$1" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' |
		sort
}
for p in dnstrustd libdnstrust1 libdnstrust-dev libnss-dnstrust; do
	deb=$(ls "$out/${p}_"*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		not_ok "$p built"
		continue
	fi
	if d=$(diff <(listed "$p") <(held "$deb")) && [ -n "$(listed "$p")" ]; then
		ok "$p holds the files docs/PACKAGING.md lists"
	else
		not_ok "$p holds the files docs/PACKAGING.md lists" "$d"
	fi
	dpkg-deb -x "$deb" "$work/root"
	dpkg-deb -e "$deb" "$work/ctl-$p"
done

if grep -qx /etc/dnstrust/dnstrust.conf "$work/ctl-dnstrustd/conffiles" 2>/dev/null; then
	ok "dnstrust.conf is a conffile"
else
	not_ok "dnstrust.conf is a conffile"
fi
conf=$work/root/etc/dnstrust/dnstrust.conf
if grep -qx "user _dnstrust" "$conf" 2>/dev/null &&
	grep -qx "auto-trust-anchor-file /var/lib/dnstrust/root.key" "$conf"; then
	ok "the packaged dnstrust.conf: user _dnstrust, RFC 5011 state in /var/lib/dnstrust"
else
	not_ok "the packaged dnstrust.conf: user _dnstrust, RFC 5011 state in /var/lib/dnstrust"
fi
if grep -q '^ dt_query@DNSTRUST_1.0 ' "$work/ctl-libdnstrust1/symbols" 2>/dev/null; then
	ok "libdnstrust1 has a symbols file"
else
	not_ok "libdnstrust1 has a symbols file"
fi
if grep -q '^u _dnstrust ' "$work/root/usr/lib/sysusers.d/dnstrust.conf" 2>/dev/null &&
	grep -q 'systemd-sysusers' "$work/ctl-dnstrustd/postinst"; then
	ok "the user _dnstrust made by systemd-sysusers at installation"
else
	not_ok "the user _dnstrust made by systemd-sysusers at installation"
fi

echo "# the packaged unit"
"$SECURITY" "$work/root/lib/systemd/system/dnstrustd.service" |
	sed -n 's/^\(not \)\{0,1\}ok [0-9]* - /&packaged unit: /p' >"$work/sec.tap"
while read -r line; do
	case $line in
	"not ok "*) not_ok "${line#not ok * - }" ;;
	"ok "*) ok "${line#ok * - }" ;;
	esac
done <"$work/sec.tap"

# libnss-dnstrust's postinst and postrm on a copy of nsswitch.conf.
nss=$work/nsswitch.conf
for s in postinst postrm; do
	sed "s|/etc/nsswitch.conf|$nss|g" "$work/ctl-libnss-dnstrust/$s" \
		>"$work/$s" 2>/dev/null
done
# nss_case DESC BEFORE ACTION... AFTER: the hosts line after the scripts.
nss_case() {
	local d=$1 before=$2 after=${*: -1} got
	printf 'passwd: files\n%s\nnetworks: files\n' "$before" >"$nss"
	shift 2
	while [ $# -gt 1 ]; do
		sh "$work/$1" $2 >/dev/null 2>&1
		shift 2
	done
	got=$(grep '^hosts:' "$nss")
	if [ "$got" = "$after" ] && [ "$(wc -l <"$nss")" = 3 ]; then
		ok "nsswitch.conf: $d"
	else
		not_ok "nsswitch.conf: $d" "got '$got', want '$after'"
	fi
}
nss_case "installed: before dns" "hosts:          files dns" \
	postinst "configure" "hosts:          files dnstrust [!UNAVAIL=return] dns"
nss_case "installed: before dns, after mdns" \
	"hosts: files mdns4_minimal [NOTFOUND=return] dns myhostname" \
	postinst "configure" \
	"hosts: files mdns4_minimal [NOTFOUND=return] dnstrust [!UNAVAIL=return] dns myhostname"
nss_case "installed: no dns, at the end" "hosts: files" \
	postinst "configure" "hosts: files dnstrust [!UNAVAIL=return]"
nss_case "installed: a line naming dnstrust kept (fail-closed)" \
	"hosts: files dnstrust" postinst "configure" "hosts: files dnstrust"
nss_case "an upgrade leaves the line alone" "hosts: files dns" \
	postinst "configure 0.0.9" "hosts: files dns"
nss_case "installed then removed: the line as it was" "hosts: files dns" \
	postinst "configure" postrm "remove" "hosts: files dns"
nss_case "purged: the entry gone" \
	"hosts: files dnstrust [!UNAVAIL=return] dns" postrm "purge" \
	"hosts: files dns"
nss_case "an upgrade's postrm keeps it" \
	"hosts: files dnstrust [!UNAVAIL=return] dns" postrm "upgrade 0.1.0" \
	"hosts: files dnstrust [!UNAVAIL=return] dns"

finish
