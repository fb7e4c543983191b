/* SPDX-License-Identifier: MIT */
/*
 * dnstrust.conf, read as config.h describes.
 *
 * One table, cfg_keys[], has a row per key: its name, the shape of its
 * value, the functions that parse and write it, whether it may repeat and
 * one line of documentation (which cfg_format writes above the key).
 * Adding a key is adding a row and, when no existing parser fits, one
 * parse and one format function.
 *
 * Lines are split into words before any key sees them: words are
 * separated by spaces and tabs; a word that starts with '"' runs to the
 * next unescaped '"' and may hold spaces and '#' ('\"' and '\\' are its
 * only escapes); '#' at the start of a word (outside quotes) starts a
 * comment, and is an ordinary character within one (ADDR#NAME, as
 * resolved.conf and unbound.conf write a TLS server). Control characters
 * other than tab (NUL included) are refused anywhere, a CR before the
 * newline is ignored. Every error is one sentence after "name:line: ".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/file.h"
#include "policy/config.h"
#include "wire/dname.h"

/* Longest line, newline excluded: a policy line names a domain and a few
 * addresses; 4096 octets is far past that and bounds the line buffer. */
#define CFG_LINE_MAX 4096
/* Words on one line, key included: the longest policy line (a domain,
 * "upstream" and a few servers) needs far fewer. */
#define CFG_LINE_MAXWORDS 32
/* allow-remote networks on one formatted line (cfg_format). */
#define ALLOW_PER_LINE 16
_Static_assert(ALLOW_PER_LINE < CFG_LINE_MAXWORDS,
	       "a formatted allow-remote line must read back");
/* threads: past 256 workers only contend for the cache's locks. */
#define CFG_THREADS_MAX 256
/* query-timeout: applications give up on their own within a minute
 * (glibc: 5 s times 2 attempts by default, 30 s times 5 at most). */
#define CFG_TIMEOUT_DEFAULT 5
#define CFG_TIMEOUT_MAX	    60
/* clock-skew: a day covers any drifting clock; more would accept
 * signatures long expired, which is what a replay needs. */
#define CFG_SKEW_MAX 86400
/* max-cache-ttl: a day, as Unbound's cache-max-ttl; TTLs are at most
 * 2^31 - 1 (RFC 2181 §8). */
#define CFG_MAX_CACHE_TTL 86400
#define CFG_TTL_MAX	  2147483647u
/* bogus-ttl: long enough to stop a retry storm (issue 4: 60 s), at most
 * an hour so a repaired zone is not failed for long. */
#define CFG_BOGUS_TTL	  60
#define CFG_BOGUS_TTL_MAX 3600
/* serve-stale-max: a day (RFC 8767 §5 suggests 1 to 3 days), at most a
 * week: what the upstreams said that long ago is not to be shown as
 * current for longer. */
#define CFG_STALE_MAX	  86400
#define CFG_STALE_MAX_MAX 604800
/* RFC 5011 hold-downs: 30 days (DT_AT_HOLDDOWN) outside tests; an hour
 * at least, so that a test cannot make a key trusted at first sight, and a
 * year at most. */
#define CFG_HOLDDOWN_MIN 3600
#define CFG_HOLDDOWN_MAX (365 * 86400)
/* A Unix socket's path must fit sockaddr_un.sun_path with its NUL. */
#define CFG_SOCKET_MAXLEN (sizeof(((struct sockaddr_un *)0)->sun_path) - 1)
/* Octets of a value repeated in an error message; longer ones are cut. */
#define CFG_SHOW_MAX 64

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Where messages go and what they are prefixed with. */
struct cfg_ctx {
	const char *name; /* file name, for messages */
	unsigned line;	  /* 1-based; 0 for the file as a whole */
	unsigned remote_line; /* the first listen line not on loopback */
	unsigned source_line; /* the upstream-source or resolv-conf line */
	char *err;	  /* message buffer, errlen octets */
	size_t errlen;
};

/* One line split into words: unquoted, each NUL-terminated in buf (an
 * unquoted word is never longer than its text, and words are separated
 * by at least one octet, so buf cannot overflow). */
struct cfg_line {
	char buf[CFG_LINE_MAX + 1];
	const char *word[CFG_LINE_MAXWORDS];
	size_t nword;
};

/* Text being written by cfg_format, with snprintf's semantics. */
struct cfg_out {
	char *buf;
	size_t len; /* size of buf */
	size_t pos; /* octets the full text needs so far */
};

struct cfg_key;

/* Parses the value words of line l (word[0] is the key) into c. Returns
 * 0, or DT_ECONFIG with the message written through x. */
typedef int cfg_parse_fn(const struct cfg_key *k, const struct cfg_line *l,
			 struct cfg *c, struct cfg_ctx *x);
/* Writes k's line(s) for c, or a commented-out line when unset. */
typedef void cfg_format_fn(const struct cfg_key *k, const struct cfg *c,
			   struct cfg_out *o);

/* One row of the table: everything about one key. */
struct cfg_key {
	const char *name;
	const char *usage; /* the value, as in "socket PATH" */
	cfg_parse_fn *parse;
	cfg_format_fn *format;
	bool repeatable;
	unsigned nmin, nmax;	     /* value words after the key */
	size_t off;		     /* the field in struct cfg */
	unsigned long long min, max; /* numbers: range; strings: max length */
	unsigned scale;		     /* numbers: stored as value * scale */
	const char *const *words;    /* choices, NULL-terminated: the index
					of the word given is stored at off,
					in a bool or an enum (width) */
	size_t width;		     /* choices: sizeof the field */
	size_t count_off;	     /* domain lists: the count in struct
					cfg (the list at off, max names) */
	bool no_root;		     /* domain lists: the root refused */
	const char *doc;	     /* one sentence, written by cfg_format */
};

/* --- messages --- */

/* Writes "name:line: message" (or "name: message" for line 0) and
 * returns DT_ECONFIG. */
static int cfg_fail(struct cfg_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int cfg_fail(struct cfg_ctx *x, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!x->err || x->errlen == 0)
		return DT_ECONFIG;
	if (x->line)
		n = snprintf(x->err, x->errlen, "%s:%u: ", x->name, x->line);
	else
		n = snprintf(x->err, x->errlen, "%s: ", x->name);
	if (n < 0 || (size_t)n >= x->errlen)
		return DT_ECONFIG;
	va_start(ap, fmt);
	vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return DT_ECONFIG;
}

/* A value as shown in messages: cut after CFG_SHOW_MAX octets, with
 * "..." to say so. Returns buf. */
static const char *show(const char *w, char buf[CFG_SHOW_MAX + 4])
{
	size_t n = strlen(w);

	if (n <= CFG_SHOW_MAX)
		return w;
	memcpy(buf, w, CFG_SHOW_MAX);
	memcpy(buf + CFG_SHOW_MAX, "...", 4);
	return buf;
}

/* --- numbers --- */

/* Reads the n decimal digits at s (nothing else) into *ret. Returns 0,
 * -EINVAL when they are not all digits or -ERANGE when above max. */
