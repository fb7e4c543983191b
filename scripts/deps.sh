#!/bin/sh
# Installs, with apt-get, every Debian 12 package that the build, the tests,
# the demo, the benchmarks and the Debian packages (make deb) need, when
# any is missing. As root it installs;
# otherwise it prints the exact command to run and fails.
set -eu

PACKAGES="
gcc make pkg-config meson ninja-build libssl-dev libidn2-dev
clang libclang-rt-14-dev
ldnsutils bind9-utils bind9-dnsutils
nsd unbound knot knot-dnsutils knot-resolver

hyperfine openssl dnsperf faketime libunbound-dev
python3 iproute2 util-linux
debhelper dpkg-dev fakeroot lintian systemd
"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root: apt-get update && $cmd" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The knot package's post-install step may try to start a daemon; there is
# no init system in containers and we never use the system instance.
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
