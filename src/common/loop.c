/* SPDX-License-Identifier: MIT */
/*
 * The event loop of loop.h. Timers live in a binary min-heap of pointers
 * (1-based, so heap_index 0 means "not armed"); file descriptors in epoll
 * with the caller's struct loop_io as event data; posts in a list guarded
 * by a mutex and announced through an eventfd.
 *
 * Callbacks may delete any io or timer, their own included, and free the
 * struct holding it: the loop never touches an io or a timer after
 * calling its callback, and loop_io_del() erases the io from the epoll
 * batch being dispatched so a pending event of a deleted io is never
 * delivered.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "common/loop.h"

/* Events taken from epoll per iteration; more wait for the next one. */
#define LOOP_BATCH 64
/* Heap slots allocated up front: a worker's usual timers fit without
 * another allocation. */
#define LOOP_HEAP_INITIAL 64

struct loop_post {
	struct loop_post *next;
	void (*fn)(void *arg);
	void *arg;
};

struct loop {
	int epfd;
	int evfd;
	struct loop_io evio; /* the eventfd, for posts */
	bool stop;

	struct loop_timer **heap; /* heap[1..nheap] */
	size_t nheap;
	size_t capheap; /* slots, heap[0] unused */

	int64_t now_ms;
	int64_t wall;
	int64_t wall_offset;

	/* The epoll batch being dispatched; loop_io_del() clears entries. */
	struct epoll_event batch[LOOP_BATCH];
	int nbatch;

	pthread_mutex_t lock; /* guards posts and post_tail */
	struct loop_post *posts;
	struct loop_post **post_tail;

	bool (*idle)(void *arg); /* loop_set_idle */
	void *idle_arg;
};

static void loop_update_time(struct loop *loop)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	loop->now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	clock_gettime(CLOCK_REALTIME, &ts);
	loop->wall = (int64_t)ts.tv_sec;
}

void loop_update(struct loop *loop)
{
	loop_update_time(loop);
}

/* --- timers: a binary min-heap on deadline_ms --- */

static bool heap_less(const struct loop *loop, size_t a, size_t b)
{
	return loop->heap[a]->deadline_ms < loop->heap[b]->deadline_ms;
}

static void heap_swap(struct loop *loop, size_t a, size_t b)
{
	struct loop_timer *t = loop->heap[a];

	loop->heap[a] = loop->heap[b];
	loop->heap[b] = t;
	loop->heap[a]->heap_index = a;
	loop->heap[b]->heap_index = b;
}

static void heap_up(struct loop *loop, size_t i)
{
	while (i > 1 && heap_less(loop, i, i / 2)) {
		heap_swap(loop, i, i / 2);
		i /= 2;
	}
}

static void heap_down(struct loop *loop, size_t i)
{
	for (;;) {
		size_t l = 2 * i, r = l + 1, m = i;

		if (l <= loop->nheap && heap_less(loop, l, m))
			m = l;
		if (r <= loop->nheap && heap_less(loop, r, m))
			m = r;
		if (m == i)
			return;
		heap_swap(loop, i, m);
		i = m;
	}
}

/* The heap only grows; a failure here is one of a few pointers, which
 * leaves no sane way to go on (loop_timer_start() cannot fail). */
static void heap_reserve(struct loop *loop)
{
	struct loop_timer **h;
	size_t cap;

	if (loop->nheap + 1 < loop->capheap)
		return;
	cap = loop->capheap * 2;
	h = realloc(loop->heap, cap * sizeof(*h));
	if (!h) {
		fputs("loop: out of memory for the timer heap\n", stderr);
		abort();
	}
	loop->heap = h;
	loop->capheap = cap;
}

static void heap_remove(struct loop *loop, struct loop_timer *t)
{
	size_t i = t->heap_index, last = loop->nheap;

	t->heap_index = 0;
	loop->nheap--;
	if (i == last)
		return;
	loop->heap[i] = loop->heap[last];
	loop->heap[i]->heap_index = i;
	heap_up(loop, i);
	heap_down(loop, loop->heap[i]->heap_index);
}

