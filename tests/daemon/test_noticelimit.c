/* SPDX-License-Identifier: MIT */
/*
 * src/daemon/noticelimit.c: verdict-change notices limited per server,
 * the rest summed up once the window ends; servers and the judgement
 * apart.
 */
#include <string.h>

#include "../tap.h"
#include "common/limits.h"
#include "daemon/noticelimit.h"

static struct up_server server(const char *text)
{
	struct up_server s;

	up_server_parse(text, &s);
	return s;
}

/* Notices of s once a second from t0 (ms), n of them: how many may be
 * logged; summaries handed out on the way add to *held. */
static int flap(struct noticelimit *l, const struct up_server *s, int64_t t0,
		int n, unsigned *held)
{
	int logged = 0;

	for (int i = 0; i < n; i++) {
		unsigned h, secs;

		logged += noticelimit_take(l, s, t0 + i * 1000, &h, &secs);
		*held += h;
	}
	return logged;
}

int main(void)
{
	static struct noticelimit l;
	struct up_server a = server("127.6.54.1"), b = server("127.6.54.2");
	struct up_server judgement, got;
	unsigned held = 0, h, secs;
	const int64_t W = DT_UP_NOTICE_WINDOW_MS;

	memset(&judgement, 0, sizeof(judgement));
	is_int(flap(&l, &a, 1000, 100, &held), DT_UP_NOTICE_BURST,
	       "a server flapping every second for 100 s: %d notices logged",
	       DT_UP_NOTICE_BURST);
	is_int(held, 0, "no summary yet: the window has not ended");
	ok(noticelimit_due(&l) == 1000 + W, "a summary is due when it ends");
	ok(!noticelimit_flush(&l, 1000 + W - 1, &got, &h, &secs),
	   "nothing to sum up a millisecond before");
	ok(noticelimit_flush(&l, 1000 + W, &got, &h, &secs) &&
		   up_server_equal(&got, &a),
	   "at its end: the server's summary");
	is_int(h, 100 - DT_UP_NOTICE_BURST, "  %d notices not logged",
	       100 - DT_UP_NOTICE_BURST);
	is_int(secs, (W - DT_UP_NOTICE_BURST * 1000) / 1000,
	       "  in the last %u s (from the first held back)", secs);
	ok(!noticelimit_flush(&l, 1000 + W, &got, &h, &secs) &&
		   noticelimit_due(&l) == -1,
	   "  once");

	held = 0;
	is_int(flap(&l, &a, 1000 + W, 10, &held), DT_UP_NOTICE_BURST,
	       "the next window: %d logged again", DT_UP_NOTICE_BURST);
	ok(noticelimit_take(&l, &a, 1000 + 2 * W, &h, &secs) && h == 5,
	   "a notice after that window, no flush in between: logged, after "
	   "a summary of %u",
	   h);

	is_int(flap(&l, &b, 2000 + 2 * W, 3, &held), 3,
	       "another server's notices: its own count");
	is_int(flap(&l, &judgement, 2000 + 2 * W, 8, &held), DT_UP_NOTICE_BURST,
	       "the judgement's: its own count too");
	ok(noticelimit_flush(&l, 2000 + 3 * W, &got, &h, &secs) &&
		   got.addr.ss_family == 0 && h == 3,
	   "the judgement's summary: %u", h);
	ok(!noticelimit_flush(&l, 2000 + 3 * W, &got, &h, &secs),
	   "nothing held for the servers");

	/* More subjects than slots: the least recently noticed goes. */
	for (int i = 3; i < 3 + NOTICELIMIT_SUBJECTS; i++) {
		char text[32];
		struct up_server s;

		snprintf(text, sizeof(text), "127.6.54.%d", i);
		s = server(text);
		ok(noticelimit_take(&l, &s, 3000 + 3 * W + i, &h, &secs),
		   "a new server %s: logged", text);
	}
	held = 0;
	is_int(flap(&l, &a, 4000 + 3 * W, 2, &held), 2,
	       "the first server again (its slot was given away): logged");
	return done_testing();
}
