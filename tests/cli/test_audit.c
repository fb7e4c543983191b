/* SPDX-License-Identifier: MIT */
/*
 * dnstrust audit's pure checks: nsswitch.conf hosts lines as glibc reads
 * them, resolv.conf's nameservers and trust-ad, the daemon's status lines,
 * and the report itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/audit.h"
#include "tap.h"
#include "upstream/resolvconf.h"

static struct audit_report rep;

/* Whether each id of a space-separated list is in the report (want) or
 * not. */
static bool has_ids(const char *ids, bool want)
{
	char buf[256], *save, *id;

	snprintf(buf, sizeof(buf), "%s", ids);
	for (id = strtok_r(buf, " ", &save); id;
	     id = strtok_r(NULL, " ", &save))
		if ((audit_find(&rep, id) != NULL) != want)
			return false;
	return true;
}

static void dump(void)
{
	for (size_t i = 0; i < rep.n; i++)
		diag("%s %s: %s | fix: %s",
		     audit_severity_str(rep.f[i].severity), rep.f[i].id,
		     rep.f[i].message, rep.f[i].fix);
}

/* --- nsswitch.conf --- */

struct nss_case {
	const char *text; /* NULL: no file */
	size_t len;	  /* 0: strlen */
	enum audit_severity worst;
	const char *ids;    /* present */
	const char *absent; /* not present */
};

#define SZ(s) s, sizeof(s) - 1

