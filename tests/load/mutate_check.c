/* SPDX-License-Identifier: MIT */
/*
 * The differential check of answer integrity: every question is sent
 * over UDP to two validators with the same configuration, one whose
 * upstream (tests/lab/injector -m) mutates a share of the honest
 * resolver's answers (the mutated path, -l) and one that asks the honest
 * resolver itself (the honest path, -r), and the two answers are
 * compared. Counted:
 *
 *   wrong_ad        the mutated path says AD=1 and the honest path is not
 *                   secure, or has another RCODE or other answer records
 *                   (RRSIGs and TTLs aside, owners and RDATA in canonical
 *                   form), or the answer holds a record of evil.plain.
 *   downgrade       the honest path is secure (AD=1, NOERROR or NXDOMAIN),
 *                   the mutated one answers neither secure nor SERVFAIL
 *   bogus_insecure  the honest path says SERVFAIL, the mutated one
 *                   NOERROR or NXDOMAIN without AD
 *   servfail_extra  the honest path answers NOERROR or NXDOMAIN, the
 *                   mutated one SERVFAIL
 *
 * Each case is written to stderr (the first three with both answers).
 * Prints the counts; exits 1 when one of the first three is not 0.
 *
 * usage: mutate_check -l MUTATED -r HONEST -q QUESTIONS -n COUNT
 *                     [-t SECONDS] [-f FLUSH_COMMAND] [-e EVERY]
 *
 * QUESTIONS: "NAME TYPE" lines; a NAME starting with "*." gets a new
 * random label for every question (a name no cache has seen). Every query
 * sets AD (RFC 6840 §5.7), half of them DO too.
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"
#include "wire/zone.h"

#define WINDOW	   48
#define TIMEOUT_MS 6000
#define MAX_Q	   256

struct question {
	char name[300];
	uint16_t type;
};

/* A question on its way to both paths: 0 the mutated, 1 the honest. */
struct slot {
	int fd[2]; /* -1: answered, timed out or free */
	struct wire_msg *ans[2];
	bool busy;
	uint8_t qname[DT_NAME_MAXLEN];
	uint16_t qtype;
	int64_t deadline;
};

