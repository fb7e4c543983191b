/* SPDX-License-Identifier: MIT */
/*
 * src/iterator/iterate.c over real sockets: fake authoritative servers on
 * 127.6.53.1-7 (one port, chosen by the kernel; it_set_port sends every
 * query there), run by a thread of this test from a table of canned
 * responses, each logging what it was asked. Checked: referrals followed
 * from the hints, QNAME minimisation and its fallback after NXDOMAIN, an
 * NS name without glue looked up through another zone (A, then AAAA
 * when there is no A), DS asked of the parent, a CNAME to another zone
 * assembled with its target, a dropped query asked again, a REFUSED server left
 * for the zone's other one, a zone whose only glue address refuses
 * reached through its NS name's other address family, EDE 23's verdict when no root server answers,
 * cancel and free with questions under way. Root priming (RFC 8109,
 * iter_prime.c): one `. NS` to the hint for questions asked together,
 * each question asking the hint once beside it (127.6.53.7 refuses all
 * but priming), then the primed address, and an address of a name
 * outside the root's NS RRset never; a hint that refuses
 * priming (127.6.53.1) or does not answer (127.6.53.8 drops everything) leaves
 * the hints in use, priming not asked again within its back-off, one
 * notice for the failure; the verdict that no root server answers
 * still comes within DT_IT_ZONE_WAIT_MS. Dead-server memory: a zone
 * whose only server (127.6.53.10) reads nothing costs a few datagrams,
 * then none until one probe after the back-off. 0x20: every server is
 * asked in random case, and 127.6.53.3, which answers in lower case,
 * still serves.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/loop.h"
#include "iterator/iterate.h"
#include "drive/iter_net.h"
#include "upstream/transport.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"
#include "wire/zone.h"
#include "tap.h"

enum { NFAKE = 7 };

/* A canned response: to server srv, for qname (or any name below it when
 * below), qtype (0: any). Default: REFUSED. */
struct rule {
	int srv;
	const char *qname;
	bool below;
	uint16_t qtype;
	uint16_t flags;
	uint8_t rcode;
	const char *an, *ns, *ar;
	bool drop_first; /* the first query it matches gets no response */
	bool malformed;	 /* its response counts one more answer record
			    than it holds: it does not parse */
};

