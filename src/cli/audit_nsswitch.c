/* SPDX-License-Identifier: MIT */
/*
 * nsswitch.conf's hosts line, read as glibc 2.33 and later read it (the
 * host's own glibc, 2.36 on Debian 12, was checked on each point):
 *
 * - only lines that end in a newline count: a last line without one is
 *   ignored; a NUL octet ends a line's content;
 * - a line is "DATABASE" then any run of ':' and white space, then the
 *   sources; database names are matched exactly ("HOSTS" is not hosts);
 *   the last hosts line wins; without one, glibc uses
 *   "dns [!UNAVAIL=return] files";
 * - '#' starts a comment only as the first word of a line: inside the
 *   sources it is read as a source name, and so are the words after it;
 * - a source is a word up to white space or '['; after it, "[ ... ]"
 *   holds [!]STATUS=ACTION items (case-insensitive, white space allowed
 *   around '='); "!STATUS=ACTION" sets every other status; a '[' where a
 *   source name should start ends the line silently, and an item glibc
 *   does not understand makes it refuse the whole file (every lookup of
 *   every database then fails).
 *
 * Defaults per source: SUCCESS=return, the others continue. MERGE does
 * not stop a lookup either (getaddrinfo stops only on RETURN).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/audit.h"

#define AREA "nsswitch.conf"

/* glibc's built-in hosts line when nsswitch.conf has none. */
#define NSS_DEFAULT_HOSTS "dns [!UNAVAIL=return] files"

/* Sources that answer from the host itself, not from the network. */
static const char *const local_sources[] = {
	"files", "db", "myhostname", "mymachines", "libvirt", "libvirt_guest",
};

/* Sources that answer .local names only (RFC 6762), by multicast DNS:
 * names that no DNSSEC signature covers, and that reach no DNS server. */
static const char *const linklocal_sources[] = {
	"mdns_minimal",
	"mdns4_minimal",
	"mdns6_minimal",
};

static const char *const status_names[AUDIT_NSS_NSTATUS] = {
	[AUDIT_NSS_SUCCESS] = "SUCCESS",
	[AUDIT_NSS_NOTFOUND] = "NOTFOUND",
	[AUDIT_NSS_UNAVAIL] = "UNAVAIL",
	[AUDIT_NSS_TRYAGAIN] = "TRYAGAIN",
};

/* isspace() in the C locale. */
static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* --- the parser --- */

struct cursor {
	const char *p, *end;
};

static char peek(const struct cursor *c)
{
	return c->p < c->end ? *c->p : '\0';
}

static void skip_space(struct cursor *c)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
}

/* Advances over a word that ends at white space or at one of stops;
 * returns its length. */
static size_t word(struct cursor *c, const char *stops)
{
	const char *start = c->p;

	while (c->p < c->end && !is_space(*c->p) && !strchr(stops, *c->p))
		c->p++;
	return (size_t)(c->p - start);
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && strncasecmp(w, s, n) == 0;
}

static int status_of(const char *w, size_t n)
{
	for (int i = 0; i < AUDIT_NSS_NSTATUS; i++)
		if (word_is(w, n, status_names[i]))
			return i;
	return -1;
}

/* RETURN stops (1), CONTINUE and MERGE go on (0), else -1. */
static int action_of(const char *w, size_t n)
{
	if (word_is(w, n, "RETURN"))
		return 1;
	if (word_is(w, n, "CONTINUE") || word_is(w, n, "MERGE"))
		return 0;
	return -1;
}

/* One [!]STATUS=ACTION item into s. Returns false on a syntax error. */
static bool parse_item(struct cursor *c, struct audit_nss_source *s)
{
	bool negate = peek(c) == '!';
	const char *w;
	size_t n;
	int st, act;

	if (negate)
		c->p++;
	w = c->p;
	n = word(c, "=]");
	if ((st = status_of(w, n)) < 0)
		return false;
	skip_space(c);
	if (peek(c) != '=')
		return false;
	c->p++;
	skip_space(c);
	w = c->p;
	n = word(c, "=]");
	if ((act = action_of(w, n)) < 0)
		return false;
	if (negate) {
		bool keep = s->stop[st];
		for (int i = 0; i < AUDIT_NSS_NSTATUS; i++)
			s->stop[i] = act;
		s->stop[st] = keep;
	} else {
		s->stop[st] = act;
	}
	skip_space(c);
	return true;
}