void loop_timer_start(struct loop *loop, struct loop_timer *t, int64_t ms)
{
	if (t->heap_index)
		heap_remove(loop, t);
	if (ms < 0)
		ms = 0;
	t->deadline_ms = loop->now_ms + ms;
	heap_reserve(loop);
	loop->heap[++loop->nheap] = t;
	t->heap_index = loop->nheap;
	heap_up(loop, loop->nheap);
}

void loop_timer_stop(struct loop *loop, struct loop_timer *t)
{
	if (t->heap_index)
		heap_remove(loop, t);
}

/* Runs the timers that are due. At most as many as were armed when it
 * started: a timer re-armed for 0 ms from its callback waits for the next
 * iteration instead of starving the file descriptors. */
static void run_timers(struct loop *loop)
{
	size_t budget = loop->nheap;

	while (budget-- > 0 && loop->nheap > 0) {
		struct loop_timer *t = loop->heap[1];

		if (t->deadline_ms > loop->now_ms)
			return;
		heap_remove(loop, t);
		t->cb(t);
	}
}

/* Milliseconds epoll_wait may sleep: until the first deadline, or -1. */
static int next_timeout(const struct loop *loop)
{
	int64_t d;

	if (loop->nheap == 0)
		return -1;
	d = loop->heap[1]->deadline_ms - loop->now_ms;
	if (d <= 0)
		return 0;
	return d > INT_MAX ? INT_MAX : (int)d;
}

/* --- file descriptors --- */

static uint32_t to_epoll(uint32_t events)
{
	uint32_t e = 0;

	if (events & LOOP_READ)
		e |= EPOLLIN;
	if (events & LOOP_WRITE)
		e |= EPOLLOUT;
	return e;
}

static uint32_t from_epoll(uint32_t e)
{
	uint32_t events = 0;

	if (e & (EPOLLIN | EPOLLPRI))
		events |= LOOP_READ;
	if (e & EPOLLOUT)
		events |= LOOP_WRITE;
	if (e & (EPOLLERR | EPOLLHUP))
		events |= LOOP_ERROR;
	return events;
}

int loop_io_add(struct loop *loop, struct loop_io *io, int fd, uint32_t events)
{
	struct epoll_event ev = {.events = to_epoll(events), .data.ptr = io};

	io->fd = fd;
	io->events = events;
	if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
		return -errno;
	return 0;
}

int loop_io_mod(struct loop *loop, struct loop_io *io, uint32_t events)
{
	struct epoll_event ev = {.events = to_epoll(events), .data.ptr = io};

	if (epoll_ctl(loop->epfd, EPOLL_CTL_MOD, io->fd, &ev) != 0)
		return -errno;
	io->events = events;
	return 0;
}

void loop_io_del(struct loop *loop, struct loop_io *io)
{
	/* ENOENT or EBADF (fd already closed) leave nothing to undo. */
	epoll_ctl(loop->epfd, EPOLL_CTL_DEL, io->fd, NULL);
	for (int i = 0; i < loop->nbatch; i++) {
		if (loop->batch[i].data.ptr == io)
			loop->batch[i].data.ptr = NULL;
	}
}

static void dispatch(struct loop *loop, int n)
{
	loop->nbatch = n;
	for (int i = 0; i < n; i++) {
		struct loop_io *io = loop->batch[i].data.ptr;

		if (!io)
			continue;
		io->cb(io, from_epoll(loop->batch[i].events));
	}
	loop->nbatch = 0;
}

/* --- posts --- */

/* Takes every post made so far, in order, and runs them. Posts made while
 * they run wait for the next wake-up (the eventfd is readable again). */
