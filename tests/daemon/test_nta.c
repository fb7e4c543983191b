/* SPDX-License-Identifier: MIT */
/*
 * Runtime negative trust anchors (src/policy/nta.c): the file read by
 * nta_rt_load (malformed lines skipped), the deepest anchor found, ends
 * in the past ignored, add and remove saved to the file, the limit; a set
 * without a file reads and writes none; nta_rt_reload (a reader of the
 * daemon's file: libdnstrust in-process) follows the file, a file gone
 * empties the set.
 */
#include <stdlib.h>
#include <unistd.h>

#include "common/errcode.h"
#include "policy/nta.h"
#include "tap.h"
#include "wire/dname.h"

static const uint8_t *wire(const char *text)
{
	static uint8_t buf[4][DT_NAME_MAXLEN];
	static unsigned i;
	uint8_t *b = buf[i++ % 4];

	if (wire_dname_from_str(text, strlen(text), NULL, b) < 0)
		abort();
	return b;
}

static struct nta_rt *rt;

static const char *found(const char *name, int64_t now)
{
	static char text[DT_NAME_TEXT_MAXLEN];
	const struct cfg_nta *n = nta_rt_find(rt, wire(name), now);

	if (!n)
		return "none";
	wire_dname_to_str(n->name, text, sizeof(text));
	return text;
}

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/dt-test-nta.XXXXXX", path[256], cmd[300];
	int64_t now = 1800000000;
	int save_err = -1;
	FILE *f;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/negative-trust-anchors", dir);
	f = fopen(path, "w");
	fprintf(f, "# comment\n"
		   "bank.example. 0\n"
		   "Shop.Example. 1900000000\n"
		   "this is not a line\n"
		   "old.example. 1700000000\n");
	fclose(f);

	/* a set without a file: the one in dir is neither read nor written */
	rt = nta_rt_new(NULL);
	nta_rt_load(rt);
	is_str(found("www.bank.example.", now), "none",
	       "a set without a file starts empty");
	is_int(nta_rt_add(rt, wire("mem.example."), 0, now, &save_err), 0,
	       "add to it");
	is_int(save_err, 0, "nothing to save");
	is_str(found("a.mem.example.", now), "mem.example.", "found");
	ok(strstr(slurp(path), "mem.example.") == NULL, "no file written");
	is_str(nta_rt_path(rt), "", "no path");
	nta_rt_free(rt);

	rt = nta_rt_new(path);
	is_str(found("www.bank.example.", now), "none",
	       "nothing before nta_rt_load");
	nta_rt_load(rt);
	is_str(nta_rt_path(rt), path, "the file given");
	is_str(found("www.bank.example.", now), "bank.example.",
	       "read from the file: no end");
	is_str(found("a.b.shop.example.", now), "shop.example.",
	       "read from the file, lower-cased");
	is_str(found("a.b.shop.example.", 1900000000), "none",
	       "not at its end");
	is_str(found("www.old.example.", now), "none",
	       "an end in the past: not in force");
	is_str(found("example.", now), "none", "not above the anchor");

	is_int(nta_rt_add(rt, wire("deep.bank.example."), 1850000000, now,
			  &save_err),
	       0, "add");
	is_int(save_err, 0, "saved");
	is_str(found("x.deep.bank.example.", now), "deep.bank.example.",
	       "the deepest anchor wins");
	is_str(found("x.deep.bank.example.", 1850000000), "bank.example.",
	       "then the one above it, when the deep one ended");
	ok(strstr(slurp(path), "deep.bank.example. 1850000000\n") != NULL,
	   "the file has the new anchor");
	ok(strstr(slurp(path), "old.example.") == NULL,
	   "and no longer the one that ended");

	is_int(nta_rt_remove(rt, wire("bank.example."), now, &save_err), 1,
	       "remove finds it");
	is_str(found("www.bank.example.", now), "none", "removed");
	is_int(nta_rt_remove(rt, wire("bank.example."), now, &save_err), 0,
	       "a second remove finds nothing");
	ok(strstr(slurp(path), "\nbank.example.") == NULL,
	   "the file no longer has it");

	int added = 0, r = 0;
	for (int i = 0; i < NTA_RUNTIME_MAX + 1 && r == 0; i++) {
		char name[64];

		snprintf(name, sizeof(name), "z%d.example.", i);
		r = nta_rt_add(rt, wire(name), 0, now, &save_err);
		added += r == 0;
	}
	is_int(r, DT_ELIMIT, "the limit is refused");
	is_int(added, NTA_RUNTIME_MAX - 2,
	       "up to NTA_RUNTIME_MAX in force (with the two before)");

	nta_rt_free(rt);

	/* A reader: another writer (the daemon) changes the file. */
	struct nta_rt *rd = nta_rt_new(path);
	rt = rd;
	nta_rt_reload(rd, now);
	is_str(found("a.z3.example.", now), "z3.example.",
	       "reload: what the file holds");
	f = fopen(path, "w");
	fprintf(f, "other.example. 0\n");
	fclose(f);
	nta_rt_reload(rd, now);
	is_str(found("a.z3.example.", now), "none",
	       "reload: an anchor gone from the file is gone");
	is_str(found("a.other.example.", now), "other.example.",
	       "reload: a new one applies");
	unlink(path);
	nta_rt_reload(rd, now);
	is_str(found("a.other.example.", now), "none",
	       "reload: the file removed, no anchor");
	nta_rt_free(rd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return done_testing();
}