static int digits_parse(const char *s, size_t n, unsigned long long max,
			unsigned long long *ret)
{
	unsigned long long v = 0;
	bool over = false;

	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (d > max || v > (max - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	if (over)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* The power of 1024 a size suffix stands for (either case), or -1. */
static int size_suffix_shift(char ch)
{
	switch (ch) {
	case 'K':
	case 'k': return 10;
	case 'M':
	case 'm': return 20;
	case 'G':
	case 'g': return 30;
	default: return -1;
	}
}

/* "N", "NK", "NM" or "NG" (binary multiples) into *ret. Returns 0,
 * -EINVAL when not a size, -ERANGE when above SIZE_MAX. */
static int size_parse(const char *s, unsigned long long *ret)
{
	size_t n = strspn(s, "0123456789");
	int shift = 0;
	unsigned long long v;

	if (n == 0)
		return -EINVAL;
	if (s[n] != '\0') {
		shift = size_suffix_shift(s[n]);
		if (shift < 0 || s[n + 1] != '\0')
			return -EINVAL;
	}
	if (digits_parse(s, n, SIZE_MAX >> shift, &v) < 0)
		return -ERANGE;
	*ret = v << shift;
	return 0;
}

/* The shortest exact spelling of a size: "64M" rather than "67108864". */
static void size_text(unsigned long long v, char *buf, size_t len)
{
	static const char suffix[] = "KMG";
	int i = 0;

	while (i < 3 && v != 0 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	if (i)
		snprintf(buf, len, "%llu%c", v, suffix[i - 1]);
	else
		snprintf(buf, len, "%llu", v);
}

/* --- output --- */

/* Appends to o as snprintf would. */
static void out_printf(struct cfg_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_printf(struct cfg_out *o, const char *fmt, ...)
{
	bool room = o->pos < o->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room ? o->len - o->pos : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

/* Whether w must be quoted to read back as one word. */
static bool word_needs_quotes(const char *w)
{
	return *w == '\0' || strpbrk(w, " \t\"#") != NULL;
}

/* Writes w as one word, quoted and escaped when needed. */
static void out_word(struct cfg_out *o, const char *w)
{
	if (!word_needs_quotes(w)) {
		out_printf(o, "%s", w);
		return;
	}
	out_printf(o, "\"");
	for (; *w; w++)
		out_printf(o, *w == '"' || *w == '\\' ? "\\%c" : "%c", *w);
	out_printf(o, "\"");
}

/* "key value\n". */
static void out_line(struct cfg_out *o, const struct cfg_key *k,
		     const char *value)
{
	out_printf(o, "%s ", k->name);
	out_word(o, value);
	out_printf(o, "\n");
}

/* "#key USAGE\n": an unset key, shown so the text names every key. */
static void out_unset(struct cfg_out *o, const struct cfg_key *k)
{
	out_printf(o, "#%s %s\n", k->name, k->usage);
}

/* --- field access --- */

static char *field_str(const struct cfg_key *k, struct cfg *c)
{
	return (char *)c + k->off;
}

static const char *field_cstr(const struct cfg_key *k, const struct cfg *c)
{
	return (const char *)c + k->off;
}

static unsigned *field_uint(const struct cfg_key *k, struct cfg *c)
{
	return (unsigned *)(void *)((char *)c + k->off);
}

static unsigned field_cuint(const struct cfg_key *k, const struct cfg *c)
{
	return *(const unsigned *)(const void *)((const char *)c + k->off);
}

/* --- values: strings --- */

/* An absolute path of at most k->max octets. */
static int parse_path(const struct cfg_key *k, const struct cfg_line *l,
		      struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4];

	if (w[0] != '/')
		return cfg_fail(x, "%s: '%s' is not an absolute path", k->name,
				show(w, sh));
	if (strlen(w) > k->max)
		return cfg_fail(x, "%s: path longer than %llu octets: '%s'",
				k->name, k->max, show(w, sh));
	memcpy(field_str(k, c), w, strlen(w) + 1);
	return 0;
}

static void format_str(const struct cfg_key *k, const struct cfg *c,
		       struct cfg_out *o)
{
	const char *s = field_cstr(k, c);

	if (*s)
		out_line(o, k, s);
	else
		out_unset(o, k);
}

/* A user name: letters, digits, '.', '_', '-', not starting with '-' or
 * '.', not all digits (that reads as a uid), an optional final '$'
 * (Samba machine accounts). Whether it exists is checked at startup. */
static bool user_name_ok(const char *s)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	size_t n = strspn(s, ok);

	if (n == 0 || s[0] == '-' || s[0] == '.')
		return false;
	if (s[n] == '$')
		n++;
	return s[n] == '\0' && strspn(s, "0123456789") != n;
}

static int parse_user(const struct cfg_key *k, const struct cfg_line *l,
		      struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4];

	if (strlen(w) > k->max)
		return cfg_fail(x, "%s: name longer than %llu octets: '%s'",
				k->name, k->max, show(w, sh));
	if (!user_name_ok(w))
		return cfg_fail(x,
				"%s: '%s' is not a user name (letters, digits, "
				"'.', '_', '-'; not only digits)",
				k->name, show(w, sh));
	memcpy(field_str(k, c), w, strlen(w) + 1);
	return 0;
}

/* --- values: numbers --- */

/* An unsigned number in [k->min, k->max], stored times k->scale. */
static int parse_uint(const struct cfg_key *k, const struct cfg_line *l,
		      struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4];
	unsigned long long v;
	int r = digits_parse(w, strlen(w), k->max, &v);

	if (r == -EINVAL)
		return cfg_fail(x, "%s: '%s' is not a number", k->name,
				show(w, sh));
	if (r < 0 || v < k->min)
		return cfg_fail(x, "%s: %s is out of range (%llu..%llu)",
				k->name, show(w, sh), k->min, k->max);
	*field_uint(k, c) = (unsigned)(v * k->scale);
	return 0;
}

static void format_uint(const struct cfg_key *k, const struct cfg *c,
			struct cfg_out *o)
{
	out_printf(o, "%s %u\n", k->name, field_cuint(k, c) / k->scale);
}

/* cache-size: a size of at least k->min octets. */
static int parse_size(const struct cfg_key *k, const struct cfg_line *l,
		      struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4], min[24];
	unsigned long long v;
	int r = size_parse(w, &v);

	if (r == -EINVAL)
		return cfg_fail(x,
				"%s: '%s' is not a size (use bytes or K, M, G)",
				k->name, show(w, sh));
	if (r < 0)
		return cfg_fail(x,
				"%s: %s is more than this system can address",
				k->name, show(w, sh));
	if (v < k->min) {
		size_text(k->min, min, sizeof(min));
		return cfg_fail(x, "%s: %s is below the minimum of %s", k->name,
				show(w, sh), min);
	}
	c->cache_size = (size_t)v;
	return 0;
}

static void format_size(const struct cfg_key *k, const struct cfg *c,
			struct cfg_out *o)
{
	char text[24];

	size_text(c->cache_size, text, sizeof(text));
	out_line(o, k, text);
}

/* --- values: log level --- */

static const struct {
	const char *name;
	enum cfg_log_level level;
} cfg_levels[] = {
	{"error", CFG_LOG_ERROR},   {"warning", CFG_LOG_WARNING},
	{"notice", CFG_LOG_NOTICE}, {"info", CFG_LOG_INFO},
	{"debug", CFG_LOG_DEBUG},
};

static int parse_level(const struct cfg_key *k, const struct cfg_line *l,
		       struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4];

	for (size_t i = 0; i < ARRAY_SIZE(cfg_levels); i++) {
		if (strcmp(w, cfg_levels[i].name) == 0) {
			c->log_level = cfg_levels[i].level;
			return 0;
		}
	}
	return cfg_fail(x,
			"%s: '%s' is not one of error, warning, notice, info, "
			"debug",
			k->name, show(w, sh));
}

static void format_level(const struct cfg_key *k, const struct cfg *c,
			 struct cfg_out *o)
{
	for (size_t i = 0; i < ARRAY_SIZE(cfg_levels); i++) {
		if (c->log_level == cfg_levels[i].level) {
			out_line(o, k, cfg_levels[i].name);
			return;
		}
	}
	out_unset(o, k);
}

/* --- values: listen --- */

/* "ADDR@PORT" as up_server_parse reads it; a scope as an interface
 * name when it has one (link-local addresses), else as a number. */
static void server_text(const struct up_server *s, char *buf, size_t len)
{
	const struct sockaddr_in *sin = (const void *)&s->addr;
	const struct sockaddr_in6 *sin6 = (const void *)&s->addr;
	char addr[INET6_ADDRSTRLEN] = "", scope[IF_NAMESIZE + 12] = "";
	char ifname[IF_NAMESIZE];

	if (s->addr.ss_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, addr, sizeof(addr));
		snprintf(buf, len, "%s@%u", addr, ntohs(sin->sin_port));
		return;
	}
	inet_ntop(AF_INET6, &sin6->sin6_addr, addr, sizeof(addr));
	if (sin6->sin6_scope_id && IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr) &&
	    if_indextoname(sin6->sin6_scope_id, ifname))
		snprintf(scope, sizeof(scope), "%%%s", ifname);
	else if (sin6->sin6_scope_id)
		snprintf(scope, sizeof(scope), "%%%u",
			 (unsigned)sin6->sin6_scope_id);
	snprintf(buf, len, "%s%s@%u", addr, scope, ntohs(sin6->sin6_port));
}