static const struct nss_case nss_cases[] = {
	{"hosts: files dnstrust\n", 0, AUDIT_OK, "nss-ok", ""},
	{"hosts: files dnstrust dns\n", 0, AUDIT_CRITICAL,
	 "nss-notfound nss-tryagain nss-unavail", "nss-success nss-ok"},
	{"hosts: files dnstrust [!UNAVAIL=return] dns\n", 0, AUDIT_WARNING,
	 "nss-unavail", "nss-notfound nss-tryagain nss-success"},
	{"hosts: files dns\n", 0, AUDIT_CRITICAL, "nss-absent", "nss-ok"},
	{"passwd: files\ngroup: files\n", 0, AUDIT_CRITICAL, "nss-default", ""},
	{"", 0, AUDIT_CRITICAL, "nss-default", ""},
	{NULL, 0, AUDIT_CRITICAL, "nss-default", ""},
	{"hosts: dns dnstrust\n", 0, AUDIT_CRITICAL, "nss-before",
	 "nss-notfound"},
	{"hosts: files mdns4_minimal [NOTFOUND=return] dnstrust\n", 0,
	 AUDIT_INFO, "nss-mdns nss-ok", "nss-before"},
	{"hosts: resolve [!UNAVAIL=return] dnstrust\n", 0, AUDIT_CRITICAL,
	 "nss-before", ""},
	{"hosts: files dnstrust [NOTFOUND=return] dns\n", 0, AUDIT_CRITICAL,
	 "nss-tryagain nss-unavail", "nss-notfound"},
	{"hosts: files dnstrust [SUCCESS=continue NOTFOUND=return "
	 "TRYAGAIN=return] dns\n",
	 0, AUDIT_CRITICAL, "nss-success nss-unavail",
	 "nss-notfound nss-tryagain"},
	{"hosts: files dnstrust [NOTFOUND=bogus] dns\n", 0, AUDIT_CRITICAL,
	 "nss-syntax", "nss-notfound"},
	{"hosts: files dnstrust [!UNAVAIL=return\n", 0, AUDIT_CRITICAL,
	 "nss-syntax", ""},
	{"hosts: files dnstrust [UNAVAIL return] dns\n", 0, AUDIT_CRITICAL,
	 "nss-syntax", ""},
	{"hosts: files dnstrust []\n", 0, AUDIT_CRITICAL, "nss-syntax", ""},
	{"hosts: files dnstrust", 0, AUDIT_CRITICAL,
	 "nss-no-newline nss-default", ""},
	{"hosts: files dns\nhosts: files dnstrust", 0, AUDIT_CRITICAL,
	 "nss-no-newline nss-absent", "nss-default"},
	{"hosts: files dnstrust dns\nhosts: files dnstrust\n", 0, AUDIT_WARNING,
	 "nss-several nss-ok", "nss-notfound"},
	{"hosts: files dnstrust\nhosts: files dns\n", 0, AUDIT_CRITICAL,
	 "nss-several nss-absent", ""},
	{"hosts: files dnstrust # dns\n", 0, AUDIT_CRITICAL,
	 "nss-comment nss-notfound", ""},
	{"# hosts: files dns\nhosts: files dnstrust\n", 0, AUDIT_OK, "nss-ok",
	 ""},
	{"HOSTS: files dnstrust\n", 0, AUDIT_CRITICAL, "nss-default", ""},
	{"  hosts  :  files \t dnstrust  \n", 0, AUDIT_OK, "nss-ok", ""},
	{"hosts files dnstrust\n", 0, AUDIT_OK, "nss-ok", ""},
	{"hostsx: files dns\nhosts: files dnstrust\n", 0, AUDIT_OK, "nss-ok",
	 ""},
	{"hosts: files [NOTFOUND=return] dnstrust\n", 0, AUDIT_WARNING,
	 "nss-unreached", "nss-ok"},
	{"hosts: files dnstrust [ notfound = return tryagain=return ] dns\n", 0,
	 AUDIT_WARNING, "nss-unavail", "nss-notfound nss-tryagain"},
	{"hosts: files dnstrust [!unavail=RETURN] dns\n", 0, AUDIT_WARNING,
	 "nss-unavail", "nss-notfound"},
	{"hosts: files dnstrust myhostname dns\n", 0, AUDIT_CRITICAL,
	 "nss-notfound", ""},
	{"hosts: files dnstrust myhostname [SUCCESS=return NOTFOUND=return "
	 "UNAVAIL=return TRYAGAIN=return] dns\n",
	 0, AUDIT_OK, "nss-ok", "nss-notfound"},
	{"hosts: files dnstrust [!UNAVAIL=return] myhostname "
	 "[!UNAVAIL=return] dns\n",
	 0, AUDIT_WARNING, "nss-unavail", "nss-notfound"},
	{"hosts: [NOTFOUND=return] dnstrust dns\n", 0, AUDIT_CRITICAL,
	 "nss-cut nss-absent", ""},
	{"hosts: files dnstrust [!UNAVAIL=return] [TRYAGAIN=continue] dns\n", 0,
	 AUDIT_WARNING, "nss-cut", "nss-tryagain nss-unavail"},
	{"hosts: files dnstrust [NOTFOUND=merge] dns\n", 0, AUDIT_CRITICAL,
	 "nss-notfound", ""},
	{SZ("hosts: files dnstrust\0 dns\n"), AUDIT_OK, "nss-ok", ""},
	{SZ("hosts: files dns\0\nhosts: files dnstrust\n"), AUDIT_WARNING,
	 "nss-several nss-ok", ""},
	{SZ("hosts\0: files dns\n"), AUDIT_CRITICAL, "nss-default", ""},
	{"hosts:\n", 0, AUDIT_CRITICAL, "nss-absent", ""},
	{"hosts: files dnstrust resolve [!UNAVAIL=return] dns\n", 0,
	 AUDIT_CRITICAL, "nss-notfound", ""},
	{"hosts: files dnstrust dnstrust\n", 0, AUDIT_OK, "nss-ok", ""},
	{"hosts: files dnstrust\r\n", 0, AUDIT_OK, "nss-ok", ""},
	{"hosts: files dnstrust[NOTFOUND=return]dns\n", 0, AUDIT_CRITICAL,
	 "nss-tryagain nss-unavail", "nss-notfound"},
	{"hosts: files dnstrust [!SUCCESS=continue] dns\n", 0, AUDIT_CRITICAL,
	 "nss-notfound nss-tryagain nss-unavail", "nss-success"},
	{"hosts: files dnstrust [!SUCCESS=return SUCCESS=continue] dns\n", 0,
	 AUDIT_CRITICAL, "nss-success",
	 "nss-notfound nss-tryagain nss-unavail"},
	{"hosts: files dnstrust ldap\n", 0, AUDIT_CRITICAL, "nss-notfound", ""},
	{"hosts: files DNSTRUST\n", 0, AUDIT_CRITICAL, "nss-absent", ""},
	/* The lines libnss-dnstrust's postinst writes: trusted. */
	{"hosts: files mdns4_minimal [NOTFOUND=return] dnstrust myhostname\n",
	 0, AUDIT_INFO, "nss-mdns nss-ok", "nss-before nss-unreached"},
	{"hosts: files mdns_minimal [NOTFOUND=return] dnstrust\n", 0,
	 AUDIT_INFO, "nss-mdns nss-ok", "nss-before"},
	{"hosts: mymachines files dnstrust myhostname\n", 0, AUDIT_OK,
	 "nss-ok", ""},
	{"hosts: files dnstrust mdns6_minimal [NOTFOUND=return]\n", 0,
	 AUDIT_OK, "nss-ok", "nss-notfound nss-mdns"},
	/* mdns4 answers what /etc/mdns.allow lists, any domain. */
	{"hosts: files mdns4 dnstrust\n", 0, AUDIT_CRITICAL, "nss-before",
	 "nss-ok"},
	{"hosts: files dnstrust mdns4\n", 0, AUDIT_CRITICAL, "nss-notfound",
	 "nss-ok"},
};

