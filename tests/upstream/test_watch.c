/* SPDX-License-Identifier: MIT */
/*
 * src/upstream/watch.c in a temporary directory: a file replaced by
 * rename, edited in place, deleted and created again, written in a burst;
 * other files in the directory; a symlink followed to its target's
 * directory and re-pointed elsewhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/limits.h"
#include "common/loop.h"
#include "upstream/watch.h"
#include "tap.h"

static struct loop *L;
static char dir[64];
static int calls;
static int64_t last_call_ms;

static void changed(void *arg)
{
	(void)arg;
	calls++;
	last_call_ms = loop_now_ms(L);
}

static void stop_cb(struct loop_timer *t)
{
	(void)t;
	loop_stop(L);
}

/* Runs the loop for ms and returns the calls seen meanwhile. */
static int calls_within(int64_t ms)
{
	struct loop_timer t = {.cb = stop_cb};

	calls = 0;
	loop_timer_start(L, &t, ms);
	loop_run(L);
	return calls;
}

static const char *in_dir(const char *name)
{
	static char path[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return;
	(void)!write(fd, text, strlen(text));
	close(fd);
}

/* Waits well past the settle time. */
#define SETTLE_WAIT (3 * DT_UP_WATCH_SETTLE_MS)

/* A burst of writes, one every 20 ms, from a timer in the loop. */
static int burst_left;
static int64_t burst_last_ms;

static void burst_cb(struct loop_timer *t)
{
	write_file(in_dir("resolv.conf"), "nameserver 192.0.2.3\n");
	burst_last_ms = loop_now_ms(L);
	if (--burst_left > 0)
		loop_timer_start(L, t, 20);
}

static void test_plain(void)
{
	struct up_watch *w;
	struct loop_timer burst = {.cb = burst_cb};

	write_file(in_dir("resolv.conf"), "nameserver 192.0.2.1\n");
	w = up_watch_new(L, in_dir("resolv.conf"), changed, NULL);
	if (!ok(w != NULL, "watch a plain file"))
		return;
	is_int(calls_within(SETTLE_WAIT), 0, "nothing happens: no call");

	write_file(in_dir(".resolv.conf.tmp"), "nameserver 192.0.2.2\n");
	rename(in_dir(".resolv.conf.tmp"), in_dir("resolv.conf"));
	is_int(calls_within(SETTLE_WAIT), 1, "replaced by rename: one call");

	write_file(in_dir("resolv.conf"), "nameserver 192.0.2.3\n");
	is_int(calls_within(SETTLE_WAIT), 1, "edited in place: one call");

	write_file(in_dir("other.conf"), "x\n");
	rename(in_dir("other.conf"), in_dir("other2.conf"));
	unlink(in_dir("other2.conf"));
	is_int(calls_within(SETTLE_WAIT), 0, "other files: no call");

	unlink(in_dir("resolv.conf"));
	is_int(calls_within(SETTLE_WAIT), 1, "deleted: one call");
	write_file(in_dir("resolv.conf"), "nameserver 192.0.2.4\n");
	is_int(calls_within(SETTLE_WAIT), 1, "created again: one call");

	rename(in_dir("resolv.conf"), in_dir("resolv.conf.old"));
	is_int(calls_within(SETTLE_WAIT), 1, "moved away: one call");
	rename(in_dir("resolv.conf.old"), in_dir("resolv.conf"));
	is_int(calls_within(SETTLE_WAIT), 1, "moved back: one call");

	burst_left = 5;
	loop_timer_start(L, &burst, 0);
	is_int(calls_within(80 + SETTLE_WAIT), 1,
	       "five writes 20 ms apart: one call");
	ok(last_call_ms - burst_last_ms >= DT_UP_WATCH_SETTLE_MS,
	   "after the settle time since the last write (%lld ms)",
	   (long long)(last_call_ms - burst_last_ms));
	up_watch_free(w);
	write_file(in_dir("resolv.conf"), "nameserver 192.0.2.5\n");
	is_int(calls_within(SETTLE_WAIT), 0, "freed: no more calls");
}

static void test_symlink(void)
{
	struct up_watch *w;

	mkdir(in_dir("a"), 0755);
	mkdir(in_dir("b"), 0755);
	write_file(in_dir("a/conf"), "nameserver 192.0.2.10\n");
	write_file(in_dir("b/conf"), "nameserver 192.0.2.20\n");
	/* Relative, as /etc/resolv.conf -> ../run/... usually is. */
	if (!ok(symlink("a/conf", in_dir("link")) == 0, "relative symlink"))
		return;
	w = up_watch_new(L, in_dir("link"), changed, NULL);
	if (!ok(w != NULL, "watch the symlink"))
		return;
	write_file(in_dir("a/conf"), "nameserver 192.0.2.11\n");
	is_int(calls_within(SETTLE_WAIT), 1,
	       "target edited in its own directory: one call");

	write_file(in_dir("b/.conf.tmp"), "nameserver 192.0.2.21\n");
	rename(in_dir("b/.conf.tmp"), in_dir("b/conf"));
	is_int(calls_within(SETTLE_WAIT), 0, "not yet the target: no call");

	/* ln -sf: a new link renamed over the old one. */
	ok(symlink(in_dir("b/conf"), in_dir("link.tmp")) == 0, "new symlink");
	rename(in_dir("link.tmp"), in_dir("link"));
	is_int(calls_within(SETTLE_WAIT), 1, "symlink re-pointed: one call");

	write_file(in_dir("b/conf"), "nameserver 192.0.2.22\n");
	is_int(calls_within(SETTLE_WAIT), 1, "new target edited: one call");
	write_file(in_dir("a/conf"), "nameserver 192.0.2.12\n");
	is_int(calls_within(SETTLE_WAIT), 0, "old target edited: no call");

	unlink(in_dir("b/conf"));
	is_int(calls_within(SETTLE_WAIT), 1, "target deleted: one call");
	write_file(in_dir("b/conf"), "nameserver 192.0.2.23\n");
	is_int(calls_within(SETTLE_WAIT), 1,
	       "target created again (link was dangling): one call");
	up_watch_free(w);
}

/* The callback may free the watch. */
static struct up_watch *self_w;

static void free_self(void *arg)
{
	(void)arg;
	calls++;
	up_watch_free(self_w);
	self_w = NULL;
}

static void test_errors(void)
{
	errno = 0;
	ok(up_watch_new(L, "/nonexistent-dt-dir/resolv.conf", changed, NULL) ==
			   NULL &&
		   errno == ENOENT,
	   "directory missing: NULL, ENOENT");
	ok(up_watch_new(L, in_dir("sub/"), changed, NULL) == NULL &&
		   errno == EINVAL,
	   "a path ending in '/': NULL, EINVAL");
	up_watch_free(NULL);
	ok(1, "up_watch_free(NULL)");

	self_w = up_watch_new(L, in_dir("resolv.conf"), free_self, NULL);
	write_file(in_dir("resolv.conf"), "nameserver 192.0.2.6\n");
	calls_within(SETTLE_WAIT);
	ok(calls == 1 && self_w == NULL, "freed from its own callback");
}

static void cleanup(void)
{
	static const char *files[] = {
		"resolv.conf", "link", "a/conf", "b/conf", "a", "b",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		remove(in_dir(files[i]));
	rmdir(dir);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/dt-watch-XXXXXX");
	L = loop_new();
	if (!ok(L && mkdtemp(dir), "loop and %s", dir))
		return done_testing();
	test_plain();
	test_symlink();
	test_errors();
	cleanup();
	loop_free(L);
	return done_testing();
}