/* "[ item... ]", the cursor on the '['. Returns false on a syntax error. */
static bool parse_criteria(struct cursor *c, struct audit_nss_source *s)
{
	c->p++;
	skip_space(c);
	do {
		if (!parse_item(c, s))
			return false;
	} while (peek(c) != ']');
	c->p++;
	return true;
}

static enum audit_nss_kind kind_of(const char *w, size_t n, bool seen_dt)
{
	if (n == 8 && memcmp(w, "dnstrust", 8) == 0)
		return seen_dt ? AUDIT_NSS_LOCAL : AUDIT_NSS_DNSTRUST;
	for (size_t i = 0; i < sizeof(local_sources) / sizeof(*local_sources);
	     i++)
		if (n == strlen(local_sources[i]) &&
		    memcmp(w, local_sources[i], n) == 0)
			return AUDIT_NSS_LOCAL;
	for (size_t i = 0;
	     i < sizeof(linklocal_sources) / sizeof(*linklocal_sources); i++)
		if (n == strlen(linklocal_sources[i]) &&
		    memcmp(w, linklocal_sources[i], n) == 0)
			return AUDIT_NSS_LINKLOCAL;
	return AUDIT_NSS_UNVALIDATED;
}

/* A source name as shown: cut, and octets that are not printable ASCII
 * replaced by '?'. */
static void name_copy(char *dst, const char *w, size_t n)
{
	if (n >= AUDIT_NSS_NAME_MAX)
		n = AUDIT_NSS_NAME_MAX - 1;
	for (size_t i = 0; i < n; i++)
		dst[i] = w[i] > ' ' && w[i] < 0x7f ? w[i] : '?';
	dst[n] = '\0';
}

/* The next slot for a source, or a scratch one past the limit (still
 * parsed: a syntax error there matters as much). */
static struct audit_nss_source *new_source(struct audit_nss_line *l,
					   struct audit_nss_source *scratch)
{
	if (l->n < AUDIT_NSS_MAX_SOURCES)
		return &l->src[l->n++];
	l->too_many = true;
	return scratch;
}

void audit_nss_parse(const char *text, size_t len, struct audit_nss_line *ret)
{
	const char *nul = memchr(text, '\0', len);
	struct cursor c = {text, nul ? nul : text + len};
	struct audit_nss_source scratch;
	bool seen_dt = false;

	memset(ret, 0, sizeof(*ret));
	ret->comment = memchr(text, '#', (size_t)(c.end - text)) != NULL;
	for (;;) {
		skip_space(&c);
		if (c.p == c.end)
			return;
		const char *w = c.p;
		size_t n = word(&c, "[");
		if (n == 0) {
			ret->cut = true;
			return;
		}
		struct audit_nss_source *s = new_source(ret, &scratch);
		memset(s, 0, sizeof(*s));
		name_copy(s->name, w, n);
		s->kind = kind_of(w, n, seen_dt);
		seen_dt |= s->kind == AUDIT_NSS_DNSTRUST;
		s->stop[AUDIT_NSS_SUCCESS] = true;
		skip_space(&c);
		if (peek(&c) == '[' && !parse_criteria(&c, s)) {
			ret->syntax_error = true;
			return;
		}
	}
}

/* --- finding the hosts line --- */

struct hosts_line {
	const char *text; /* the sources, after "hosts" and ':' */
	size_t len;
	size_t count; /* hosts lines that count */
	bool in_tail; /* a hosts line without a final newline */
};

/* Whether the line [s, end) is a hosts line; *sources gets what follows
 * the database name. As glibc: a name needs something after it. */