static void test_nss_cases(void)
{
	for (size_t i = 0; i < sizeof(nss_cases) / sizeof(*nss_cases); i++) {
		const struct nss_case *c = &nss_cases[i];
		size_t len = c->len ? c->len : c->text ? strlen(c->text) : 0;
		char shown[80];
		bool good;

		memset(&rep, 0, sizeof(rep));
		audit_nsswitch(c->text, len, "/etc/nsswitch.conf", &rep);
		snprintf(shown, sizeof(shown), "%.*s",
			 (int)strcspn(c->text ? c->text : "(none)", "\n"),
			 c->text ? c->text : "(none)");
		good = audit_worst(&rep) == c->worst && has_ids(c->ids, true) &&
		       has_ids(c->absent, false);
		if (!ok(good, "nsswitch '%s': %s, %s", shown,
			audit_severity_str(c->worst), c->ids))
			dump();
	}
}

static void test_nss_parse(void)
{
	struct audit_nss_line l;
	static const char line[] = "files dnstrust [!UNAVAIL=return] dns "
				   "mdns4_minimal[NOTFOUND=return]";
	static const char line2[] = "a [UNAVAIL=return] b [!UNAVAIL=continue]";

	audit_nss_parse(line, strlen(line), &l);
	is_int(l.n, 4, "four sources");
	is_str(l.src[1].name, "dnstrust", "second is dnstrust");
	is_int(l.src[1].kind, AUDIT_NSS_DNSTRUST, "its kind");
	ok(l.src[1].stop[AUDIT_NSS_SUCCESS] &&
		   l.src[1].stop[AUDIT_NSS_NOTFOUND] &&
		   l.src[1].stop[AUDIT_NSS_TRYAGAIN] &&
		   !l.src[1].stop[AUDIT_NSS_UNAVAIL],
	   "[!UNAVAIL=return]: every status but UNAVAIL returns");
	ok(l.src[0].stop[AUDIT_NSS_SUCCESS] &&
		   !l.src[0].stop[AUDIT_NSS_NOTFOUND],
	   "defaults: SUCCESS returns, NOTFOUND continues");
	is_int(l.src[2].kind, AUDIT_NSS_UNVALIDATED, "dns is unvalidated");
	is_int(l.src[0].kind, AUDIT_NSS_LOCAL, "files is local");
	is_str(l.src[3].name, "mdns4_minimal", "a name ends at '['");
	ok(l.src[3].stop[AUDIT_NSS_NOTFOUND], "and its criteria apply");
	ok(!l.syntax_error && !l.cut && !l.comment, "no syntax problem");

	audit_nss_parse(line2, strlen(line2), &l);
	ok(l.n == 2 && l.src[1].stop[AUDIT_NSS_UNAVAIL] == false &&
		   !l.src[1].stop[AUDIT_NSS_NOTFOUND] &&
		   l.src[1].stop[AUDIT_NSS_SUCCESS] == false,
	   "[!UNAVAIL=continue] sets the others to continue, UNAVAIL kept");
}

