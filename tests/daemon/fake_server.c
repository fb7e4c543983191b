/* SPDX-License-Identifier: MIT */
/*
 * A worker of src/daemon/server.c serving a Unix socket in a thread of
 * its own, with resolution, the cache and the admin names faked: a
 * question for a name under "big." is a cache hit with a 4,000-octet
 * reply; one under "slow." goes to a task answered 50 ms later; any other
 * is a cache hit with a header-only reply. For test_server.c and the
 * stream fuzz target.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/admin.h"
#include "daemon/admin_ops.h"
#include "daemon/hotspot.h"
#include "daemon/resolve.h"
#include "resolver/render.h"
#include "daemon/server.h"
#include "fake_server.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* --- resolve.c, render.c, admin.c, admin_ops.c and hotspot.c --- */

unsigned fake_cache_calls;		/* resolve_cached() so far */
static struct rsv_waiter *slow;		/* questions under way */
static struct loop_timer slow_timer;

static struct waiter *waiter_of(struct rsv_waiter *rw)
{
	return (struct waiter *)((char *)rw - offsetof(struct waiter, rw));
}

size_t render_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		    const char *text, uint8_t *buf, size_t cap)
{
	(void)ede;
	(void)text;
	(void)cap;
	memset(buf, 0, DT_MSG_HDRLEN);
	buf[0] = (uint8_t)(q->id >> 8);
	buf[1] = (uint8_t)q->id;
	buf[2] = 0x80;
	buf[3] = (uint8_t)rcode;
	return DT_MSG_HDRLEN;
}

static bool under(const uint8_t *name, const char *zone)
{
	uint8_t z[DT_NAME_MAXLEN];

	wire_dname_from_str(zone, strlen(zone), NULL, z);
	return wire_dname_is_subdomain(name, z);
}

size_t resolve_cached(struct worker *wk, const struct qinfo *q, uint8_t *buf,
		      size_t cap)
{
	size_t len;

	(void)wk;
	if (under(q->qname, "slow."))
		return 0;
	__atomic_fetch_add(&fake_cache_calls, 1, __ATOMIC_RELAXED);
	len = render_error(q, 0, 0, NULL, buf, cap);
	if (under(q->qname, "big.")) {
		memset(buf + len, 0, 4000 - len);
		len = 4000;
	}
	return len;
}

bool hotspot_peer_allowed(struct daemon *d, uid_t uid, gid_t gid)
{
	(void)d;
	(void)gid;
	return uid == 0;
}

size_t admin_answer(struct worker *wk, const struct qinfo *q, uint8_t *buf,
		    size_t cap)
{
	(void)wk;
	return render_error(q, 5, 0, NULL, buf, cap);
}

/* dnstrust monitor's record of a cache hit: nobody watches here. */
void admin_ops_cache_hit(struct worker *wk, const struct qinfo *q)
{
	(void)wk;
	(void)q;
}

static void slow_answer(struct loop_timer *t)
{
	static uint8_t buf[DT_MSG_HDRLEN];

	(void)t;
	while (slow) {
		struct waiter *wt = waiter_of(slow);
		slow = slow->next;
		wt->rw.task = NULL;
		waiter_reply(
			wt, buf,
			render_error(&wt->rw.q, 0, 0, NULL, buf, sizeof(buf)));
	}
}

void resolve_submit(struct worker *wk, struct waiter *wt)
{
	wt->rw.next = slow;
	wt->rw.task = (struct rsv_task *)&slow; /* any non-NULL mark */
	slow = &wt->rw;
	slow_timer.cb = slow_answer;
	loop_timer_start(wk->loop, &slow_timer, 50);
}

void resolve_detach(struct waiter *wt)
{
	for (struct rsv_waiter **p = &slow; *p; p = &(*p)->next) {
		if (*p == &wt->rw) {
			*p = wt->rw.next;
			break;
		}
	}
	wt->rw.task = NULL;
}

void resolve_shutdown(struct worker *wk)
{
	loop_timer_stop(wk->loop, &slow_timer);
	while (slow) {
		struct waiter *wt = waiter_of(slow);
		slow = slow->next;
		waiter_free(wt);
	}
}

/* --- a worker serving a socket --- */

static struct daemon d;
static struct dstate st;
static struct worker w;
static pthread_t thread;
static char path[108];

static void *run(void *arg)
{
	(void)arg;
	loop_run(w.loop);
	return NULL;
}

static void stop(void *arg)
{
	(void)arg;
	server_detach(&w);
	loop_stop(w.loop);
}

const char *fake_serve(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	snprintf(path, sizeof(path), "/tmp/dt-fake-server.%d", (int)getpid());
	memcpy(sa.sun_path, path, strlen(path) + 1);
	unlink(path);
	d.unix_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (d.unix_fd < 0 ||
	    bind(d.unix_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(d.unix_fd, 128) < 0)
		return NULL;
	cfg_default(&st.cfg);
	st.refs = 1;
	d.st = &st;
	d.admin_uid = (uid_t)-1;
	w.d = &d;
	w.st = &st;
	w.loop = loop_new();
	if (!w.loop || server_attach(&w, NULL) < 0)
		return NULL;
	return pthread_create(&thread, NULL, run, NULL) == 0 ? path : NULL;
}

void fake_stop(void)
{
	loop_post(w.loop, stop, NULL);
	pthread_join(thread, NULL);
	loop_free(w.loop);
	close(d.unix_fd);
	unlink(path);
}