static const struct rule rules[] = {
	/* 1: the root */
	{1, "example.", false, WIRE_TYPE_DS, WIRE_FLAG_AA, 0,
	 "example. DS 12345 13 2 "
	 "0000000000000000000000000000000000000000000000000000000000000000\n",
	 NULL, NULL},
	{1, "example.", true, 0, 0, 0, NULL, "example. NS ns1.example.\n",
	 "ns1.example. A 127.6.53.2\n"},
	{1, "other.", true, 0, 0, 0, NULL, "other. NS ns.other.\n",
	 "ns.other. A 127.6.53.3\n"},
	{1, "glueless.", true, 0, 0, 0, NULL, "glueless. NS ns.other.\n", NULL},
	{1, "lame.", true, 0, 0, 0, NULL,
	 "lame. NS a.ns.lame.\nlame. NS b.ns.lame.\n",
	 "a.ns.lame. A 127.6.53.5\nb.ns.lame. A 127.6.53.6\n"},
	/* 2: example. */
	{2, "www.sub.example.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "www.sub.example. A 192.0.2.1\n", NULL, NULL},
	{2, "a.b.example.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "a.b.example. A 192.0.2.2\n", NULL, NULL},
	/* a broken server: NXDOMAIN for an empty non-terminal */
	{2, "b.example.", false, 0, WIRE_FLAG_AA, WIRE_RCODE_NXDOMAIN, NULL,
	 "example. SOA ns1.example. h.example. 1 2 3 4 5\n", NULL},
	{2, "alias.example.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "alias.example. CNAME www.glueless.\n", NULL, NULL},
	{2, "example.", true, 0, WIRE_FLAG_AA, 0, NULL,
	 "example. SOA ns1.example. h.example. 1 2 3 4 5\n", NULL},
	{1, "v6only.", true, 0, 0, 0, NULL, "v6only. NS ns.v6.other.\n", NULL},
	/* 3: other. */
	{3, "ns.v6.other.", false, WIRE_TYPE_AAAA, WIRE_FLAG_AA, 0,
	 "ns.v6.other. AAAA ::ffff:127.6.53.4\n", NULL, NULL},
	{3, "ns.other.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "ns.other. A 127.6.53.4\n", NULL, NULL},
	{3, "other.", true, 0, WIRE_FLAG_AA, 0, NULL,
	 "other. SOA ns.other. h.other. 1 2 3 4 5\n", NULL},
	/* 4: glueless. and v6only. */
	{4, "www.v6only.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "www.v6only. A 192.0.2.6\n", NULL, NULL},
	{4, "www.glueless.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "www.glueless. A 192.0.2.4\n", NULL, NULL},
	{4, "glueless.", true, 0, WIRE_FLAG_AA, 0, NULL,
	 "glueless. SOA ns.other. h.other. 1 2 3 4 5\n", NULL},
	{1, "retry.", true, 0, 0, 0, NULL, "retry. NS ns.retry.\n",
	 "ns.retry. A 127.6.53.6\n"},
	/* broken.: its only server (4) answers what does not parse */
	{1, "broken.", true, 0, 0, 0, NULL, "broken. NS ns.broken.\n",
	 "ns.broken. A 127.6.53.4\n"},
	{4, "broken.", true, 0, WIRE_FLAG_AA, 0, "www.broken. A 192.0.2.9\n",
	 NULL, NULL, false, true},
	/* 5 refuses everything; 6: lame.'s good server, retry.'s only one */
	{6, "www.retry.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "www.retry. A 192.0.2.5\n", NULL, NULL, true},
	{6, "www.lame.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "www.lame. A 192.0.2.3\n", NULL, NULL},
	/* dead.: its only server, 127.6.53.10, reads nothing */
	{1, "dead.", true, 0, 0, 0, NULL, "dead. NS ns.dead.\n",
	 "ns.dead. A 127.6.53.10\n"},
	/* fam.: its only glue (3) refuses www.fam.; its NS name's AAAA,
	 * which no referral gave, is 6 (the other address family) */
	{1, "fam.", true, 0, 0, 0, NULL, "fam. NS ns.fam.\n",
	 "ns.fam. A 127.6.53.3\n"},
	{3, "ns.fam.", false, WIRE_TYPE_AAAA, WIRE_FLAG_AA, 0,
	 "ns.fam. AAAA ::ffff:127.6.53.6\n", NULL, NULL},
	{6, "www.fam.", false, WIRE_TYPE_A, WIRE_FLAG_AA, 0,
	 "www.fam. A 192.0.2.7\n", NULL, NULL},
	/* 7: a hint that answers priming only: the root is 127.6.53.1 */
	{7, ".", false, WIRE_TYPE_NS, WIRE_FLAG_AA, 0,
	 ". NS a.root.\n. NS b.root.\n", NULL,
	 "a.root. A 127.6.53.1\nevil. A 127.6.53.5\n"},
};

struct fake {
	int fd;
	pthread_mutex_t mu;
	char log[64][DT_NAME_TEXT_MAXLEN + 20]; /* "name TYPE" asked,
						   lower case */
	int nlog;
	int mixed; /* questions with a letter in upper case (0x20) */
};

static struct fake fakes[NFAKE + 1];
static bool dropped[sizeof(rules) / sizeof(rules[0])];
static uint16_t port;
static atomic_int stop;
static pthread_t thread;

static void add(struct wire_builder *b, enum wire_section sec, const char *text)
{
	struct wire_zreader *zr;
	struct wire_rr rr;

	if (!text)
		return;
	zr = wire_zreader_new(text, strlen(text), ".", 3600, "rule");
	while (wire_zreader_next(zr, &rr) == 1)
		wire_build_rr(b, sec, &rr);
	wire_zreader_free(zr);
}

static const struct rule *match(int srv, const struct wire_msg *q)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];
		uint8_t n[DT_NAME_MAXLEN];

		wire_dname_from_str(r->qname, strlen(r->qname), NULL, n);
		if (r->srv == srv && (!r->qtype || r->qtype == q->qtype) &&
		    (r->below ? wire_dname_is_subdomain(q->qname, n)
			      : wire_dname_equal(q->qname, n)))
			return r;
	}
	return NULL;
}

static void answer(int srv, const uint8_t *pkt, size_t len,
		   const struct sockaddr_in *from)
{
	struct fake *f = &fakes[srv];
	const struct rule *r;
	struct wire_builder b;
	struct wire_msg *q;
	uint8_t out[2048];
	char name[DT_NAME_TEXT_MAXLEN], tb[16];
	int err;

	if (!(q = wire_msg_parse(pkt, len, 0, &err)) || !q->has_question) {
		wire_msg_free(q);
		return;
	}
	wire_dname_storage_t lower;
	wire_dname_copy(lower, q->qname);
	wire_dname_tolower(lower);
	wire_dname_to_str(lower, name, sizeof(name));
	pthread_mutex_lock(&f->mu);
	if (f->nlog < 64)
		snprintf(f->log[f->nlog++], sizeof(f->log[0]), "%s %s", name,
			 wire_type_to_str(q->qtype, tb));
	int llen = wire_dname_check(lower, lower + sizeof(lower));
	f->mixed += memcmp(lower, q->qname, (size_t)llen) != 0;
	pthread_mutex_unlock(&f->mu);
	r = match(srv, q);
	if (r && r->drop_first && !dropped[r - rules]) {
		dropped[r - rules] = true;
		wire_msg_free(q);
		return;
	}
	wire_build_init(&b, out, sizeof(out), q->hdr.id,
			(uint16_t)(WIRE_FLAG_QR | (r ? r->flags | r->rcode
						     : WIRE_RCODE_REFUSED)));
	/* 127.6.53.3 does not echo the case of the question (0x20) */
	wire_build_question(&b, srv == 3 ? lower : q->qname, q->qtype,
			    q->qclass);
	if (r) {
		add(&b, WIRE_SEC_ANSWER, r->an);
		add(&b, WIRE_SEC_AUTHORITY, r->ns);
		add(&b, WIRE_SEC_ADDITIONAL, r->ar);
	}
	if (q->edns.present)
		wire_build_opt(&b, 1232, 0, 0, q->edns.flags, NULL, 0);
	len = wire_build_finish(&b);
	if (r && r->malformed)
		wire_put16(out + 6, (uint16_t)(wire_get16(out + 6) + 1));
	sendto(f->fd, out, len, 0, (const struct sockaddr *)from,
	       sizeof(*from));
	wire_msg_free(q);
}

static void *serve(void *arg)
{
	struct pollfd p[NFAKE];
	uint8_t pkt[4096];

	(void)arg;
	for (int i = 0; i < NFAKE; i++)
		p[i] = (struct pollfd){.fd = fakes[i + 1].fd, .events = POLLIN};
	while (!atomic_load(&stop)) {
		if (poll(p, NFAKE, 50) <= 0)
			continue;
		for (int i = 0; i < NFAKE; i++) {
			struct sockaddr_in from;
			socklen_t fl = sizeof(from);
			ssize_t n;

			if (!(p[i].revents & POLLIN))
				continue;
			n = recvfrom(p[i].fd, pkt, sizeof(pkt), 0,
				     (struct sockaddr *)&from, &fl);
			if (n > 0)
				answer(i + 1, pkt, (size_t)n, &from);
		}
	}
	return NULL;
}

static int fakes_start(void)
{
	for (int i = 1; i <= NFAKE; i++) {
		struct sockaddr_in a = {.sin_family = AF_INET,
					.sin_port = htons(port)};
		socklen_t al = sizeof(a);
		char ip[32];

		snprintf(ip, sizeof(ip), "127.6.53.%d", i);
		inet_pton(AF_INET, ip, &a.sin_addr);
		fakes[i].fd = socket(AF_INET, SOCK_DGRAM, 0);
		pthread_mutex_init(&fakes[i].mu, NULL);
		if (fakes[i].fd < 0 ||
		    bind(fakes[i].fd, (struct sockaddr *)&a, sizeof(a)) < 0)
			return -errno;
		getsockname(fakes[i].fd, (struct sockaddr *)&a, &al);
		port = ntohs(a.sin_port);
	}
	return pthread_create(&thread, NULL, serve, NULL) ? -1 : 0;
}

/* Whether server srv was asked "name TYPE". */
static bool asked(int srv, const char *what)
{
	bool yes = false;

	pthread_mutex_lock(&fakes[srv].mu);
	for (int i = 0; i < fakes[srv].nlog && !yes; i++)
		yes = strcmp(fakes[srv].log[i], what) == 0;
	pthread_mutex_unlock(&fakes[srv].mu);
	return yes;
}

/* How many times server srv was asked "name TYPE"; all with NULL. */
static int count(int srv, const char *what)
{
	int n = 0;

	pthread_mutex_lock(&fakes[srv].mu);
	for (int i = 0; i < fakes[srv].nlog; i++)
		n += !what || strcmp(fakes[srv].log[i], what) == 0;
	pthread_mutex_unlock(&fakes[srv].mu);
	return n;
}

/* --- questions --- */

static struct loop *L;

/* The cores made (net_new) and their drivers over the network. */
static struct it_net *nets[8];

static struct iterator *net_new(struct up_client *up, const struct it_hints *h)
{
	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		if (nets[i])
			continue;
		if (!(nets[i] = it_net_new(L, up, h)))
			return NULL;
		return it_net_core(nets[i]);
	}
	return NULL;
}

static void net_free(struct iterator *it)
{
	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		if (nets[i] && it_net_core(nets[i]) == it) {
			it_net_free(nets[i]);
			nets[i] = NULL;
		}
	}
}
static int got_err;
static struct wire_msg *got;
static int calls;

static void done(void *arg, int err, const struct up_answer *ans,
		 int last_rcode)
{
	(void)arg;
	(void)last_rcode;
	calls++;
	got_err = err;
	wire_msg_free(got);
	got = NULL;
	if (!err)
		got = wire_msg_parse(ans->msg, ans->len, 0, &got_err);
	loop_stop(L);
}

static void never(void *arg, int err, const struct up_answer *ans,
		  int last_rcode)
{
	(void)arg;
	(void)err;
	(void)ans;
	(void)last_rcode;
	calls += 100;
}

static const uint8_t *name(const char *text)
{
	static uint8_t b[DT_NAME_MAXLEN];

	wire_dname_from_str(text, strlen(text), NULL, b);
	return b;
}

static bool ask(struct iterator *it, const char *q, uint16_t type)
{
	calls = 0;
	if (!it_query(it, loop_now_ms(L), name(q), type, done, NULL))
		return false;
	loop_run(L);
	return calls == 1;
}

/* The n-th answer record's text. */
static const char *answer_rr(size_t n)
{
	static char buf[512];

	if (!got || n >= got->count[WIRE_SEC_ANSWER])
		return "(none)";
	wire_rr_to_str(&got->sec[WIRE_SEC_ANSWER][n], buf, sizeof(buf));
	for (char *p = buf; *p; p++)
		if (*p == '\t')
			*p = ' ';
	return buf;
}

/* Notices of the iterator (root priming). */
static int notices;
static char notice_last[256];

static void on_notice(void *arg, const char *text)
{
	(void)arg;
	notices++;
	snprintf(notice_last, sizeof(notice_last), "%s", text);
}

static void test_walks(struct iterator *it)
{
	struct it_stats st;

	ok(ask(it, "www.sub.example.", WIRE_TYPE_A) && got_err == 0,
	   "www.sub.example. A resolved from the hints");
	ok(count(1, ". NS") == 1 && !it_root_primed(it),
	   "the hint refused the priming query: the hints are used");
	ok(notices == 1 && strstr(notice_last, "root priming failed"),
	   "a notice: %s", notice_last);
	is_str(answer_rr(0), "www.sub.example. 3600 IN A 192.0.2.1",
	       "its address");
	ok(asked(1, "example. A") && !asked(1, "www.sub.example. A") &&
		   !asked(1, "sub.example. A"),
	   "QNAME minimisation: the root saw example. A only");
	ok(asked(2, "sub.example. A") && asked(2, "www.sub.example. A"),
	   "example.'s server: sub.example. A, then the question");

	ok(ask(it, "a.b.example.", WIRE_TYPE_A) && got_err == 0,
	   "a.b.example. A, under a server that says NXDOMAIN for b.example.");
	is_str(answer_rr(0), "a.b.example. 3600 IN A 192.0.2.2",
	       "resolved by the full name after the minimised NXDOMAIN");
	ok(asked(2, "b.example. A"), "b.example. A was asked first");

	ok(ask(it, "www.glueless.", WIRE_TYPE_A) && got_err == 0,
	   "www.glueless. A: its NS name has no glue");
	is_str(answer_rr(0), "www.glueless. 3600 IN A 192.0.2.4",
	       "resolved through the NS name's own lookup");
	ok(asked(3, "ns.other. A"), "ns.other. A was asked of other.'s server");

	ok(ask(it, "www.v6only.", WIRE_TYPE_A) && got_err == 0,
	   "www.v6only. A: its NS name has no glue and no A (%s, %d "
	   "answers)",
	   errcode_str(got_err), calls);
	is_str(answer_rr(0), "www.v6only. 3600 IN A 192.0.2.6",
	       "resolved through the NS name's AAAA");
	ok(asked(3, "ns.v6.other. A") && asked(3, "ns.v6.other. AAAA"),
	   "A asked first, then AAAA");

	ok(ask(it, "alias.example.", WIRE_TYPE_A) && got_err == 0 && got &&
		   got->count[WIRE_SEC_ANSWER] == 2,
	   "alias.example. A: a CNAME into another zone, two records");
	is_str(answer_rr(0), "alias.example. 3600 IN CNAME www.glueless.",
	       "the CNAME first");
	is_str(answer_rr(1), "www.glueless. 3600 IN A 192.0.2.4",
	       "then its target's address");
	ok(got && wire_dname_equal(got->qname, name("alias.example.")),
	   "the question is the one asked");

	ok(ask(it, "example.", WIRE_TYPE_DS) && got_err == 0 && got &&
		   got->count[WIRE_SEC_ANSWER] == 1,
	   "example. DS answered");
	ok(asked(1, "example. DS") && !asked(2, "example. DS"),
	   "by the root (the parent), not by example.'s server");

	ok(ask(it, "www.lame.", WIRE_TYPE_A) && got_err == 0,
	   "www.lame. A: one of lame.'s servers refuses");
	is_str(answer_rr(0), "www.lame. 3600 IN A 192.0.2.3",
	       "answered by the other");
	it_get_stats(it, &st);
	ok(!asked(5, "www.lame. A") || st.lame >= 1,
	   "the refusing server, when asked, is counted lame (%llu)",
	   (unsigned long long)st.lame);
	ok(st.referrals >= 4 && st.queries >= 12 && st.root_unreachable == 0 &&
		   it_root_reachable(it),
	   "counters: %llu queries, %llu referrals, root reachable",
	   (unsigned long long)st.queries, (unsigned long long)st.referrals);

	uint64_t timeouts = st.timeouts;
	ok(ask(it, "www.retry.", WIRE_TYPE_A) && got_err == 0,
	   "www.retry. A: its only server drops the first query");
	is_str(answer_rr(0), "www.retry. 3600 IN A 192.0.2.5",
	       "answered when asked again");
	it_get_stats(it, &st);
	ok(st.timeouts == timeouts + 1, "one timeout counted");

	bool asked_ok = ask(it, "nowhere.", WIRE_TYPE_A);
	ok(asked_ok && got_err == DT_ENOAUTH,
	   "a name the root refuses: DT_ENOAUTH (EDE 22), not the "
	   "network's fault (%s)",
	   errcode_str(got_err));
	ok(count(1, ". NS") == 1 && notices == 1,
	   "priming not asked again within its back-off, nor told again");

	it_get_stats(it, &st);
	timeouts = st.timeouts;
	asked_ok = ask(it, "www.broken.", WIRE_TYPE_A);
	ok(asked_ok && got_err == DT_EBADANSWER,
	   "a zone whose only server answers what does not parse: "
	   "DT_EBADANSWER (EDE 0), not EDE 22 (%s)",
	   errcode_str(got_err));
	it_get_stats(it, &st);
	ok(st.timeouts == timeouts && count(4, "www.broken. A") == 1,
	   "its server asked once, no timeout waited for (%d)",
	   count(4, "www.broken. A"));
}

/* Questions asked together, each answered once. */
static int pending;
static int errs[3];

static void done_n(void *arg, int err, const struct up_answer *ans,
		   int last_rcode)
{
	(void)ans;
	(void)last_rcode;
	errs[(size_t)arg] = err;
	if (--pending == 0)
		loop_stop(L);
}

static void test_prime(struct up_client *up)
{
	static const char *const qs[] = {"www.sub.example.", "a.b.example.",
					 "www.v6only."};
	struct it_hints h = {0};
	struct iterator *it;
	int evil = count(5, NULL), root = count(1, NULL);

	up_server_parse("127.6.53.7", &h.addr[h.n++]);
	it = net_new(up, &h);
	it_set_port(it, port);
	it_set_notice(it, on_notice, NULL);
	notices = 0;
	pending = 3;
	for (size_t i = 0; i < 3; i++)
		errs[i] = 1;
	for (size_t i = 0; i < 3; i++)
		it_query(it, loop_now_ms(L), name(qs[i]), WIRE_TYPE_A, done_n,
			 (void *)i);
	ok(!it_root_primed(it), "priming under way: not primed yet");
	loop_run(L);
	ok(pending == 0 && errs[0] == 0 && errs[1] == 0 && errs[2] == 0,
	   "three questions asked together, answered (%s, %s, %s)",
	   errcode_str(errs[0]), errcode_str(errs[1]), errcode_str(errs[2]));
	is_int(count(7, ". NS"), 1, "one priming query for the three");
	ok(count(7, NULL) == 1 + 3 && count(1, NULL) > root,
	   "the hint was asked each question once, beside the priming "
	   "(%d queries); the primed address then",
	   count(7, NULL));
	ok(it_root_primed(it), "the root's servers are primed");
	ok(notices == 1 && strstr(notice_last, "root primed: 1 address"),
	   "one notice: %s", notice_last);
	root = count(1, NULL);
	int hint = count(7, NULL);
	ok(ask(it, "www.glueless.", WIRE_TYPE_A) && got_err == 0 &&
		   count(1, NULL) > root,
	   "a later question: the primed root asked");
	ok(count(7, NULL) == hint,
	   "no priming again within the TTL, nor the hint asked");
	is_int(count(5, NULL), evil,
	       "the address of a name outside the root's NS RRset unused");

	/* New hints: the primed servers are forgotten, priming asked of
	 * them (127.6.53.1 refuses it: the hints are used). */
	memset(&h, 0, sizeof(h));
	up_server_parse("127.6.53.1", &h.addr[h.n++]);
	int refused = count(1, ". NS");
	it_set_hints(it, &h, loop_now_ms(L));
	ok(!it_root_primed(it), "new hints: not primed");
	ok(ask(it, "www.sub.example.", WIRE_TYPE_A) && got_err == 0 &&
		   count(1, ". NS") == refused + 1 && !it_root_primed(it),
	   "primed again on the new hints, refused, answered from them");
	net_free(it);
}

static void test_unreachable(struct up_client *up)
{
	struct it_hints h = {0};
	struct iterator *it;
	struct it_stats st;

	/* Nothing listens on 127.6.53.9: ICMP port unreachable. */
	up_server_parse("127.6.53.9", &h.addr[h.n++]);
	it = net_new(up, &h);
	it_set_port(it, port);
	bool asked_ok = ask(it, "www.example.", WIRE_TYPE_A);
	ok(asked_ok && got_err == DT_ENETBLOCKED, "no root server answers: %s",
	   errcode_str(got_err));
	it_get_stats(it, &st);
	ok(!it_root_reachable(it) && st.root_unreachable == 1 &&
		   st.timeouts >= 1,
	   "root unreachable, counted once");
	memset(&h, 0, sizeof(h));
	up_server_parse("127.6.53.1", &h.addr[h.n++]);
	it_set_hints(it, &h, loop_now_ms(L));
	ok(ask(it, "www.sub.example.", WIRE_TYPE_A) && got_err == 0 &&
		   it_root_reachable(it),
	   "new hints that answer: resolved, the root reachable again");
	net_free(it);

	/* A hint that drops everything (a socket never read): priming
	 * times out, then the hint is asked as the root until the root's
	 * wait is over, counted from the priming query. */
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	inet_pton(AF_INET, "127.6.53.8", &a.sin_addr);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		abort();
	memset(&h, 0, sizeof(h));
	up_server_parse("127.6.53.8", &h.addr[h.n++]);
	it = net_new(up, &h);
	it_set_port(it, port);
	int64_t t0 = loop_now_ms(L);
	asked_ok = ask(it, "www.example.", WIRE_TYPE_A);
	int64_t took = loop_now_ms(L) - t0;
	it_get_stats(it, &st);
	ok(asked_ok && got_err == DT_ENETBLOCKED && st.timeouts >= 2,
	   "a silent hint: priming and the walk time out (%llu), %s",
	   (unsigned long long)st.timeouts, errcode_str(got_err));
	ok(took >= DT_IT_ZONE_WAIT_MS - 100 &&
		   took < DT_IT_ZONE_WAIT_MS + DT_IT_PRIME_TIMEOUT_MS,
	   "within the root's wait, priming included (%lld ms)",
	   (long long)took);
	net_free(it);
	close(fd);
}

static void stop_loop(struct loop_timer *t);

/* Datagrams waiting on fd (never read), taken off. */
static int drain_count(int fd)
{
	uint8_t pkt[4096];
	int n = 0;

	while (recv(fd, pkt, sizeof(pkt), MSG_DONTWAIT) > 0)
		n++;
	return n;
}

static int ndone, nwant;

static void dead_done(void *arg, int err, const struct up_answer *ans,
		      int last_rcode)
{
	int *ret = arg;

	(void)ans;
	(void)last_rcode;
	*ret = err;
	if (++ndone == nwant)
		loop_stop(L);
}

/* Asks n names under dead. at once; their errors in derr. Returns the
 * ms it took. */
static int64_t ask_dead(struct iterator *it, int first, int n, int *derr)
{
	int64_t t0 = loop_now_ms(L);
	char q[64];

	ndone = 0;
	nwant = n;
	for (int i = 0; i < n; i++) {
		snprintf(q, sizeof(q), "r%d.dead.", first + i);
		derr[i] = 1;
		it_query(it, loop_now_ms(L), name(q), WIRE_TYPE_A, dead_done,
			 &derr[i]);
	}
	loop_run(L);
	return loop_now_ms(L) - t0;
}

/* Dead-server memory: a zone whose only server never answers costs a
 * few datagrams, then none until its probe is due. */
static void test_dead(struct up_client *up, const struct it_hints *h)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	struct iterator *it = net_new(up, h);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int derr[8], sent;
	int64_t took;

	inet_pton(AF_INET, "127.6.53.10", &a.sin_addr);
	if (!it || fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		abort();
	it_set_port(it, port);
	ask_dead(it, 0, 2, derr);
	sent = drain_count(fd);
	ok(derr[0] == DT_ETIMEOUT && derr[1] == DT_ETIMEOUT,
	   "two names of a silent zone at once: timed out (%s)",
	   errcode_str(derr[0]));
	ok(sent >= 2 && sent <= 2 * DT_IT_ROUNDS_MAX,
	   "%d datagrams to its server, at most %d", sent,
	   2 * DT_IT_ROUNDS_MAX);
	took = ask_dead(it, 2, 8, derr);
	sent = drain_count(fd);
	bool all = true;
	for (int i = 0; i < 8; i++)
		all = all && derr[i] == DT_ETIMEOUT;
	ok(all && took < 100, "eight more names: failed at once (%lld ms)",
	   (long long)took);
	is_int(sent, 0, "without a datagram: the server is dead");

	/* The probe: after the back-off, one question asks it once. */
	struct loop_timer wait = {.cb = stop_loop};
	loop_timer_start(L, &wait, DT_IT_DEAD_MIN_MS + 50);
	loop_run(L);
	ask_dead(it, 10, 4, derr);
	sent = drain_count(fd);
	ok(derr[0] == DT_ETIMEOUT && derr[3] == DT_ETIMEOUT,
	   "after the back-off: still no answer");
	is_int(sent, 1, "one probe for four names");
	ask_dead(it, 14, 4, derr);
	is_int(drain_count(fd), 0, "then none again (the back-off doubled)");
	net_free(it);
	close(fd);
}

static void test_cancel(struct iterator *it)
{
	struct it_req *r;

	calls = 0;
	r = it_query(it, loop_now_ms(L), name("cancelled.sub.example."),
		     WIRE_TYPE_A, never, NULL);
	it_cancel(r);
	it_query(it, loop_now_ms(L), name("www.sub.example."), WIRE_TYPE_AAAA,
		 done, NULL);
	loop_run(L);
	is_int(calls, 1, "a cancelled question's callback never runs");
	it_query(it, loop_now_ms(L), name("pending.glueless."), WIRE_TYPE_A,
		 never, NULL);
	it_query(it, loop_now_ms(L), name("x.y.z.example."), WIRE_TYPE_A, never,
		 NULL);
}

/* --- NS addresses through a lookup of the caller's (it_set_lookup) --- */

struct hook_call {
	struct loop_timer t;
	it_addrs_fn *cb;
	void *cbarg;
	bool cancelled;
};

static struct hook_call hcalls[8];
static int nhook, ncancel_hook;
static char hook_asked[8][DT_NAME_TEXT_MAXLEN + 24];
static bool hook_good; /* answer ns.other. A with its address */

static void hook_fire(struct loop_timer *t)
{
	struct hook_call *c = t->arg;
	struct up_server a;

	up_server_parse("127.6.53.4", &a);
	if (hook_good)
		c->cb(c->cbarg, &a, 1, loop_now_ms(L));
	else
		c->cb(c->cbarg, NULL, 0, loop_now_ms(L));
}

static void *hook_start(void *arg, const uint8_t *n, uint16_t type,
			unsigned nest, it_addrs_fn *cb, void *cbarg)
{
	struct hook_call *c;
	char txt[DT_NAME_TEXT_MAXLEN], tb[16];

	(void)arg;
	if (nhook == 8)
		return NULL;
	c = &hcalls[nhook];
	wire_dname_to_str(n, txt, sizeof(txt));
	snprintf(hook_asked[nhook], sizeof(hook_asked[0]), "%s %s %u", txt,
		 wire_type_to_str(type, tb), nest);
	nhook++;
	memset(c, 0, sizeof(*c));
	c->cb = cb;
	c->cbarg = cbarg;
	c->t.cb = hook_fire;
	c->t.arg = c;
	/* Only A has an answer: AAAA stays pending until cancelled, and
	 * the test goes on. */
	if (type == WIRE_TYPE_A)
		loop_timer_start(L, &c->t, 0);
	else
		loop_stop(L);
	return c;
}

static void hook_cancel(void *arg, void *handle)
{
	struct hook_call *c = handle;

	(void)arg;
	c->cancelled = true;
	loop_timer_stop(L, &c->t);
	ncancel_hook++;
}

static void stop_loop(struct loop_timer *t)
{
	(void)t;
	loop_stop(L);
}

static struct iterator *hooked(struct up_client *up, const struct it_hints *h)
{
	struct it_lookup lk = {.start = hook_start, .cancel = hook_cancel};
	struct iterator *it = net_new(up, h);

	it_set_port(it, port);
	it_set_lookup(it, &lk);
	nhook = ncancel_hook = 0;
	return it;
}

static void test_lookup_hook(struct up_client *up, const struct it_hints *h)
{
	struct iterator *it = hooked(up, h);

	hook_good = true;
	calls = 0;
	it_query_nest(it, loop_now_ms(L), name("www.glueless."), WIRE_TYPE_A, 1,
		      done, NULL);
	loop_run(L);
	ok(calls == 1 && got_err == 0, "www.glueless. A through the lookup");
	is_str(answer_rr(0), "www.glueless. 3600 IN A 192.0.2.4",
	       "with the address the lookup gave");
	is_int(nhook, 1, "one lookup");
	is_str(hook_asked[0], "ns.other. A 2",
	       "of ns.other. A, one nesting deeper than the question");
	net_free(it);

	/* The lookup finds nothing that validates for A; AAAA never
	 * answers: the question waits on it, and a cancel reaches it. */
	it = hooked(up, h);
	hook_good = false;
	calls = 0;
	struct it_req *r = it_query(it, loop_now_ms(L), name("www.glueless."),
				    WIRE_TYPE_A, never, NULL);
	struct loop_timer guard = {.cb = stop_loop};
	loop_timer_start(L, &guard, 5000);
	loop_run(L);
	loop_timer_stop(L, &guard);
	is_int(nhook, 2, "no address for A: AAAA is looked up next");
	is_str(hook_asked[1], "ns.other. AAAA 1", "at nest 1");
	it_cancel(r);
	is_int(ncancel_hook, 1, "cancelling the question cancels its lookup");
	is_int(calls, 0, "and its callback never runs");
	net_free(it);

	/* At the nesting limit, no lookup: the question fails at once. */
	it = hooked(up, h);
	hook_good = true;
	calls = 0;
	it_query_nest(it, loop_now_ms(L), name("www.glueless."), WIRE_TYPE_A,
		      DT_IT_NS_DEPTH_MAX, done, NULL);
	loop_run(L);
	ok(calls == 1 && got_err != 0, "at DT_IT_NS_DEPTH_MAX: fails");
	is_int(nhook, 0, "without a lookup");
	net_free(it);
}

/* A zone whose only glue address refuses: its own NS name is looked up
 * for the other address family, which answers (lookup_ns_family). */
static void test_family(struct up_client *up, const struct it_hints *h)
{
	struct iterator *it = net_new(up, h);

	it_set_port(it, port);
	ok(ask(it, "www.fam.", WIRE_TYPE_A) && got_err == 0,
	   "www.fam. A: its only glue address refuses");
	is_str(answer_rr(0), "www.fam. 3600 IN A 192.0.2.7",
	       "answered by the address of the NS name's AAAA");
	ok(asked(3, "www.fam. A") && asked(3, "ns.fam. AAAA"),
	   "the refusing server was asked the question, then ns.fam. AAAA");
	ok(asked(6, "www.fam. A"), "the AAAA's server was asked the question");
	net_free(it);
}

int main(void)
{
	struct it_hints h = {0};
	struct up_client *up;
	struct iterator *it;
	int err = fakes_start();

	if (err < 0) {
		printf("1..0 # SKIP cannot bind 127.6.53.x: %s\n",
		       strerror(-err));
		return 0;
	}
	L = loop_new();
	up = up_client_new(L);
	up_server_parse("127.6.53.1", &h.addr[h.n++]);
	it = net_new(up, &h);
	it_set_port(it, port);
	it_set_notice(it, on_notice, NULL);
	test_walks(it);
	/* 0x20: every server is asked with letters in random case; other.'s
	 * (127.6.53.3) answers with the question in lower case, and its
	 * answers were taken in the walks above (it never echoed, so the
	 * case is not required of it). */
	ok(fakes[1].mixed > 0 && fakes[2].mixed > 0 && fakes[3].mixed > 0,
	   "0x20: questions in random case (%d, %d, %d)", fakes[1].mixed,
	   fakes[2].mixed, fakes[3].mixed);
	test_cancel(it);
	net_free(it); /* two questions still under way */
	ok(1, "freed with questions under way");
	test_lookup_hook(up, &h);
	test_family(up, &h);
	test_dead(up, &h);
	test_unreachable(up);
	test_prime(up);
	wire_msg_free(got);
	up_client_free(up);
	loop_free(L);
	atomic_store(&stop, 1);
	pthread_join(thread, NULL);
	return done_testing();
}