static void nss(const char *text, const char *path)
{
	memset(&rep, 0, sizeof(rep));
	audit_nsswitch(text, strlen(text), path, &rep);
}

static void test_nss_limits(void)
{
	char line[4096] = "hosts: files dnstrust";
	size_t w;
	const struct audit_finding *f;

	for (int i = 0; i < AUDIT_NSS_MAX_SOURCES; i++) {
		w = strlen(line);
		snprintf(line + w, sizeof(line) - w, " files");
	}
	w = strlen(line);
	snprintf(line + w, sizeof(line) - w, "\n");
	memset(&rep, 0, sizeof(rep));
	audit_nsswitch(line, strlen(line), "/etc/nsswitch.conf", &rep);
	ok(audit_find(&rep, "nss-too-many") &&
		   audit_worst(&rep) == AUDIT_CRITICAL,
	   "more than %d sources: critical, not audited",
	   AUDIT_NSS_MAX_SOURCES);

	nss("hosts: files mdns4_minimal [NOTFOUND=return] dns myhostname\n",
	    "/etc/nsswitch.conf");
	f = audit_find(&rep, "nss-absent");
	ok(f && strcmp(f->fix, "in /etc/nsswitch.conf: hosts: files "
			       "mdns4_minimal [NOTFOUND=return] myhostname "
			       "dnstrust") == 0,
	   "the fix keeps the local sources and mDNS with its action: '%s'",
	   f ? f->fix : "");
	ok(f && strstr(f->message, "'dns'") &&
		   strstr(f->message, "'mdns4_minimal'") == NULL,
	   "and the message names the first unvalidated source");

	nss("hosts: files mdns4_minimal [NOTFOUND=return] dnstrust dns\n",
	    "/x");
	f = audit_find(&rep, "nss-notfound");
	ok(f && strcmp(f->fix, "in /x: hosts: files mdns4_minimal "
			       "[NOTFOUND=return] dnstrust") == 0,
	   "mDNS before dnstrust kept in the fix: '%s'", f ? f->fix : "");

	nss("hosts: dnstrust dns\n", "/x");
	f = audit_find(&rep, "nss-notfound");
	ok(f && strcmp(f->fix, "in /x: hosts: files dnstrust") == 0 &&
		   strstr(f->message, "'hosts: dnstrust dns'"),
	   "files added to the fix; the line quoted: '%s'", f ? f->fix : "");

	nss("hosts: files \x01\xff dnstrust\n", "/x");
	f = audit_find(&rep, "nss-before");
	ok(f && strstr(f->message, "'?"
				   "?'"),
	   "unprintable names shown as '?'");
}

/* --- resolv.conf --- */

struct rc_case {
	const char *text;
	const char *listen; /* ADDR@PORT or NULL */
	bool daemon_reads_it;
	enum audit_severity worst;
	const char *ids;
	const char *absent;
};

