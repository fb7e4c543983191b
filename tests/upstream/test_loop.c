/* SPDX-License-Identifier: MIT */
/*
 * src/common/loop.c: timers in order, re-armed and stopped from
 * callbacks (their own and others'), file descriptors deleted while their
 * events are pending in the same batch, posts from another thread, the
 * clocks, work for idle time.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/loop.h"
#include "tap.h"

static struct loop *L;

/* A timer that stops the loop after ms, so a broken test cannot hang. */
static struct loop_timer guard;

static void guard_fired(struct loop_timer *t)
{
	*(int *)t->arg = 1;
	loop_stop(L);
}

static int run_for(int64_t ms)
{
	int fired = 0;

	guard.cb = guard_fired;
	guard.arg = &fired;
	loop_timer_start(L, &guard, ms);
	loop_run(L);
	loop_timer_stop(L, &guard);
	return fired;
}

/* --- timers in order --- */

struct rec {
	struct loop_timer t;
	int id;
	int *log;
	int *n;
};

static void rec_fired(struct loop_timer *t)
{
	struct rec *r = t->arg;

	r->log[(*r->n)++] = r->id;
}

static void test_order(void)
{
	static const int64_t ms[] = {30, 10, 0, 20, 5};
	struct rec r[5];
	int log[5] = {0}, n = 0;
	int64_t t0 = loop_now_ms(L);

	for (int i = 0; i < 5; i++) {
		r[i] = (struct rec){.id = (int)ms[i], .log = log, .n = &n};
		r[i].t.cb = rec_fired;
		r[i].t.arg = &r[i];
		loop_timer_start(L, &r[i].t, ms[i]);
	}
	run_for(60);
	is_int(n, 5, "five timers fired");
	ok(log[0] == 0 && log[1] == 5 && log[2] == 10 && log[3] == 20 &&
		   log[4] == 30,
	   "in deadline order (%d %d %d %d %d)", log[0], log[1], log[2], log[3],
	   log[4]);
	ok(loop_now_ms(L) - t0 >= 60, "the loop's clock moved on");
	for (int i = 0; i < 5; i++)
		ok(r[i].t.heap_index == 0, "timer %d disarmed after firing", i);
}

/* Many timers with random deadlines, half of them stopped before. */
static int64_t last_deadline;
static int order_ok, many_fired;

static void many_cb(struct loop_timer *t)
{
	if (t->deadline_ms < last_deadline)
		order_ok = 0;
	last_deadline = t->deadline_ms;
	many_fired++;
}

static void test_many(void)
{
	enum { N = 1000 };
	struct loop_timer *t = calloc(N, sizeof(*t));

	order_ok = 1;
	last_deadline = 0;
	many_fired = 0;
	srand(4);
	for (int i = 0; i < N; i++) {
		t[i].cb = many_cb;
		loop_timer_start(L, &t[i], rand() % 40);
	}
	for (int i = 0; i < N; i += 2)
		loop_timer_stop(L, &t[i]);
	for (int i = 0; i < N; i += 4)
		loop_timer_stop(L, &t[i]); /* already stopped: no-op */
	run_for(60);
	is_int(many_fired, N / 2, "the %d timers not stopped fired", N / 2);
	ok(order_ok, "never an earlier deadline after a later one");
	free(t);
}

/* --- re-arming, stopping from callbacks --- */

static int rearm_count;

static void rearm_cb(struct loop_timer *t)
{
	if (++rearm_count < 3)
		loop_timer_start(L, t, 5);
}

static void test_rearm(void)
{
	struct loop_timer t = {.cb = rearm_cb};
	int64_t t0 = loop_now_ms(L);

	rearm_count = 0;
	loop_timer_start(L, &t, 5);
	run_for(50);
	is_int(rearm_count, 3, "re-armed from its callback: fired 3 times");

	/* Starting an armed timer moves it. */
	rearm_count = 2;
	loop_timer_start(L, &t, 5);
	loop_timer_start(L, &t, 30);
	t0 = loop_now_ms(L);
	run_for(15);
	is_int(rearm_count, 2, "re-armed later: not fired at the old time");
	run_for(30);
	is_int(rearm_count, 3, "fired once at the new time");
	ok(loop_now_ms(L) - t0 >= 30, "not before it");
	loop_timer_stop(L, &t);
	ok(t.heap_index == 0, "stopping a stopped timer is a no-op");
}

