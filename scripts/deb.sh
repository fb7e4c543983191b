#!/bin/sh
# Builds the Debian packages of debian/ into OUT (default build/deb): the
# tree (without build directories) is copied to OUT/src, built there with
# dpkg-buildpackage -b (debhelper, meson), and the .deb, .buildinfo and
# .changes files are moved to OUT; then lintian checks them. The tests
# are left to `make check` unless DEB_BUILD_OPTIONS says otherwise.
#
#   scripts/deb.sh [OUT]
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
src=$out/src/dnstrust-$ver

rm -rf "$out/src" "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$src"
(cd "$top" && tar cf - --exclude='./build*' --exclude=./.git \
	--exclude=./bench/results .) | (cd "$src" && tar xf -)

echo "deb: building in $src (log: $out/build.log)"
if ! (cd "$src" &&
	DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-"nocheck parallel=2"} \
	dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed" >&2
	exit 1
fi
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
rm -rf "$out/src"
ls -1 "$out"/*.deb

if command -v lintian >/dev/null; then
	echo "deb: lintian"
	lintian --info --fail-on error,warning "$out"/*.changes
fi