static const struct rc_case rc_cases[] = {
	{"nameserver 192.0.2.1\n", NULL, false, AUDIT_INFO, "rc-transport",
	 "rc-trust-ad"},
	{"nameserver 192.0.2.1\noptions edns0 trust-ad\n", NULL, false,
	 AUDIT_CRITICAL, "rc-trust-ad rc-transport", ""},
	{"nameserver 127.0.0.53\noptions edns0 trust-ad\n", NULL, false,
	 AUDIT_WARNING, "rc-trust-ad-local rc-loopback", "rc-trust-ad"},
	{"nameserver 127.0.0.53\noptions trust-ad\n", "127.0.0.53@53", false,
	 AUDIT_OK, "rc-trust-ad-ok rc-listener", "rc-trust-ad-local"},
	{"nameserver 127.0.0.1\n", "0.0.0.0@53", false, AUDIT_OK, "rc-listener",
	 ""},
	{"nameserver 127.0.0.1\n", "127.0.0.1@5353", false, AUDIT_INFO,
	 "rc-loopback", "rc-listener"},
	{"nameserver 127.0.0.1\n", "127.0.0.1@53", true, AUDIT_WARNING,
	 "rc-loop", "rc-listener"},
	{"nameserver 127.0.0.1\nnameserver 192.0.2.1\noptions trust-ad\n",
	 "127.0.0.1@53", false, AUDIT_CRITICAL, "rc-trust-ad rc-listener", ""},
	{"options trust-ad\n", NULL, false, AUDIT_WARNING, "rc-trust-ad-local",
	 ""},
	{" options trust-ad\nnameserver 192.0.2.1\n", NULL, false, AUDIT_INFO,
	 "", "rc-trust-ad"},
	{"options\ttrust-adx\nnameserver 192.0.2.1\n", NULL, false,
	 AUDIT_CRITICAL, "rc-trust-ad", ""},
	{"#options trust-ad\nnameserver 192.0.2.1\n", NULL, false, AUDIT_INFO,
	 "", "rc-trust-ad"},
	{"options rotate # trust-ad\nnameserver 192.0.2.1\n", NULL, false,
	 AUDIT_CRITICAL, "rc-trust-ad", ""},
	{"options trust\nnameserver 192.0.2.1\n", NULL, false, AUDIT_INFO, "",
	 "rc-trust-ad"},
	{"options trust-ad", NULL, false, AUDIT_WARNING, "rc-trust-ad-local",
	 ""},
	{"nameserver ::1\noptions trust-ad\n", NULL, false, AUDIT_WARNING,
	 "rc-trust-ad-local rc-loopback", ""},
	{"nameserver ::1\n", "::@53", false, AUDIT_OK, "rc-listener", ""},
	{"nameserver ::ffff:127.0.0.1\noptions trust-ad\n", NULL, false,
	 AUDIT_WARNING, "rc-trust-ad-local", ""},
	{"nameserver 2001:db8::1\noptions trust-ad\n", NULL, false,
	 AUDIT_CRITICAL, "rc-trust-ad", ""},
	{NULL, NULL, false, AUDIT_INFO, "rc-missing", ""},
};

static void test_rc_cases(void)
{
	for (size_t i = 0; i < sizeof(rc_cases) / sizeof(*rc_cases); i++) {
		const struct rc_case *c = &rc_cases[i];
		struct up_server l;
		struct audit_resolv_ctx ctx = {.path = "/etc/resolv.conf"};
		bool good;

		if (c->listen && up_server_parse(c->listen, &l) == 0) {
			ctx.listen = &l;
			ctx.nlisten = 1;
		}
		ctx.daemon_reads_it = c->daemon_reads_it;
		memset(&rep, 0, sizeof(rep));
		audit_resolv_text(c->text, c->text ? strlen(c->text) : 0, &ctx,
				  &rep);
		good = audit_worst(&rep) == c->worst && has_ids(c->ids, true) &&
		       has_ids(c->absent, false);
		if (!ok(good, "resolv.conf '%.*s' (listener %s): %s",
			(int)strcspn(c->text ? c->text : "(none)", "\n"),
			c->text ? c->text : "(none)",
			c->listen ? c->listen : "none",
			audit_severity_str(c->worst)))
			dump();
	}
}

/* --- status.dnstrust. --- */

static void status_case(const char *what, const char *const *lines, size_t n,
			enum audit_severity worst, const char *ids)
{
	memset(&rep, 0, sizeof(rep));
	audit_status((char *const *)lines, n, &rep);
	if (!ok(audit_worst(&rep) == worst && has_ids(ids, true), "status %s",
		what))
		dump();
}

