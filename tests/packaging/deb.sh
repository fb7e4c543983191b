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

# libnss-dnstrust's maintainer scripts on a copy of nsswitch.conf, with
# the packaged hosts line editor and a state directory of the test's
# (tests/packaging/nsswitch_hosts.sh checks the editor line by line).
nss=$work/nsswitch.conf state=$work/nss-state
helper=$work/root/usr/lib/libnss-dnstrust/nsswitch-hosts
if [ -x "$helper" ]; then
	ok "libnss-dnstrust holds its hosts line editor, executable"
else
	not_ok "libnss-dnstrust holds its hosts line editor, executable"
fi
for s in postinst prerm postrm; do
	sed -e "s|/etc/nsswitch.conf|$nss|g" \
		-e "s|/usr/lib/libnss-dnstrust/nsswitch-hosts|$helper|g" \
		-e "s|/var/lib/libnss-dnstrust|$state|g" \
		"$work/ctl-libnss-dnstrust/$s" >"$work/$s" 2>/dev/null
done
# nss_case DESC BEFORE ACTION... AFTER: the hosts line after the scripts
# (each ACTION: a script and its arguments, one word), from a fresh state.
nss_case() {
	local d=$1 before=$2 after=${*: -1} got
	printf 'passwd: files\n%s\nnetworks: files\n' "$before" >"$nss"
	rm -rf "$state"
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
mdns="mdns4_minimal [NOTFOUND=return]"
nss_case "installed: dnstrust in the place of dns (fail closed)" \
	"hosts:          files dns" \
	postinst "configure" "hosts:          files dnstrust"
nss_case "installed: after mDNS, before myhostname" \
	"hosts: files $mdns dns myhostname" postinst "configure" \
	"hosts: files $mdns dnstrust myhostname"
nss_case "installed: no space after hosts:" "hosts:files dns" \
	postinst "configure" "hosts:files dnstrust"
nss_case "installed: a line naming dnstrust kept" \
	"hosts: files dnstrust [!UNAVAIL=return] dns" postinst "configure" \
	"hosts: files dnstrust [!UNAVAIL=return] dns"
nss_case "an upgrade leaves the line alone" "hosts: files dns" \
	postinst "configure 0.0.9" "hosts: files dns"
nss_case "installed then removed: the line as it was" \
	"hosts: files $mdns resolve [!UNAVAIL=return] dns myhostname" \
	postinst "configure" prerm "remove" postrm "remove" \
	"hosts: files $mdns resolve [!UNAVAIL=return] dns myhostname"
nss_case "removed, then reinstalled: wired again" "hosts: files dns" \
	postinst "configure" prerm "remove" postrm "remove" \
	postinst "configure 0.2.0" "hosts: files dnstrust"
nss_case "purged, then installed: wired again" "hosts: files dns" \
	postinst "configure" prerm "remove" postrm "remove" postrm "purge" \
	postinst "configure" "hosts: files dnstrust"
nss_case "an upgrade's prerm keeps it" "hosts: files dns" \
	postinst "configure" prerm "upgrade 0.2.0" "hosts: files dnstrust"
printf 'hosts: files dns\n' >"$nss"
rm -rf "$state"
sh "$work/postinst" configure >/dev/null 2>&1
sh "$work/prerm" remove >/dev/null 2>&1
sh "$work/postrm" purge >/dev/null 2>&1
if [ ! -e "$state" ]; then
	ok "libnss-dnstrust's purge removes its state directory"
else
	not_ok "libnss-dnstrust's purge removes its state directory"
fi

# dnstrustd's purge removes /var/lib/dnstrust (RFC 5011 state, NTAs).
varlib=$work/var-lib-dnstrust
mkdir -p "$varlib" && : >"$varlib/root.key" && : >"$varlib/nta"
sed "s|/var/lib/dnstrust|$varlib|g" "$work/ctl-dnstrustd/postrm" \
	>"$work/dnstrustd.postrm" 2>/dev/null
sh "$work/dnstrustd.postrm" remove >/dev/null 2>&1
kept=$([ -e "$varlib/nta" ] && echo yes)
sh "$work/dnstrustd.postrm" purge >/dev/null 2>&1
if [ "$kept" = yes ] && [ ! -e "$varlib" ]; then
	ok "dnstrustd: remove keeps /var/lib/dnstrust, purge removes it"
else
	not_ok "dnstrustd: remove keeps /var/lib/dnstrust, purge removes it"
fi

# dnstrustd's prerm turns stub mode off (dnstrust stub disable, with the
# packaged command), on a temporary resolv.conf: the original comes back.
rcf=$work/resolv.conf stubc=$work/stub-dnstrust.conf
printf 'upstream-source file %s\nlisten 127.0.0.1@53\nstub-resolv-conf %s\n' \
	"$work/upstreams.conf" "$work/stub.conf" >"$stubc"
printf 'nameserver 127.0.0.1\n' >"$work/stub.conf"
printf 'nameserver 192.0.2.1\n' >"$rcf"
dt_cmd=$work/root/usr/bin/dnstrust
"$dt_cmd" stub enable --config "$stubc" --resolv-conf "$rcf" >/dev/null 2>&1
sed -e "s|dnstrust stub disable|$dt_cmd stub disable --config $stubc --resolv-conf $rcf|" \
	-e "s|command -v dnstrust|command -v $dt_cmd|" -e "s|/etc/resolv.conf|$rcf|g" \
	"$work/ctl-dnstrustd/prerm" >"$work/dnstrustd.prerm" 2>/dev/null
was_link=$([ -L "$rcf" ] && echo yes)
sh "$work/dnstrustd.prerm" remove >/dev/null 2>&1
if [ "$was_link" = yes ] && [ -f "$rcf" ] && [ ! -L "$rcf" ] &&
	grep -qx "nameserver 192.0.2.1" "$rcf" && [ ! -e "$rcf.dnstrust-orig" ]; then
	ok "dnstrustd: remove turns stub mode off, the original resolv.conf back"
else
	not_ok "dnstrustd: remove turns stub mode off, the original resolv.conf back"
fi
if [ -x "$work/root/etc/resolvconf/update-libc.d/dnstrust" ] &&
	grep -qx /etc/resolvconf/update-libc.d/dnstrust \
		"$work/ctl-dnstrustd/conffiles"; then
	ok "dnstrustd holds the resolvconf subscriber, executable, a conffile"
else
	not_ok "dnstrustd holds the resolvconf subscriber, executable, a conffile"
fi

finish
