/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "common/log.h"

static bool log_stderr = true;
static bool log_journal;	/* stderr is systemd's journal stream */
static int log_level = LOG_NOTICE;
/* Nothing written from this thread (log_thread_quiet). */
static _Thread_local bool log_quiet;

/* Whether stderr is the stream systemd connected to the journal: its
 * device and inode are those of $JOURNAL_STREAM (systemd.exec(5)). Then
 * each line carries its priority as "<N>" (sd-daemon(3)) and no time,
 * which the journal adds. */
static bool journal_stream(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	return e && sscanf(e, "%llu:%llu", &dev, &ino) == 2 &&
	       fstat(2, &st) == 0 && (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

void log_setup(bool to_stderr, int level)
{
	log_stderr = to_stderr;
	log_journal = to_stderr && journal_stream();
	__atomic_store_n(&log_level, level, __ATOMIC_RELAXED);
	if (!to_stderr)
		openlog("dnstrustd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void log_set_level(int level)
{
	__atomic_store_n(&log_level, level, __ATOMIC_RELAXED);
}

bool log_enabled(int prio)
{
	return !log_quiet &&
	       prio <= __atomic_load_n(&log_level, __ATOMIC_RELAXED);
}

bool log_thread_quiet(bool on)
{
	bool was = log_quiet;

	log_quiet = on;
	return was;
}

static const char *prio_name(int prio)
{
	static const char *const names[] = {
		"emerg", "alert", "crit", "error",
		"warning", "notice", "info", "debug",
	};
	return prio >= 0 && prio <= 7 ? names[prio] : "?";
}

void log_msg(int prio, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!log_enabled(prio))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!log_stderr) {
		syslog(prio, "%s", line);
		return;
	}
	if (log_journal) {
		fprintf(stderr, "<%d>%s\n", prio, line);
		return;
	}
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	/* One fprintf per line: stdio locks the stream, lines never mix. */
	fprintf(stderr, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ dnstrustd %s: %s\n",
		tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, prio_name(prio),
		line);
}
