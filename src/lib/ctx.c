/* SPDX-License-Identifier: MIT */
/*
 * Contexts: settings, and a few idle connections kept for reuse. The
 * default context is static storage initialised once, so it can never
 * fail to exist.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/protocol.h"
#include "lib/internal.h"

static struct dt_ctx default_ctx;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static atomic_bool default_ready;

static void ctx_init(struct dt_ctx *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	snprintf(c->set.socket, sizeof(c->set.socket), "%s", DT_PROTO_SOCKET);
	snprintf(c->set.hosts, sizeof(c->set.hosts), "%s", DTLIB_HOSTS_PATH);
	c->set.timeout_ms = DTLIB_TIMEOUT_DEFAULT_MS;
	c->set.daemon_uid = (uid_t)-1;
	c->set.net = (struct dtlib_netview){-1, -1, -1};
	c->set.mode = DT_MODE_DAEMON;
	c->set.cache_size = DTLIB_CACHE_DEFAULT;
	c->pool_pid = getpid();
}

static void pool_close_all(struct dt_ctx *c);

/* fork() while another thread holds the default context's lock would
 * leave the child a lock nobody can release: it is taken around the
 * fork, and the child drops the parent's connections at once. */
static void default_prepare(void)
{
	pthread_mutex_lock(&default_ctx.lock);
}

static void default_parent(void)
{
	pthread_mutex_unlock(&default_ctx.lock);
}

static void default_child(void)
{
	pool_close_all(&default_ctx);
	default_ctx.pool_pid = getpid();
	pthread_mutex_unlock(&default_ctx.lock);
}

static void default_init(void)
{
	ctx_init(&default_ctx);
	default_ctx.is_default = true;
	pthread_atfork(default_prepare, default_parent, default_child);
	atomic_store(&default_ready, true);
}

/* When the library is unloaded (dlclose of the NSS module, which holds a
 * copy) or the program exits: the default context's idle connections
 * are closed. A context held busy by another thread is left alone. */
__attribute__((destructor)) static void default_fini(void)
{
	if (!atomic_load(&default_ready) ||
	    pthread_mutex_trylock(&default_ctx.lock) != 0)
		return;
	if (default_ctx.pool_pid == getpid())
		pool_close_all(&default_ctx);
	pthread_mutex_unlock(&default_ctx.lock);
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

/* Whether an idle connection's descriptor is still the socket kept. */
static bool idle_ours(const struct dtlib_idle *e)
{
	struct stat st;

	return fstat(e->fd, &st) == 0 && S_ISSOCK(st.st_mode) &&
	       st.st_dev == e->dev && st.st_ino == e->ino;
}

static void pool_close_all(struct dt_ctx *c)
{
	for (size_t i = 0; i < c->nidle; i++)
		if (idle_ours(&c->idle[i]))
			close(c->idle[i].fd);
	c->nidle = 0;
}

void dt_ctx_free(dt_ctx_t *ctx)
{
	if (!ctx || ctx->is_default)
		return;
	pool_close_all(ctx);
	if (ctx->set.eng_ops)
		ctx->set.eng_ops->free(ctx);
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

void dtlib_ctx_trust_root_only(dt_ctx_t *ctx)
{
	ctx = dtlib_ctx(ctx);
	pthread_mutex_lock(&ctx->lock);
	ctx->set.daemon_uid = (uid_t)-1;
	ctx->set.gen++;
	pthread_mutex_unlock(&ctx->lock);
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
		const struct dtlib_idle *e = &ctx->idle[--ctx->nidle];
		if (!idle_ours(e))
			continue; /* not ours any more: not to be closed */
		if (e->gen == gen && dtlib_conn_idle_ok(e->fd))
			fd = e->fd;
		else
			close(e->fd);
	}
	pthread_mutex_unlock(&ctx->lock);
	return fd;
}

void dtlib_pool_give(dt_ctx_t *ctx, int fd, unsigned gen)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		close(fd);
		return;
	}
	pthread_mutex_lock(&ctx->lock);
	pool_check_pid(ctx);
	if (ctx->nidle < DTLIB_POOL_MAX && gen == ctx->set.gen) {
		ctx->idle[ctx->nidle++] = (struct dtlib_idle){.fd = fd,
							      .gen = gen,
							      .dev = st.st_dev,
							      .ino = st.st_ino};
		fd = -1;
	}
	pthread_mutex_unlock(&ctx->lock);
	if (fd >= 0)
		close(fd);
}
