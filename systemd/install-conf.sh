#!/bin/sh
# meson install step: copies the default dnstrust.conf ($1) into the
# configuration directory ($2, relative to the prefix or absolute) under
# $DESTDIR, unless a dnstrust.conf is already there (the administrator's).
set -eu
src=$1 dir=$2
case $dir in
/*) ;;
*) dir=$MESON_INSTALL_PREFIX/$dir ;;
esac
dest=${DESTDIR:-}$dir/dnstrust.conf
if [ -e "$dest" ]; then
	echo "Keeping $dest (not overwritten)"
	exit 0
fi
mkdir -p "${DESTDIR:-}$dir"
cp "$src" "$dest"
chmod 644 "$dest"
echo "Installing $src to ${DESTDIR:-}$dir"
