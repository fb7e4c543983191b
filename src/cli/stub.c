/* SPDX-License-Identifier: MIT */
/*
 * dnstrust stub enable|disable|status: stub mode's hand on
 * /etc/resolv.conf. dnstrustd writes its stub file (stub-resolv-conf) and
 * never touches /etc; enable makes /etc/resolv.conf a symbolic link to
 * that file, keeping the original (a file or a link) as
 * /etc/resolv.conf.dnstrust-orig; disable puts the original back. Each
 * step replaces the name by rename, so a program reading resolv.conf
 * meanwhile sees the old one or the new one, never none.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "policy/config.h"
#include "upstream/source.h"

/* The original's name: next to it, so that rename keeps it whole. */
#define STUB_ORIG_SUFFIX ".dnstrust-orig"
#define STUB_NEW_SUFFIX ".dnstrust-new"

struct stub_opts {
	const char *config;	 /* --config PATH */
	const char *resolv_conf; /* --resolv-conf PATH: the file replaced */
	struct cfg cfg;
	char orig[PATH_MAX];
	char tmp[PATH_MAX];
};

static void stub_usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrust stub enable|disable|status [--config PATH] "
		"[--resolv-conf PATH]\n"
		"enable makes /etc/resolv.conf a link to dnstrustd's "
		"stub-resolv-conf, keeping\nthe original as "
		"/etc/resolv.conf" STUB_ORIG_SUFFIX
		"; disable puts it back.\n"
		"options:\n"
		"  --config PATH       dnstrustd's configuration (default "
		"%s)\n"
		"  --resolv-conf PATH  the file replaced (default "
		"/etc/resolv.conf)\n"
		"  -h, --help          this help\n",
		CFG_DEFAULT_PATH);
}

/* Whether path is a symbolic link to target. */
static bool links_to(const char *path, const char *target)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return strcmp(buf, target) == 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* The source dnstrustd reads is the file stub mode replaces: it would
 * then read its own stub and have no upstream. */
static bool source_is(const struct cfg *c, const char *path)
{
	const char *cand[UP_SOURCE_NKINDS];
	enum up_source_kind k = c->upstream_source;

	if (k != UP_SOURCE_AUTO)
		return k == UP_SOURCE_FILE && strcmp(c->resolv_conf, path) == 0;
	for (int i = 0; i < UP_SOURCE_NKINDS; i++)
		cand[i] = up_source_default_path(i);
	cand[UP_SOURCE_FILE] = path;
	return up_source_auto(cand) == UP_SOURCE_FILE;
}

static int stub_enable(struct stub_opts *o)
{
	const char *stub = o->cfg.stub_resolv_conf, *rc = o->resolv_conf;

	if (links_to(rc, stub)) {
		printf("stub mode is already on: %s -> %s\n", rc, stub);
		return 0;
	}
	if (exists(o->orig)) {
		fprintf(stderr,
			"dnstrust stub: %s exists (an earlier original): "
			"move it away or run dnstrust stub disable first\n",
			o->orig);
		return 1;
	}
	if (access(stub, R_OK) != 0) {
		fprintf(stderr,
			"dnstrust stub: %s: %s: dnstrustd writes it once "
			"started (or reloaded) with stub-resolv-conf\n",
			stub, strerror(errno));
		return 1;
	}
	if (source_is(&o->cfg, rc)) {
		fprintf(stderr,
			"dnstrust stub: dnstrustd takes its upstreams from %s, "
			"which stub mode replaces: set upstream-source (e.g. "
			"file %s after copying it there) first\n",
			rc, o->orig);
		return 1;
	}
	unlink(o->tmp);
	if (symlink(stub, o->tmp) < 0 ||
	    (exists(rc) && link(rc, o->orig) < 0) || rename(o->tmp, rc) < 0) {
		fprintf(stderr, "dnstrust stub: %s: %s\n", rc, strerror(errno));
		unlink(o->tmp);
		return 1;
	}
	printf("stub mode on: %s -> %s (the original kept as %s)\n", rc, stub,
	       o->orig);
	return 0;
}

static int stub_disable(struct stub_opts *o)
{
	const char *rc = o->resolv_conf;

	if (!exists(o->orig)) {
		printf("stub mode is off: no %s to restore\n", o->orig);
		return 0;
	}
	if (exists(rc) && !links_to(rc, o->cfg.stub_resolv_conf)) {
		fprintf(stderr,
			"dnstrust stub: %s was replaced since stub mode was "
			"turned on; the original stays in %s\n",
			rc, o->orig);
		return 1;
	}
	if (rename(o->orig, rc) < 0) {
		fprintf(stderr, "dnstrust stub: %s: %s\n", rc, strerror(errno));
		return 1;
	}
	printf("stub mode off: %s restored\n", rc);
	return 0;
}

static int stub_status(struct stub_opts *o)
{
	const char *stub = o->cfg.stub_resolv_conf, *rc = o->resolv_conf;

	if (stub[0] && links_to(rc, stub))
		printf("on: %s -> %s%s%s\n", rc, stub,
		       exists(o->orig) ? ", the original kept as " : "",
		       exists(o->orig) ? o->orig : "");
	else
		printf("off: %s is not a link to %s\n", rc,
		       stub[0] ? stub : "a stub-resolv-conf (none set)");
	return 0;
}

static int stub_args(int argc, char **argv, struct stub_opts *o)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"resolv-conf", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			stub_usage(stdout);
			return 0;
		}
		if (c == 'c')
			o->config = optarg;
		else if (c == 'r')
			o->resolv_conf = optarg;
		else
			return -1;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "dnstrust stub: %s\n",
			optind == argc ? "enable, disable or status?"
				       : "one word: enable, disable or status");
		return -1;
	}
	return 1;
}

int cmd_stub(int argc, char **argv)
{
	struct stub_opts o = {.resolv_conf = UP_SOURCE_FILE_PATH};
	const char *verb;
	char err[512];
	int r = stub_args(argc, argv, &o);

	if (r <= 0) {
		if (r < 0)
			stub_usage(stderr);
		return r < 0 ? CLI_EXIT_USAGE : 0;
	}
	verb = argv[optind];
	if (strcmp(verb, "enable") && strcmp(verb, "disable") &&
	    strcmp(verb, "status")) {
		fprintf(stderr,
			"dnstrust stub: '%s' is not enable, disable or "
			"status\n",
			verb);
		stub_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (cfg_load(o.config ? o.config : CFG_DEFAULT_PATH, o.config != NULL,
		     &o.cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "dnstrust stub: %s\n", err);
		return 1;
	}
	snprintf(o.orig, sizeof(o.orig), "%s" STUB_ORIG_SUFFIX, o.resolv_conf);
	snprintf(o.tmp, sizeof(o.tmp), "%s" STUB_NEW_SUFFIX, o.resolv_conf);
	if (strcmp(verb, "status") == 0)
		return stub_status(&o);
	if (strcmp(verb, "disable") == 0)
		return stub_disable(&o);
	if (!o.cfg.stub_resolv_conf[0]) {
		fprintf(stderr,
			"dnstrust stub: stub-resolv-conf is not set in %s "
			"(see dnstrust.conf(5))\n",
			o.config ? o.config : CFG_DEFAULT_PATH);
		return 1;
	}
	return stub_enable(&o);
}