static bool is_hosts_line(const char *s, const char *end, const char **sources)
{
	struct cursor c = {s, end};
	const char *name;
	size_t n;

	skip_space(&c);
	name = c.p;
	n = word(&c, ":");
	if (c.p == c.end || n == 0)
		return false;
	while (c.p < c.end && (is_space(*c.p) || *c.p == ':'))
		c.p++;
	*sources = c.p;
	return n == 5 && memcmp(name, "hosts", 5) == 0;
}

static void find_hosts(const char *text, size_t len, struct hosts_line *h)
{
	const char *p = text, *end = text + len;

	memset(h, 0, sizeof(*h));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl + 1 : end;
		const char *nul = memchr(p, '\0', (size_t)(lend - p));
		const char *cend = nul ? nul : lend;
		const char *src;

		if (is_hosts_line(p, cend, &src)) {
			if (!nl) {
				h->in_tail = true;
				break;
			}
			h->text = src;
			h->len = (size_t)(cend - src);
			h->count++;
		}
		p = lend;
	}
}

/* --- what the line means --- */

/* The line as shown in messages: "hosts: " and its sources with white
 * space runs made one space, unprintable octets as '?', cut. */
static void show_line(const char *text, size_t len, char *buf, size_t size)
{
	size_t w = (size_t)snprintf(buf, size, "hosts:");
	bool space = true;

	for (size_t i = 0; i < len && text[i] && w + 4 < size; i++) {
		char ch = text[i];
		if (is_space(ch)) {
			space = true;
			continue;
		}
		if (space)
			buf[w++] = ' ';
		space = false;
		buf[w++] = ch > ' ' && ch < 0x7f ? ch : '?';
	}
	buf[w] = '\0';
	if (w + 4 >= size)
		memcpy(buf + size - 4, "...", 4);
}

static bool has_source(const struct audit_nss_line *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->src[i].name, name) == 0)
			return true;
	return false;
}

static int dnstrust_index(const struct audit_nss_line *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->src[i].kind == AUDIT_NSS_DNSTRUST)
			return (int)i;
	return -1;
}

static void append_locals(const struct audit_nss_line *l, size_t from,
			  size_t to, char *buf, size_t size)
{
	for (size_t i = from; i < to && i < l->n; i++) {
		const struct audit_nss_source *s = &l->src[i];
		size_t w = strlen(buf);
		if (s->kind == AUDIT_NSS_LOCAL &&
		    strcmp(s->name, "dnstrust") != 0)
			snprintf(buf + w, size - w, " %s", s->name);
		else if (s->kind == AUDIT_NSS_LINKLOCAL)
			snprintf(buf + w, size - w, " %s%s", s->name,
				 s->stop[AUDIT_NSS_NOTFOUND]
					 ? " [NOTFOUND=return]"
					 : "");
	}
}

/* The safe line to write: the local sources kept, dnstrust after those
 * that came before it (after "files" when absent), nothing unvalidated,
 * no actions but a multicast DNS source's [NOTFOUND=return] (fail
 * closed). */
static void suggest(const struct audit_nss_line *l, char *buf, size_t size)
{
	int d = l ? dnstrust_index(l) : -1;
	size_t split = d < 0 ? (l ? l->n : 0) : (size_t)d;
	size_t w;

	snprintf(buf, size, "hosts:%s",
		 l && has_source(l, "files") ? "" : " files");
	if (l)
		append_locals(l, 0, split, buf, size);
	w = strlen(buf);
	snprintf(buf + w, size - w, " dnstrust");
	if (l && d >= 0)
		append_locals(l, split + 1, l->n, buf, size);
}

/* The first unvalidated source a lookup reaches after source d returned
 * st, or -1. A local source in between passes the lookup on unless it
 * stops on every status. */
