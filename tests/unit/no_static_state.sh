#!/bin/sh
# SPDX-License-Identifier: MIT
# The resolver core, the validator and the iterator keep no state of
# their own (resolver.h: "no threads, no global state"): no object that
# can be written lives outside a function's frame or what the caller
# passes in. Checked on the object files of their sources, as the build
# made them (compile_commands.json): no symbol (static or not, at file or
# function scope, thread-local or not) may sit in .data, .bss, .tdata or
# .tbss; const objects are in .rodata, or .data.rel.ro when they hold
# addresses. A folder not (yet) in the tree is
# said so and not counted. TAP output.
# usage: no_static_state.sh SRCROOT BUILDDIR
set -u
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
root=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "SOURCE OBJECT" for every compilation of a source of src/, both paths
# from the build directory.
python3 - "$build/compile_commands.json" >"$tmp/objs" <<'EOF'
import json, os, sys
for e in json.load(open(sys.argv[1])):
    src = os.path.realpath(os.path.join(e['directory'], e['file']))
    obj = os.path.join(e['directory'], e['output'])
    print(src, obj)
EOF
check "the build's compile commands read ($(wc -l <"$tmp/objs"))" \
	[ -s "$tmp/objs" ]

for layer in resolver validator iterator; do
	dir="$root/src/$layer"
	if [ ! -d "$dir" ]; then
		echo "src/$layer: no such folder in this tree, nothing to check" | diag
		continue
	fi
	: >"$tmp/missing"
	: >"$tmp/found"
	nsrc=0
	for c in "$dir"/*.c; do
		[ -e "$c" ] || continue
		nsrc=$((nsrc + 1))
		src=$(realpath "$c")
		objs=$(awk -v s="$src" '$1 == s { print $2 }' "$tmp/objs")
		if [ -z "$objs" ]; then
			echo "${c#"$root"/}: not built" >>"$tmp/missing"
			continue
		fi
		for o in $objs; do
			if [ ! -f "$o" ]; then
				echo "$o: not there" >>"$tmp/missing"
				continue
			fi
			objdump -t "$o" | awk -F'\t' 'NF == 2 {
				n = split($1, f, " "); split($2, g, " ")
				if (f[n] ~ /^\.(data|bss|tdata|tbss)/ &&
				    f[n] !~ /^\.data\.rel\.ro/ && g[2] != f[n])
					print f[n], g[2]
			}' |
				sed "s|^|${c#"$root"/}: |" >>"$tmp/found"
		done
	done
	if [ "$nsrc" -gt 0 ] && [ ! -s "$tmp/missing" ]; then
		ok "src/$layer: the object files of its $nsrc sources are there"
	else
		not_ok "src/$layer: the object files of its sources are there" \
			"$(cat "$tmp/missing")"
	fi
	if [ -s "$tmp/found" ]; then
		not_ok "src/$layer: no writable object outside a function's frame" \
			"$(sort -u "$tmp/found")"
	else
		ok "src/$layer: no writable object outside a function's frame"
	fi
done
finish
