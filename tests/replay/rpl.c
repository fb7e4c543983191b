/* SPDX-License-Identifier: MIT */
/*
 * Reader of .rpl scenarios (see rpl.h). Lines are read one at a time;
 * the records of a SECTION are collected as text and read by the zone
 * reader of src/wire, so they take every form a zone file may.
 */
#include "rpl.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "validator/anchor.h"
#include "wire/base.h"
#include "wire/dname.h"
#include "wire/zone.h"

#define RPL_MAXSIZE (16u * 1024 * 1024)

struct parser {
	struct rpl_scenario *sc;
	char *err;
	size_t errlen;
	unsigned line;
	char *cfgtext; /* the dnstrust: lines */
	size_t cfglen;
	struct rpl_range *range; /* open RANGE_BEGIN */
	struct rpl_range **range_tail;
	struct rpl_entry *entry; /* open ENTRY_BEGIN */
	int section;		 /* -2 none, -1 question, else enum */
	bool in_hex;
	char *text; /* records of the open section */
	size_t textlen;
	struct rpl_step *step; /* step waiting for its entry */
	bool ended;
	struct rpl_zone *zone; /* open stub-zone or forward-zone clause */
	bool in_file;	       /* FILE_BEGIN ... FILE_END */
	struct rpl_autotrust *at;   /* open AUTOTRUST_FILE */
	struct rpl_step *file_step; /* CHECK_AUTOTRUST waiting for its
				       FILE_BEGIN body */
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *p,
						      const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "line %u: ", p->line);

	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int append(char **buf, size_t *len, const char *s, size_t n)
{
	char *nb = realloc(*buf, *len + n + 2);

	if (!nb)
		return -ENOMEM;
	memcpy(nb + *len, s, n);
	nb[*len + n] = '\n';
	*len += n + 1;
	nb[*len] = '\0';
	*buf = nb;
	return 0;
}

/* Next whitespace-separated word of *s (comments cut before). */
static bool word(const char **s, const char **w, size_t *wl)
{
	const char *p = *s;

	while (*p && isspace((unsigned char)*p))
		p++;
	if (!*p)
		return false;
	*w = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	*wl = (size_t)(p - *w);
	*s = p;
	return true;
}

static bool weq(const char *w, size_t wl, const char *kw)
{
	return strlen(kw) == wl && strncasecmp(w, kw, wl) == 0;
}

/* Cuts a ';' comment, and a '#' one that follows a blank (Unbound's
 * config and Deckard's step lines). */
static void cut_comment(char *s)
{
	char *c = strchr(s, ';');

	if (c)
		*c = '\0';
	for (c = s; (c = strchr(c, '#')); c++)
		if (c == s || isspace((unsigned char)c[-1])) {
			*c = '\0';
			break;
		}
}

static void free_entry(struct rpl_entry *e)
{
	if (!e)
		return;
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		for (size_t i = 0; i < e->n[s]; i++) {
			free((void *)e->sec[s][i].owner);
			free((void *)e->sec[s][i].rdata);
		}
		free(e->sec[s]);
	}
	free(e->hex);
	free(e);
}

void rpl_free(struct rpl_scenario *sc)
{
	if (!sc)
		return;
	for (struct rpl_range *r = sc->ranges, *rn; r; r = rn) {
		rn = r->next;
		for (struct rpl_entry *e = r->entries, *en; e; e = en) {
			en = e->next;
			free_entry(e);
		}
		free(r);
	}
	for (size_t i = 0; i < sc->nsteps; i++) {
		free_entry(sc->steps[i].e);
		free(sc->steps[i].text);
	}
	free(sc->steps);
	for (size_t i = 0; i < sc->nat; i++)
		free(sc->at[i].text);
	val_anchors_free(sc->ta);
	free(sc);
}

/* ---- config part ---- */

/* The value of "key: value" without quotes around it. */
static char *cfg_value(char *v)
{
	size_t n;

	while (isspace((unsigned char)*v))
		v++;
	n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v[n - 1] = '\0';
		v++;
	}
	return v;
}