static int parse_listen(const struct cfg_key *k, const struct cfg_line *l,
			struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4];
	struct up_server s;

	if (c->nlisten == DT_CFG_MAX_LISTEN)
		return cfg_fail(x, "%s: more than %d listeners", k->name,
				DT_CFG_MAX_LISTEN);
	if (up_server_parse(w, &s) < 0)
		return cfg_fail(x,
				"%s: '%s' is not ADDR@PORT (e.g. 127.0.0.1@53, "
				"::1@5353)",
				k->name, show(w, sh));
	for (size_t i = 0; i < c->nlisten; i++) {
		if (up_server_equal(&c->listen[i], &s))
			return cfg_fail(x, "%s: %s given twice", k->name,
					show(w, sh));
	}
	c->listen[c->nlisten++] = s;
	if (!x->remote_line && !cfg_addr_loopback((struct sockaddr *)&s.addr))
		x->remote_line = x->line;
	return 0;
}

/* --- values: upstreams of our choosing --- */

/* A host name as certificates hold them (RFC 1123 §2.1, RFC 6125 §6.4):
 * letters, digits and '-' in labels of 1 to 63 octets, dots between, at
 * most DT_UP_TLS_NAME_MAX - 1 octets, no final dot. */
static bool host_name_ok(const char *n)
{
	static const char ldh[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";
	size_t len = strlen(n);

	if (len == 0 || len >= DT_UP_TLS_NAME_MAX)
		return false;
	for (const char *p = n;; p++) {
		size_t l = strspn(p, ldh);
		if (l == 0 || l > 63 || p[0] == '-' || p[l - 1] == '-')
			return false;
		p += l;
		if (*p == '\0')
			return true;
		if (*p != '.')
			return false;
	}
}

/* "ADDR[@PORT][#NAME]": *ret and its authentication name (name, "" when
 * none). With tls, NAME is required and the port defaults to 853. */
static int server_with_name(const struct cfg_key *k, const char *w, bool tls,
			    struct up_server *ret, char *name,
			    struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4], addr[INET6_ADDRSTRLEN + IF_NAMESIZE + 16];
	const char *hash = strchr(w, '#');
	size_t alen = hash ? (size_t)(hash - w) : strlen(w);

	name[0] = '\0';
	if (alen + 8 >= sizeof(addr))
		goto bad;
	memcpy(addr, w, alen);
	addr[alen] = '\0';
	if (tls && !memchr(w, '@', alen))
		snprintf(addr + alen, sizeof(addr) - alen, "@%u",
			 DT_UP_TLS_PORT);
	if (up_server_parse(addr, ret) < 0)
		goto bad;
	if (!hash) {
		if (tls)
			return cfg_fail(x, "%s: '%s' has no #NAME: a TLS server "
					   "is known by the name its "
					   "certificate holds",
					k->name, show(w, sh));
		return 0;
	}
	if (!tls)
		return cfg_fail(x, "%s: '%s': #NAME is for TLS servers (add "
				   "tls)",
				k->name, show(w, sh));
	const char *n = hash + 1;
	if (!host_name_ok(n))
		return cfg_fail(x, "%s: '%s' is not a host name (e.g. "
				   "dns.example.net)",
				k->name, show(n, sh));
	memcpy(name, n, strlen(n) + 1);
	return 0;
bad:
	return cfg_fail(x,
			"%s: '%s' is not ADDR[@PORT][#NAME] (e.g. "
			"192.0.2.53@853#dns.example.net)",
			k->name, show(w, sh));
}

/* Adds a server to list, or says why not. */
static int conf_add(const struct cfg_key *k, struct up_conf *list,
		    const struct up_server *s, const char *name,
		    const char *w, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];

	if (list->nns == DT_UP_MAXNS)
		return cfg_fail(x, "%s: more than %d servers", k->name,
				DT_UP_MAXNS);
	for (size_t i = 0; i < list->nns; i++) {
		if (up_server_equal(&list->ns[i], s))
			return cfg_fail(x, "%s: %s given twice", k->name,
					show(w, sh));
	}
	list->ns[list->nns] = *s;
	memcpy(list->tls_name[list->nns], name, strlen(name) + 1);
	list->nns++;
	return 0;
}

static int parse_upstream(const struct cfg_key *k, const struct cfg_line *l,
			  struct cfg *c, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4], name[DT_UP_TLS_NAME_MAX];
	struct up_server s;
	bool tls = l->nword == 3;

	if (tls && strcmp(l->word[2], "tls") != 0)
		return cfg_fail(x, "%s: '%s' is not tls", k->name,
				show(l->word[2], sh));
	if (server_with_name(k, l->word[1], tls, &s, name, x) < 0)
		return DT_ECONFIG;
	return conf_add(k, &c->upstream, &s, name, l->word[1], x);
}

static int parse_fallback(const struct cfg_key *k, const struct cfg_line *l,
			  struct cfg *c, struct cfg_ctx *x)
{
	char name[DT_UP_TLS_NAME_MAX];
	struct up_server s;

	if (server_with_name(k, l->word[1], true, &s, name, x) < 0)
		return DT_ECONFIG;
	return conf_add(k, &c->fallback, &s, name, l->word[1], x);
}

static void server_text(const struct up_server *s, char *buf, size_t len);

static void format_servers(const struct cfg_key *k, const struct up_conf *list,
			   bool tls_word, struct cfg_out *o)
{
	char text[INET6_ADDRSTRLEN + IF_NAMESIZE + 16];
	char line[sizeof(text) + DT_UP_TLS_NAME_MAX + 8];

	if (list->nns == 0)
		out_unset(o, k);
	for (size_t i = 0; i < list->nns && i < DT_UP_MAXNS; i++) {
		server_text(&list->ns[i], text, sizeof(text));
		bool tls = list->tls_name[i][0] != '\0';
		if (tls)
			snprintf(line, sizeof(line), "%s#%s", text,
				 list->tls_name[i]);
		else
			snprintf(line, sizeof(line), "%s", text);
		out_printf(o, "%s ", k->name);
		out_word(o, line); /* quoted: '#' */
		out_printf(o, "%s\n", tls && tls_word ? " tls" : "");
	}
}

static void format_upstream(const struct cfg_key *k, const struct cfg *c,
			    struct cfg_out *o)
{
	format_servers(k, &c->upstream, true, o);
}

static void format_fallback(const struct cfg_key *k, const struct cfg *c,
			    struct cfg_out *o)
{
	format_servers(k, &c->fallback, false, o);
}

/* --- values: client networks --- */

bool cfg_addr_loopback(const struct sockaddr *addr)
{
	static const uint8_t v6loop[16] = {[15] = 1};
	static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};

	if (addr->sa_family == AF_INET)
		return ((const uint8_t *)&((const struct sockaddr_in *)addr)
				->sin_addr)[0] == 127;
	if (addr->sa_family != AF_INET6)
		return false;
	const uint8_t *a =
		((const struct sockaddr_in6 *)addr)->sin6_addr.s6_addr;
	return memcmp(a, v6loop, 16) == 0 ||
	       (memcmp(a, mapped, 12) == 0 && a[12] == 127);
}

static bool net_match(const struct cfg_net *n, int family, const uint8_t *a)
{
	unsigned full = n->prefix / 8, rest = n->prefix % 8;

	if (n->family != family || memcmp(n->addr, a, full) != 0)
		return false;
	return !rest ||
	       ((a[full] ^ n->addr[full]) & (uint8_t)(0xff << (8 - rest))) == 0;
}

bool cfg_nets_match(const struct cfg_net *nets, size_t n,
		    const struct sockaddr *addr)
{
	static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};
	const uint8_t *a;
	int family = addr->sa_family;

	if (family == AF_INET) {
		a = (const uint8_t *)&((const struct sockaddr_in *)addr)->sin_addr;
	} else if (family == AF_INET6) {
		a = ((const struct sockaddr_in6 *)addr)->sin6_addr.s6_addr;
		if (memcmp(a, mapped, 12) == 0) {
			family = AF_INET;
			a += 12;
		}
	} else {
		return false;
	}
	for (size_t i = 0; i < n; i++)
		if (net_match(&nets[i], family, a))
			return true;
	return false;
}

/* ADDR/PREFIX, or ADDR alone (the whole address); host bits must be 0. */
static int net_parse(const char *w, struct cfg_net *n)
{
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(w, '/');
	size_t alen = slash ? (size_t)(slash - w) : strlen(w);
	unsigned long long prefix;

	if (alen >= sizeof(addr))
		return -1;
	memcpy(addr, w, alen);
	addr[alen] = 0;
	memset(n, 0, sizeof(*n));
	if (inet_pton(AF_INET, addr, n->addr) == 1) {
		n->family = AF_INET;
		n->prefix = 32;
	} else if (inet_pton(AF_INET6, addr, n->addr) == 1) {
		n->family = AF_INET6;
		n->prefix = 128;
	} else {
		return -1;
	}
	if (slash) {
		if (digits_parse(slash + 1, strlen(slash + 1), n->prefix,
				 &prefix) < 0)
			return -1;
		n->prefix = (unsigned)prefix;
	}
	for (unsigned bit = n->prefix; bit < (n->family == AF_INET ? 32u : 128u);
	     bit++)
		if (n->addr[bit / 8] & (0x80 >> (bit % 8)))
			return -1;
	return 0;
}

