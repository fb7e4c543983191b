/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/loop.h"
#include "drive/iter_net.h"
#include "upstream/transport.h"
#include "wire/msg.h"

struct it_net {
	struct loop *loop;
	struct up_client *up;
	struct iterator *it;
	struct loop_timer deliver;
};

static void on_answer(void *arg, int err, const struct up_answer *ans,
		      int last_rcode)
{
	struct it_io *io = arg;
	struct it_net *n = io->drv;

	it_recv(io, err, ans, last_rcode, loop_now_ms(n->loop));
}

static void *net_send(void *arg, const struct it_send *q, struct it_io *io)
{
	struct it_net *n = arg;
	unsigned flags = UP_Q_NORD | UP_Q_CASE | UP_Q_COOKIE;

	io->drv = n;
	if (q->case_strict)
		flags |= UP_Q_CASE_STRICT;
	return up_query_ex(n->up, q->name, q->type, WIRE_CLASS_IN, q->conf,
			   flags, on_answer, io);
}

static void net_cancel(void *arg, void *handle)
{
	(void)arg;
	up_cancel(handle);
}

static void net_wake(void *arg)
{
	struct it_net *n = arg;

	if (!n->deliver.heap_index)
		loop_timer_start(n->loop, &n->deliver, 0);
}

static void on_deliver(struct loop_timer *t)
{
	struct it_net *n = t->arg;

	it_deliver(n->it, loop_now_ms(n->loop));
}

struct it_net *it_net_new(struct loop *loop, struct up_client *up,
			  const struct it_hints *hints)
{
	struct it_net *n = calloc(1, sizeof(*n));
	struct it_env env = {
		.send = net_send, .cancel = net_cancel, .wake = net_wake};
	uint64_t seed = 0;

	if (!n)
		return NULL;
	if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
		seed = (uint64_t)loop_now_ms(loop) ^ (uintptr_t)n;
	n->loop = loop;
	n->up = up;
	n->deliver.cb = on_deliver;
	n->deliver.arg = n;
	env.arg = n;
	if (!(n->it = it_new(&env, hints, seed))) {
		free(n);
		return NULL;
	}
	return n;
}

struct iterator *it_net_core(struct it_net *n)
{
	return n->it;
}

void it_net_free(struct it_net *n)
{
	if (!n)
		return;
	it_free(n->it);
	loop_timer_stop(n->loop, &n->deliver);
	free(n);
}