struct run {
	struct sockaddr_in addr[2];
	struct question q[MAX_Q];
	size_t nq;
	unsigned long sent, compared, timeouts[2], malformed[2], ad,
		honest_secure, servfail;
	unsigned long wrong, downgrade, bogus_insecure, servfail_extra;
	const char *flush;
	unsigned long every;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int load_questions(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	char type[32];

	if (!f)
		return -1;
	while (r->nq < MAX_Q &&
	       fscanf(f, "%299s %31s", r->q[r->nq].name, type) == 2)
		if (!wire_type_from_str(type, strlen(type), &r->q[r->nq].type))
			r->nq++;
	fclose(f);
	return r->nq ? 0 : -1;
}

/* The name of question i, a fresh random label in place of "*". */
static int pick_name(const struct question *q, uint8_t *out)
{
	char text[400];

	if (q->name[0] == '*')
		snprintf(text, sizeof(text), "m%08lx%04x%s",
			 (unsigned long)random(), (unsigned)(random() & 0xffff),
			 q->name + 1);
	else
		snprintf(text, sizeof(text), "%s", q->name);
	return wire_dname_from_str(text, strlen(text), NULL, out);
}

static size_t build_query(const uint8_t *qname, uint16_t qtype, bool dnssec,
			  uint8_t *buf, size_t cap)
{
	struct wire_builder b;

	wire_build_init(&b, buf, cap, (uint16_t)random(),
			WIRE_FLAG_RD | WIRE_FLAG_AD);
	wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	wire_build_opt(&b, 1232, 0, 0, dnssec ? WIRE_EDNS_DO : 0, NULL, 0);
	return wire_build_finish(&b);
}

/* Canonical text of one answer record (RRSIGs: empty). */
static int rr_key(const struct wire_rr *rr, char *out, size_t cap)
{
	uint8_t owner[DT_NAME_MAXLEN], rd[65535];
	struct wire_rr c = *rr;

	if (rr->type == WIRE_TYPE_RRSIG)
		return 0;
	wire_dname_copy(owner, rr->owner);
	wire_dname_tolower(owner);
	memcpy(rd, rr->rdata, rr->rdlen);
	wire_rdata_canonicalize(rr->type, rd, rr->rdlen);
	c.owner = owner;
	c.rdata = rd;
	c.ttl = 0;
	return wire_rr_to_str(&c, out, cap);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The answer section as one sorted string of canonical records, each
 * once (an RRset is a set, RFC 2181 §5). */
static char *answer_set(const struct wire_msg *m)
{
	size_t n = m->count[WIRE_SEC_ANSWER], len = 1, k = 0;
	char **v = calloc(n + 1, sizeof(*v)), *all, buf[70000];

	for (size_t i = 0; i < n; i++)
		if (rr_key(&m->sec[WIRE_SEC_ANSWER][i], buf, sizeof(buf)) > 0 &&
		    (v[k] = strdup(buf)))
			len += strlen(v[k++]) + 1;
	qsort(v, k, sizeof(*v), cmp_str);
	all = calloc(1, len);
	for (size_t i = 0; i < k; i++)
		if (i == 0 || strcmp(v[i], v[i - 1])) {
			strcat(all, v[i]);
			strcat(all, "\n");
		}
	for (size_t i = 0; i < k; i++)
		free(v[i]);
	free(v);
	return all;
}

static bool has_evil(const struct wire_msg *m)
{
	static const uint8_t evil[] = "\4evil\5plain";

	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		for (size_t i = 0; i < m->count[s]; i++)
			if (wire_dname_is_subdomain(m->sec[s][i].owner, evil))
				return true;
	return false;
}

/* What a path answered. */
enum verdict { V_NONE, V_SECURE, V_INSECURE, V_SERVFAIL, V_OTHER };

static enum verdict verdict(const struct wire_msg *m)
{
	if (!m)
		return V_NONE;
	if (m->rcode == WIRE_RCODE_SERVFAIL)
		return V_SERVFAIL;
	if (m->rcode != WIRE_RCODE_NOERROR && m->rcode != WIRE_RCODE_NXDOMAIN)
		return V_OTHER;
	return (m->hdr.flags & WIRE_FLAG_AD) ? V_SECURE : V_INSECURE;
}

static void show(const char *what, const struct slot *s)
{
	char name[1100], type[16], *set[2];

	wire_dname_to_str(s->qname, name, sizeof(name));
	wire_type_to_str(s->qtype, type);
	for (int i = 0; i < 2; i++)
		set[i] = s->ans[i] ? answer_set(s->ans[i]) : NULL;
	fprintf(stderr,
		"%s %s %s: mutated rcode %d ad %d, honest rcode %d ad %d\n",
		what, name, type, s->ans[0]->rcode,
		!!(s->ans[0]->hdr.flags & WIRE_FLAG_AD),
		s->ans[1] ? s->ans[1]->rcode : -1,
		s->ans[1] ? !!(s->ans[1]->hdr.flags & WIRE_FLAG_AD) : -1);
	if (strcmp(what, "SERVFAIL"))
		fprintf(stderr, "%s-- honest:\n%s", set[0],
			set[1] ? set[1] : "(none)\n");
	free(set[0]);
	free(set[1]);
}

/* The mutated path's AD=1 answer against the honest path's. */
static bool wrong_ad(const struct slot *s)
{
	const struct wire_msg *m = s->ans[0], *h = s->ans[1];
	char *mine, *theirs;
	bool wrong;

	if (verdict(h) != V_SECURE || h->rcode != m->rcode || has_evil(m))
		return true;
	mine = answer_set(m);
	theirs = answer_set(h);
	wrong = strcmp(mine, theirs) != 0;
	free(mine);
	free(theirs);
	return wrong;
}

/* Both answers in (or timed out): the counts. */
static void compare(struct run *r, struct slot *s)
{
	enum verdict mv = verdict(s->ans[0]), hv = verdict(s->ans[1]);

	r->honest_secure += hv == V_SECURE;
	r->servfail += mv == V_SERVFAIL;
	if (mv == V_NONE || hv == V_NONE) {
		if (s->ans[0] && (s->ans[0]->hdr.flags & WIRE_FLAG_AD)) {
			r->ad++;
			if (has_evil(s->ans[0]) && ++r->wrong)
				show("WRONG", s);
		}
		return;
	}
	r->compared++;
	if (s->ans[0]->hdr.flags & WIRE_FLAG_AD) {
		r->ad++;
		if (wrong_ad(s) && ++r->wrong)
			show("WRONG", s);
	} else if (hv == V_SECURE && mv != V_SERVFAIL) {
		r->downgrade++;
		show("DOWNGRADE", s);
	} else if (hv == V_SERVFAIL && mv == V_INSECURE) {
		r->bogus_insecure++;
		show("BOGUS-INSECURE", s);
	}
	if ((hv == V_SECURE || hv == V_INSECURE) && mv == V_SERVFAIL) {
		r->servfail_extra++;
		show("SERVFAIL", s);
	}
}

static void finish_slot(struct run *r, struct slot *s)
{
	compare(r, s);
	for (int i = 0; i < 2; i++) {
		wire_msg_free(s->ans[i]);
		s->ans[i] = NULL;
	}
	s->busy = false;
}

static void receive(struct run *r, struct slot *s, int i)
{
	uint8_t a[65535];
	ssize_t n = recv(s->fd[i], a, sizeof(a), 0);
	int err;

	s->ans[i] = n >= 12 ? wire_msg_parse(a, (size_t)n, 0, &err) : NULL;
	r->malformed[i] += !s->ans[i];
	close(s->fd[i]);
	s->fd[i] = -1;
	if (s->fd[!i] < 0)
		finish_slot(r, s);
}

static int send_to(const struct sockaddr_in *to, const uint8_t *buf, size_t len)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (const void *)to, sizeof(*to)) ||
	    send(fd, buf, len, 0) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static void send_one(struct run *r, struct slot *s)
{
	const struct question *q = &r->q[(size_t)random() % r->nq];
	uint8_t buf[512];
	size_t len;

	if (pick_name(q, s->qname) < 0)
		return;
	s->qtype = q->type;
	len = build_query(s->qname, s->qtype, random() & 1, buf, sizeof(buf));
	s->fd[0] = send_to(&r->addr[0], buf, len);
	s->fd[1] = send_to(&r->addr[1], buf, len);
	if (s->fd[0] < 0 || s->fd[1] < 0) {
		for (int i = 0; i < 2; i++)
			if (s->fd[i] >= 0)
				close(s->fd[i]);
		s->fd[0] = s->fd[1] = -1;
		return;
	}
	s->busy = true;
	s->deadline = now_ms() + TIMEOUT_MS;
	if (++r->sent % r->every == 0 && r->flush && system(r->flush) != 0)
		fprintf(stderr, "mutate_check: the flush command failed\n");
}

static void expire(struct run *r, struct slot *slots)
{
	int64_t now = now_ms();

	for (int k = 0; k < WINDOW; k++) {
		struct slot *s = &slots[k];
		if (!s->busy || s->deadline >= now)
			continue;
		for (int i = 0; i < 2; i++)
			if (s->fd[i] >= 0) {
				close(s->fd[i]);
				s->fd[i] = -1;
				r->timeouts[i]++;
			}
		finish_slot(r, s);
	}
}

static void loop(struct run *r, unsigned long count, int64_t end)
{
	struct slot slots[WINDOW] = {0};
	struct pollfd pf[2 * WINDOW];
	int busy;

	for (int k = 0; k < WINDOW; k++)
		slots[k].fd[0] = slots[k].fd[1] = -1;
	do {
		busy = 0;
		for (int k = 0; k < WINDOW; k++) {
			if (!slots[k].busy && r->sent < count && now_ms() < end)
				send_one(r, &slots[k]);
			for (int i = 0; i < 2; i++)
				pf[2 * k + i] = (struct pollfd){slots[k].fd[i],
								POLLIN, 0};
			busy += slots[k].busy;
		}
		poll(pf, 2 * WINDOW, 100);
		for (int k = 0; k < WINDOW; k++)
			for (int i = 0; i < 2; i++)
				if (slots[k].fd[i] >= 0 &&
				    (pf[2 * k + i].revents & POLLIN))
					receive(r, &slots[k], i);
		expire(r, slots);
	} while (busy);
}

static int addr(const char *text, struct sockaddr_in *ret)
{
	*ret = (struct sockaddr_in){.sin_family = AF_INET,
				    .sin_port = htons(53)};
	return inet_pton(AF_INET, text, &ret->sin_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct run r = {.every = 5000};
	const char *l = NULL, *ref = NULL, *qs = NULL;
	unsigned long count = 100000, secs = 1800;
	int opt;

	while ((opt = getopt(argc, argv, "l:r:q:n:t:f:e:")) != -1) {
		switch (opt) {
		case 'l': l = optarg; break;
		case 'r': ref = optarg; break;
		case 'q': qs = optarg; break;
		case 'n': count = strtoul(optarg, NULL, 10); break;
		case 't': secs = strtoul(optarg, NULL, 10); break;
		case 'f': r.flush = optarg; break;
		case 'e': r.every = strtoul(optarg, NULL, 10) ?: 1; break;
		default: return 2;
		}
	}
	if (!l || !ref || !qs || addr(l, &r.addr[0]) || addr(ref, &r.addr[1]) ||
	    load_questions(&r, qs)) {
		fprintf(stderr, "usage: mutate_check -l MUTATED -r HONEST "
				"-q QUESTIONS [-n COUNT] [-t SECONDS] "
				"[-f FLUSH] [-e EVERY]\n");
		return 2;
	}
	srandom((unsigned)time(NULL));
	loop(&r, count, now_ms() + (int64_t)secs * 1000);
	printf("sent %lu compared %lu timeouts %lu/%lu malformed %lu/%lu "
	       "honest_secure %lu ad %lu servfail %lu | wrong_ad %lu "
	       "downgrade %lu bogus_insecure %lu servfail_extra %lu\n",
	       r.sent, r.compared, r.timeouts[0], r.timeouts[1], r.malformed[0],
	       r.malformed[1], r.honest_secure, r.ad, r.servfail, r.wrong,
	       r.downgrade, r.bogus_insecure, r.servfail_extra);
	return r.wrong || r.downgrade || r.bogus_insecure ? 1 : 0;
}
