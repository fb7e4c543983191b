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

__attribute__((format(printf, 2, 3))) void log_msg(int prio, const char *fmt,
						    ...);

#define log_err(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
