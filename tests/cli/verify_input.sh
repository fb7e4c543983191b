#!/bin/sh
# dnstrust verify on input it cannot read whole: a read error, a file over
# the size limit and a record cut short are errors (exit 4, the reason on
# standard error), never a verdict on what was read before. TAP output.
# usage: verify_input.sh DNSTRUST
set -u
# shellcheck source=tests/harness.sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
dt=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refused DESCRIPTION MESSAGE ARGS...: exit 4 and MESSAGE on stderr.
refused() {
	d=$1 msg=$2
	shift 2
	"$dt" verify "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq 4 ] && grep -qF -- "$msg" "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		ok "$d"
	else
		not_ok "$d (exit $got, want 4 and \"$msg\")"
		diag "$tmp/out" "$tmp/err"
	fi
}

# The control: a readable, complete record gets a verdict (without an
# anchor, indeterminate), so the refusals below come from the input alone.
printf 'host.example. 3600 IN A 192.0.2.1\n' >"$tmp/whole"
"$dt" verify --question 'host.example. A' "$tmp/whole" >"$tmp/out" 2>&1
got=$?
if [ "$got" -ne 4 ] && grep -q '^status: ' "$tmp/out"; then
	ok "a whole file: a verdict (exit $got)"
else
	not_ok "a whole file: a verdict (exit $got)"
	diag "$tmp/out"
fi

# Reading /proc/self/mem from offset 0 fails with EIO after a successful
# open: the read error stdio would report as an early end of file.
if [ -r /proc/self/mem ]; then
	refused "a read error (EIO): refused" "Input/output error" \
		/proc/self/mem
	refused "a read error with --zone: refused" "Input/output error" \
		--zone example. /proc/self/mem
else
	not_ok "/proc/self/mem not readable: read errors not tested"
fi

# A sparse file one octet over DT_ZONE_FILE_MAXSIZE (1 GiB).
if truncate -s 1073741825 "$tmp/big" 2>/dev/null; then
	refused "a file over 1 GiB: refused unread" "larger than its limit" \
		"$tmp/big"
	refused "a zone over 1 GiB: refused unread" "larger than its limit" \
		--zone example. "$tmp/big"
else
	not_ok "sparse file not made"
fi

# Files cut short: in the middle of a parenthesised record, and after
# the type.
printf 'example. 3600 IN SOA ns hostmaster (1 7200 3600\n' >"$tmp/cut"
refused "a record cut inside '(': refused" "not closed" "$tmp/cut"
refused "a zone cut inside '(': refused" "not closed" \
	--zone example. "$tmp/cut"
printf 'host.example. 3600 IN A 192.0.2.1\nhost.example. 3600 IN A\n' \
	>"$tmp/cut2"
refused "a record cut after its type: refused" "too few fields" \
	"$tmp/cut2"
refused "a directory: refused" "is a directory" "$tmp"

finish
