/* SPDX-License-Identifier: MIT */
/*
 * The mode of a context (dt_ctx_set_mode) and the hook that asks the
 * in-process engine of src/inproc. Only this file reaches the engine:
 * a program that never sets a mode (the NSS module, linked with the
 * static library) links none of it, and no libcrypto.
 *
 * A context's engine is built on its first in-process question, from
 * the settings of that call, and built again when dt_ctx_set_config or
 * dt_ctx_set_cache_size changed them. Calls take turns on it (its own
 * lock: the context's settings stay free meanwhile). A child of fork()
 * never touches its parent's engine (its sockets, its epoll instance
 * and its lock, perhaps held by a thread that does not exist in the
 * child): it builds its own, and the copy is left unused (its
 * descriptors are close-on-exec).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "inproc/inproc.h"
#include "lib/internal.h"
#include "wire/msg.h"

struct dtlib_engine {
	pthread_mutex_t lock;
	pid_t pid;		/* the process it was made in */
	unsigned egen;		/* the settings it was built from */
	struct inproc *e;	/* NULL: not built, or it failed */
	struct dtlib_engine *parent; /* the parent process's, abandoned
					(kept reachable, never used) */
};

/* ctx's engine for this process, made when missing. NULL when out of
 * memory. */
static struct dtlib_engine *engine_of(dt_ctx_t *ctx)
{
	struct dtlib_engine *eng;
	pid_t me = getpid();

	pthread_mutex_lock(&ctx->lock);
	eng = ctx->eng;
	if (!eng || eng->pid != me) {
		/* The parent's, in a child of fork(): abandoned. */
		eng = calloc(1, sizeof(*eng));
		if (eng) {
			pthread_mutex_init(&eng->lock, NULL);
			eng->pid = me;
			eng->parent = ctx->eng;
			ctx->eng = eng;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return eng;
}

/* Under eng->lock: the engine for settings s, built when needed. */
static struct inproc *engine_ready(struct dtlib_engine *eng,
				   const struct dtlib_settings *s)
{
	char err[512];
	struct inproc_opts o = {
		.conf = s->conf[0] ? s->conf : secure_getenv(DTLIB_ENV_CONF),
		.cache_size = s->cache_size,
		.state_dir = secure_getenv(DTLIB_ENV_STATE),
	};

	if (o.conf && !*o.conf)
		o.conf = NULL;
	if (eng->e && eng->egen == s->egen)
		return eng->e;
	inproc_free(eng->e);
	eng->e = inproc_new(&o, err, sizeof(err));
	eng->egen = s->egen;
	return eng->e;
}

/* Takes eng->lock, waiting at most ms for another thread's call to end.
 * Returns 0 or ETIMEDOUT. */
static int lock_until(struct dtlib_engine *eng, unsigned ms)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	return pthread_mutex_timedlock(&eng->lock, &until);
}

/* The replies of the engine, checked as the daemon's are (exchange.c). */
static int take_replies(struct dtlib_q *qs, const struct inproc_q *iq,
			size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		struct wire_msg *m;
		int perr;

		if (!iq[i].rlen)
			return DT_ERR_TIMEOUT;
		m = wire_msg_parse(iq[i].reply, iq[i].rlen,
				   WIRE_PARSE_TRUNC_OK, &perr);
		if (!m)
			return perr == -ENOMEM ? DT_ERR_NOMEM
					       : DT_ERR_PROTOCOL;
		err = dtlib_answer_take(&qs[i], m, false);
	}
	return err;
}

static int engine_ask(dt_ctx_t *ctx, const struct dtlib_settings *s,
		      struct dtlib_q *qs, size_t n)
{
	uint8_t query[DTLIB_MAX_QUESTIONS][DT_QUERY_MAXLEN];
	struct inproc_q iq[DTLIB_MAX_QUESTIONS] = {0};
	struct dtlib_engine *eng = engine_of(ctx);
	int64_t deadline = dtlib_now_ms() + s->timeout_ms;
	struct inproc *e;
	int err = 0, r;

	if (!eng || n > DTLIB_MAX_QUESTIONS)
		return DT_ERR_NOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		qs[i].id = dtlib_new_id();
		r = dtlib_query_build(&qs[i], true, query[i], sizeof(query[i]));
		iq[i].query = query[i];
		iq[i].qlen = r < 0 ? 0 : (size_t)r;
		iq[i].cap = DT_MSG_MAXLEN;
		iq[i].reply = malloc(iq[i].cap);
		if (r < 0)
			err = r;
		else if (!iq[i].reply)
			err = DT_ERR_NOMEM;
	}
	if (!err && lock_until(eng, s->timeout_ms) != 0) {
		err = DT_ERR_TIMEOUT; /* another thread's call took the time */
	} else if (!err) {
		int64_t left = deadline - dtlib_now_ms();
		e = engine_ready(eng, s);
		r = e ? inproc_ask(e, iq, n, left > 0 ? left : 1) : DT_ECONFIG;
		pthread_mutex_unlock(&eng->lock);
		if (!e)
			err = DT_ERR_UNAVAILABLE; /* no configuration or anchors */
		else if (r == -ENOMEM)
			err = DT_ERR_NOMEM;
		else if (r < 0 && r != DT_ETIMEOUT)
			err = DT_ERR_PROTOCOL;
		else
			err = take_replies(qs, iq, n);
	}
	for (size_t i = 0; i < n; i++)
		free(iq[i].reply);
	return err;
}

static void engine_free(dt_ctx_t *ctx)
{
	struct dtlib_engine *eng = ctx->eng;

	if (!eng || eng->pid != getpid())
		return; /* none, or the parent's: not ours to touch */
	inproc_free(eng->e);
	pthread_mutex_destroy(&eng->lock);
	free(eng);
	ctx->eng = NULL;
}

static const struct dtlib_engine_ops engine_ops = {
	.ask = engine_ask,
	.free = engine_free,
};

int dt_ctx_set_mode(dt_ctx_t *ctx, enum dt_mode mode)
{
	ctx = dtlib_ctx(ctx);
	if (mode != DT_MODE_DAEMON && mode != DT_MODE_INPROCESS &&
	    mode != DT_MODE_AUTO)
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	ctx->set.mode = mode;
	ctx->set.eng_ops = &engine_ops;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

enum dt_mode dt_ctx_get_mode(dt_ctx_t *ctx)
{
	struct dtlib_settings s;

	dtlib_ctx_settings(dtlib_ctx(ctx), &s);
	return (enum dt_mode)s.mode;
}

int dt_ctx_set_config(dt_ctx_t *ctx, const char *path)
{
	ctx = dtlib_ctx(ctx);
	if (!path || !*path || strlen(path) >= sizeof(ctx->set.conf))
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	memcpy(ctx->set.conf, path, strlen(path) + 1);
	ctx->set.egen++;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

int dt_ctx_set_cache_size(dt_ctx_t *ctx, size_t bytes)
{
	ctx = dtlib_ctx(ctx);
	if (bytes < DT_CACHE_MINSIZE)
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	ctx->set.cache_size = bytes;
	ctx->set.egen++;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}
