#!/bin/sh
# SPDX-License-Identifier: MIT
# The test signatures of fake-sha1 / fake-dsa (dstate.test_fake_sig ->
# val_ctx.test_fake_sig: DSA and RSASHA1 taken unchecked) are the replay
# runner's alone: no code of the daemon, library, command or NSS module
# names them, no configuration key reaches them, and the only writer of
# the state's flag outside the runner is none. As TAP.
#   fake_sig_scope.sh SRCROOT
# shellcheck shell=sh
. "${DT_HARNESS:-$(dirname "$0")/../harness.sh}"
root=$1
cd "$root" || exit 1
names='test_fake_sig\|test_sig_time_any\|crypto_key_new_unchecked\|fake-sha1\|fake-dsa\|fake_sig'
for d in src/daemon src/lib src/nss src/cli src/upstream src/iterator src/cache src/policy; do
	[ -d "$d" ] || continue
	hits=$(grep -rln "$names" "$d" 2>/dev/null)
	if [ -z "$hits" ]; then
		ok "$d does not name the test signatures"
	else
		not_ok "$d names the test signatures" "$hits"
	fi
done
# In the resolver, the state's flag is only read (copied into the
# validator's context); nothing assigns it but the runner.
writes=$(grep -rn 'test_fake_sig *=[^=]' src | grep -v 'tmpl\.test_fake_sig = t->st->test_fake_sig')
if [ -z "$writes" ]; then
	ok "no code under src/ sets test_fake_sig"
else
	not_ok "code under src/ sets test_fake_sig" "$writes"
fi
# Likewise the runner's val-override-date -1 (dates not checked).
writes=$(grep -rn 'test_sig_time_any *=[^=]' src | grep -v 'tmpl\.test_sig_time_any = t->st->test_sig_time_any')
if [ -z "$writes" ]; then
	ok "no code under src/ sets test_sig_time_any"
else
	not_ok "code under src/ sets test_sig_time_any" "$writes"
fi
if grep -q 'st->test_fake_sig = sc->fake_sig' tests/replay/replay.c; then
	ok "the replay runner sets it from the scenario"
else
	not_ok "the replay runner does not set it (this check is stale)"
fi
# dstate_new() starts from zeroed memory: the flag is false.
if grep -q 'calloc(1, sizeof(\*st))' src/resolver/state.c; then
	ok "dstate_new zeroes the state (test_fake_sig false)"
else
	not_ok "dstate_new no longer zeroes the state: check test_fake_sig"
fi
# No configuration key mentions it (config.c wherever it lives).
cfg=$(find src -name config.c | head -n 1)
if [ -n "$cfg" ] && ! grep -qi 'fake' "$cfg"; then
	ok "$cfg has no fake-signature key"
else
	not_ok "configuration parser ${cfg:-missing} mentions fake signatures"
fi
finish
