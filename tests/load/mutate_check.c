/* SPDX-License-Identifier: MIT */
/*
 * The black-box check of answer integrity: questions sent over UDP to
 * dnstrustd's listener, whose upstream (tests/lab/injector -m) mutates a
 * share of the honest resolver's answers; every answer with AD=1 is
 * compared with what the lab's honest validating resolver answers: the
 * same RCODE and the same answer records (RRSIGs aside, TTLs aside,
 * owners and RDATA in canonical form), and no record of evil.plain. in
 * any section. Prints the counts; exits 1 when an AD=1 answer was wrong.
 *
 * usage: mutate_check -l LISTENER -r REFERENCE -q QUESTIONS -n COUNT
 *                     [-t SECONDS] [-f FLUSH_COMMAND] [-e EVERY]
 *
 * QUESTIONS: "NAME TYPE" lines; a NAME starting with "*." gets a new
 * random label for every question (a name no cache has seen).
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

struct slot {
	int fd; /* -1: free */
	uint8_t qname[DT_NAME_MAXLEN];
	uint16_t qtype;
	int64_t deadline;
};

struct run {
	struct sockaddr_in listener, reference;
	struct question q[MAX_Q];
	size_t nq;
	unsigned long sent, answered, timeouts, ad, wrong, servfail, malformed;
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

	wire_build_init(&b, buf, cap, (uint16_t)random(), WIRE_FLAG_RD);
	wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	wire_build_opt(&b, 1232, 0, 0, dnssec ? WIRE_EDNS_DO : 0, NULL, 0);
	return wire_build_finish(&b);
}

/* One question to addr, answered within TIMEOUT_MS, or NULL. */
static struct wire_msg *ask_sync(const struct sockaddr_in *addr,
				 const uint8_t *qname, uint16_t qtype)
{
	uint8_t q[512], a[65535];
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;
	size_t ql = build_query(qname, qtype, true, q, sizeof(q));
	struct pollfd pf = {fd, POLLIN, 0};
	struct wire_msg *m = NULL;
	ssize_t n;

	if (fd >= 0 && !connect(fd, (const void *)addr, sizeof(*addr)) &&
	    send(fd, q, ql, 0) == (ssize_t)ql &&
	    poll(&pf, 1, TIMEOUT_MS) == 1 &&
	    (n = recv(fd, a, sizeof(a), 0)) >= 12)
		m = wire_msg_parse(a, (size_t)n, 0, &err);
	if (fd >= 0)
		close(fd);
	return m;
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

/* An AD=1 answer against the reference's. */
static void judge(struct run *r, const struct slot *s, const struct wire_msg *m)
{
	struct wire_msg *ref = ask_sync(&r->reference, s->qname, s->qtype);
	char *mine = answer_set(m), *theirs = ref ? answer_set(ref) : NULL;
	char name[1100];

	r->ad++;
	if (!ref || ref->rcode != m->rcode || strcmp(mine, theirs) ||
	    has_evil(m)) {
		r->wrong++;
		wire_dname_to_str(s->qname, name, sizeof(name));
		fprintf(stderr,
			"WRONG %s type %u: rcode %u (reference %d)\n%s"
			"-- reference:\n%s",
			name, s->qtype, m->rcode, ref ? ref->rcode : -1, mine,
			theirs ? theirs : "(none)\n");
	}
	free(mine);
	free(theirs);
	wire_msg_free(ref);
}

static void receive(struct run *r, struct slot *s)
{
	uint8_t a[65535];
	ssize_t n = recv(s->fd, a, sizeof(a), 0);
	int err;
	struct wire_msg *m =
		n >= 12 ? wire_msg_parse(a, (size_t)n, 0, &err) : NULL;

	r->answered++;
	if (!m)
		r->malformed++;
	else if (m->rcode == WIRE_RCODE_SERVFAIL)
		r->servfail++;
	else if (m->hdr.flags & WIRE_FLAG_AD)
		judge(r, s, m);
	wire_msg_free(m);
	close(s->fd);
	s->fd = -1;
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
	s->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return;
	if (connect(s->fd, (const void *)&r->listener, sizeof(r->listener)) ||
	    send(s->fd, buf, len, 0) != (ssize_t)len) {
		close(s->fd);
		s->fd = -1;
		return;
	}
	s->deadline = now_ms() + TIMEOUT_MS;
	if (++r->sent % r->every == 0 && r->flush && system(r->flush) != 0)
		fprintf(stderr, "mutate_check: the flush command failed\n");
}

static void expire(struct run *r, struct slot *slots)
{
	int64_t now = now_ms();

	for (int i = 0; i < WINDOW; i++)
		if (slots[i].fd >= 0 && slots[i].deadline < now) {
			close(slots[i].fd);
			slots[i].fd = -1;
			r->timeouts++;
		}
}

static void loop(struct run *r, unsigned long count, int64_t end)
{
	struct slot slots[WINDOW];
	struct pollfd pf[WINDOW];
	int busy;

	for (int i = 0; i < WINDOW; i++)
		slots[i].fd = -1;
	do {
		busy = 0;
		for (int i = 0; i < WINDOW; i++) {
			if (slots[i].fd < 0 && r->sent < count &&
			    now_ms() < end)
				send_one(r, &slots[i]);
			pf[i] = (struct pollfd){slots[i].fd, POLLIN, 0};
			busy += slots[i].fd >= 0;
		}
		poll(pf, WINDOW, 100);
		for (int i = 0; i < WINDOW; i++)
			if (slots[i].fd >= 0 && (pf[i].revents & POLLIN))
				receive(r, &slots[i]);
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
	if (!l || !ref || !qs || addr(l, &r.listener) ||
	    addr(ref, &r.reference) || load_questions(&r, qs)) {
		fprintf(stderr, "usage: mutate_check -l LISTENER -r REFERENCE "
				"-q QUESTIONS [-n COUNT] [-t SECONDS] "
				"[-f FLUSH] [-e EVERY]\n");
		return 2;
	}
	srandom((unsigned)time(NULL));
	loop(&r, count, now_ms() + (int64_t)secs * 1000);
	printf("sent %lu answered %lu timeouts %lu servfail %lu malformed %lu "
	       "ad %lu wrong_ad %lu\n",
	       r.sent, r.answered, r.timeouts, r.servfail, r.malformed, r.ad,
	       r.wrong);
	return r.wrong ? 1 : 0;
}