static int reach(const struct audit_nss_line *l, size_t d,
		 enum audit_nss_status st)
{
	if (l->src[d].stop[st])
		return -1;
	for (size_t j = d + 1; j < l->n; j++) {
		const struct audit_nss_source *s = &l->src[j];
		bool all = true;
		if (s->kind == AUDIT_NSS_UNVALIDATED)
			return (int)j;
		for (int i = 0; i < AUDIT_NSS_NSTATUS; i++)
			all &= s->stop[i];
		if (all)
			return -1;
	}
	return -1;
}

struct nss_ctx {
	const char *path;
	char shown[256]; /* the line, for messages */
	char fix[AUDIT_FIX_MAX];
	struct audit_report *rep;
};

static void add_fixed(struct nss_ctx *x, enum audit_severity sev,
		      const char *id, const char *msg, const char *name)
{
	audit_add(x->rep, sev, id, AREA, "'%s': %s%s%s", x->shown, msg,
		  name ? name : "", name ? "'" : "");
	audit_fix(x->rep, "in %s: %s", x->path, x->fix);
}

/* What happens when dnstrust returns each status. */
static const struct {
	enum audit_nss_status st;
	enum audit_severity sev;
	const char *id;
	const char *msg;
} fallthrough[] = {
	{AUDIT_NSS_SUCCESS, AUDIT_CRITICAL, "nss-success",
	 "validated addresses (SUCCESS) do not end the lookup: unvalidated "
	 "addresses are added to them by '"},
	{AUDIT_NSS_NOTFOUND, AUDIT_CRITICAL, "nss-notfound",
	 "bogus answers fall through: dnstrust's NOTFOUND (a bogus answer, "
	 "or a name proven not to exist) goes on to the unvalidated '"},
	{AUDIT_NSS_TRYAGAIN, AUDIT_CRITICAL, "nss-tryagain",
	 "indeterminate answers fall through: dnstrust's TRYAGAIN "
	 "(validation undecided, no upstream answer, timeout) goes on to the "
	 "unvalidated '"},
	{AUDIT_NSS_UNAVAIL, AUDIT_WARNING, "nss-unavail",
	 "fail-open by choice: while dnstrustd is down (UNAVAIL) the lookup "
	 "falls back to the unvalidated '"},
};

static void check_after(struct nss_ctx *x, const struct audit_nss_line *l,
			size_t d)
{
	for (size_t i = 0; i < sizeof(fallthrough) / sizeof(*fallthrough);
	     i++) {
		int j = reach(l, d, fallthrough[i].st);
		if (j >= 0)
			add_fixed(x, fallthrough[i].sev, fallthrough[i].id,
				  fallthrough[i].msg, l->src[j].name);
	}
}

static void check_before(struct nss_ctx *x, const struct audit_nss_line *l,
			 size_t d)
{
	for (size_t j = 0; j < d; j++) {
		const struct audit_nss_source *s = &l->src[j];
		if (s->kind == AUDIT_NSS_UNVALIDATED)
			add_fixed(x, AUDIT_CRITICAL, "nss-before",
				  "answers reach applications unvalidated "
				  "before dnstrust is asked, from '",
				  s->name);
		else if (s->kind == AUDIT_NSS_LINKLOCAL)
			audit_add(x->rep, AUDIT_INFO, "nss-mdns", AREA,
				  "'%s': .local names are answered by "
				  "multicast DNS ('%s'), unauthenticated: "
				  "DNSSEC does not cover them; other names go "
				  "on to dnstrust",
				  x->shown, s->name);
		else if (s->stop[AUDIT_NSS_NOTFOUND])
			add_fixed(x, AUDIT_WARNING, "nss-unreached",
				  "names unknown to this source never reach "
				  "dnstrust ([NOTFOUND=return]): '",
				  s->name);
	}
}

static void check_absent(struct nss_ctx *x, const struct audit_nss_line *l)
{
	for (size_t j = 0; j < l->n; j++) {
		if (l->src[j].kind == AUDIT_NSS_UNVALIDATED) {
			add_fixed(x, AUDIT_CRITICAL, "nss-absent",
				  "dnstrust is not listed: getaddrinfo "
				  "bypasses validation and believes '",
				  l->src[j].name);
			return;
		}
	}
	add_fixed(x, AUDIT_CRITICAL, "nss-absent",
		  "dnstrust is not listed: applications resolve no name "
		  "through dnstrustd",
		  NULL);
}