struct pair {
	struct loop_timer a, b;
	int fired_a, fired_b;
};

static void pair_a(struct loop_timer *t)
{
	struct pair *p = t->arg;

	p->fired_a++;
	loop_timer_stop(L, &p->b);
	loop_timer_stop(L, t);
}

static void pair_b(struct loop_timer *t)
{
	struct pair *p = t->arg;

	p->fired_b++;
	loop_timer_stop(L, &p->a);
}

static void self_free(struct loop_timer *t)
{
	*(int *)t->arg += 1;
	free(t);
}

/* A timer re-armed for 0 ms from its own callback, forever. */
static void busy_cb(struct loop_timer *t)
{
	(*(int *)t->arg)++;
	loop_timer_start(L, t, 0);
}

static void test_delete_in_callback(void)
{
	struct pair p = {.a.cb = pair_a, .b.cb = pair_b};
	struct loop_timer *f = calloc(1, sizeof(*f));
	struct loop_timer busy = {.cb = busy_cb};
	int freed = 0, spins = 0, guard_fired_flag;

	p.a.arg = p.b.arg = &p;
	loop_timer_start(L, &p.a, 10);
	loop_timer_start(L, &p.b, 10);
	f->cb = self_free;
	f->arg = &freed;
	loop_timer_start(L, f, 10);
	run_for(30);
	is_int(p.fired_a + p.fired_b, 1,
	       "of two timers due together, the one that ran first stopped "
	       "the other");
	is_int(freed, 1, "a timer freed by its own callback");

	busy.arg = &spins;
	loop_timer_start(L, &busy, 0);
	guard_fired_flag = run_for(20);
	loop_timer_stop(L, &busy);
	ok(guard_fired_flag && spins > 1,
	   "a timer re-armed for 0 ms does not starve the others (%d runs)",
	   spins);
}

/* --- file descriptors --- */

struct pio {
	struct loop_io io;
	int rfd, wfd;
	uint32_t got;
	int calls;
	struct pio *other;
};

static void pio_cb(struct loop_io *io, uint32_t revents)
{
	struct pio *p = io->arg;
	char c;

	p->got = revents;
	p->calls++;
	if (revents & LOOP_READ)
		(void)!read(p->rfd, &c, 1);
	loop_stop(L);
}

static int pio_open(struct pio *p)
{
	int fds[2];

	if (pipe(fds) != 0)
		return -1;
	p->rfd = fds[0];
	p->wfd = fds[1];
	p->io.cb = pio_cb;
	p->io.arg = p;
	return 0;
}

static void pio_close(struct pio *p)
{
	if (p->rfd >= 0)
		close(p->rfd);
	if (p->wfd >= 0)
		close(p->wfd);
	p->rfd = p->wfd = -1;
}

static void test_io(void)
{
	struct pio p = {0};

	if (!ok(pio_open(&p) == 0, "pipe"))
		return;
	is_int(loop_io_add(L, &p.io, p.rfd, LOOP_READ), 0, "io added");
	is_int(p.io.fd, p.rfd, "io->fd set");
	run_for(20);
	is_int(p.calls, 0, "nothing to read: no callback");
	(void)!write(p.wfd, "x", 1);
	run_for(100);
	ok(p.calls == 1 && p.got == LOOP_READ, "readable: LOOP_READ");
	loop_io_del(L, &p.io);
	is_int(loop_io_add(L, &p.io, p.wfd, LOOP_READ), 0, "write end added");
	is_int(loop_io_mod(L, &p.io, LOOP_WRITE), 0, "watched for writing");
	is_int(p.io.events, LOOP_WRITE, "io->events updated");
	p.calls = 0;
	run_for(100);
	ok(p.calls == 1 && (p.got & LOOP_WRITE), "writable: LOOP_WRITE");
	loop_io_del(L, &p.io);
	is_int(loop_io_add(L, &p.io, p.rfd, LOOP_READ), 0, "read end again");
	close(p.wfd);
	p.wfd = -1;
	p.calls = 0;
	run_for(100);
	ok(p.calls == 1 && (p.got & LOOP_ERROR), "writer gone: LOOP_ERROR");
	loop_io_del(L, &p.io);
	is_int(loop_io_mod(L, &p.io, LOOP_READ), -ENOENT,
	       "mod of a deleted io: -ENOENT");
	is_int(loop_io_add(L, &p.io, 9999, LOOP_READ), -EBADF,
	       "add of a bad fd: -EBADF");
	pio_close(&p);
}

