#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC3043 # local: dash and bash have it
#
# Puts dnstrust on the hosts line of nsswitch.conf, and takes it off again
# (libnss-dnstrust's postinst and prerm run it as
# /usr/lib/libnss-dnstrust/nsswitch-hosts).
#
# usage: nsswitch-hosts.sh wire|unwire NSSWITCH_CONF STATE_DIR
#
# wire: the hosts line (the last, as glibc 2.33 and later read it) keeps
# its local sources (files, myhostname, mymachines, libvirt*, and the
# multicast DNS sources mdns*_minimal, which answer .local names only)
# in their order, with their actions; "dnstrust" takes the place of the
# first source that asks the network (dns, resolve, ...), never before
# "files", and those sources are dropped. Nothing unvalidated is left to
# answer after dnstrust: while dnstrustd is down the module's UNAVAIL
# reaches no other DNS source, and names fail (fail closed). A line
# that names dnstrust already is the administrator's and stays. No hosts
# line: "hosts: files dnstrust" is added. The line before and the line
# written are kept in STATE_DIR.
#
# unwire: the line written by wire, when it is still there, becomes the
# line as it was; any other line naming dnstrust loses it (with its
# actions), and "dns" takes its place when no network source is left, so
# that the host still resolves names.
set -eu
set -f # sources with actions, "x[NOTFOUND=return]", are no patterns

LOCAL_SOURCES="files db myhostname mymachines libvirt libvirt_guest
mdns_minimal mdns4_minimal mdns6_minimal"

# The number of the last hosts line of $1 (empty: none).
hosts_line_no() {
	grep -n -E '^[[:space:]]*hosts([[:space:]]|:)' "$1" | tail -n 1 |
		cut -d: -f1
}

# The sources of a hosts line (stdin), one a line, each with its actions
# attached: "mdns4_minimal[NOTFOUND=return]", items inside [] apart by ','.
sources() {
	sed -E -e 's/^[[:space:]]*hosts[[:space:]:]*//' \
		-e 's/[[:space:]]*=[[:space:]]*/=/g' \
		-e 's/[[:space:]]*\[[[:space:]]*/[/g' \
		-e 's/[[:space:]]*\]/]/g' \
		-e ':a' -e 's/(\[[^]]*)[[:space:]]+([^]]*\])/\1,\2/' -e 'ta' |
		tr -s '[:space:]' '[\n*]' | sed '/^$/d'
}

# What precedes the sources: "hosts:" and the white space after it.
prefix() {
	sed -E 's/^([[:space:]]*hosts[[:space:]:]*).*/\1/'
}

# A source as written on the line: "mdns4_minimal [NOTFOUND=return]".
shown() {
	printf '%s' "$1" | sed -e 's/\[/ [/' -e 's/,/ /g'
}

# local | dnstrust | network, for a source name with its actions.
kind() {
	local name="${1%%\[*}" l
	[ "$name" = dnstrust ] && { echo dnstrust; return; }
	for l in $LOCAL_SOURCES; do
		[ "$name" = "$l" ] && { echo local; return; }
	done
	echo network
}

# The wired line for the hosts line $1 (the line as it is when it names
# dnstrust already).
wired_line() {
	local line="$1" src out="" kept=0 at="" files_at=0
	for src in $(printf '%s\n' "$line" | sources); do
		case $(kind "$src") in
		dnstrust)
			printf '%s\n' "$line"
			return
			;;
		network)
			[ -n "$at" ] || at=$kept
			;;
		local)
			out="$out $src"
			kept=$((kept + 1))
			[ "${src%%\[*}" = files ] && files_at=$kept
			;;
		esac
	done
	[ -n "$at" ] || at=$kept
	[ "$at" -ge "$files_at" ] || at=$files_at
	# shellcheck disable=SC2086 # $out: the sources, one word each
	insert_at "$(printf '%s\n' "$line" | prefix)" "$at" dnstrust $out
}

