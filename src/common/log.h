/* SPDX-License-Identifier: MIT */
/*
 * Logging: to stderr in the foreground (-f), to syslog otherwise, with
 * the priority threshold of log-level. Thread-safe.
 */
#ifndef DT_COMMON_LOG_H
#define DT_COMMON_LOG_H

#include <stdbool.h>
#include <syslog.h>

/* Chooses the destination and threshold (a syslog priority). */
void log_setup(bool to_stderr, int level);

/* Changes the threshold (SIGHUP). */
void log_set_level(int level);

/* Whether messages of this priority are written (to skip costly
 * formatting). */
bool log_enabled(int prio);

/* Silences (on) or restores the log for the calling thread only: the
 * library's in-process engine runs the daemon's code on a program's
 * thread, where lines on the program's stderr have no place (the
 * verdict's reason goes in the answer). Returns the previous setting. */
bool log_thread_quiet(bool on);

__attribute__((format(printf, 2, 3))) void log_msg(int prio, const char *fmt,
						    ...);

#define log_err(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