/* Both pipes are readable in the same batch; whichever callback runs
 * first deletes, closes and frees the other. */
static int batch_calls;
static struct pio *survivor;

static void batch_cb(struct loop_io *io, uint32_t revents)
{
	struct pio *p = io->arg, *o = p->other;

	(void)revents;
	batch_calls++;
	survivor = p;
	if (o) {
		loop_io_del(L, &o->io);
		pio_close(o);
		free(o);
		p->other = NULL;
	}
	loop_io_del(L, io);
}

static void test_delete_pending(void)
{
	struct pio *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	if (!ok(pio_open(a) == 0 && pio_open(b) == 0, "two pipes"))
		return;
	a->other = b;
	b->other = a;
	a->io.cb = b->io.cb = batch_cb;
	(void)!write(a->wfd, "x", 1);
	(void)!write(b->wfd, "x", 1);
	loop_io_add(L, &a->io, a->rfd, LOOP_READ);
	loop_io_add(L, &b->io, b->rfd, LOOP_READ);
	batch_calls = 0;
	survivor = NULL;
	run_for(30);
	is_int(batch_calls, 1,
	       "an io deleted and freed while its event was pending: its "
	       "callback never ran");
	if (survivor) {
		pio_close(survivor);
		free(survivor);
	}
}

/* An io deleted and registered again, with the same struct, for another
 * fd: the new fd's events arrive. */
static void test_reuse(void)
{
	struct pio p = {0}, q = {0};
	int first_rfd;

	if (!ok(pio_open(&p) == 0 && pio_open(&q) == 0, "two more pipes"))
		return;
	(void)!write(p.wfd, "x", 1);
	loop_io_add(L, &p.io, p.rfd, LOOP_READ);
	run_for(50);
	is_int(p.calls, 1, "first fd seen");
	loop_io_del(L, &p.io);
	(void)!write(q.wfd, "y", 1);
	first_rfd = p.rfd;
	p.rfd = q.rfd;
	loop_io_add(L, &p.io, q.rfd, LOOP_READ);
	run_for(50);
	is_int(p.calls, 2, "same struct, another fd: seen too");
	loop_io_del(L, &p.io);
	close(first_rfd);
	close(p.wfd);
	pio_close(&q);
}

/* --- posts --- */

enum { NPOSTS = 2000 };
static int post_log[NPOSTS], nposted;
static pthread_t loop_thread;
static int wrong_thread;

static void post_cb(void *arg)
{
	if (!pthread_equal(pthread_self(), loop_thread))
		wrong_thread++;
	if (nposted < NPOSTS)
		post_log[nposted++] = (int)(intptr_t)arg;
}

static void post_stop(void *arg)
{
	(void)arg;
	loop_stop(L);
}

static void *poster(void *arg)
{
	struct timespec ts = {0, 20 * 1000 * 1000};

	(void)arg;
	/* Let the loop block in epoll_wait first. */
	nanosleep(&ts, NULL);
	for (int i = 0; i < NPOSTS; i++)
		while (loop_post(L, post_cb, (void *)(intptr_t)i) != 0)
			;
	loop_post(L, post_stop, NULL);
	return NULL;
}

