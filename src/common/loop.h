/* SPDX-License-Identifier: MIT */
/*
 * An event loop: one per thread, over epoll, with timers and a thread-safe
 * mailbox. The daemon runs one loop per worker thread; the upstream
 * transport and the socket server register their file descriptors and
 * timers in it. Nothing here allocates per event: callers embed struct
 * loop_io and struct loop_timer in their own objects.
 */
#ifndef DT_COMMON_LOOP_H
#define DT_COMMON_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loop;

/* Events, as a bit set (mapped to EPOLLIN/EPOLLOUT inside). */
#define LOOP_READ 0x1u
#define LOOP_WRITE 0x2u
#define LOOP_ERROR 0x4u /* reported only: error or hang-up on the fd */

/*
 * A file descriptor watched by a loop. cb runs on the loop's thread with
 * the events that are ready (LOOP_ERROR set on EPOLLERR/EPOLLHUP).
 * The caller owns the fd and the struct; loop_io_del() before closing.
 */
struct loop_io {
	int fd;
	uint32_t events;
	void (*cb)(struct loop_io *io, uint32_t revents);
	void *arg;
};

/*
 * A one-shot timer. cb runs on the loop's thread once the deadline has
 * passed; a timer can be re-armed from its callback. Zero-initialised
 * timers are stopped. heap_index is the loop's business.
 */
struct loop_timer {
	int64_t deadline_ms;	/* on the loop's monotonic clock */
	void (*cb)(struct loop_timer *t);
	void *arg;
	size_t heap_index;	/* 0: not armed */
};

/* A new loop, or NULL (out of memory, or epoll/eventfd failed: errno set). */
struct loop *loop_new(void);

/* Frees the loop (NULL allowed). Registered fds are not closed; pending
 * posts are dropped without running. */
void loop_free(struct loop *loop);

/* Starts watching io->fd for events (LOOP_READ|LOOP_WRITE); io->cb and
 * io->arg must be set. Returns 0 or -errno. */
int loop_io_add(struct loop *loop, struct loop_io *io, int fd,
		uint32_t events);

/* Changes the watched events of a registered io. Returns 0 or -errno. */
int loop_io_mod(struct loop *loop, struct loop_io *io, uint32_t events);

/* Stops watching io (safe to call from any callback, also io's own): an
 * event of io already taken from epoll in the same iteration is not
 * delivered, so io may be freed right after. */
void loop_io_del(struct loop *loop, struct loop_io *io);

/* Arms t to fire after ms milliseconds from loop_now_ms() (re-arms if
 * armed). t->cb and t->arg must be set. The loop's timer heap grows by
 * doubling from 64 slots; should that allocation fail the process aborts,
 * there being no way to report it. */
void loop_timer_start(struct loop *loop, struct loop_timer *t, int64_t ms);

/* Disarms t (no-op when not armed). */
void loop_timer_stop(struct loop *loop, struct loop_timer *t);

/* The loop's monotonic time in milliseconds, read once per iteration. */
int64_t loop_now_ms(const struct loop *loop);

/* Reads the clocks again now, for a loop that is run only now and then
 * (libdnstrust's in-process engine, between a program's calls): what is
 * done before the next loop_run() sees the time of now. */
void loop_update(struct loop *loop);

/* Wall-clock seconds since the epoch (for DNSSEC validity), read once per
 * iteration; tests and the daemon's -T option may override it with
 * loop_set_wallclock_offset(). */
int64_t loop_wallclock(const struct loop *loop);

/* Adds offset seconds to every later loop_wallclock() (0 to clear). */
void loop_set_wallclock_offset(struct loop *loop, int64_t offset);

/*
 * Runs fn(arg) on loop's thread, soon. Thread-safe: the only loop function
 * that may be called from another thread. Returns 0, or -ENOMEM (fn will
 * not run). Posts run in the order they were made.
 */
int loop_post(struct loop *loop, void (*fn)(void *arg), void *arg);

/* Runs callbacks until loop_stop(); returns 0, or -errno when epoll_wait
 * fails for another reason than EINTR. */
int loop_run(struct loop *loop);

/*
 * Work for the loop's idle time: loop_run() calls fn(arg) when no file
 * descriptor is ready and no timer is due, instead of sleeping, then
 * looks again; one step per call, so a step should be short. fn returns
 * false when it has nothing more to do, and is then forgotten. NULL
 * forgets it at once. Not thread-safe (the loop's own thread).
 */
void loop_set_idle(struct loop *loop, bool (*fn)(void *arg), void *arg);

/* Makes loop_run() return after the current iteration (from a callback,
 * or through loop_post from another thread). */
void loop_stop(struct loop *loop);

#endif