# insert_at PREFIX N WORD SOURCE...: the line PREFIX SOURCE... (as
# sources() gives them) with WORD after the first N sources (N -1:
# nowhere).
insert_at() {
	local prefix="$1" n="$2" word="$3" i=0 out="" s
	shift 3
	for s in "$@"; do
		[ "$i" != "$n" ] || out="$out $word"
		out="$out $(shown "$s")"
		i=$((i + 1))
	done
	[ "$i" -gt "$n" ] || out="$out $word"
	printf '%s%s\n' "$prefix" "${out# }"
}

# unwired_line LINE: LINE without dnstrust and its actions; "dns" in its
# place when no network source is left.
unwired_line() {
	local line="$1" src out="" net=0 at=-1 i=0
	for src in $(printf '%s\n' "$line" | sources); do
		case $(kind "$src") in
		dnstrust)
			[ "$at" -ge 0 ] || at=$i
			continue
			;;
		network) net=1 ;;
		esac
		out="$out $src"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # $out: the sources, one word each
	if [ "$at" -lt 0 ]; then
		printf '%s\n' "$line"
	elif [ "$net" = 1 ]; then
		insert_at "$(printf '%s\n' "$line" | prefix)" -1 - $out
	else
		insert_at "$(printf '%s\n' "$line" | prefix)" "$at" dns $out
	fi
}

# replace FILE N TEXT: line N of FILE becomes TEXT (no TEXT: removed);
# FILE keeps its inode, owner and mode.
replace() {
	local file="$1" n="$2" tmp
	tmp=$(mktemp "$file.dnstrust.XXXXXX")
	{
		head -n $((n - 1)) "$file"
		[ $# -lt 3 ] || printf '%s\n' "$3"
		tail -n +$((n + 1)) "$file"
	} >"$tmp"
	cat "$tmp" >"$file"
	rm -f "$tmp"
}

wire() {
	local file="$1" state="$2" n line new
	mkdir -p "$state"
	n=$(hosts_line_no "$file")
	if [ -z "$n" ]; then
		echo "hosts: files dnstrust" >>"$file"
		echo "hosts: files dnstrust" >"$state/hosts.after"
		: >"$state/hosts.added"
		echo "$file: added 'hosts: files dnstrust'"
		return
	fi
	line=$(sed -n "${n}p" "$file")
	new=$(wired_line "$line")
	if [ "$new" = "$line" ]; then
		echo "$file: the hosts line names dnstrust already: kept"
		return
	fi
	replace "$file" "$n" "$new"
	printf '%s\n' "$line" >"$state/hosts.before"
	printf '%s\n' "$new" >"$state/hosts.after"
	echo "$file: '$line' is now '$new'"
}

unwire() {
	local file="$1" state="$2" n line new
	n=$(hosts_line_no "$file")
	[ -n "$n" ] || return 0
	line=$(sed -n "${n}p" "$file")
	if [ -f "$state/hosts.after" ] &&
		[ "$line" = "$(cat "$state/hosts.after")" ]; then
		if [ -f "$state/hosts.added" ]; then
			replace "$file" "$n"
			echo "$file: the hosts line it had not is removed again"
		else
			new=$(cat "$state/hosts.before")
			replace "$file" "$n" "$new"
			echo "$file: the hosts line is '$new' again"
		fi
	else
		new=$(unwired_line "$line")
		if [ "$new" != "$line" ]; then
			replace "$file" "$n" "$new"
			echo "$file: '$line' is now '$new'"
		fi
	fi
	rm -f "$state/hosts.before" "$state/hosts.after" "$state/hosts.added"
}

usage() {
	echo "usage: nsswitch-hosts wire|unwire NSSWITCH_CONF STATE_DIR" >&2
	exit 64
}
[ $# = 3 ] || usage
case $1 in
wire | unwire) [ -e "$2" ] || exit 0 ;;
*) usage ;;
esac
"$1" "$2" "$3"