static int parse_allow(const struct cfg_key *k, const struct cfg_line *l,
		       struct cfg *c, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];

	for (size_t i = 1; i < l->nword; i++) {
		struct cfg_net n;
		if (c->nallow == DT_CFG_MAX_ALLOW)
			return cfg_fail(x, "%s: more than %d networks",
					k->name, DT_CFG_MAX_ALLOW);
		if (net_parse(l->word[i], &n) < 0)
			return cfg_fail(x,
					"%s: '%s' is not ADDR/PREFIX with the "
					"host bits zero (e.g. 192.0.2.0/24, "
					"2001:db8::/32)",
					k->name, show(l->word[i], sh));
		c->allow[c->nallow++] = n;
	}
	return 0;
}

static void format_allow(const struct cfg_key *k, const struct cfg *c,
			 struct cfg_out *o)
{
	char text[INET6_ADDRSTRLEN];

	if (!c->nallow) {
		out_unset(o, k);
		return;
	}
	/* DT_CFG_MAX_ALLOW networks and the key are more words than a
	 * line may hold (CFG_LINE_MAXWORDS): a line of ALLOW_PER_LINE at
	 * most, as the key is repeatable, so that what is printed reads
	 * back. */
	for (size_t i = 0; i < c->nallow; i++) {
		if (i % ALLOW_PER_LINE == 0)
			out_printf(o, "%s%s", i ? "\n" : "", k->name);
		inet_ntop(c->allow[i].family, c->allow[i].addr, text,
			  sizeof(text));
		out_printf(o, " %s/%u", text, c->allow[i].prefix);
	}
	out_printf(o, "\n");
}

static void format_listen(const struct cfg_key *k, const struct cfg *c,
			  struct cfg_out *o)
{
	char text[INET6_ADDRSTRLEN + IF_NAMESIZE + 16];

	if (c->nlisten == 0)
		out_unset(o, k);
	for (size_t i = 0; i < c->nlisten && i < DT_CFG_MAX_LISTEN; i++) {
		server_text(&c->listen[i], text, sizeof(text));
		out_line(o, k, text);
	}
}

/* --- values: where the upstreams come from --- */

/* upstream-source and resolv-conf name one thing: once. */
static int source_once(const struct cfg_key *k, struct cfg_ctx *x)
{
	if (x->source_line)
		return cfg_fail(x,
				"%s: the upstream source was given on line %u "
				"(resolv-conf PATH is upstream-source file "
				"PATH)",
				k->name, x->source_line);
	x->source_line = x->line;
	return 0;
}

static int source_path(const struct cfg_key *k, const char *w, struct cfg *c,
		       struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];

	if (w[0] != '/')
		return cfg_fail(x, "%s: '%s' is not an absolute path", k->name,
				show(w, sh));
	if (strlen(w) >= sizeof(c->resolv_conf))
		return cfg_fail(x, "%s: path longer than %zu octets: '%s'",
				k->name, sizeof(c->resolv_conf) - 1,
				show(w, sh));
	memcpy(c->resolv_conf, w, strlen(w) + 1);
	return 0;
}

/* upstream-source file PATH | networkmanager|resolved|resolvconf|networkd
 * [PATH] | auto */
static int parse_source(const struct cfg_key *k, const struct cfg_line *l,
			struct cfg *c, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];
	int kind = up_source_kind_parse(l->word[1]);
	int r = source_once(k, x);

	if (r < 0)
		return r;
	if (kind < 0)
		return cfg_fail(x,
				"%s: '%s' is not file, networkmanager, "
				"resolved, resolvconf, networkd or auto",
				k->name, show(l->word[1], sh));
	if (kind == UP_SOURCE_AUTO && l->nword > 2)
		return cfg_fail(x, "%s: auto takes no path", k->name);
	if (kind == UP_SOURCE_FILE && l->nword < 3)
		return cfg_fail(x, "%s: file needs its PATH", k->name);
	c->upstream_source = (enum up_source_kind)kind;
	c->resolv_conf[0] = '\0';
	if (l->nword > 2)
		return source_path(k, l->word[2], c, x);
	if (kind != UP_SOURCE_AUTO)
		snprintf(c->resolv_conf, sizeof(c->resolv_conf), "%s",
			 up_source_default_path((enum up_source_kind)kind));
	return 0;
}

/* resolv-conf PATH: the older spelling of upstream-source file PATH. */
static int parse_resolv_conf(const struct cfg_key *k, const struct cfg_line *l,
			     struct cfg *c, struct cfg_ctx *x)
{
	int r = source_once(k, x);

	if (r < 0)
		return r;
	c->upstream_source = UP_SOURCE_FILE;
	return source_path(k, l->word[1], c, x);
}

/* A file source is written as resolv-conf (what older versions read),
 * the others as upstream-source; the other key is shown commented. */
static void format_source(const struct cfg_key *k, const struct cfg *c,
			  struct cfg_out *o)
{
	if (c->upstream_source == UP_SOURCE_FILE) {
		out_unset(o, k);
		return;
	}
	out_printf(o, "%s %s", k->name,
		   up_source_kind_name(c->upstream_source));
	if (c->upstream_source != UP_SOURCE_AUTO) {
		out_printf(o, " ");
		out_word(o, c->resolv_conf);
	}
	out_printf(o, "\n");
}

static void format_resolv_conf(const struct cfg_key *k, const struct cfg *c,
			       struct cfg_out *o)
{
	if (c->upstream_source == UP_SOURCE_FILE)
		out_line(o, k, c->resolv_conf);
	else
		out_unset(o, k);
}

/* stub-resolv-conf names a loopback listener on port 53 (resolv.conf
 * has no port) and is not the source it is made from. */
static int check_stub(const struct cfg *c, struct cfg_ctx *x)
{
	bool port53 = false;

	if (!c->stub_resolv_conf[0])
		return 0;
	for (size_t i = 0; i < c->nlisten; i++) {
		const struct sockaddr *sa = (const void *)&c->listen[i].addr;
		const struct sockaddr_in *sin = (const void *)sa;

		port53 |= cfg_addr_loopback(sa) && ntohs(sin->sin_port) == 53;
	}
	if (!port53)
		return cfg_fail(x, "stub-resolv-conf: needs a listen address "
				   "on loopback, port 53 (resolv.conf cannot "
				   "name a port)");
	if (strcmp(c->stub_resolv_conf, c->resolv_conf) == 0 ||
	    (c->upstream_source == UP_SOURCE_FILE &&
	     strcmp(c->resolv_conf, UP_SOURCE_FILE_PATH) == 0))
		return cfg_fail(x,
				"stub-resolv-conf: the upstream source is %s, "
				"which stub mode replaces: set "
				"upstream-source (auto, networkmanager, "
				"resolved, resolvconf or another file)",
				c->resolv_conf);
	return 0;
}

/* --- values: policy --- */

/* A domain name, absolute or not (a final dot is implied), lower-cased. */
static int parse_domain(const struct cfg_key *k, const char *w,
			uint8_t out[DT_NAME_MAXLEN], struct cfg_ctx *x)
{
	static const uint8_t root[1] = {0};
	char sh[CFG_SHOW_MAX + 4];

	if (wire_dname_from_str(w, strlen(w), root, out) < 0)
		return cfg_fail(x, "%s: '%s' is not a domain name", k->name,
				show(w, sh));
	wire_dname_tolower(out);
	return 0;
}

static void out_domain(struct cfg_out *o, const uint8_t *name)
{
	char text[DT_NAME_TEXT_MAXLEN];

	wire_dname_to_str(name, text, sizeof(text));
	out_word(o, text);
}

/* The words of the keys with a choice of values, in the order of the
 * values they stand for (an enum's, or false and true). */
static const char *const words_yesno[] = {"no", "yes", NULL};
static const char *const words_mode[] = {"enforce", "permissive", NULL};
static const char *const words_resolution[] = {"auto", "forward", "recursive",
					       NULL};
static const char *const words_insecure[] = {"accept", "reject", NULL};

