/* SPDX-License-Identifier: MIT */
/*
 * Contexts: settings, and a few idle connections kept for reuse. The
 * default context is static storage initialised once, so it can never
 * fail to exist.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/protocol.h"
#include "lib/internal.h"

static struct dt_ctx default_ctx;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void ctx_init(struct dt_ctx *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	snprintf(c->set.socket, sizeof(c->set.socket), "%s", DT_PROTO_SOCKET);
	snprintf(c->set.hosts, sizeof(c->set.hosts), "%s", DTLIB_HOSTS_PATH);
	c->set.timeout_ms = DTLIB_TIMEOUT_DEFAULT_MS;
	c->set.daemon_uid = (uid_t)-1;
	c->set.net = (struct dtlib_netview){-1, -1, -1};
	c->pool_pid = getpid();
}

static void default_init(void)
{
	ctx_init(&default_ctx);
	default_ctx.is_default = true;
}

dt_ctx_t *dt_ctx_default(void)
{
	pthread_once(&default_once, default_init);
	return &default_ctx;
}

dt_ctx_t *dtlib_ctx(dt_ctx_t *ctx)
{
	return ctx ? ctx : dt_ctx_default();
}

int dt_ctx_new(dt_ctx_t **ret)
{
	struct dt_ctx *c;

	if (!ret)
		return DT_ERR_INVALID;
	c = malloc(sizeof(*c));
	if (!c)
		return DT_ERR_NOMEM;
	ctx_init(c);
	*ret = c;
	return 0;
}

static void pool_close_all(struct dt_ctx *c)
{
	for (size_t i = 0; i < c->nidle; i++)
		close(c->idle[i]);
	c->nidle = 0;
}

void dt_ctx_free(dt_ctx_t *ctx)
{
	if (!ctx || ctx->is_default)
		return;
	pool_close_all(ctx);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

void dtlib_ctx_settings(dt_ctx_t *ctx, struct dtlib_settings *ret)
{
	pthread_mutex_lock(&ctx->lock);
	*ret = ctx->set;
	pthread_mutex_unlock(&ctx->lock);
}

int dt_ctx_set_socket(dt_ctx_t *ctx, const char *path)
{
	ctx = dtlib_ctx(ctx);
	if (!path || !*path || strlen(path) >= sizeof(ctx->set.socket))
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	snprintf(ctx->set.socket, sizeof(ctx->set.socket), "%s", path);
	ctx->set.gen++;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

int dt_ctx_set_timeout(dt_ctx_t *ctx, unsigned ms)
{
	ctx = dtlib_ctx(ctx);
	if (ms < 1 || ms > DTLIB_TIMEOUT_MAX_MS)
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	ctx->set.timeout_ms = ms;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

int dt_ctx_set_daemon_uid(dt_ctx_t *ctx, uid_t uid)
{
	ctx = dtlib_ctx(ctx);
	if (uid == (uid_t)-1)
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	ctx->set.daemon_uid = uid;
	ctx->set.gen++;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

int dt_ctx_set_fallback(dt_ctx_t *ctx, bool on)
{
	ctx = dtlib_ctx(ctx);
	pthread_mutex_lock(&ctx->lock);
	ctx->set.fallback = on;
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

int dtlib_ctx_set_hosts(dt_ctx_t *ctx, const char *path)
{
	ctx = dtlib_ctx(ctx);
	if (!path || strlen(path) >= sizeof(ctx->set.hosts))
		return DT_ERR_INVALID;
	pthread_mutex_lock(&ctx->lock);
	snprintf(ctx->set.hosts, sizeof(ctx->set.hosts), "%s", path);
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

void dtlib_ctx_set_netview(dt_ctx_t *ctx, int v4, int v6, int v6_first)
{
	ctx = dtlib_ctx(ctx);
	pthread_mutex_lock(&ctx->lock);
	ctx->set.net = (struct dtlib_netview){v4, v6, v6_first};
	pthread_mutex_unlock(&ctx->lock);
}

/* A child of fork() shares the parent's idle connections: answers to
 * one would reach the other. The child drops its copies instead. */
static void pool_check_pid(struct dt_ctx *c)
{
	pid_t me = getpid();

	if (c->pool_pid != me) {
		pool_close_all(c);
		c->pool_pid = me;
	}
}

int dtlib_pool_take(dt_ctx_t *ctx, unsigned gen)
{
	int fd = -1;

	pthread_mutex_lock(&ctx->lock);
	pool_check_pid(ctx);
	while (fd < 0 && ctx->nidle > 0) {
		size_t i = --ctx->nidle;
		if (ctx->idle_gen[i] == gen && dtlib_conn_idle_ok(ctx->idle[i]))
			fd = ctx->idle[i];
		else
			close(ctx->idle[i]);
	}
	pthread_mutex_unlock(&ctx->lock);
	return fd;
}

void dtlib_pool_give(dt_ctx_t *ctx, int fd, unsigned gen)
{
	pthread_mutex_lock(&ctx->lock);
	pool_check_pid(ctx);
	if (ctx->nidle < DTLIB_POOL_MAX && gen == ctx->set.gen) {
		ctx->idle[ctx->nidle] = fd;
		ctx->idle_gen[ctx->nidle] = gen;
		ctx->nidle++;
		fd = -1;
	}
	pthread_mutex_unlock(&ctx->lock);
	if (fd >= 0)
		close(fd);
}
