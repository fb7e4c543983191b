/* SPDX-License-Identifier: MIT */
/*
 * resolv.conf's text: where glibc sends an application's queries, and
 * whether `options trust-ad` makes it hand a nameserver's AD bit to the
 * application. The nameservers are read by src/upstream's parser (glibc's
 * reading, its first three usable servers); options as glibc's res_init
 * reads them: a line whose first word is "options" followed by a space or
 * a tab, words separated by spaces and tabs, each matched as a prefix
 * ("trust-ad" also matches "trust-adx"), '#' no comment inside the line,
 * a NUL octet ending it.
 */
#include <netinet/in.h>
#include <string.h>

#include "cli/audit.h"
#include "upstream/resolvconf.h"

#define AREA "resolv.conf"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Whether one options line (without its newline) sets trust-ad. */
static bool options_trust_ad(const char *s, const char *end)
{
	static const char kw[] = "options";
	static const char opt[] = "trust-ad";
	const char *p = s + sizeof(kw) - 1;

	if ((size_t)(end - s) < sizeof(kw) || memcmp(s, kw, sizeof(kw) - 1) ||
	    !is_blank(*p))
		return false;
	while (p < end) {
		const char *w;
		while (p < end && is_blank(*p))
			p++;
		w = p;
		while (p < end && !is_blank(*p))
			p++;
		if ((size_t)(p - w) >= sizeof(opt) - 1 &&
		    memcmp(w, opt, sizeof(opt) - 1) == 0)
			return true;
	}
	return false;
}

static bool text_trust_ad(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	bool on = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;
		const char *nul = memchr(p, '\0', (size_t)(lend - p));
		on |= options_trust_ad(p, nul ? nul : lend);
		p = lend + 1;
	}
	return on;
}

static bool is_loopback(const struct up_server *s)
{
	const struct sockaddr_in *sin = (const void *)&s->addr;
	const struct sockaddr_in6 *sin6 = (const void *)&s->addr;
	const uint8_t *a6 = sin6->sin6_addr.s6_addr;

	if (s->addr.ss_family == AF_INET)
		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	if (s->addr.ss_family != AF_INET6)
		return false;
	if (IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr))
		return true;
	return IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) && a6[12] == 127;
}

static unsigned port_of(const struct up_server *s)
{
	const struct sockaddr_in *sin = (const void *)&s->addr;
	const struct sockaddr_in6 *sin6 = (const void *)&s->addr;

	return ntohs(s->addr.ss_family == AF_INET ? sin->sin_port
						  : sin6->sin6_port);
}

static bool is_wildcard(const struct up_server *s)
{
	const struct sockaddr_in *sin = (const void *)&s->addr;
	const struct sockaddr_in6 *sin6 = (const void *)&s->addr;

	if (s->addr.ss_family == AF_INET)
		return sin->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr);
}

/* Whether a resolv.conf server (port 53) is one of dnstrustd's
 * listeners; one on a wildcard address serves every loopback address of
 * its family. */
static bool is_listener(const struct up_server *s,
			const struct audit_resolv_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nlisten; i++) {
		const struct up_server *l = &ctx->listen[i];
		if (l->addr.ss_family != s->addr.ss_family ||
		    port_of(l) != port_of(s))
			continue;
		if (up_server_equal(l, s) || (is_wildcard(l) && is_loopback(s)))
			return true;
	}
	return false;
}

static void server_finding(const struct up_server *s, bool defaulted,
			   const struct audit_resolv_ctx *ctx,
			   struct audit_report *rep)
{
	const char *how = defaulted ? "no usable nameserver line: glibc uses"
				    : "nameserver";
	char a[80];

	up_server_str(s, a, sizeof(a));
	if (!is_loopback(s)) {
		audit_add(rep, AUDIT_INFO, "rc-transport", AREA,
			  "%s %s: transport only; dnstrustd validates what it "
			  "answers and never believes its AD bit",
			  how, a);
	} else if (!is_listener(s, ctx)) {
		audit_add(rep, AUDIT_INFO, "rc-loopback", AREA,
			  "%s %s: a local resolver that is not dnstrustd's "
			  "listener; transport only for dnstrustd",
			  how, a);
	} else if (ctx->daemon_reads_it) {
		audit_add(rep, AUDIT_WARNING, "rc-loop", AREA,
			  "%s %s is dnstrustd's own listener, and dnstrustd "
			  "reads %s for its upstreams: it would ask itself",
			  how, a, ctx->path);
		audit_fix(rep, "in dnstrust.conf: resolv-conf PATH, a file "
			       "naming the real upstream servers");
	} else {
		audit_add(rep, AUDIT_OK, "rc-listener", AREA,
			  "%s %s is dnstrustd's own listener: plain DNS "
			  "clients get validated answers",
			  how, a);
	}
}

/* trust-ad: glibc keeps the AD bit of the servers' answers for the
 * application, which is only sound when the server is dnstrustd. */
static void trust_ad_finding(const struct up_conf *c,
			     const struct audit_resolv_ctx *ctx,
			     struct audit_report *rep)
{
	const struct up_server *remote = NULL, *local = NULL;
	char a[80];

	for (size_t i = 0; i < c->nns; i++) {
		if (!is_loopback(&c->ns[i]))
			remote = remote ? remote : &c->ns[i];
		else if (!is_listener(&c->ns[i], ctx))
			local = local ? local : &c->ns[i];
	}
	if (remote) {
		up_server_str(remote, a, sizeof(a));
		audit_add(
			rep, AUDIT_CRITICAL, "rc-trust-ad", AREA,
			"options trust-ad with the remote nameserver %s: "
			"glibc passes its AD bit to applications as if the "
			"answer were validated; anyone on the path can set it",
			a);
	} else if (local) {
		up_server_str(local, a, sizeof(a));
		audit_add(rep, AUDIT_WARNING, "rc-trust-ad-local", AREA,
			  "options trust-ad with %s, a local resolver that is "
			  "not dnstrustd: applications get its AD bit, which "
			  "dnstrust did not decide",
			  a);
	} else {
		audit_add(rep, AUDIT_OK, "rc-trust-ad-ok", AREA,
			  "options trust-ad: AD bits come from dnstrustd's "
			  "listener, set only on answers it validated");
		return;
	}
	audit_fix(rep, "in %s: remove trust-ad from the options line%s",
		  ctx->path,
		  remote ? ""
			 : ", or name dnstrustd's listener "
			   "as the only nameserver");
}

void audit_resolv_text(const char *text, size_t len,
		       const struct audit_resolv_ctx *ctx,
		       struct audit_report *rep)
{
	struct up_conf c;

	if (!text) {
		audit_add(rep, AUDIT_INFO, "rc-missing", AREA,
			  "%s is missing: glibc uses the nameserver 127.0.0.1",
			  ctx->path);
		return;
	}
	up_conf_parse(text, len, &c);
	for (size_t i = 0; i < c.nns; i++)
		server_finding(&c.ns[i], c.defaulted, ctx, rep);
	if (text_trust_ad(text, len))
		trust_ad_finding(&c, ctx, rep);
}