_Static_assert(CFG_MODE_ENFORCE == 0 && CFG_MODE_PERMISSIVE == 1,
	       "words_mode in the order of enum cfg_mode");
_Static_assert(CFG_RES_AUTO == 0 && CFG_RES_FORWARD == 1 &&
		       CFG_RES_RECURSIVE == 2,
	       "words_resolution in the order of enum cfg_resolution");
_Static_assert(sizeof(enum cfg_mode) == sizeof(unsigned) &&
		       sizeof(enum cfg_resolution) == sizeof(unsigned),
	       "a choice's enum is stored as an unsigned");

const char *cfg_resolution_name(enum cfg_resolution r)
{
	return (unsigned)r < ARRAY_SIZE(words_resolution) - 1
		       ? words_resolution[r]
		       : words_resolution[CFG_RES_AUTO];
}

/* "a, b or c" for the usage "a|b|c" of k, for a message. */
static void choices_text(const struct cfg_key *k, char *buf, size_t len)
{
	const char *u = k->usage;
	size_t pos = 0;

	buf[0] = '\0';
	while (*u && pos < len) {
		size_t n = strcspn(u, "|");
		const char *sep = u == k->usage	   ? ""
				  : strchr(u, '|') ? ", "
						   : " or ";
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%.*s", sep,
					(int)n, u);
		u += n + (u[n] == '|');
	}
}

/* One of k->words: its index, stored at k->off. */
static int parse_choice(const struct cfg_key *k, const struct cfg_line *l,
			struct cfg *c, struct cfg_ctx *x)
{
	const char *w = l->word[1];
	char sh[CFG_SHOW_MAX + 4], text[128];
	char *field = (char *)c + k->off;

	for (unsigned i = 0; k->words[i]; i++) {
		if (strcmp(w, k->words[i]) != 0)
			continue;
		if (k->width == sizeof(bool))
			*(bool *)field = i != 0;
		else
			memcpy(field, &i, sizeof(i));
		return 0;
	}
	choices_text(k, text, sizeof(text));
	return cfg_fail(x, "%s: '%s' is not %s", k->name, show(w, sh), text);
}

static void format_choice(const struct cfg_key *k, const struct cfg *c,
			  struct cfg_out *o)
{
	const char *field = (const char *)c + k->off;
	unsigned i = 0;

	if (k->width == sizeof(bool))
		i = *(const bool *)field;
	else
		memcpy(&i, field, sizeof(i));
	for (unsigned n = 0; k->words[n]; n++)
		if (n == i) {
			out_line(o, k, k->words[n]);
			return;
		}
	out_line(o, k, k->words[0]);
}

/* YYYY-MM-DD → seconds since the epoch at 00:00 UTC of that day. */
static int date_parse(const char *w, int64_t *ret)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31};
	unsigned y, m, d;
	char tail;

	if (strlen(w) != 10 || sscanf(w, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3 ||
	    w[4] != '-' || w[7] != '-' || y < 1970 || y > 9999 || m < 1 ||
	    m > 12 || d < 1)
		return -1;
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (d > (unsigned)mdays[m - 1] + (m == 2 && leap))
		return -1;
	/* Days from the civil date (proleptic Gregorian). */
	int64_t yy = (int64_t)y - (m <= 2);
	int64_t era = yy / 400;
	int64_t yoe = yy - era * 400;
	int64_t mp = (m + 9) % 12;
	int64_t doy = (153 * mp + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	*ret = (era * 146097 + doe - 719468) * 86400;
	return 0;
}

static int parse_nta(const struct cfg_key *k, const struct cfg_line *l,
		     struct cfg *c, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];
	struct cfg_nta n = {0};

	if (c->nnta == DT_CFG_MAX_POLICY)
		return cfg_fail(x, "%s: more than %d", k->name,
				DT_CFG_MAX_POLICY);
	if (parse_domain(k, l->word[1], n.name, x) < 0)
		return DT_ECONFIG;
	if (l->nword == 3 || (l->nword == 4 && strcmp(l->word[2], "until")))
		return cfg_fail(x, "%s: expected 'until YYYY-MM-DD' after the "
				   "domain",
				k->name);
	if (l->nword == 4 && date_parse(l->word[3], &n.until) < 0)
		return cfg_fail(x, "%s: '%s' is not a date YYYY-MM-DD", k->name,
				show(l->word[3], sh));
	for (size_t i = 0; i < c->nnta; i++)
		if (wire_dname_equal(c->nta[i].name, n.name))
			return cfg_fail(x, "%s: %s given twice", k->name,
					show(l->word[1], sh));
	c->nta[c->nnta++] = n;
	return 0;
}

static void format_nta(const struct cfg_key *k, const struct cfg *c,
		       struct cfg_out *o)
{
	if (!c->nnta)
		out_unset(o, k);
	for (size_t i = 0; i < c->nnta; i++) {
		out_printf(o, "%s ", k->name);
		out_domain(o, c->nta[i].name);
		if (c->nta[i].until) {
			int64_t days = c->nta[i].until / 86400;
			/* civil date from days since the epoch */
			int64_t z = days + 719468, era = z / 146097;
			int64_t doe = z - era * 146097;
			int64_t yoe = (doe - doe / 1460 + doe / 36524 -
				       doe / 146096) / 365;
			int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
			int64_t mp = (5 * doy + 2) / 153;
			int64_t d = doy - (153 * mp + 2) / 5 + 1;
			int64_t m = mp < 10 ? mp + 3 : mp - 9;
			int64_t y = yoe + era * 400 + (m <= 2);
			out_printf(o, " until %04lld-%02lld-%02lld",
				   (long long)y, (long long)m, (long long)d);
		}
		out_printf(o, "\n");
	}
}

/* A domain added to the list at k->off: k->max names at most, their
 * count at k->count_off, each once; the root refused when k->no_root. */
static int parse_domain_list(const struct cfg_key *k, const struct cfg_line *l,
			     struct cfg *c, struct cfg_ctx *x)
{
	uint8_t(*list)[DT_NAME_MAXLEN] = (void *)((char *)c + k->off);
	size_t *n = (size_t *)(void *)((char *)c + k->count_off);
	char sh[CFG_SHOW_MAX + 4];
	uint8_t name[DT_NAME_MAXLEN];

	if (*n == k->max)
		return cfg_fail(x, "%s: more than %llu", k->name, k->max);
	if (parse_domain(k, l->word[1], name, x) < 0)
		return DT_ECONFIG;
	if (k->no_root && name[0] == 0)
		return cfg_fail(x, "%s: not the root: every name would be "
				   "private",
				k->name);
	for (size_t i = 0; i < *n; i++)
		if (wire_dname_equal(list[i], name))
			return cfg_fail(x, "%s: %s given twice", k->name,
					show(l->word[1], sh));
	wire_dname_copy(list[(*n)++], name);
	return 0;
}

static void format_domain_list(const struct cfg_key *k, const struct cfg *c,
			       struct cfg_out *o)
{
	const uint8_t(*list)[DT_NAME_MAXLEN] =
		(const void *)((const char *)c + k->off);
	size_t n =
		*(const size_t *)(const void *)((const char *)c + k->count_off);

	if (!n)
		out_unset(o, k);
	for (size_t i = 0; i < n; i++) {
		out_printf(o, "%s ", k->name);
		out_domain(o, list[i]);
		out_printf(o, "\n");
	}
}

/* A key without a value that sets the bool at k->off. */
static int parse_flag(const struct cfg_key *k, const struct cfg_line *l,
		      struct cfg *c, struct cfg_ctx *x)
{
	(void)l;
	(void)x;
	*(bool *)((char *)c + k->off) = true;
	return 0;
}

static void format_flag(const struct cfg_key *k, const struct cfg *c,
			struct cfg_out *o)
{
	if (*(const bool *)((const char *)c + k->off))
		out_printf(o, "%s\n", k->name);
	else
		out_printf(o, "#%s\n", k->name);
}

/* The rule for a domain, made when first named. */
static struct cfg_domain *domain_rule(struct cfg *c, const uint8_t *name)
{
	for (size_t i = 0; i < c->ndomain; i++)
		if (wire_dname_equal(c->domain[i].name, name))
			return &c->domain[i];
	if (c->ndomain == DT_CFG_MAX_POLICY)
		return NULL;
	struct cfg_domain *d = &c->domain[c->ndomain++];
	memset(d, 0, sizeof(*d));
	wire_dname_copy(d->name, name);
	return d;
}

