/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for dnstrust audit's reading of nsswitch.conf
 * (src/cli/audit_nsswitch.c). The input is the file's text, and also one
 * hosts line's sources. Besides memory errors, it checks:
 * - the audit always says something about the hosts line, and only in
 *   its own area, with a known severity and NUL-terminated texts;
 * - a verdict of OK comes with the finding that says why (nss-ok), which
 *   never stands beside a CRITICAL one; every CRITICAL or WARNING
 *   finding names a fix;
 * - the same text gives the same findings twice;
 * - parsed sources are within the limit, named with printable octets,
 *   and at most one of them is "the" dnstrust, which needs the word in
 *   the text.
 * A violation aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct audit_report a, b;

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_nsswitch: %s\n", why);
	abort();
}

static void check_text(const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		fail("text not NUL-terminated");
}

static void check_report(const struct audit_report *r)
{
	bool ok_found = false;

	if (r->n == 0 || r->n > AUDIT_MAX_FINDINGS || r->dropped)
		fail("no finding, or too many");
	for (size_t i = 0; i < r->n; i++) {
		const struct audit_finding *f = &r->f[i];
		if (f->severity > AUDIT_CRITICAL)
			fail("unknown severity");
		if (!f->id || !f->area || strcmp(f->area, "nsswitch.conf"))
			fail("finding outside nsswitch.conf");
		check_text(f->message, sizeof(f->message));
		check_text(f->fix, sizeof(f->fix));
		if (f->severity >= AUDIT_WARNING && !f->fix[0])
			fail("a problem without a fix");
		ok_found |= strcmp(f->id, "nss-ok") == 0;
	}
	if (audit_worst(r) == AUDIT_OK && !ok_found)
		fail("an OK verdict without nss-ok");
	if (audit_worst(r) == AUDIT_CRITICAL && ok_found)
		fail("nss-ok beside a critical finding");
}

static void check_same(const struct audit_report *x,
		       const struct audit_report *y)
{
	if (x->n != y->n)
		fail("two audits of one text differ in size");
	for (size_t i = 0; i < x->n; i++)
		if (x->f[i].severity != y->f[i].severity ||
		    strcmp(x->f[i].id, y->f[i].id) ||
		    strcmp(x->f[i].message, y->f[i].message) ||
		    strcmp(x->f[i].fix, y->f[i].fix))
			fail("two audits of one text differ");
}

static void check_line(const uint8_t *data, size_t size)
{
	static struct audit_nss_line l;
	size_t ndt = 0;

	audit_nss_parse((const char *)data, size, &l);
	if (l.n > AUDIT_NSS_MAX_SOURCES)
		fail("more sources than the limit");
	for (size_t i = 0; i < l.n; i++) {
		const char *name = l.src[i].name;
		check_text(name, sizeof(l.src[i].name));
		for (const char *p = name; *p; p++)
			if (*p <= ' ' || *p >= 0x7f)
				fail("unprintable octet in a source name");
		if (!name[0])
			fail("empty source name");
		ndt += l.src[i].kind == AUDIT_NSS_DNSTRUST;
	}
	if (ndt > 1)
		fail("two sources taken as the dnstrust of the line");
	if (ndt && !memmem(data, size, "dnstrust", 8))
		fail("dnstrust found where the text does not say it");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	audit_nsswitch((const char *)data, size, "/etc/nsswitch.conf", &a);
	check_report(&a);
	audit_nsswitch((const char *)data, size, "/etc/nsswitch.conf", &b);
	check_same(&a, &b);
	check_line(data, size);
	return 0;
}