static int add_anchor(struct parser *p, const char *text)
{
	struct wire_zreader *zr =
		wire_zreader_new(text, strlen(text), ".", 3600, p->sc->file);
	struct wire_rr rr;
	int ret;

	if (!zr)
		return fail(p, "out of memory");
	while ((ret = wire_zreader_next(zr, &rr)) == 1) {
		if (val_anchors_add(p->sc->ta, &rr) < 0) {
			wire_zreader_free(zr);
			return fail(p, "trust-anchor not usable: %s", text);
		}
	}
	if (ret < 0)
		fail(p, "trust-anchor: %s", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return ret < 0 ? -1 : 0;
}

/* YYYYMMDDHHMMSS as seconds since the epoch (UTC). */
static int parse_date(const char *s, int64_t *ret)
{
	struct tm tm = {0};
	char tail;

	if (strlen(s) != 14 || sscanf(s, "%4d%2d%2d%2d%2d%2d%c", &tm.tm_year,
				      &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
				      &tm.tm_min, &tm.tm_sec, &tail) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*ret = (int64_t)timegm(&tm);
	return 0;
}

/* Cuts a '#' comment after a blank outside quotes (Unbound's config). */
static void cut_config_comment(char *s)
{
	bool quoted = false;

	for (char *c = s; *c; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (*c == '#' && !quoted &&
			 (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
	}
}

/* A stub-zone or forward-zone clause (its name the root until a name:
 * line). */
static int zone_open(struct parser *p, bool forward)
{
	struct rpl_scenario *sc = p->sc;

	if (sc->nzones == RPL_MAX_ZONES)
		return fail(p, "more than %d stub and forward zones",
			    RPL_MAX_ZONES);
	p->zone = &sc->zones[sc->nzones++];
	memset(p->zone, 0, sizeof(*p->zone));
	p->zone->forward = forward;
	return 0;
}

/* stub-addr / forward-addr: "ADDR[@PORT]"; outside any clause (Deckard),
 * the root's. */
static int zone_addr(struct parser *p, const char *val, bool forward)
{
	struct rpl_addr *a;
	char text[64];

	if (!p->zone && zone_open(p, forward) < 0)
		return -1;
	if (p->zone->naddr == RPL_MAX_ZONE_ADDRS)
		return 0;
	snprintf(text, sizeof(text), "%.*s", (int)strcspn(val, "@ \t"), val);
	a = &p->zone->addr[p->zone->naddr];
	if (inet_pton(AF_INET, text, a->a) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, text, a->a) == 1)
		a->family = AF_INET6;
	else
		return fail(p, "%s: not an address", text);
	p->zone->naddr++;
	return 0;
}

/* domain-insecure: NAME: the name is treated as unsigned, as dnstrust's
 * negative trust anchors do. */
static int domain_insecure(struct parser *p, const char *val)
{
	char line[DT_NAME_TEXT_MAXLEN + 32];
	int n = snprintf(line, sizeof(line), "negative-trust-anchor %s", val);

	if (n < 0 || (size_t)n >= sizeof(line))
		return fail(p, "domain-insecure: name too long");
	return append(&p->cfgtext, &p->cfglen, line, (size_t)n) < 0
		       ? fail(p, "out of memory")
		       : 0;
}

/* The keys of Unbound's server, stub-zone and forward-zone clauses that
 * the runner plays; true when key was one. */
static bool clause_key(struct parser *p, const char *key, const char *val,
		       int *ret)
{
	*ret = 0;
	if (strcmp(key, "server") == 0) {
		p->zone = NULL;
	} else if (strcmp(key, "stub-zone") == 0 ||
		   strcmp(key, "forward-zone") == 0) {
		*ret = zone_open(p, key[0] == 'f');
	} else if (strcmp(key, "name") == 0 && p->zone) {
		if (wire_dname_from_str(val, strlen(val), (const uint8_t *)"",
					p->zone->name) < 0)
			*ret = fail(p, "name: %s: not a domain name", val);
	} else if (strcmp(key, "stub-addr") == 0 ||
		   strcmp(key, "forward-addr") == 0) {
		*ret = zone_addr(p, val, key[0] == 'f');
	} else if (strcmp(key, "domain-insecure") == 0) {
		*ret = domain_insecure(p, val);
	} else if (strcmp(key, "qname-minimisation") == 0 ||
		   strcmp(key, "query-minimization") == 0) {
		/* Unbound's and Deckard's spellings */
		p->sc->no_qmin = strncmp(val, "no", 2) == 0 ||
				 strncmp(val, "off", 3) == 0;
	} else if (strcmp(key, "fake-sha1") == 0 ||
		   strcmp(key, "fake-dsa") == 0) {
		if (strcmp(val, "yes") == 0)
			p->sc->fake_sig = true;
	} else {
		return false;
	}
	return true;
}

/* AUTOTRUST_FILE zone: the lines up to AUTOTRUST_END are its text. */
static int autotrust_open(struct parser *p, const char *s)
{
	struct rpl_scenario *sc = p->sc;
	const char *w;
	size_t wl;

	if (sc->nat == RPL_MAX_AUTOTRUST)
		return fail(p, "more than %d AUTOTRUST_FILE",
			    RPL_MAX_AUTOTRUST);
	p->at = &sc->at[sc->nat++];
	if (!word(&s, &w, &wl) ||
	    wire_dname_from_str(w, wl, (const uint8_t *)"", p->at->zone) < 0)
		return fail(p, "AUTOTRUST_FILE without a zone");
	wire_dname_tolower(p->at->zone);
	return 0;
}

/* A line of an open AUTOTRUST_FILE, kept as written (its ';;' fields
 * are the state). */
static int autotrust_line(struct parser *p, const char *s)
{
	if (strncmp(s, "AUTOTRUST_END", 13) == 0) {
		p->at = NULL;
		return 0;
	}
	return append(&p->at->text, &p->at->len, s, strlen(s)) < 0
		       ? fail(p, "out of memory")
		       : 0;
}

static int config_line(struct parser *p, char *s)
{
	char *colon, *key, *val;
	int ret;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == ';' || *s == '#')
		return 0;
	cut_config_comment(s);
	if (strncmp(s, "AUTOTRUST_FILE", 14) == 0)
		return autotrust_open(p, s + 14);
	if (strncmp(s, "TEMPFILE_NAME", 13) == 0) {
		snprintf(p->sc->unsupported, sizeof(p->sc->unsupported), "%.*s",
			 (int)strcspn(s, " \t"), s);
		return 0;
	}
	colon = strchr(s, ':');
	if (!colon)
		return 0; /* AUTOTRUST/TEMPFILE bodies and the like */
	*colon = '\0';
	key = s;
	val = cfg_value(colon + 1);
	if (strcmp(key, "dnstrust") == 0)
		return append(&p->cfgtext, &p->cfglen, val, strlen(val)) < 0
			       ? fail(p, "out of memory")
			       : 0;
	if (clause_key(p, key, val, &ret))
		return ret;
	if (strcmp(key, "trust-anchor") == 0)
		return add_anchor(p, val);
	if (strcmp(key, "val-override-date") == 0) {
		/* -1: Unbound takes every signature whatever its dates
		 * (val_sig.c's "ignore date"); the clock is now's. */
		if (strcmp(val, "-1") == 0) {
			p->sc->date = (int64_t)time(NULL);
			p->sc->has_date = true;
			p->sc->sig_time_any = true;
			return 0;
		}
		if (parse_date(val, &p->sc->date) < 0)
			return fail(p, "val-override-date: not YYYYMMDDHHMMSS");
		p->sc->has_date = true;
		return 0;
	}
	if (strcmp(key, "val-override-timestamp") == 0) {
		char *end;

		p->sc->date = (int64_t)strtoll(val, &end, 10);
		if (end == val || *end)
			return fail(p, "val-override-timestamp: not a number");
		p->sc->has_date = true;
		return 0;
	}
	if (strcmp(key, "trust-anchor-file") == 0 ||
	    strcmp(key, "auto-trust-anchor-file") == 0)
		snprintf(p->sc->unsupported, sizeof(p->sc->unsupported), "%s",
			 key);
	return 0; /* server:, forward-zone:, Unbound-only keys */
}

/* A forward-zone below the root, in a recursive resolver's scenario:
 * its questions (and the DS and DNSKEY queries of zones there) go to its
 * servers, which is dnstrust's `domain NAME upstream ADDR...` (split DNS,
 * at most DT_UP_MAXNS servers). */
static int forward_below_root(struct parser *p, const struct rpl_zone *z)
{
	char line[DT_NAME_TEXT_MAXLEN + 200], a[INET6_ADDRSTRLEN];
	size_t n;

	if (wire_dname_to_str(z->name, line, sizeof(line)) < 0)
		return fail(p, "forward-zone: bad name");
	memmove(line + 7, line, strlen(line) + 1);
	memcpy(line, "domain ", 7);
	n = strlen(line);
	n += (size_t)snprintf(line + n, sizeof(line) - n, " upstream");
	for (size_t i = 0; i < z->naddr && i < DT_UP_MAXNS; i++) {
		inet_ntop(z->addr[i].family, z->addr[i].a, a, sizeof(a));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", a);
	}
	line[n++] = '\n';
	return append(&p->cfgtext, &p->cfglen, line, n) < 0
		       ? fail(p, "out of memory")
		       : 0;
}

static int config_end(struct parser *p)
{
	char err[512];

	for (size_t i = 0; i < p->sc->nzones; i++) {
		const struct rpl_zone *z = &p->sc->zones[i];

		if (z->forward && z->naddr && !wire_dname_is_root(z->name) &&
		    forward_below_root(p, z) < 0)
			return -1;
	}
	cfg_default(&p->sc->cfg);
	if (p->cfglen && cfg_parse(p->cfgtext, p->cfglen, "dnstrust:",
				   &p->sc->cfg, err, sizeof(err)) < 0)
		return fail(p, "%s", err);
	return 0;
}

/* ---- entries ---- */

static int flush_section(struct parser *p)
{
	struct rpl_entry *e = p->entry;
	struct wire_zreader *zr;
	struct wire_rr rr;
	int s = p->section, ret;

	if (s < 0 || !p->textlen)
		goto done;
	zr = wire_zreader_new(p->text, p->textlen, ".", 3600, p->sc->file);
	if (!zr)
		return fail(p, "out of memory");
	wire_zreader_set_lax(zr); /* a server's records, as it sent them */
	while ((ret = wire_zreader_next(zr, &rr)) == 1) {
		struct wire_rr *n =
			realloc(e->sec[s], (e->n[s] + 1) * sizeof(*n));
		size_t ol = wire_dname_len(rr.owner);

		if (!n)
			break;
		e->sec[s] = n;
		n[e->n[s]] = rr;
		n[e->n[s]].owner = malloc(ol);
		n[e->n[s]].rdata = malloc(rr.rdlen ? rr.rdlen : 1);
		if (!n[e->n[s]].owner || !n[e->n[s]].rdata) {
			free((void *)n[e->n[s]].owner);
			free((void *)n[e->n[s]].rdata);
			ret = -ENOMEM;
			break;
		}
		memcpy((void *)n[e->n[s]].owner, rr.owner, ol);
		memcpy((void *)n[e->n[s]].rdata, rr.rdata, rr.rdlen);
		e->n[s]++;
	}
	if (ret < 0) {
		fail(p, "entry of line %u: %s", e->line,
		     ret == -ENOMEM ? "out of memory" : wire_zreader_error(zr));
		wire_zreader_free(zr);
		return -1;
	}
	wire_zreader_free(zr);
done:
	p->textlen = 0;
	return 0;
}

/* "name [ttl] [class] type": the last word is the type (ANY is also a
 * class mnemonic). */
static int question_line(struct parser *p, const char *s)
{
	struct rpl_entry *e = p->entry;
	const char *w[8];
	size_t wl[8], n = 0;
	uint16_t v;

	while (n < 8 && word(&s, &w[n], &wl[n]))
		n++;
	if (n == 0)
		return 0;
	if (n < 2 || n > 4)
		return fail(p, "question: name [class] type");
	if (wire_dname_from_str(w[0], wl[0], (const uint8_t *)"", e->qname) < 0)
		return fail(p, "bad question name");
	if (wire_type_from_str(w[n - 1], wl[n - 1], &e->qtype) < 0)
		return fail(p, "bad question type");
	e->qclass = WIRE_CLASS_IN;
	for (size_t i = 1; i + 1 < n; i++) {
		if (wire_class_from_str(w[i], wl[i], &v) == 0)
			e->qclass = v;
		else if (!isdigit((unsigned char)*w[i]))
			return fail(p, "bad question: %.*s", (int)wl[i], w[i]);
	}
	e->has_q = true;
	return 0;
}

/* MATCH keywords that set bits (Deckard's question: name, type and
 * class). */
static const struct {
	const char *word;
	unsigned bits;
} match_words[] = {
	{"opcode", RPL_M_OPCODE},	{"qtype", RPL_M_QTYPE},
	{"qname", RPL_M_QNAME},		{"question", RPL_M_QTYPE | RPL_M_QNAME},
	{"subdomain", RPL_M_SUBDOMAIN}, {"TCP", RPL_M_TCP},
	{"UDP", RPL_M_UDP},		{"sections", RPL_M_SECTIONS},
	{"all", RPL_M_ALL},		{"rcode", RPL_M_RCODE},
	{"flags", RPL_M_FLAGS},		{"answer", RPL_M_ANSWER},
	{"authority", RPL_M_AUTHORITY}, {"additional", RPL_M_ADDITIONAL},
	{"ttl", RPL_M_TTL},
};

static int match_line(struct parser *p, const char *s)
{
	struct rpl_entry *e = p->entry;
	const char *w;
	size_t wl;
	bool any = false;

	while (word(&s, &w, &wl)) {
		size_t k = 0;

		any = true;
		while (k < sizeof(match_words) / sizeof(match_words[0]) &&
		       !weq(w, wl, match_words[k].word))
			k++;
		if (k < sizeof(match_words) / sizeof(match_words[0])) {
			e->match |= match_words[k].bits;
		} else if (weq(w, wl, "noede")) {
			e->match |= RPL_M_EDE;
			e->ede = RPL_EDE_ABSENT;
		} else if (wl > 4 && strncasecmp(w, "ede=", 4) == 0) {
			char *end;

			e->ede = (int)strtol(w + 4, &end, 10);
			if (end != w + wl || e->ede < 0 || e->ede > 65535)
				return fail(p, "bad ede=");
			e->match |= RPL_M_EDE;
		}
		/* DO and others: no meaning here */
	}
	if (!any)
		e->match |= RPL_M_NOTHING;
	return 0;
}

static const struct {
	const char *name;
	uint16_t bit;
} flag_names[] = {
	{"QR", WIRE_FLAG_QR}, {"AA", WIRE_FLAG_AA}, {"TC", WIRE_FLAG_TC},
	{"RD", WIRE_FLAG_RD}, {"RA", WIRE_FLAG_RA}, {"AD", WIRE_FLAG_AD},
	{"CD", WIRE_FLAG_CD}, {"Z", WIRE_FLAG_Z},
};

static const char *const rcode_names[] = {
	"NOERROR",  "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMPL", "REFUSED",
	"YXDOMAIN", "YXRRSET", "NXRRSET",  "NOTAUTH",  "NOTZONE",
};

static int reply_line(struct parser *p, const char *s)
{
	struct rpl_entry *e = p->entry;
	const char *w;
	size_t wl;

	while (word(&s, &w, &wl)) {
		bool known = false;

		for (size_t i = 0;
		     i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
			if (weq(w, wl, flag_names[i].name)) {
				e->flags |= flag_names[i].bit;
				known = true;
			}
		for (size_t i = 0;
		     i < sizeof(rcode_names) / sizeof(rcode_names[0]); i++)
			if (weq(w, wl, rcode_names[i])) {
				e->rcode = (uint16_t)i;
				known = true;
			}
		if (weq(w, wl, "NOTIMP")) {
			e->rcode = WIRE_RCODE_NOTIMP;
			known = true;
		}
		if (weq(w, wl, "DO")) {
			e->do_bit = true;
			known = true;
		}
		if (!known)
			return fail(p, "REPLY: unknown %.*s", (int)wl, w);
	}
	return 0;
}

static int adjust_line(struct parser *p, const char *s)
{
	const char *w;
	size_t wl;

	while (word(&s, &w, &wl)) {
		if (weq(w, wl, "copy_id"))
			p->entry->copy_id = true;
		else if (weq(w, wl, "copy_query"))
			p->entry->copy_query = true;
		else
			return fail(p, "ADJUST %.*s: not supported", (int)wl,
				    w);
	}
	return 0;
}

static int hex_line(struct parser *p, const char *s)
{
	struct rpl_entry *e = p->entry;
	char digits[4096];
	size_t n = 0;
	uint8_t *nb;
	int len;

	for (; *s && n < sizeof(digits); s++)
		if (isxdigit((unsigned char)*s))
			digits[n++] = *s;
		else if (*s == ';')
			break;
	if (n % 2)
		return fail(p, "odd number of hex digits on the line");
	if (!n)
		return 0;
	nb = realloc(e->hex, e->hexlen + n / 2);
	if (!nb)
		return fail(p, "out of memory");
	e->hex = nb;
	len = wire_hex_decode(digits, n, e->hex + e->hexlen, n / 2);
	if (len < 0)
		return fail(p, "bad hex");
	e->hexlen += (size_t)len;
	return 0;
}

static int section_line(struct parser *p, const char *s)
{
	const char *w;
	size_t wl;

	if (flush_section(p) < 0)
		return -1;
	if (!word(&s, &w, &wl))
		return fail(p, "SECTION without a name");
	if (weq(w, wl, "QUESTION"))
		p->section = -1;
	else if (weq(w, wl, "ANSWER"))
		p->section = WIRE_SEC_ANSWER;
	else if (weq(w, wl, "AUTHORITY"))
		p->section = WIRE_SEC_AUTHORITY;
	else if (weq(w, wl, "ADDITIONAL"))
		p->section = WIRE_SEC_ADDITIONAL;
	else
		return fail(p, "SECTION %.*s: unknown", (int)wl, w);
	return 0;
}

static int entry_end(struct parser *p)
{
	struct rpl_entry *e = p->entry;

	if (flush_section(p) < 0)
		return -1;
	p->entry = NULL;
	if (p->step) {
		p->step->e = e;
		p->step = NULL;
	} else if (p->range) {
		struct rpl_entry **t = &p->range->entries;

		while (*t)
			t = &(*t)->next;
		*t = e;
	} else {
		free_entry(e);
		return fail(p, "ENTRY outside a RANGE or STEP");
	}
	return 0;
}

static int entry_line(struct parser *p, char *s)
{
	char kw[32] = "";
	const char *rest = s, *w;
	size_t wl;

	if (p->in_hex) {
		if (strstr(s, "HEX_ANSWER_END")) {
			p->in_hex = false;
			return 0;
		}
		return hex_line(p, s);
	}
	if (word(&rest, &w, &wl) && wl < sizeof(kw))
		snprintf(kw, sizeof(kw), "%.*s", (int)wl, w);
	if (strcmp(kw, "ENTRY_END") == 0)
		return entry_end(p);
	if (strcmp(kw, "HEX_ANSWER_BEGIN") == 0) {
		p->in_hex = true;
		return 0;
	}
	if (strcmp(kw, "SECTION") == 0)
		return section_line(p, rest);
	if (strcmp(kw, "MANDATORY") == 0)
		return 0; /* Deckard: the entry must be used; not checked */
	if (strcmp(kw, "EXTRA_PACKET") == 0 || strcmp(kw, "ENTRY_BEGIN") == 0 ||
	    strcmp(kw, "RANGE_END") == 0)
		return fail(p, "%s inside an entry: not supported", kw);
	if (strcmp(kw, "MATCH") == 0 || strcmp(kw, "REPLY") == 0 ||
	    strcmp(kw, "ADJUST") == 0) {
		cut_comment(s);
		rest = s + (w - s) + wl;
		return kw[0] == 'M'   ? match_line(p, rest)
		       : kw[0] == 'R' ? reply_line(p, rest)
				      : adjust_line(p, rest);
	}
	if (p->section == -1) {
		cut_comment(s);
		return question_line(p, s);
	}
	/* Records may be indented: a line never continues the owner of
	 * the one before (parentheses still join lines). */
	while (p->section >= 0 && isspace((unsigned char)*s))
		s++;
	if (p->section >= 0)
		return append(&p->text, &p->textlen, s, strlen(s)) < 0
			       ? fail(p, "out of memory")
			       : 0;
	cut_comment(s);
	rest = s;
	if (word(&rest, &w, &wl))
		return fail(p, "%.*s: not understood here", (int)wl, w);
	return 0;
}

/* ---- scenario part ---- */

/* The rest of s without a ';' comment or the blanks around it, in a
 * string of its own. */
static char *rest_dup(const char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strcspn(s, ";");
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* TIME_PASSES ELAPSE n, or EVAL ${expression} (worked out when run). */
static int time_passes(struct parser *p, struct rpl_step *st, const char *s)
{
	const char *w;
	size_t wl;

	st->kind = RPL_TIME_PASSES;
	if (!word(&s, &w, &wl))
		return fail(p, "TIME_PASSES: ELAPSE n or EVAL expression");
	if (weq(w, wl, "ELAPSE") && word(&s, &w, &wl)) {
		st->arg = strtol(w, NULL, 10);
		return 0;
	}
	if (!weq(w, wl, "EVAL"))
		return fail(p, "TIME_PASSES: ELAPSE n or EVAL expression");
	st->text = rest_dup(s);
	return st->text ? 0 : fail(p, "out of memory");
}

/* ASSIGN name = expression. */
static int assign(struct parser *p, struct rpl_step *st, const char *s)
{
	const char *w;
	size_t wl;

	st->kind = RPL_ASSIGN;
	if (!word(&s, &w, &wl) || wl >= sizeof(st->var))
		return fail(p, "ASSIGN without a variable");
	snprintf(st->var, sizeof(st->var), "%.*s", (int)wl, w);
	if (!word(&s, &w, &wl) || !weq(w, wl, "="))
		return fail(p, "ASSIGN %s without '='", st->var);
	st->text = rest_dup(s);
	return st->text ? 0 : fail(p, "out of memory");
}

static int step_line(struct parser *p, const char *s)
{
	struct rpl_scenario *sc = p->sc;
	struct rpl_step *st, *ns;
	const char *w;
	size_t wl;
	char num[32];

	p->file_step = NULL;
	ns = realloc(sc->steps, (sc->nsteps + 1) * sizeof(*ns));
	if (!ns)
		return fail(p, "out of memory");
	sc->steps = ns;
	st = &sc->steps[sc->nsteps++];
	memset(st, 0, sizeof(*st));
	st->line = p->line;
	if (!word(&s, &w, &wl) || wl >= sizeof(num))
		return fail(p, "STEP without a number");
	snprintf(num, sizeof(num), "%.*s", (int)wl, w);
	st->n = strtol(num, NULL, 10);
	if (!word(&s, &w, &wl))
		return fail(p, "STEP without a kind");
	snprintf(st->name, sizeof(st->name), "%.*s", (int)wl, w);
	if (weq(w, wl, "QUERY")) {
		st->kind = RPL_QUERY;
	} else if (weq(w, wl, "CHECK_ANSWER")) {
		st->kind = RPL_CHECK_ANSWER;
	} else if (weq(w, wl, "TIME_PASSES")) {
		return time_passes(p, st, s);
	} else if (weq(w, wl, "ASSIGN")) {
		return assign(p, st, s);
	} else if (weq(w, wl, "CHECK_AUTOTRUST")) {
		st->kind = RPL_CHECK_AUTOTRUST;
		if (!word(&s, &w, &wl) ||
		    wire_dname_from_str(w, wl, (const uint8_t *)"", st->zone) <
			    0)
			return fail(p, "CHECK_AUTOTRUST without a zone");
		wire_dname_tolower(st->zone);
		p->file_step = st;
		return 0;
	} else if (weq(w, wl, "CHECK_FETCHES")) {
		st->kind = RPL_CHECK_FETCHES;
		if (!word(&s, &w, &wl))
			return fail(p, "CHECK_FETCHES without a count");
		st->arg = strtol(w, NULL, 10);
		return 0;
	} else if (weq(w, wl, "CHECK_ROUNDS")) {
		st->kind = RPL_CHECK_ROUNDS;
		if (!word(&s, &w, &wl))
			return fail(p, "CHECK_ROUNDS without a count");
		st->arg = strtol(w, NULL, 10);
		return 0;
	} else if (weq(w, wl, "CHECK_OUT_QUERY")) {
		st->kind = RPL_CHECK_OUT;
	} else if (weq(w, wl, "REPLY")) {
		st->kind = RPL_REPLY;
	} else if (weq(w, wl, "TRAFFIC") || weq(w, wl, "NOTHING")) {
		st->kind = RPL_NOOP;
	} else {
		st->kind = RPL_UNSUPPORTED;
	}
	p->step = st; /* an ENTRY_BEGIN may follow */
	return 0;
}

static struct rpl_entry *new_entry(struct parser *p)
{
	struct rpl_entry *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->line = p->line;
	e->qclass = WIRE_CLASS_IN;
	p->section = -2;
	p->textlen = 0;
	return e;
}

static int range_begin(struct parser *p, const char *s)
{
	struct rpl_range *r;
	const char *w;
	size_t wl;
	char num[32];

	if (p->range)
		return fail(p, "RANGE_BEGIN inside a RANGE");
	p->step = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return fail(p, "out of memory");
	*p->range_tail = r;
	p->range_tail = &r->next;
	p->range = r;
	for (int i = 0; i < 2; i++) {
		if (!word(&s, &w, &wl) || wl >= sizeof(num))
			return fail(p, "RANGE_BEGIN first last");
		snprintf(num, sizeof(num), "%.*s", (int)wl, w);
		*(i ? &r->last : &r->first) = strtol(num, NULL, 10);
	}
	return 0;
}

static int range_address(struct parser *p, const char *s)
{
	struct rpl_range *r = p->range;
	struct rpl_addr *a;
	char text[64];
	const char *w;
	size_t wl;

	if (!r)
		return fail(p, "ADDRESS outside a RANGE");
	if (!word(&s, &w, &wl) || wl >= sizeof(text))
		return fail(p, "ADDRESS without an address");
	if (r->naddr == RPL_MAX_ADDRS)
		return fail(p, "more than %d ADDRESS lines", RPL_MAX_ADDRS);
	snprintf(text, sizeof(text), "%.*s", (int)wl, w);
	a = &r->addr[r->naddr];
	if (inet_pton(AF_INET, text, a->a) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, text, a->a) == 1)
		a->family = AF_INET6;
	else
		return fail(p, "ADDRESS %s: not an address", text);
	r->naddr++;
	return 0;
}

static int scenario_line(struct parser *p, char *s)
{
	const char *rest = s, *w;
	size_t wl;

	if (p->entry)
		return entry_line(p, s);
	if (p->in_file) {
		struct rpl_step *st = p->file_step;
		size_t len;

		p->in_file = strncmp(s, "FILE_END", 8) != 0;
		if (!p->in_file) {
			p->file_step = NULL;
			return 0;
		}
		if (!st)
			return 0; /* CHECK_TEMPFILE's, not supported */
		len = st->text ? strlen(st->text) : 0;
		return append(&st->text, &len, s, strlen(s)) < 0
			       ? fail(p, "out of memory")
			       : 0;
	}
	if (strncmp(s, "FILE_BEGIN", 10) == 0) {
		/* the expected contents of CHECK_AUTOTRUST (or of
		 * CHECK_TEMPFILE, whose step is not supported) */
		p->in_file = true;
		return 0;
	}
	cut_comment(s);
	if (!word(&rest, &w, &wl))
		return 0;
	if (weq(w, wl, "SCENARIO_BEGIN")) {
		while (isspace((unsigned char)*rest))
			rest++;
		snprintf(p->sc->title, sizeof(p->sc->title), "%s", rest);
		return 0;
	}
	if (weq(w, wl, "SCENARIO_END")) {
		p->ended = true;
		return 0;
	}
	if (weq(w, wl, "RANGE_BEGIN"))
		return range_begin(p, rest);
	if (weq(w, wl, "RANGE_END")) {
		p->range = NULL;
		return 0;
	}
	if (weq(w, wl, "ADDRESS"))
		return range_address(p, rest);
	if (weq(w, wl, "STEP")) {
		if (p->range)
			return fail(p, "STEP inside a RANGE");
		return step_line(p, rest);
	}
	if (weq(w, wl, "ENTRY_BEGIN")) {
		p->entry = new_entry(p);
		return p->entry ? 0 : fail(p, "out of memory");
	}
	return fail(p, "%.*s: not understood", (int)wl, w);
}

static int parse(struct parser *p, char *text)
{
	bool config = true;
	char *s = text, *nl;

	for (; s; s = nl) {
		nl = strchr(s, '\n');
		if (nl)
			*nl++ = '\0';
		p->line++;
		s[strcspn(s, "\r")] = '\0';
		if (config) {
			if (strncmp(s, "CONFIG_END", 10) == 0) {
				config = false;
				if (config_end(p) < 0)
					return -1;
			} else if (p->at) {
				if (autotrust_line(p, s) < 0)
					return -1;
			} else if (config_line(p, s) < 0) {
				return -1;
			}
		} else if (scenario_line(p, s) < 0) {
			return -1;
		}
		if (p->ended)
			break;
	}
	if (config)
		return fail(p, "no CONFIG_END");
	if (!p->ended)
		return fail(p, "no SCENARIO_END");
	return 0;
}

static char *read_all(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	do {
		if (len + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = cap > RPL_MAXSIZE ? NULL : realloc(buf, cap);
			if (!nb) {
				snprintf(err, errlen, "too large");
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n == 4096);
	if (ferror(f)) {
		snprintf(err, errlen, "read error");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

int rpl_load(const char *path, struct rpl_scenario **ret, char *err,
	     size_t errlen)
{
	struct parser p = {.err = err, .errlen = errlen, .section = -2};
	char *text = read_all(path, err, errlen);
	int r;

	if (!text)
		return -1;
	p.sc = calloc(1, sizeof(*p.sc));
	if (p.sc)
		p.sc->ta = val_anchors_new();
	if (!p.sc || !p.sc->ta) {
		free(text);
		rpl_free(p.sc);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p.sc->file = path;
	p.range_tail = &p.sc->ranges;
	r = parse(&p, text);
	if (p.entry && !p.step)
		free_entry(p.entry);
	else if (p.entry)
		p.step->e = p.entry;
	free(p.text);
	free(p.cfgtext);
	free(text);
	if (r < 0) {
		rpl_free(p.sc);
		return -1;
	}
	*ret = p.sc;
	return 0;
}
