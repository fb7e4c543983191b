/* SPDX-License-Identifier: MIT */
/*
 * The daemon's own account of itself: the key=value lines of
 * status.dnstrust. (docs/PROTOCOL.md §5). What matters to trust: at least
 * one trust anchor, mode enforce, the negative trust anchors in force,
 * and upstreams to ask.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/audit.h"

#define AREA "dnstrustd"

/* The value of line when its key is key, else NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) == 0 && line[n] == '=')
		return line + n + 1;
	return NULL;
}

/* Appends " item" to a list shown in a message (cut when full). */
static void list_add(char *buf, size_t size, const char *item)
{
	size_t w = strlen(buf);

	if (w + 1 < size)
		snprintf(buf + w, size - w, "%s%s", w ? ", " : "", item);
}

static void check_nta(const char *v, struct audit_report *rep)
{
	const char *state = strrchr(v, ' ');
	int len = state ? (int)(state - v) : (int)strlen(v);

	if (state && strcmp(state + 1, "expired") == 0) {
		audit_add(rep, AUDIT_INFO, "st-nta-expired", AREA,
			  "negative trust anchor %.*s: expired, ignored", len,
			  v);
		audit_fix(rep,
			  "in dnstrust.conf: remove the line "
			  "negative-trust-anchor %.*s",
			  (int)strcspn(v, " "), v);
		return;
	}
	if (strstr(v, " runtime ")) {
		audit_add(rep, AUDIT_INFO, "st-nta-runtime", AREA,
			  "negative trust anchor %.*s (dnstrust nta add, kept "
			  "in /var/lib/dnstrust across restarts): answers at "
			  "and below it are not validated, and reach "
			  "applications as insecure",
			  (int)(strstr(v, " runtime ") - v), v);
		audit_fix(rep,
			  "when the zone's signatures are repaired: dnstrust "
			  "nta remove %.*s",
			  (int)strcspn(v, " "), v);
		return;
	}
	audit_add(rep, AUDIT_INFO, "st-nta", AREA,
		  "negative trust anchor %.*s: answers at and below it are "
		  "not validated, and reach applications as insecure",
		  len, v);
	audit_fix(rep,
		  "when the zone's signatures are repaired: remove the "
		  "line negative-trust-anchor %.*s from dnstrust.conf",
		  (int)strcspn(v, " "), v);
}

/* A warning of the daemon's (docs/PROTOCOL.md §5), with the fix for its
 * kind, known by how it starts. */
static void check_warning(const char *v, struct audit_report *rep)
{
	static const struct {
		const char *start, *fix;
	} fixes[] = {
		{"trust-anchor-file ",
		 "stop dnstrustd, remove the RFC 5011 state file, start it (or "
		 "drop trust-anchor-file from dnstrust.conf)"},
		{"resolv-conf ",
		 "let the daemon's user read resolv.conf and search its "
		 "directory (chmod 644 and 755)"},
		{"negative-trust-anchor ",
		 "in dnstrust.conf: remove that negative-trust-anchor line; "
		 "then dnstrust reload"},
		{"once root is given up",
		 "give the daemon's user that access, or change `user` in "
		 "dnstrust.conf"},
	};

	audit_add(rep, AUDIT_WARNING, "st-warning", AREA, "dnstrustd warns: %s",
		  v);
	for (size_t i = 0; i < sizeof(fixes) / sizeof(*fixes); i++)
		if (strncmp(v, fixes[i].start, strlen(fixes[i].start)) == 0)
			audit_fix(rep, "%s", fixes[i].fix);
}

/* What dnstrustd does while an upstream cannot do DNSSEC: recursive,
 * the judgement is that none can; recursing, it resolves from the root
 * now; any_yes, another upstream can. */
static const char *recourse(bool recursive, bool recursing, bool any_yes)
{
	if (any_yes)
		return "dnstrustd keeps asking the upstreams that can";
	if (recursing)
		return "dnstrustd resolves from the root servers instead";
	if (recursive)
		return "no upstream can, yet resolution forward is configured: "
		       "signed names fail";
	return "no other upstream is known to do DNSSEC yet";
}

/* A resolv.conf server that cannot do DNSSEC, from "upstream-dnssec=ADDR
 * dnssec=no ... reason=TEXT"; recursive: the daemon's auto judgement;
 * any_yes: another server can. */
static void check_capab(const char *v, bool recursive, bool recursing,
			bool any_yes, struct audit_report *rep)
{
	const char *reason = strstr(v, " reason=");
	int alen = (int)strcspn(v, " ");

	if (!strstr(v, " dnssec=no "))
		return;
	audit_add(rep, AUDIT_WARNING, "st-upstream-no-dnssec", AREA,
		  "upstream %.*s cannot do DNSSEC (%s): dnstrustd never "
		  "takes its answers unvalidated; %s",
		  alen, v, reason ? reason + 8 : "no reason given",
		  recourse(recursive, recursing, any_yes));
	audit_fix(rep, "ask the network for a DNSSEC-capable resolver, or "
		       "set resolution recursive in dnstrust.conf");
}

