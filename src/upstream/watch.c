/* SPDX-License-Identifier: MIT */
/*
 * inotify on the directory holding the file (entry 0) and, when the file
 * is a symlink, on the directory holding its final target (entry 1). Only
 * events naming the watched file count. After the settle time without
 * events, the target is looked up again (a symlink may have been
 * re-pointed, e.g. by resolvconf or systemd-resolved) and the caller is
 * told. Two entries in one directory share one inotify watch descriptor,
 * which the kernel hands out per directory. A directory given as the
 * path (a resolvconf source) is watched itself: entry 0 with an empty
 * name, which any file's event matches.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/limits.h"
#include "common/loop.h"
#include "upstream/watch.h"

#define WATCH_MASK                                                             \
	(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE |                \
	 IN_MOVED_FROM | IN_ONLYDIR)

struct watch_ent {
	int wd; /* -1: not watched */
	char *dir;
	char *name;
};

struct up_watch {
	struct loop *loop;
	int fd;
	struct loop_io io;
	struct loop_timer timer;
	char *path;
	struct watch_ent ent[2]; /* the file; a symlink's target */
	void (*cb)(void *arg);
	void *arg;
};

static void ent_clear(struct watch_ent *e)
{
	free(e->dir);
	free(e->name);
	e->dir = NULL;
	e->name = NULL;
	e->wd = -1;
}

/* Splits file into its directory and name (owned copies). */
static int ent_set(struct watch_ent *e, const char *file)
{
	const char *slash = strrchr(file, '/');
	const char *name = slash ? slash + 1 : file;

	if (*name == '\0')
		return -EINVAL;
	e->wd = -1;
	e->name = strdup(name);
	if (!slash)
		e->dir = strdup(".");
	else if (slash == file)
		e->dir = strdup("/");
	else
		e->dir = strndup(file, (size_t)(slash - file));
	if (!e->name || !e->dir) {
		ent_clear(e);
		return -ENOMEM;
	}
	return 0;
}

static int ent_watch(struct up_watch *w, struct watch_ent *e)
{
	e->wd = inotify_add_watch(w->fd, e->dir, WATCH_MASK);
	return e->wd < 0 ? -errno : 0;
}

/* Where path finally leads when it is a symlink (allocated), else NULL.
 * A dangling link gives its first target, which may appear later. */
static char *link_target(const char *path)
{
	struct stat st;
	char buf[PATH_MAX], *full;
	const char *slash;
	ssize_t n;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return NULL;
	full = realpath(path, NULL);
	if (full)
		return full;
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(path, '/');
	if (buf[0] == '/' || !slash)
		return strdup(buf);
	full = malloc((size_t)(slash - path) + 1 + (size_t)n + 1);
	if (full)
		snprintf(full, (size_t)(slash - path) + 2 + (size_t)n,
			 "%.*s/%s", (int)(slash - path), path, buf);
	return full;
}

static bool wd_used(const struct up_watch *w, int wd)
{
	return wd >= 0 && (w->ent[0].wd == wd || w->ent[1].wd == wd);
}

/* Watches the current target of the symlink (if any) instead of the old
 * one; the old directory's watch goes unless entry 0 shares it. */
static void watch_target(struct up_watch *w)
{
	char *target = link_target(w->path);
	struct watch_ent old = w->ent[1];

	w->ent[1].wd = -1;
	w->ent[1].dir = NULL;
	w->ent[1].name = NULL;
	if (target && ent_set(&w->ent[1], target) == 0)
		ent_watch(w, &w->ent[1]);
	free(target);
	if (old.wd >= 0 && !wd_used(w, old.wd))
		inotify_rm_watch(w->fd, old.wd);
	ent_clear(&old);
}

static void settled(struct loop_timer *t)
{
	struct up_watch *w = t->arg;

	if (w->ent[0].wd < 0)
		ent_watch(w, &w->ent[0]);
	watch_target(w);
	w->cb(w->arg);
}

/* Whether ev may be about the file; a watch the kernel dropped (its
 * directory went away) is forgotten, to be set again when settled. */
static bool relevant(struct up_watch *w, const struct inotify_event *ev)
{
	bool hit = false;

	if (ev->mask & IN_Q_OVERFLOW)
		return true;
	for (int i = 0; i < 2; i++) {
		struct watch_ent *e = &w->ent[i];

		if (e->wd < 0 || e->wd != ev->wd)
			continue;
		if (ev->mask & IN_IGNORED) {
			e->wd = -1;
			hit = true;
		} else if (ev->len && (e->name[0] == '\0' ||
				       strcmp(ev->name, e->name) == 0)) {
			hit = true;
		}
	}
	return hit;
}

/* Reads what is queued; true when some event concerned the file. */
static bool drain(struct up_watch *w)
{
	char buf[4096]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	bool hit = false;

	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return hit;
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const void *)p;

			hit |= relevant(w, ev);
			p += sizeof(*ev) + ev->len;
		}
	}
}

static void on_events(struct loop_io *io, uint32_t revents)
{
	struct up_watch *w = io->arg;

	(void)revents;
	if (drain(w))
		loop_timer_start(w->loop, &w->timer, DT_UP_WATCH_SETTLE_MS);
}

/* A directory: every file in it is watched (entry 0 with an empty
 * name), the directory itself not followed through links. */
static int ent_set_dir(struct watch_ent *e, const char *dir)
{
	e->wd = -1;
	e->dir = strdup(dir);
	e->name = strdup("");
	if (!e->dir || !e->name) {
		ent_clear(e);
		return -ENOMEM;
	}
	return 0;
}

static int watch_open(struct up_watch *w)
{
	struct stat st;
	int err;

	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0)
		return -errno;
	if (stat(w->path, &st) == 0 && S_ISDIR(st.st_mode))
		err = ent_set_dir(&w->ent[0], w->path);
	else
		err = ent_set(&w->ent[0], w->path);
	if (err == 0)
		err = ent_watch(w, &w->ent[0]);
	if (err < 0)
		return err;
	watch_target(w);
	w->io.cb = on_events;
	w->io.arg = w;
	return loop_io_add(w->loop, &w->io, w->fd, LOOP_READ);
}

static void watch_close(struct up_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	ent_clear(&w->ent[0]);
	ent_clear(&w->ent[1]);
	free(w->path);
	free(w);
}

struct up_watch *up_watch_new(struct loop *loop, const char *path,
			      void (*cb)(void *arg), void *arg)
{
	struct up_watch *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return NULL;
	w->loop = loop;
	w->fd = -1;
	w->ent[0].wd = -1;
	w->ent[1].wd = -1;
	w->cb = cb;
	w->arg = arg;
	w->timer.cb = settled;
	w->timer.arg = w;
	w->path = strdup(path);
	err = w->path ? watch_open(w) : -ENOMEM;
	if (err < 0) {
		watch_close(w);
		errno = -err;
		return NULL;
	}
	return w;
}

void up_watch_free(struct up_watch *w)
{
	if (!w)
		return;
	loop_timer_stop(w->loop, &w->timer);
	if (w->fd >= 0)
		loop_io_del(w->loop, &w->io);
	watch_close(w);
}