static void run_posts(struct loop_io *io, uint32_t revents)
{
	struct loop *loop = io->arg;
	struct loop_post *p, *next;
	uint64_t n;

	(void)revents;
	if (read(loop->evfd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return;
	pthread_mutex_lock(&loop->lock);
	p = loop->posts;
	loop->posts = NULL;
	loop->post_tail = &loop->posts;
	pthread_mutex_unlock(&loop->lock);
	for (; p; p = next) {
		next = p->next;
		p->fn(p->arg);
		free(p);
	}
}

int loop_post(struct loop *loop, void (*fn)(void *arg), void *arg)
{
	struct loop_post *p = malloc(sizeof(*p));
	uint64_t one = 1;

	if (!p)
		return -ENOMEM;
	p->next = NULL;
	p->fn = fn;
	p->arg = arg;
	pthread_mutex_lock(&loop->lock);
	*loop->post_tail = p;
	loop->post_tail = &p->next;
	pthread_mutex_unlock(&loop->lock);
	/* Fails only when the counter would overflow: it is readable then. */
	(void)!write(loop->evfd, &one, sizeof(one));
	return 0;
}

static void free_posts(struct loop *loop)
{
	struct loop_post *p = loop->posts, *next;

	for (; p; p = next) {
		next = p->next;
		free(p);
	}
	loop->posts = NULL;
	loop->post_tail = &loop->posts;
}

/* --- the loop --- */

static int loop_open(struct loop *loop)
{
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epfd < 0)
		return -errno;
	loop->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (loop->evfd < 0)
		return -errno;
	loop->evio.cb = run_posts;
	loop->evio.arg = loop;
	return loop_io_add(loop, &loop->evio, loop->evfd, LOOP_READ);
}

static void loop_close(struct loop *loop)
{
	if (loop->evfd >= 0)
		close(loop->evfd);
	if (loop->epfd >= 0)
		close(loop->epfd);
	free(loop->heap);
	free(loop);
}

struct loop *loop_new(void)
{
	struct loop *loop = calloc(1, sizeof(*loop));
	int err;

	if (!loop)
		return NULL;
	loop->epfd = -1;
	loop->evfd = -1;
	loop->post_tail = &loop->posts;
	loop->capheap = LOOP_HEAP_INITIAL;
	loop->heap = malloc(loop->capheap * sizeof(*loop->heap));
	err = loop->heap ? loop_open(loop) : -ENOMEM;
	if (err == 0)
		err = -pthread_mutex_init(&loop->lock, NULL);
	if (err < 0) {
		loop_close(loop);
		errno = -err;
		return NULL;
	}
	loop_update_time(loop);
	return loop;
}

void loop_free(struct loop *loop)
{
	if (!loop)
		return;
	free_posts(loop);
	pthread_mutex_destroy(&loop->lock);
	loop_close(loop);
}

int loop_run(struct loop *loop)
{
	int ret = 0;

	while (!loop->stop) {
		int n;

		loop_update_time(loop);
		run_timers(loop);
		if (loop->stop)
			break;
		/* Work for idle time: only when nothing is ready and the
		 * loop would sleep. */
		if (loop->idle && next_timeout(loop) != 0) {
			n = epoll_wait(loop->epfd, loop->batch, LOOP_BATCH, 0);
			if (n == 0) {
				if (!loop->idle(loop->idle_arg))
					loop->idle = NULL;
				continue;
			}
		} else {
			n = epoll_wait(loop->epfd, loop->batch, LOOP_BATCH,
				       next_timeout(loop));
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		loop_update_time(loop);
		dispatch(loop, n);
	}
	loop->stop = false;
	return ret;
}

void loop_set_idle(struct loop *loop, bool (*fn)(void *arg), void *arg)
{
	loop->idle = fn;
	loop->idle_arg = arg;
}

void loop_stop(struct loop *loop)
{
	loop->stop = true;
}

int64_t loop_now_ms(const struct loop *loop)
{
	return loop->now_ms;
}

int64_t loop_wallclock(const struct loop *loop)
{
	return loop->wall + loop->wall_offset;
}

void loop_set_wallclock_offset(struct loop *loop, int64_t offset)
{
	loop->wall_offset = offset;
}