/* Resolving from the root while no root server answers: the network
 * blocks queries to authoritative servers, and every name fails. */
static void check_root(const char *v, bool recursing, struct audit_report *rep)
{
	if (!recursing || strncmp(v, "no", 2) != 0)
		return;
	audit_add(rep, AUDIT_WARNING, "st-root-blocked", AREA,
		  "dnstrustd resolves from the root, but the network blocks "
		  "queries to authoritative servers (no root server "
		  "answers): every name fails closed (EDE 23), nothing "
		  "unvalidated is returned");
	audit_fix(rep, "use a network that lets DNS queries through, or ask "
		       "this one for a DNSSEC-capable resolver");
}

struct status_seen {
	char anchors[AUDIT_MESSAGE_MAX / 2];
	char upstreams[AUDIT_MESSAGE_MAX / 2];
	size_t nanchors, nupstreams;
};

static void check_line(const char *line, struct status_seen *s,
		       struct audit_report *rep)
{
	const char *v;

	if ((v = value_of(line, "trust-anchor"))) {
		s->nanchors++;
		list_add(s->anchors, sizeof(s->anchors), v);
	} else if ((v = value_of(line, "upstream"))) {
		s->nupstreams++;
		list_add(s->upstreams, sizeof(s->upstreams), v);
	} else if ((v = value_of(line, "mode")) &&
		   strcmp(v, "permissive") == 0) {
		audit_add(rep, AUDIT_WARNING, "st-permissive", AREA,
			  "mode permissive: bogus answers are returned (marked "
			  "bogus, AD=0) instead of withheld; plain DNS clients "
			  "of the listener take them as data");
		audit_fix(rep, "in dnstrust.conf: mode enforce; then dnstrust "
			       "reload");
	} else if ((v = value_of(line, "negative-trust-anchor"))) {
		check_nta(v, rep);
	} else if ((v = value_of(line, "warning"))) {
		check_warning(v, rep);
	} else if ((v = value_of(line, "validation")) &&
		   strncmp(v, "failing", 7) == 0) {
		audit_add(rep, AUDIT_WARNING, "st-validation-failing", AREA,
			  "validation %s; names fail closed, nothing "
			  "unvalidated is returned",
			  v);
		audit_fix(rep, "check the clock (date -u); compare the "
			       "trust-anchor lines of dnstrust status with "
			       "the root's keys (dnstrust query . DNSKEY "
			       "--trace); with auto-trust-anchor-file: stop "
			       "dnstrustd, remove its state file, start it");
	}
}

void audit_status(char *const *line, size_t n, struct audit_report *rep)
{
	struct status_seen s = {0};
	bool recursive = false, recursing = false, any_yes = false;
	const char *v;

	for (size_t i = 0; i < n; i++) {
		check_line(line[i], &s, rep);
		v = value_of(line[i], "upstream-judgement");
		recursive |= v && strcmp(v, "recursive") == 0;
		v = value_of(line[i], "resolution");
		recursing |= v && strcmp(v, "recursive") == 0;
		v = value_of(line[i], "upstream-dnssec");
		any_yes |= v && strstr(v, " dnssec=yes ");
	}
	for (size_t i = 0; i < n; i++) {
		if ((v = value_of(line[i], "upstream-dnssec")))
			check_capab(v, recursive, recursing, any_yes, rep);
		if ((v = value_of(line[i], "root-reachable")))
			check_root(v, recursing, rep);
	}
	if (s.nanchors == 0) {
		audit_add(rep, AUDIT_CRITICAL, "st-no-anchor", AREA,
			  "dnstrustd lists no trust anchor: nothing it answers "
			  "can be secure, and bogus data cannot be told apart");
		audit_fix(rep,
			  "in dnstrust.conf: remove trust-anchor-file (the "
			  "built-in root anchors apply) or name a file "
			  "of the root's DS records; then dnstrust reload");
	} else {
		audit_add(rep, AUDIT_OK, "st-anchor", AREA, "trust anchors: %s",
			  s.anchors);
	}
	if (s.nupstreams == 0) {
		audit_add(rep, AUDIT_WARNING, "st-no-upstream", AREA,
			  "dnstrustd lists no upstream nameserver: every "
			  "question fails");
		audit_fix(rep,
			  "a nameserver line in the file of dnstrust.conf's "
			  "resolv-conf (default /etc/resolv.conf)");
	} else {
		audit_add(rep, AUDIT_OK, "st-upstream", AREA,
			  "upstreams (transport only): %s", s.upstreams);
	}
}