static void test_posts(void)
{
	pthread_t th;
	int in_order = 1, guard_fired_flag;

	nposted = 0;
	loop_thread = pthread_self();
	if (!ok(pthread_create(&th, NULL, poster, NULL) == 0, "poster thread"))
		return;
	guard_fired_flag = run_for(5000);
	pthread_join(th, NULL);
	ok(!guard_fired_flag, "loop_stop posted from another thread stopped "
			      "the loop");
	is_int(nposted, NPOSTS, "every post ran");
	for (int i = 0; i < nposted; i++)
		in_order &= post_log[i] == i;
	ok(in_order, "in the order they were made");
	is_int(wrong_thread, 0, "on the loop's thread");

	/* A post from the loop's own thread, and posts never run. */
	nposted = 0;
	loop_post(L, post_cb, (void *)(intptr_t)7);
	run_for(10);
	ok(nposted == 1 && post_log[0] == 7, "post from the loop's thread");
}

/* --- clocks --- */

static void test_clocks(void)
{
	int64_t wall = loop_wallclock(L), now = time(NULL);

	ok(wall >= now - 2 && wall <= now + 2, "wall clock is the time");
	loop_set_wallclock_offset(L, -86400);
	ok(loop_wallclock(L) == wall - 86400, "offset applies at once");
	run_for(5);
	ok(loop_wallclock(L) >= now - 86402 && loop_wallclock(L) <= now - 86398,
	   "and keeps applying");
	loop_set_wallclock_offset(L, 0);
	ok(loop_wallclock(L) >= now - 2, "offset cleared");
	ok(loop_now_ms(L) > 0, "monotonic ms");
}

/* loop_set_idle: steps run only while nothing is ready; a readable pipe
 * and a due timer go first; the hook is forgotten once it says so. */
struct idle_rec {
	int steps;
	int limit;
	int io_before; /* p.calls seen at the first step */
	struct pio *p;
};

static bool idle_step(void *arg)
{
	struct idle_rec *r = arg;

	if (r->steps++ == 0)
		r->io_before = r->p->calls;
	return r->steps < r->limit;
}

static void test_idle(void)
{
	struct pio p = {0};
	struct idle_rec r = {.limit = 3, .io_before = -1, .p = &p};

	if (!ok(pio_open(&p) == 0, "pipe"))
		return;
	is_int(loop_io_add(L, &p.io, p.rfd, LOOP_READ), 0, "io added");
	(void)!write(p.wfd, "x", 1);
	loop_set_idle(L, idle_step, &r);
	run_for(50); /* pio_cb stops the loop */
	ok(p.calls == 1 && r.steps == 0,
	   "a readable fd is dispatched before idle work");
	run_for(50);
	is_int(r.io_before, 1, "idle work once nothing is ready");
	is_int(r.steps, 3, "idle steps until the hook says it is done");
	run_for(20);
	is_int(r.steps, 3, "a finished hook is forgotten");
	r.steps = 0;
	r.limit = 1000000;
	loop_set_idle(L, idle_step, &r);
	loop_set_idle(L, NULL, NULL);
	run_for(20);
	is_int(r.steps, 0, "loop_set_idle(NULL) forgets it at once");
	loop_io_del(L, &p.io);
	pio_close(&p);
}

int main(void)
{
	struct loop *other;

	L = loop_new();
	if (!ok(L != NULL, "loop_new"))
		return done_testing();
	test_order();
	test_many();
	test_rearm();
	test_delete_in_callback();
	test_io();
	test_delete_pending();
	test_reuse();
	test_posts();
	test_clocks();
	test_idle();
	loop_free(L);

	/* Pending posts are dropped by loop_free (ASan: nothing leaks). */
	other = loop_new();
	L = other;
	nposted = 0;
	loop_post(other, post_cb, NULL);
	loop_post(other, post_cb, NULL);
	loop_free(other);
	is_int(nposted, 0, "posts pending at loop_free do not run");
	loop_free(NULL);
	return done_testing();
}