static void test_status(void)
{
	static const char *const good[] = {
		"version=dnstrustd 0.1.0",
		"upstream=192.0.2.1",
		"trust-anchor=. DS:20326/8 DS:38696/8",
		"mode=enforce",
		"insecure=accept",
		"insecure=12",
	};
	static const char *const none[] = {"upstream=192.0.2.1",
					   "mode=enforce"};
	static const char *const perm[] = {"upstream=192.0.2.1",
					   "trust-anchor=. DS:20326/8",
					   "mode=permissive"};
	static const char *const nta[] = {
		"upstream=192.0.2.1",
		"trust-anchor=. DS:20326/8",
		"negative-trust-anchor=broken.example. until=no end active",
		"negative-trust-anchor=old.example. until=2020-01-01 expired",
		("negative-trust-anchor=rt.example. until=2026-12-07T10:00:00Z "
		 "runtime active"),
	};
	static const char *const noup[] = {"trust-anchor=. DS:20326/8"};
	static const char *const failing[] = {
		"upstream=192.0.2.1",
		"trust-anchor=. DS:20326/8",
		("validation=failing: every answer of the last 5 minutes was "
		 "bogus (12), none secure or insecure"),
	};
	static const char *const warned[] = {
		"upstream=192.0.2.1",
		"trust-anchor=. DS:20326/8",
		("warning=trust-anchor-file /k is ignored: the RFC 5011 state /s "
		 "exists"),
	};
	const struct audit_finding *f;

	status_case("with anchors, upstream, enforce", good, 6, AUDIT_OK,
		    "st-anchor st-upstream");
	status_case("without a trust anchor", none, 2, AUDIT_CRITICAL,
		    "st-no-anchor");
	status_case("in permissive mode", perm, 3, AUDIT_WARNING,
		    "st-permissive");
	status_case("with negative trust anchors", nta, 5, AUDIT_INFO,
		    "st-nta st-nta-expired st-nta-runtime");
	f = audit_find(&rep, "st-nta");
	ok(f && strstr(f->message, "broken.example. until=no end") &&
		   strstr(f->fix, "negative-trust-anchor broken.example.") &&
		   audit_count(&rep, AUDIT_INFO) == 3,
	   "one finding per anchor, named: %s", f ? f->message : "");
	f = audit_find(&rep, "st-nta-runtime");
	ok(f && strstr(f->message,
		       "rt.example. until=2026-12-07T10:00:00Z (dnstrust") &&
		   strcmp(f->fix, "when the zone's signatures are repaired: "
				  "dnstrust nta remove rt.example.") == 0,
	   "a runtime one with its end, removed by dnstrust nta remove: %s",
	   f ? f->fix : "");
	status_case("without upstream", noup, 1, AUDIT_WARNING,
		    "st-no-upstream");
	status_case("validating nothing for minutes", failing, 3,
		    AUDIT_WARNING, "st-validation-failing");
	f = audit_find(&rep, "st-validation-failing");
	ok(f && strstr(f->message, "bogus (12)") &&
		   strstr(f->fix, "dnstrust query . DNSKEY --trace"),
	   "failing validation: said, with its fix: %s", f ? f->fix : "");
	status_case("validation ok", good, 6, AUDIT_OK, "st-anchor");
	ok(!audit_find(&rep, "st-validation-failing"),
	   "validation=ok: no finding");
	status_case("with a warning of the daemon's", warned, 3, AUDIT_WARNING,
		    "st-warning");
	f = audit_find(&rep, "st-warning");
	ok(f && strstr(f->message, "dnstrustd warns: trust-anchor-file /k") &&
		   strstr(f->fix, "remove the RFC 5011 state file"),
	   "the warning said, with the fix of its kind: %s",
	   f ? f->fix : "");
}

/* --- the report and files --- */