static int parse_upstreams(const struct cfg_key *k, const struct cfg_line *l,
			   struct cfg_domain *d, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];

	if (d->nns)
		return cfg_fail(x, "%s: upstream of %s given twice", k->name,
				show(l->word[1], sh));
	if (l->nword < 4 || l->nword > 3 + DT_UP_MAXNS)
		return cfg_fail(x, "%s: 1 to %d upstream addresses (usage: %s "
				   "%s)",
				k->name, DT_UP_MAXNS, k->name, k->usage);
	for (size_t i = 3; i < l->nword; i++)
		if (up_server_parse(l->word[i], &d->ns[d->nns++]) < 0)
			return cfg_fail(x,
					"%s: '%s' is not ADDR or ADDR@PORT",
					k->name, show(l->word[i], sh));
	return 0;
}

static int parse_domain_rule(const struct cfg_key *k, const struct cfg_line *l,
			     struct cfg *c, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];
	uint8_t name[DT_NAME_MAXLEN];
	struct cfg_domain *d;

	if (parse_domain(k, l->word[1], name, x) < 0)
		return DT_ECONFIG;
	if (l->nword < 3)
		return cfg_fail(x, "%s: missing 'upstream' or 'validate' (usage: "
				   "%s %s)",
				k->name, k->name, k->usage);
	d = domain_rule(c, name);
	if (!d)
		return cfg_fail(x, "%s: more than %d domains", k->name,
				DT_CFG_MAX_POLICY);
	if (strcmp(l->word[2], "upstream") == 0)
		return parse_upstreams(k, l, d, x);
	if (strcmp(l->word[2], "validate") != 0)
		return cfg_fail(x, "%s: '%s' is not upstream or validate",
				k->name, show(l->word[2], sh));
	if (l->nword != 4 ||
	    (strcmp(l->word[3], "no") && strcmp(l->word[3], "yes")))
		return cfg_fail(x, "%s: validate takes yes or no", k->name);
	d->novalidate = strcmp(l->word[3], "no") == 0;
	return 0;
}

static void format_domain_rule(const struct cfg_key *k, const struct cfg *c,
			       struct cfg_out *o)
{
	char text[INET6_ADDRSTRLEN + IF_NAMESIZE + 16];

	if (!c->ndomain)
		out_unset(o, k);
	for (size_t i = 0; i < c->ndomain; i++) {
		const struct cfg_domain *d = &c->domain[i];
		if (d->nns) {
			out_printf(o, "%s ", k->name);
			out_domain(o, d->name);
			out_printf(o, " upstream");
			for (size_t j = 0; j < d->nns; j++) {
				server_text(&d->ns[j], text, sizeof(text));
				out_printf(o, " %s", text);
			}
			out_printf(o, "\n");
		}
		if (d->novalidate || !d->nns) {
			out_printf(o, "%s ", k->name);
			out_domain(o, d->name);
			out_printf(o, " validate %s\n",
				   d->novalidate ? "no" : "yes");
		}
	}
}

/* --- the table --- */

#define KEY_ONE .nmin = 1, .nmax = 1
#define KEY_PATH(n, field, maxlen, text)                                       \
	{                                                                      \
		.name = n, .usage = "PATH", .parse = parse_path,               \
		.format = format_str, KEY_ONE,                                 \
		.off = offsetof(struct cfg, field), .max = (maxlen),           \
		.doc = text                                                    \
	}
#define KEY_UINT(n, use, field, lo, hi, sc, text)                              \
	{                                                                      \
		.name = n, .usage = use, .parse = parse_uint,                  \
		.format = format_uint, KEY_ONE,                                \
		.off = offsetof(struct cfg, field), .min = (lo), .max = (hi),  \
		.scale = (sc), .doc = text                                     \
	}

/* A user or group name (parse_user), in the char array field. */
#define KEY_NAME(n, field, text)                                               \
	{                                                                      \
		.name = n, .usage = "NAME", .parse = parse_user,               \
		.format = format_str, KEY_ONE,                                 \
		.off = offsetof(struct cfg, field),                            \
		.max = sizeof(((struct cfg *)0)->field) - 1, .doc = text       \
	}
#define KEY_CHOICE(n, use, field, list, text)                                  \
	{                                                                      \
		.name = n, .usage = use, .parse = parse_choice,                \
		.format = format_choice, KEY_ONE,                              \
		.off = offsetof(struct cfg, field), .words = list,             \
		.width = sizeof(((struct cfg *)0)->field), .doc = text         \
	}
#define KEY_DOMAINS(n, field, count, noroot, text)                             \
	{                                                                      \
		.name = n, .usage = "DOMAIN", .parse = parse_domain_list,      \
		.format = format_domain_list, .repeatable = true, KEY_ONE,     \
		.off = offsetof(struct cfg, field),                            \
		.count_off = offsetof(struct cfg, count),                      \
		.max = ARRAY_SIZE(((struct cfg *)0)->field),                   \
		.no_root = noroot, .doc = text                                 \
	}

