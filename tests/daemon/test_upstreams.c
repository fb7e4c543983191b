/* SPDX-License-Identifier: MIT */
/*
 * src/daemon/upstreams.c's notices: a server whose verdict flips many
 * times (answers with RRSIGs, then without, and so on) gets
 * DT_UP_NOTICE_BURST lines in the log, as does the judgement that flips
 * with it, while the table, the judgement and the mode handed to
 * set_recursing follow every flip; another server's notice still shows.
 * The log (stderr) is read back from a file. The servers are UDP sockets
 * of this test that never answer (the probes ask them; the test ends
 * long before a probe's timeout).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../tap.h"
#include "common/log.h"
#include "daemon/daemon.h"
#include "daemon/upstreams.h"
#include "upstream/capab.h"

static int modes, last_on = -1, told;

static void set_recursing(struct daemon *d, bool on, const char *why)
{
	(void)d;
	modes++;
	last_on = on;
	told += why != NULL;
}

/* A silent server: a bound socket never read. */
static int silent(struct up_server *ret)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t al = sizeof(a);
	char text[64];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &al) < 0)
		return -1;
	snprintf(text, sizeof(text), "127.0.0.1@%u", ntohs(a.sin_port));
	return up_server_parse(text, ret) == 0 ? fd : -1;
}

static void stop(void *arg)
{
	loop_stop(arg);
}

/* One observation, and the main loop run until its event is handled. */
static void observe(struct daemon *d, const struct up_server *s,
		    enum capab_obs obs)
{
	capab_observe(upstreams_capab(d), s, obs);
	loop_post(d->loop, stop, d->loop);
	loop_run(d->loop);
}

/* Lines of the log file holding what. */
static int lines(FILE *f, const char *what)
{
	char line[1024];
	int n = 0;

	fflush(stderr);
	rewind(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, what) != NULL;
	return n;
}

static enum capab_tri verdict_of(struct daemon *d, const struct up_server *s)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = upstreams_list(d, v, DT_UP_MAXNS);

	for (size_t i = 0; i < n; i++)
		if (up_server_equal(&v[i].server, s))
			return v[i].dnssec;
	return CAPAB_UNKNOWN;
}

int main(void)
{
	static struct daemon d;
	struct up_server a, b;
	char name[80], what[128];
	FILE *log = tmpfile();
	int fa = silent(&a), fb = silent(&b), saved = dup(2);
	const int flips = 40;

	if (!log || fa < 0 || fb < 0 || saved < 0) {
		printf("1..0 # SKIP no temporary file or loopback socket\n");
		return 0;
	}
	d.loop = loop_new();
	d.upconf.ns[0] = a;
	d.upconf.ns[1] = b;
	d.upconf.nns = 2;
	d.set_recursing = set_recursing;
	dup2(fileno(log), 2);
	log_setup(true, LOG_INFO);
	if (upstreams_init(&d) < 0)
		abort();

	observe(&d, &a, CAPAB_ANSWER);
	observe(&d, &b, CAPAB_ANSWER);
	observe(&d, &b, CAPAB_RRSIG_STRIPPED);
	/* A held "no" turns "yes" again only with a clean probe (capab.h). */
	for (int i = 0; i < flips; i++) {
		observe(&d, &a, i % 2 ? CAPAB_RRSIG_STRIPPED : CAPAB_RRSIG_OK);
		if (i % 2 == 0)
			observe(&d, &a, CAPAB_PROBED);
	}
	up_server_str(&a, name, sizeof(name));
	snprintf(what, sizeof(what), "upstream %s: dnssec", name);

	is_int(lines(log, what), DT_UP_NOTICE_BURST,
	       "%d verdict flips of one server: %d notices", flips,
	       DT_UP_NOTICE_BURST);
	is_int(lines(log, "upstream judgement:"), DT_UP_NOTICE_BURST,
	       "the judgement flipping with it: %d notices",
	       DT_UP_NOTICE_BURST);
	/* b's "no" made it recursive, then each flip of a changed it. */
	ok(modes == flips + 1 && told == DT_UP_NOTICE_BURST,
	   "set_recursing told of every change (%d), with a reason for the "
	   "logged ones only (%d)",
	   modes, told);
	ok(verdict_of(&d, &a) == CAPAB_NO && last_on == 1 &&
		   upstreams_recursive(&d),
	   "the table and the judgement are the last flip's: no, recursive");

	up_server_str(&b, name, sizeof(name));
	observe(&d, &b, CAPAB_RRSIG_OK);
	observe(&d, &b, CAPAB_PROBED);
	snprintf(what, sizeof(what), "upstream %s: dnssec", name);
	is_int(lines(log, what), 2,
	       "the other server's own changes are still logged");
	is_int(lines(log, "not logged in the last"), 0,
	       "no summary before the window ends");

	dup2(saved, 2);
	upstreams_free(&d);
	loop_free(d.loop);
	close(fa);
	close(fb);
	return done_testing();
}