/* Problems of the line's syntax. Returns false when nothing more can be
 * said about it. */
static bool check_syntax(struct nss_ctx *x, const struct audit_nss_line *l)
{
	if (l->syntax_error) {
		add_fixed(
			x, AUDIT_CRITICAL, "nss-syntax",
			"a [STATUS=ACTION] glibc does not understand: it "
			"refuses the whole file and every lookup fails (older "
			"glibc read part of the line)",
			NULL);
		return false;
	}
	if (l->too_many) {
		add_fixed(x, AUDIT_CRITICAL, "nss-too-many",
			  "more sources than the audit reads: not audited",
			  NULL);
		return false;
	}
	if (l->cut)
		add_fixed(x, AUDIT_WARNING, "nss-cut",
			  "a '[' where a source should start: glibc ignores "
			  "the rest of the line",
			  NULL);
	if (l->comment)
		add_fixed(x, AUDIT_WARNING, "nss-comment",
			  "'#' inside the line is not a comment to glibc 2.33 "
			  "and later: the words after it are sources (as read "
			  "here); put comments on lines of their own",
			  NULL);
	return true;
}

static void check_line(struct nss_ctx *x, const char *text, size_t len)
{
	struct audit_nss_line l;
	size_t before = x->rep->n;
	int d;

	audit_nss_parse(text, len, &l);
	show_line(text, len, x->shown, sizeof(x->shown));
	suggest(&l, x->fix, sizeof(x->fix));
	if (!check_syntax(x, &l))
		return;
	if ((d = dnstrust_index(&l)) < 0) {
		check_absent(x, &l);
		return;
	}
	check_before(x, &l, (size_t)d);
	check_after(x, &l, (size_t)d);
	for (size_t i = before; i < x->rep->n; i++)
		if (x->rep->f[i].severity >= AUDIT_WARNING)
			return;
	audit_add(x->rep, AUDIT_OK, "nss-ok", AREA,
		  "'%s': getaddrinfo asks dnstrust, and no unvalidated source "
		  "answers before it or after it",
		  x->shown);
}

static void check_default(struct nss_ctx *x, const char *why)
{
	audit_add(x->rep, AUDIT_CRITICAL, "nss-default", AREA,
		  "%s: glibc uses its built-in 'hosts: " NSS_DEFAULT_HOSTS
		  "', which believes resolv.conf's servers without validation",
		  why);
	audit_fix(x->rep, "in %s: %s", x->path, x->fix);
}

void audit_nsswitch(const char *text, size_t len, const char *path,
		    struct audit_report *rep)
{
	struct nss_ctx x = {.path = path, .rep = rep};
	struct hosts_line h;
	char why[AUDIT_MESSAGE_MAX / 2];

	suggest(NULL, x.fix, sizeof(x.fix));
	if (!text) {
		snprintf(why, sizeof(why), "%s is missing or unreadable", path);
		check_default(&x, why);
		return;
	}
	find_hosts(text, len, &h);
	if (h.in_tail) {
		audit_add(rep, AUDIT_WARNING, "nss-no-newline", AREA,
			  "%s: its last line, a hosts line, has no newline: "
			  "glibc ignores it",
			  path);
		audit_fix(rep, "end %s with a newline", path);
	}
	if (h.count == 0) {
		snprintf(why, sizeof(why), "%s has no hosts line%s", path,
			 h.in_tail ? " that glibc reads" : "");
		check_default(&x, why);
		return;
	}
	if (h.count > 1) {
		audit_add(
			rep, AUDIT_WARNING, "nss-several", AREA,
			"%s has %zu hosts lines: glibc 2.33 and later use the "
			"last (read here), older versions the first",
			path, h.count);
		audit_fix(rep, "keep one hosts line in %s", path);
	}
	check_line(&x, h.text, h.len);
}