static const struct cfg_key cfg_keys[] = {
	KEY_PATH("socket", socket, CFG_SOCKET_MAXLEN,
		 "The Unix socket applications ask their questions on."),
	{.name = "listen",
	 .usage = "ADDR@PORT",
	 .parse = parse_listen,
	 .format = format_listen,
	 .repeatable = true,
	 KEY_ONE,
	 .doc = "A loopback DNS listener, UDP and TCP; repeatable; "
		"default none."},
	{.name = "allow-remote",
	 .usage = "NET...",
	 .parse = parse_allow,
	 .format = format_allow,
	 .repeatable = true,
	 .nmin = 1,
	 .nmax = DT_CFG_MAX_ALLOW,
	 .doc = "Client networks (ADDR/PREFIX) a listener on another than "
		"a loopback address serves; repeatable; default none: "
		"loopback listeners only."},
	KEY_UINT("ratelimit", "N", ratelimit, 1, 1000000, 1,
		 "Questions per second one remote client address may ask; "
		 "loopback clients are not limited."),
	KEY_UINT("max-connections-per-address", "N", max_conns_per_address, 1,
		 DT_DMN_MAX_CONNS, 1,
		 "TCP connections one remote client address may hold; "
		 "loopback clients are not counted."),
	{.name = "upstream-source",
	 .usage = "file PATH | networkmanager|resolved|resolvconf [PATH] | "
		  "auto",
	 .parse = parse_source,
	 .format = format_source,
	 .nmin = 1,
	 .nmax = 2,
	 .doc = "Where the network's nameservers are listed; followed "
		"live; auto: the first of resolvconf, networkmanager, "
		"resolved, /etc/resolv.conf that exists."},
	{.name = "resolv-conf",
	 .usage = "PATH",
	 .parse = parse_resolv_conf,
	 .format = format_resolv_conf,
	 KEY_ONE,
	 .doc = "upstream-source file PATH, as older versions wrote it."},
	KEY_PATH("stub-resolv-conf", stub_resolv_conf, PATH_MAX - 1,
		 "Stub mode: a resolv.conf naming the loopback listener on "
		 "port 53, written and kept up to date; unset: none."),
	{.name = "upstream",
	 .usage = "ADDR[@PORT][#NAME] [tls]",
	 .parse = parse_upstream,
	 .format = format_upstream,
	 .repeatable = true,
	 .nmin = 1,
	 .nmax = 2,
	 .doc = "An upstream of our choosing, in place of resolv.conf's "
		"servers; tls: DNS over TLS (port 853 by default), its "
		"certificate checked against NAME; at most 3; answers are "
		"validated as any upstream's."},
	{.name = "fallback-upstream",
	 .usage = "ADDR[@PORT]#NAME",
	 .parse = parse_fallback,
	 .format = format_fallback,
	 .repeatable = true,
	 KEY_ONE,
	 .doc = "A DNS-over-TLS server asked when neither the network's "
		"servers nor recursion answered a question; at most 3."},
	KEY_PATH("tls-ca", tls_ca, PATH_MAX - 1,
		 "Certificates (PEM) that TLS upstreams' certificates must "
		 "chain to; unset: the system's store."),
	KEY_CHOICE("resolution", "auto|forward|recursive", resolution,
		   words_resolution,
		   "forward asks the resolv.conf servers, recursive resolves "
		   "from the root itself; auto forwards while those servers "
		   "can do DNSSEC."),
	KEY_PATH("root-hints", root_hints, PATH_MAX - 1,
		 "The root servers for recursive resolution, a named.root "
		 "zone file; unset: the built-in IANA hints."),
	KEY_PATH("trust-anchor-file", trust_anchor_file, PATH_MAX - 1,
		 "DS or DNSKEY records trusted; unset: the built-in root "
		 "KSKs."),
	KEY_PATH("auto-trust-anchor-file", auto_trust_anchor_file, PATH_MAX - 1,
		 "RFC 5011 state: the anchors, kept up to date; unset: "
		 "never updated."),
	KEY_UINT("auto-trust-add-holddown", "SECONDS", auto_trust_add_holddown,
		 CFG_HOLDDOWN_MIN, CFG_HOLDDOWN_MAX, 1,
		 "Seconds before a new key is trusted (RFC 5011: 30 days)."),
	KEY_UINT("auto-trust-remove-holddown", "SECONDS",
		 auto_trust_remove_holddown, CFG_HOLDDOWN_MIN, CFG_HOLDDOWN_MAX,
		 1,
		 "Seconds from a key's revocation to its removal (RFC 5011: "
		 "30 days)."),
	{.name = "cache-size",
	 .usage = "SIZE",
	 .parse = parse_size,
	 .format = format_size,
	 KEY_ONE,
	 .min = DT_CACHE_MINSIZE,
	 .doc = "Memory for all caches, in bytes or with K, M, G; at "
		"least 2M."},
	KEY_UINT("threads", "N", threads, 0, CFG_THREADS_MAX, 1,
		 "Worker threads, 1 to 256; 0: one per core."),
	KEY_NAME("user", user,
		 "Run as this user after binding, without capabilities; "
		 "unset: _dnstrust (or nobody); root: stay root."),
	KEY_UINT("max-connections-per-user", "N", max_conns_per_user, 1,
		 DT_DMN_MAX_CONNS, 1,
		 "Open socket connections one user may hold (loopback TCP "
		 "clients together count as one user, remote ones as "
		 "another); root and the daemon's user are not limited."),
	{.name = "log-level",
	 .usage = "LEVEL",
	 .parse = parse_level,
	 .format = format_level,
	 KEY_ONE,
	 .doc = "Least severe messages logged: error, warning, notice, "
		"info or debug."},
	KEY_UINT("query-timeout", "SECONDS", query_timeout_ms, 1,
		 CFG_TIMEOUT_MAX, 1000,
		 "Every question is answered within this time, 1 to 60."),
	KEY_UINT("nsec3-max-iterations", "N", nsec3_max_iterations, 0,
		 DT_NSEC3_MAX_ITERATIONS, 1,
		 "NSEC3 iterations above which answers are insecure "
		 "(RFC 9276), 0 to 2500."),
	KEY_UINT("clock-skew", "SECONDS", clock_skew, 0, CFG_SKEW_MAX, 1,
		 "Signatures are valid this long before and after their "
		 "dates, 0 to 86400."),
	KEY_UINT("max-cache-ttl", "SECONDS", max_cache_ttl, 1, CFG_TTL_MAX, 1,
		 "Nothing is cached longer than this."),
	KEY_UINT("bogus-ttl", "SECONDS", bogus_ttl, 1, CFG_BOGUS_TTL_MAX, 1,
		 "A bogus result is kept this long, 1 to 3600."),
	KEY_UINT("serve-stale-max", "SECONDS", serve_stale_max, 0,
		 CFG_STALE_MAX_MAX, 1,
		 "When the upstreams fail, a secure or insecure answer up to "
		 "this long past its TTL is served, marked stale (RFC 8767, "
		 "EDE 3); 0 never, at most 604800."),
	KEY_CHOICE("prefetch", "yes|no", prefetch, words_yesno,
		   "yes: an answer asked for in the last tenth of its TTL is "
		   "fetched again in the background."),
	KEY_CHOICE("aggressive-nsec", "yes|no", aggressive_nsec, words_yesno,
		   "yes: names that validated NSEC records already prove "
		   "absent are answered from them (RFC 8198)."),
	KEY_CHOICE("mode", "enforce|permissive", mode, words_mode,
		   "enforce withholds bogus answers; permissive returns them "
		   "marked bogus and logs them."),
	KEY_CHOICE("insecure", "accept|reject", insecure_reject, words_insecure,
		   "Unsigned zones: accept answers them as insecure; reject "
		   "fails them like bogus."),
	{.name = "negative-trust-anchor",
	 .usage = "DOMAIN [until YYYY-MM-DD]",
	 .parse = parse_nta,
	 .format = format_nta,
	 .repeatable = true,
	 .nmin = 1,
	 .nmax = 3,
	 .doc = "Answers at or below DOMAIN are treated as unsigned (RFC "
		"7646), until 00:00 UTC of the date; repeatable."},
	KEY_DOMAINS("require-secure", require_secure, nrequire, false,
		    "An insecure answer at or below DOMAIN fails like a bogus "
		    "one; repeatable."),
	{.name = "domain",
	 .usage = "DOMAIN upstream ADDR... | DOMAIN validate yes|no",
	 .parse = parse_domain_rule,
	 .format = format_domain_rule,
	 .repeatable = true,
	 .nmin = 2,
	 .nmax = 2 + DT_UP_MAXNS,
	 .doc = "Split DNS: questions at or below DOMAIN go to these servers; "
		"validate no returns them unvalidated (indeterminate)."},
	KEY_DOMAINS("private-domain", private_domain, nprivate, true,
		    "Names at or below DOMAIN are the local network's: asked "
		    "of resolv.conf's servers, and insecure rather than bogus "
		    "when they cannot be proven; repeatable."),
	{.name = "no-private-defaults",
	 .usage = "",
	 .parse = parse_flag,
	 .format = format_flag,
	 .nmin = 0,
	 .nmax = 0,
	 .off = offsetof(struct cfg, no_private_defaults),
	 .doc = "Drops the built-in list of private domains (home.arpa, "
		"lan, the RFC 1918 reverse zones...)."},
	KEY_NAME("hotspot-group", hotspot_group,
		 "Members of this group may run dnstrust hotspot, besides "
		 "root and the daemon's user."),
};

static const struct cfg_key *key_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cfg_keys); i++) {
		if (strcmp(cfg_keys[i].name, name) == 0)
			return &cfg_keys[i];
	}
	return NULL;
}

/* --- lines --- */

/* Refuses NUL and other control characters (tab aside) in [s, e). */
static int line_check_octets(const char *s, const char *e, struct cfg_ctx *x)
{
	for (; s < e; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\0')
			return cfg_fail(x, "NUL octet in the text");
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return cfg_fail(x, "control character 0x%02x", ch);
	}
	return 0;
}

/* A quoted word starting at **s ('"'); its text goes to **out. Moves
 * both past it. */
static int word_quoted(const char **s, const char *e, char **out,
		       struct cfg_ctx *x)
{
	const char *p = *s + 1;
	char *o = *out;

	for (; p < e && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < e && (p[1] == '"' || p[1] == '\\'))
			p++;
		else if (*p == '\\')
			return cfg_fail(
				x, "unknown escape in a quoted string (only "
				   "\\\" and \\\\)");
		*o++ = *p;
	}
	if (p == e)
		return cfg_fail(x, "unterminated quoted string");
	p++;
	if (p < e && *p != ' ' && *p != '\t' && *p != '#')
		return cfg_fail(x, "no space after a closing quote");
	*s = p;
	*out = o;
	return 0;
}

/* A word up to white space or the end ('#' within is part of it); a '"'
 * within is refused. */
static int word_plain(const char **s, const char *e, char **out,
		      struct cfg_ctx *x)
{
	const char *p = *s;
	char *o = *out;

	for (; p < e && *p != ' ' && *p != '\t'; p++) {
		if (*p == '"')
			return cfg_fail(x, "'\"' inside a word (quote the "
					   "whole value)");
		*o++ = *p;
	}
	*s = p;
	*out = o;
	return 0;
}

/* Splits [s, e) into words; stops at a comment. */
static int line_split(const char *s, const char *e, struct cfg_line *l,
		      struct cfg_ctx *x)
{
	char *out = l->buf;
	int r;

	l->nword = 0;
	for (;;) {
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s == e || *s == '#')
			return 0;
		if (l->nword == CFG_LINE_MAXWORDS)
			return cfg_fail(x, "more than %d words on one line",
					CFG_LINE_MAXWORDS);
		l->word[l->nword++] = out;
		r = *s == '"' ? word_quoted(&s, e, &out, x)
			      : word_plain(&s, e, &out, x);
		if (r < 0)
			return r;
		*out++ = '\0';
	}
}

