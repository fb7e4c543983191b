/* SPDX-License-Identifier: MIT */
/*
 * The findings of dnstrust audit: a fixed array, no allocation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/audit.h"

/* vsnprintf that marks a cut text with "..." at its end. */
__attribute__((format(printf, 3, 0))) static void
format_cut(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);

	if (n >= 0 && (size_t)n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void audit_add(struct audit_report *rep, enum audit_severity sev,
	       const char *id, const char *area, const char *fmt, ...)
{
	struct audit_finding *f;
	va_list ap;

	if (rep->n == AUDIT_MAX_FINDINGS) {
		rep->dropped++;
		if (sev > rep->dropped_worst)
			rep->dropped_worst = sev;
		rep->last_dropped = true;
		return;
	}
	f = &rep->f[rep->n++];
	f->severity = sev;
	f->id = id;
	f->area = area;
	f->fix[0] = '\0';
	va_start(ap, fmt);
	format_cut(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
	rep->last_dropped = false;
}

void audit_fix(struct audit_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->n == 0 || rep->last_dropped)
		return;
	va_start(ap, fmt);
	format_cut(rep->f[rep->n - 1].fix, AUDIT_FIX_MAX, fmt, ap);
	va_end(ap);
}

enum audit_severity audit_worst(const struct audit_report *rep)
{
	enum audit_severity w = rep->dropped ? rep->dropped_worst : AUDIT_OK;

	for (size_t i = 0; i < rep->n; i++)
		if (rep->f[i].severity > w)
			w = rep->f[i].severity;
	return w;
}

size_t audit_count(const struct audit_report *rep, enum audit_severity sev)
{
	size_t c = 0;

	for (size_t i = 0; i < rep->n; i++)
		c += rep->f[i].severity == sev;
	return c;
}

const struct audit_finding *audit_find(const struct audit_report *rep,
				       const char *id)
{
	for (size_t i = 0; i < rep->n; i++)
		if (strcmp(rep->f[i].id, id) == 0)
			return &rep->f[i];
	return NULL;
}

const char *audit_severity_str(enum audit_severity sev)
{
	switch (sev) {
	case AUDIT_OK: return "OK";
	case AUDIT_INFO: return "INFO";
	case AUDIT_WARNING: return "WARNING";
	case AUDIT_CRITICAL: return "CRITICAL";
	}
	return "?";
}

/* When a fix of this area is to be applied: what the daemon needs before
 * it can start, the daemon, where it sends queries, and last what sends
 * applications to it (listing dnstrust in nsswitch.conf while the daemon
 * is down would make lookups fail). */
static int stage(const char *area)
{
	static const char *const areas[] = {
		"dnstrust.conf", "socket", "dnstrustd", "resolv.conf",
		"nsswitch.conf",
	};

	for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++)
		if (strcmp(area, areas[i]) == 0)
			return (int)i;
	return 0;
}

void audit_order(const struct audit_report *rep, size_t *idx)
{
	size_t k = 0;

	for (int st = 0; st <= 4; st++)
		for (int sev = AUDIT_CRITICAL; sev >= AUDIT_OK; sev--)
			for (size_t i = 0; i < rep->n; i++)
				if (rep->f[i].fix[0] &&
				    stage(rep->f[i].area) == st &&
				    (int)rep->f[i].severity == sev)
					idx[k++] = i;
	for (int sev = AUDIT_CRITICAL; sev >= AUDIT_OK; sev--)
		for (size_t i = 0; i < rep->n; i++)
			if (!rep->f[i].fix[0] && (int)rep->f[i].severity == sev)
				idx[k++] = i;
}