static void test_report(void)
{
	memset(&rep, 0, sizeof(rep));
	ok(audit_worst(&rep) == AUDIT_OK, "an empty report is OK");
	for (int i = 0; i < AUDIT_MAX_FINDINGS; i++)
		audit_add(&rep, AUDIT_INFO, "x", "a", "finding %d", i);
	audit_add(&rep, AUDIT_CRITICAL, "y", "a", "one too many");
	audit_fix(&rep, "ignored");
	ok(rep.n == AUDIT_MAX_FINDINGS && rep.dropped == 1 &&
		   audit_worst(&rep) == AUDIT_CRITICAL,
	   "a dropped critical finding still decides the verdict");
	ok(rep.f[rep.n - 1].fix[0] == '\0', "the fix of a dropped finding "
					    "goes nowhere");

	char big[AUDIT_MESSAGE_MAX * 2];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memset(&rep, 0, sizeof(rep));
	audit_add(&rep, AUDIT_OK, "z", "a", "%s", big);
	ok(strlen(rep.f[0].message) == AUDIT_MESSAGE_MAX - 1 &&
		   strcmp(rep.f[0].message + AUDIT_MESSAGE_MAX - 4, "...") == 0,
	   "a long message is cut and marked");
}

static void test_files(void)
{
	char dir[] = "/tmp/test_audit.XXXXXX", path[64];
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/resolv.conf", dir);
	f = fopen(path, "w");
	fputs("nameserver 192.0.2.1\n", f);
	fclose(f);
	chmod(path, 0666);
	memset(&rep, 0, sizeof(rep));
	ok(audit_resolv_file(path, &rep, &text, &len) == 0 && text &&
		   len == 21 && audit_find(&rep, "rc-mode"),
	   "a resolv.conf writable by anyone: read, and critical");
	free(text);
	chmod(path, 0644);
	memset(&rep, 0, sizeof(rep));
	audit_resolv_file(path, &rep, &text, &len);
	ok(!audit_find(&rep, "rc-mode"), "mode 0644: no mode finding");
	free(text);
	memset(&rep, 0, sizeof(rep));
	chmod(path, 0620);
	audit_admin_file(path, &rep);
	ok(audit_find(&rep, "cfg-mode") &&
		   strstr(audit_find(&rep, "cfg-mode")->message, "its group"),
	   "a configuration file its group may write: critical");
	unlink(path);
	memset(&rep, 0, sizeof(rep));
	ok(audit_resolv_file(path, &rep, &text, &len) == 1 && !text &&
		   rep.n == 0,
	   "a missing resolv.conf: 1, no finding of its own");
	rmdir(dir);
}

/* The fixes in an order that never breaks resolution: the daemon's
 * prerequisites and the daemon before nsswitch.conf, whatever the
 * severities; findings without a fix last. */
static void test_order(void)
{
	size_t idx[AUDIT_MAX_FINDINGS];

	memset(&rep, 0, sizeof(rep));
	audit_add(&rep, AUDIT_OK, "daemon-ok", "dnstrustd", "x");
	audit_add(&rep, AUDIT_CRITICAL, "nss-absent", "nsswitch.conf", "x");
	audit_fix(&rep, "hosts: files dnstrust");
	audit_add(&rep, AUDIT_CRITICAL, "daemon-down", "dnstrustd", "x");
	audit_fix(&rep, "systemctl start dnstrustd");
	audit_add(&rep, AUDIT_WARNING, "cfg-user", "dnstrust.conf", "x");
	audit_fix(&rep, "useradd");
	audit_add(&rep, AUDIT_CRITICAL, "rc-mode", "resolv.conf", "x");
	audit_fix(&rep, "chmod 644");
	audit_add(&rep, AUDIT_INFO, "rc-link", "resolv.conf", "x");
	audit_order(&rep, idx);
	const char *want[] = {"cfg-user", "daemon-down", "rc-mode",
			      "nss-absent", "rc-link", "daemon-ok"};
	bool same = true;
	for (size_t i = 0; i < 6; i++)
		same &= strcmp(rep.f[idx[i]].id, want[i]) == 0;
	ok(same, "order: user, daemon, resolv.conf, nsswitch.conf, then "
		 "the findings without a fix");
}

int main(void)
{
	test_order();
	test_nss_cases();
	test_nss_parse();
	test_nss_limits();
	test_rc_cases();
	test_status();
	test_report();
	test_files();
	return done_testing();
}