/* The number of values suits k. */
static int line_check_count(const struct cfg_key *k, const struct cfg_line *l,
			    struct cfg_ctx *x)
{
	size_t n = l->nword - 1;
	char sh[CFG_SHOW_MAX + 4];

	if (n < k->nmin)
		return cfg_fail(x, "%s: missing value (usage: %s %s)", k->name,
				k->name, k->usage);
	if (n > k->nmax)
		return cfg_fail(x, "%s: unexpected '%s' (usage: %s%s%s)",
				k->name, show(l->word[k->nmax + 1], sh),
				k->name, k->usage[0] ? " " : "", k->usage);
	return 0;
}

/* One line [s, e), newline excluded. seen[i] is the line where key i
 * was first given, 0 if not yet. */
static int line_parse(const char *s, const char *e, struct cfg *c,
		      unsigned *seen, struct cfg_line *l, struct cfg_ctx *x)
{
	char sh[CFG_SHOW_MAX + 4];
	const struct cfg_key *k;
	size_t i;
	int r;

	if (e > s && e[-1] == '\r')
		e--;
	if ((size_t)(e - s) > CFG_LINE_MAX)
		return cfg_fail(x, "line longer than %d octets", CFG_LINE_MAX);
	if ((r = line_check_octets(s, e, x)) < 0 ||
	    (r = line_split(s, e, l, x)) < 0 || l->nword == 0)
		return r;
	k = key_find(l->word[0]);
	if (!k)
		return cfg_fail(x, "unknown key '%s'", show(l->word[0], sh));
	i = (size_t)(k - cfg_keys);
	if (seen[i] && !k->repeatable)
		return cfg_fail(x, "%s given twice (first on line %u)", k->name,
				seen[i]);
	if ((r = line_check_count(k, l, x)) < 0 ||
	    (r = k->parse(k, l, c, x)) < 0)
		return r;
	if (!seen[i])
		seen[i] = x->line;
	return 0;
}

/* --- the interface --- */

/* Every default that is not zero, into c, which is zero already. */
static void defaults_on_zero(struct cfg *c)
{
	snprintf(c->socket, sizeof(c->socket), "%s", CFG_DEFAULT_SOCKET);
	c->upstream_source = UP_SOURCE_FILE;
	snprintf(c->resolv_conf, sizeof(c->resolv_conf), "%s",
		 CFG_DEFAULT_RESOLV_CONF);
	c->cache_size = CFG_DEFAULT_CACHE_SIZE;
	c->threads = 0;
	c->log_level = CFG_LOG_NOTICE;
	c->query_timeout_ms = CFG_TIMEOUT_DEFAULT * 1000;
	c->nsec3_max_iterations = DT_VAL_NSEC3_ITERATIONS;
	c->clock_skew = DT_VAL_SKEW;
	c->max_cache_ttl = CFG_MAX_CACHE_TTL;
	c->bogus_ttl = CFG_BOGUS_TTL;
	c->serve_stale_max = CFG_STALE_MAX;
	c->prefetch = true;
	c->aggressive_nsec = true;
	c->max_conns_per_user = DT_DMN_CONNS_PER_USER;
	c->ratelimit = DT_DMN_RATELIMIT;
	c->max_conns_per_address = DT_DMN_CONNS_PER_ADDRESS;
	c->auto_trust_add_holddown = DT_AT_HOLDDOWN;
	c->auto_trust_remove_holddown = DT_AT_HOLDDOWN;
}

void cfg_default(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	defaults_on_zero(c);
}

/* The parse of cfg_parse into c, which holds the defaults (ret is
 * written only on success). */
static int parse_into(struct cfg *c, const char *text, size_t len,
		      struct cfg_ctx *x)
{
	unsigned seen[ARRAY_SIZE(cfg_keys)] = {0};
	const char *p = text, *end = text + len;
	struct cfg_line l;
	int r;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		x->line++;
		r = line_parse(p, nl ? nl : end, c, seen, &l, x);
		if (r < 0)
			return r;
		p = nl ? nl + 1 : end;
	}
	if (x->remote_line && !c->nallow) {
		x->line = x->remote_line;
		return cfg_fail(x, "listen: not a loopback address: anyone "
				   "who reaches it could use the daemon; "
				   "write allow-remote with the client "
				   "networks to serve");
	}
	x->line = 0;
	return check_stub(c, x);
}

/* cfg_parse's text into c, which is zero. */
static int parse_zeroed(const char *text, size_t len, struct cfg *c,
			struct cfg_ctx *x)
{
	int r;

	if (len > DT_CFG_MAXSIZE)
		return cfg_fail(x, "larger than %d octets", DT_CFG_MAXSIZE);
	defaults_on_zero(c);
	r = parse_into(c, text, len, x);
	if (r == 0 && x->err && x->errlen)
		x->err[0] = '\0';
	return r;
}

/*
 * The configuration being parsed is on the heap, not the stack: struct
 * cfg is some 200 KiB (room for DT_CFG_MAX_POLICY rules of each kind),
 * more than a small thread stack holds, and libdnstrust's in-process
 * engine parses on its caller's thread. calloc, not cfg_default: the
 * pages of rules nobody wrote are not written twice.
 */
int cfg_parse(const char *text, size_t len, const char *name, struct cfg *ret,
	      char *err, size_t errlen)
{
	struct cfg_ctx x = {
		.name = name ? name : "(config)", .err = err, .errlen = errlen};
	struct cfg *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		cfg_fail(&x, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	r = parse_zeroed(text, len, c, &x);
	if (r == 0)
		*ret = *c;
	free(c);
	return r;
}

/* Reads the open file fd whole into a new buffer (*ret_buf, freed by the
 * caller). Returns 0, or -errno or DT_ETOOBIG with the message written. */
static int file_read(struct cfg_ctx *x, int fd, char **ret_buf, size_t *ret_len)
{
	int r = file_read_fd(fd, DT_CFG_MAXSIZE, ret_buf, ret_len);

	if (r == DT_ETOOBIG)
		cfg_fail(x, "larger than %d octets", DT_CFG_MAXSIZE);
	else if (r < 0)
		cfg_fail(x, "%s", strerror(-r));
	return r;
}

int cfg_load_zeroed(const char *path, bool must_exist, struct cfg *c,
		    char *err, size_t errlen)
{
	struct cfg_ctx x = {.name = path, .err = err, .errlen = errlen};
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char *buf = NULL;
	size_t len;
	int r;

	if (fd < 0 && errno == ENOENT && !must_exist) {
		defaults_on_zero(c);
		if (err && errlen)
			err[0] = '\0';
		return 0;
	}
	if (fd < 0) {
		r = -errno;
		cfg_fail(&x, "%s", strerror(-r));
		return r;
	}
	r = file_read(&x, fd, &buf, &len);
	close(fd);
	if (r < 0)
		return r;
	r = parse_zeroed(buf, len, c, &x);
	free(buf);
	return r;
}

int cfg_load(const char *path, bool must_exist, struct cfg *ret, char *err,
	     size_t errlen)
{
	struct cfg_ctx x = {.name = path, .err = err, .errlen = errlen};
	struct cfg *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		cfg_fail(&x, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	r = cfg_load_zeroed(path, must_exist, c, err, errlen);
	if (r == 0)
		*ret = *c;
	free(c);
	return r;
}

void cfg_upstream_over(const struct cfg *cfg, struct up_conf *uc)
{
	if (!cfg->upstream.nns)
		return;
	memcpy(uc->ns, cfg->upstream.ns, sizeof(uc->ns));
	memcpy(uc->tls_name, cfg->upstream.tls_name, sizeof(uc->tls_name));
	uc->nns = cfg->upstream.nns;
	uc->defaulted = false;
}

const char *cfg_key_name(size_t i)
{
	return i < ARRAY_SIZE(cfg_keys) ? cfg_keys[i].name : NULL;
}

size_t cfg_format(const struct cfg *c, char *buf, size_t len)
{
	struct cfg_out o = {.buf = buf, .len = len};

	if (buf && len)
		buf[0] = '\0';
	else
		o.len = 0;
	out_printf(&o, "# dnstrust.conf: see dnstrust.conf(5).\n");
	for (size_t i = 0; i < ARRAY_SIZE(cfg_keys); i++) {
		const struct cfg_key *k = &cfg_keys[i];

		out_printf(&o, "\n# %s\n", k->doc);
		k->format(k, c, &o);
	}
	return o.pos;
}
