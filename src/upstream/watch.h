/* SPDX-License-Identifier: MIT */
/*
 * Following a file live (resolv.conf): inotify on the file's directory,
 * because DHCP clients, NetworkManager and resolvconf replace the file by
 * rename rather than edit it, and may replace a symlink's target too.
 */
#ifndef DT_UPSTREAM_WATCH_H
#define DT_UPSTREAM_WATCH_H

struct loop;
struct up_watch;

/*
 * Starts watching path. cb(arg) runs on loop's thread after the file may
 * have changed (created, written and closed, moved into place, deleted),
 * at most once per DT_UP_WATCH_SETTLE_MS, so a burst of events gives one
 * call. When path is a symlink, its target's directory is watched too.
 * Returns NULL with errno set on failure.
 */
struct up_watch *up_watch_new(struct loop *loop, const char *path,
			      void (*cb)(void *arg), void *arg);

/* Stops watching and frees (safe with NULL). */
void up_watch_free(struct up_watch *w);

#endif
