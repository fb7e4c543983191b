/* SPDX-License-Identifier: MIT */
/*
 * An upstream that lies by addition: a UDP and TCP proxy on loopback in
 * front of an honest resolver that passes its answers on, with records
 * added (never removed: the genuine signed data stays), case by case or
 * at random. For tests/lab/injector.sh and tests/load/mutate.sh.
 *
 * usage: injector -l ADDR -u UPSTREAM [-p PORT] [-c CONTROL]
 *                 [-m PERCENT] [-s SEED] [-S STATS]
 *
 *   -c CONTROL  a file holding "CASE NAME": answers to questions for NAME
 *               (any type) get CASE's records (see cases[] below);
 *               read again for every answer, absent or empty: no change
 *   -m PERCENT  mutate that share of all answers at random (flip the
 *               RCODE, add or duplicate records, change owner case, add
 *               CNAME/DNAME, drop RRSIGs, junk in any section)
 *   -S STATS    rewritten after each answer: "answers N mutated M"
 *
 * Injected data is always recognisable: the name evil.plain., A 6.6.6.6,
 * AAAA 2001:db8:666::6, TXT "evil", TLSA/SSHFP data of 0xee octets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
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

#define MAX_PENDING 512
#define MAX_RR	    512
#define POOL	    65536
#define TIMEOUT_MS  4000

/* --- the message being rewritten --- */

struct out {
	uint16_t flags;
	struct wire_rr rr[3][MAX_RR];
	size_t n[3];
	uint8_t pool[POOL];
	size_t used;
};

static void *pool_put(struct out *o, const void *p, size_t len)
{
	uint8_t *d;

	if (o->used + len > POOL)
		return NULL;
	d = o->pool + o->used;
	memcpy(d, p, len);
	o->used += len;
	return d;
}

/* Inserts rr (its owner and RDATA copied) at pos of section s (-1: at the
 * end). */
static void add_rr(struct out *o, int s, long pos, const struct wire_rr *rr)
{
	struct wire_rr c = *rr;
	size_t n = o->n[s];

	if (n == MAX_RR)
		return;
	c.owner = pool_put(o, rr->owner, wire_dname_len(rr->owner));
	c.rdata = pool_put(o, rr->rdata, rr->rdlen ? rr->rdlen : 1);
	if (!c.owner || !c.rdata)
		return;
	if (pos < 0 || (size_t)pos > n)
		pos = (long)n;
	memmove(&o->rr[s][pos + 1], &o->rr[s][pos],
		(n - (size_t)pos) * sizeof(c));
	o->rr[s][pos] = c;
	o->n[s]++;
}

static void out_from(struct out *o, const struct wire_msg *m)
{
	o->flags = m->hdr.flags;
	o->used = 0;
	for (int s = 0; s < 3; s++) {
		o->n[s] = 0;
		for (size_t i = 0; i < m->count[s] && i < MAX_RR; i++)
			o->rr[s][o->n[s]++] = m->sec[s][i];
	}
}

static size_t out_build(const struct out *o, const struct wire_msg *m,
			uint8_t *buf, size_t cap)
{
	struct wire_builder b;
	bool full = false;

	wire_build_init(&b, buf, cap, m->hdr.id, o->flags);
	wire_build_question(&b, m->qname, m->qtype, m->qclass);
	for (int s = 0; s < 3 && !full; s++)
		for (size_t i = 0; i < o->n[s] && !full; i++)
			full = wire_build_rr(&b, s, &o->rr[s][i]) != 0;
	if (m->edns.present)
		wire_build_opt(&b, m->edns.udp_size, m->edns.ext_rcode,
			       m->edns.version, m->edns.flags, m->edns.opts,
			       m->edns.optlen);
	if (full)
		wire_build_set_flags(&b, WIRE_FLAG_TC, 0);
	return wire_build_finish(&b);
}

/* --- injected records, from zone-file text --- */

static const char ee[] =
	"EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE";

/* Evil RDATA of type (text); types without a form get TXT. */
static const char *evil_data(uint16_t type, const char **tname)
{
	static char buf[160];

	*tname = "TXT";
	switch (type) {
	case WIRE_TYPE_A: *tname = "A"; return "6.6.6.6";
	case WIRE_TYPE_AAAA: *tname = "AAAA"; return "2001:db8:666::6";
	case WIRE_TYPE_MX: *tname = "MX"; return "10 evil.plain.";
	case WIRE_TYPE_NS: *tname = "NS"; return "ns.evil.plain.";
	case WIRE_TYPE_TLSA:
		*tname = "TLSA";
		snprintf(buf, sizeof(buf), "3 1 1 %s", ee);
		return buf;
	case WIRE_TYPE_SSHFP:
		*tname = "SSHFP";
		snprintf(buf, sizeof(buf), "4 2 %s", ee);
		return buf;
	}
	return "\"evil\"";
}

/* The template t with {Q} (the name asked), {U} (it in upper case), {P}
 * (it without its last two labels), {T} (the type), {D} (evil data of
 * that type) replaced, into buf. */
static void expand(const char *t, const char *q, uint16_t type, char *buf,
		   size_t cap)
{
	char up[1100], pre[1100];
	const char *tn, *d = evil_data(type, &tn);
	size_t o = 0, ql = strlen(q);

	for (size_t i = 0; i <= ql && i < sizeof(up); i++)
		up[i] = (q[i] >= 'a' && q[i] <= 'z') ? q[i] - 32 : q[i];
	snprintf(pre, sizeof(pre), "%s", q);
	for (int dots = 0, i = (int)ql - 2; i >= 0; i--)
		if (pre[i] == '.' && ++dots == 2) {
			pre[i] = '\0';
			break;
		}
	for (; *t && o + 1 < cap; t++) {
		const char *r = NULL;
		if (t[0] == '{' && t[1] && t[2] == '}') {
			r = t[1] == 'Q'	  ? q
			    : t[1] == 'U' ? up
			    : t[1] == 'P' ? pre
			    : t[1] == 'T' ? tn
			    : t[1] == 'D' ? d
					  : NULL;
		}
		if (r) {
			o += (size_t)snprintf(buf + o, cap - o, "%s", r);
			if (o >= cap)
				o = cap - 1;
			t += 2;
		} else {
			buf[o++] = *t;
		}
	}
	buf[o] = '\0';
}

/* Adds the records of template t at pos of section s. skip_type: leave
 * out records of this type (0: none). */
static void inject(struct out *o, const struct wire_msg *m, int s, long pos,
		   const char *t, uint16_t skip_type)
{
	char q[1100], text[4096];
	struct wire_zreader *zr;
	struct wire_rr rr;

	if (!t)
		return;
	wire_dname_to_str(m->qname, q, sizeof(q));
	expand(t, q, m->qtype, text, sizeof(text));
	zr = wire_zreader_new(text, strlen(text), ".", 300, "inject");
	while (zr && wire_zreader_next(zr, &rr) == 1) {
		if (skip_type && rr.type == skip_type)
			continue;
		add_rr(o, s, pos, &rr);
		if (pos >= 0)
			pos++;
	}
	if (zr && wire_zreader_error(zr)[0])
		fprintf(stderr, "injector: %s\n", wire_zreader_error(zr));
	wire_zreader_free(zr);
}

/* --- the cases --- */

enum when { ALWAYS, NXDOMAIN_ONLY, NODATA_ONLY };

struct icase {
	const char *name;
	enum when when;
	long pos;	/* where in the answer: -1 end, 0 first, 2 mid */
	const char *an; /* zone-file templates per section */
	const char *ns;
	const char *ar;
	int rcode;	 /* -1: keep */
	bool skip_qtype; /* the answer's own type left out */
};

#define EVIL_CNAME "{Q} 300 IN CNAME evil.plain.\nevil.plain. 300 IN {T} {D}\n"

static const struct icase cases[] = {
	{"cname-beside", ALWAYS, -1, EVIL_CNAME, NULL, NULL, -1, false},
	{"cname-before", ALWAYS, 0, EVIL_CNAME, NULL, NULL, -1, false},
	{"dname-beside", ALWAYS, -1,
	 "secure.lab. 300 IN DNAME evil.plain.\n"
	 "{Q} 300 IN CNAME {P}.evil.plain.\n{P}.evil.plain. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"dname-nocname", ALWAYS, -1,
	 "secure.lab. 300 IN DNAME evil.plain.\n"
	 "{P}.evil.plain. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"mid-chain", ALWAYS, 2,
	 "cname.secure.lab. 300 IN CNAME evil.plain.\n"
	 "evil.plain. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"offchain", ALWAYS, -1,
	 "evil.plain. 300 IN {T} {D}\nmail.secure.lab. 300 IN {T} {D}\n"
	 "ent.secure.lab. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"split", ALWAYS, -1, "{Q} 60 IN {T} {D}\n", NULL, NULL, -1, false},
	{"case-variant", ALWAYS, -1,
	 "{U} 300 IN {T} {D}\n{U} 300 IN CNAME evil.plain.\n", NULL, NULL, -1,
	 false},
	{"other-class", ALWAYS, -1,
	 "{Q} 300 CH CNAME evil.plain.\n{Q} 300 CH TXT \"evil\"\n"
	 "{Q} 300 HS CNAME evil.plain.\nevil.plain. 300 CH TXT \"evil\"\n",
	 NULL, NULL, -1, false},
	{"wrong-type", ALWAYS, -1,
	 "{Q} 300 IN TXT \"evil\"\n{Q} 300 IN MX 10 evil.plain.\n"
	 "{Q} 300 IN A 6.6.6.6\n{Q} 300 IN AAAA 2001:db8:666::6\n"
	 "{Q} 300 IN NS ns.evil.plain.\n{Q} 300 IN PTR evil.plain.\n",
	 NULL, NULL, -1, true},
	{"auth-ns-glue", ALWAYS, -1, NULL,
	 "secure.lab. 300 IN NS ns.evil.plain.\n{Q} 300 IN {T} {D}\n",
	 "ns.evil.plain. 300 IN A 6.6.6.6\n"
	 "ns.evil.plain. 300 IN AAAA 2001:db8:666::6\n{Q} 300 IN {T} {D}\n",
	 -1, false},
	{"nx-answer", NXDOMAIN_ONLY, -1, "{Q} 300 IN {T} {D}\n" EVIL_CNAME,
	 NULL, NULL, -1, false},
	{"nodata-answer", NODATA_ONLY, -1, "{Q} 300 IN {T} {D}\n", NULL, NULL,
	 -1, false},
	{"rcode-nx", ALWAYS, -1, NULL, NULL, NULL, WIRE_RCODE_NXDOMAIN, false},
	{"rcode-nx-cname", ALWAYS, -1, EVIL_CNAME, NULL, NULL,
	 WIRE_RCODE_NXDOMAIN, false},
};

static bool applies(const struct icase *c, const struct wire_msg *m)
{
	switch (c->when) {
	case NXDOMAIN_ONLY: return m->rcode == WIRE_RCODE_NXDOMAIN;
	case NODATA_ONLY:
		return m->rcode == WIRE_RCODE_NOERROR &&
		       m->count[WIRE_SEC_ANSWER] == 0;
	default: return true;
	}
}

static void apply_case(struct out *o, const struct wire_msg *m,
		       const struct icase *c)
{
	uint16_t skip = c->skip_qtype ? m->qtype : 0;

	if (!applies(c, m))
		return;
	inject(o, m, WIRE_SEC_ANSWER, c->pos, c->an, skip);
	inject(o, m, WIRE_SEC_AUTHORITY, -1, c->ns, skip);
	inject(o, m, WIRE_SEC_ADDITIONAL, -1, c->ar, skip);
	if (c->rcode >= 0)
		o->flags = (uint16_t)((o->flags & ~0xf) | c->rcode);
}

/* The case the control file names for m's question, or NULL. */
static const struct icase *control_case(const char *path,
					const struct wire_msg *m)
{
	char line[1200], cname[64], target[1100];
	uint8_t t[DT_NAME_MAXLEN];
	FILE *f = path ? fopen(path, "r") : NULL;
	bool got = f && fgets(line, sizeof(line), f);

	if (f)
		fclose(f);
	if (!got || sscanf(line, "%63s %1099s", cname, target) != 2 ||
	    wire_dname_from_str(target, strlen(target), NULL, t) < 0 ||
	    !wire_dname_equal(t, m->qname))
		return NULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(cases[i].name, cname))
			return &cases[i];
	return NULL;
}

/* --- random mutation --- */

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* A copy of a random record of the answer, its owner's case changed or
 * its RDATA's last octet changed, or a plain duplicate. */
static void mutate_copy(struct out *o)
{
	size_t s = rnd(3), n = o->n[s];
	uint8_t owner[DT_NAME_MAXLEN], rd[65535];
	struct wire_rr rr;

	if (!n)
		return;
	rr = o->rr[s][rnd((uint32_t)n)];
	wire_dname_copy(owner, rr.owner);
	if (rnd(2))
		for (size_t i = 1; owner[i]; i++)
			owner[i] ^= (owner[i] | 0x20) >= 'a' &&
						    (owner[i] | 0x20) <= 'z'
					    ? 0x20
					    : 0;
	memcpy(rd, rr.rdata, rr.rdlen);
	if (rr.rdlen && rr.type != WIRE_TYPE_RRSIG && rnd(2))
		rd[rr.rdlen - 1] ^= 0x66;
	rr.owner = owner;
	rr.rdata = rd;
	add_rr(o, (int)s, (long)rnd((uint32_t)n + 1), &rr);
}

static void drop_sigs(struct out *o)
{
	for (int s = 0; s < 3; s++) {
		size_t k = 0;
		for (size_t i = 0; i < o->n[s]; i++)
			if (o->rr[s][i].type != WIRE_TYPE_RRSIG)
				o->rr[s][k++] = o->rr[s][i];
		o->n[s] = k;
	}
}

static void mutate(struct out *o, const struct wire_msg *m)
{
	static const uint16_t rcodes[] = {0, 2, 3, 5};
	uint32_t what = rnd(8);

	switch (what) {
	case 0:
		o->flags = (uint16_t)((o->flags & ~0xf) | rcodes[rnd(4)]);
		break;
	case 1: mutate_copy(o); break;
	case 2: drop_sigs(o); break;
	case 3: apply_case(o, m, &cases[rnd(2)]); break; /* CNAME */
	case 4: apply_case(o, m, &cases[2]); break;	 /* DNAME */
	default: apply_case(o, m, &cases[5 + rnd(10)]); break;
	}
}

/* --- the proxy --- */

struct proxy {
	const char *control, *stats;
	unsigned percent;
	unsigned long answers, mutated;
	struct sockaddr_in up;
	int ufd, tfd;
};

static void write_stats(const struct proxy *p)
{
	FILE *f;
	char tmp[1100];

	if (!p->stats)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", p->stats);
	if ((f = fopen(tmp, "w"))) {
		fprintf(f, "answers %lu mutated %lu\n", p->answers, p->mutated);
		fclose(f);
		rename(tmp, p->stats);
	}
}

/* The upstream's answer rewritten into out; returns its length (the
 * answer as it was when it does not parse). */
static size_t rewrite(struct proxy *p, const uint8_t *in, size_t len,
		      uint8_t *buf, size_t cap)
{
	static struct out o;
	const struct icase *c;
	struct wire_msg *m;
	int err;

	p->answers++;
	m = wire_msg_parse(in, len, WIRE_PARSE_TRUNC_OK, &err);
	if (!m || !m->has_question) {
		wire_msg_free(m);
		memcpy(buf, in, len < cap ? len : cap);
		return len < cap ? len : cap;
	}
	out_from(&o, m);
	if ((c = control_case(p->control, m)))
		apply_case(&o, m, c);
	else if (p->percent && rnd(100) < p->percent && ++p->mutated)
		mutate(&o, m);
	len = out_build(&o, m, buf, cap);
	wire_msg_free(m);
	if (p->answers % 256 == 0)
		write_stats(p);
	return len;
}

static volatile sig_atomic_t stopping;

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A question on its way to the upstream. */
struct pending {
	int fd; /* -1: free */
	struct sockaddr_in from;
	size_t cap; /* what the client's EDNS allows */
	int64_t deadline;
};

static struct pending pend[MAX_PENDING];

/* The UDP size a query allows: its OPT record's, at least 512. */
static size_t query_cap(const uint8_t *q, size_t len)
{
	int err;
	struct wire_msg *m = wire_msg_parse(q, len, 0, &err);
	size_t cap = 512;

	if (m && m->edns.present && m->edns.udp_size > 512)
		cap = m->edns.udp_size;
	wire_msg_free(m);
	return cap;
}

static void udp_query(struct proxy *p)
{
	uint8_t q[65535];
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	ssize_t n = recvfrom(p->ufd, q, sizeof(q), 0, (void *)&from, &fl);
	size_t i = 0;

	if (n < 12)
		return;
	while (i < MAX_PENDING && pend[i].fd >= 0)
		i++;
	if (i == MAX_PENDING)
		return; /* full: the client retries */
	pend[i].fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (pend[i].fd < 0)
		return;
	if (connect(pend[i].fd, (void *)&p->up, sizeof(p->up)) ||
	    send(pend[i].fd, q, (size_t)n, 0) != n) {
		close(pend[i].fd);
		pend[i].fd = -1;
		return;
	}
	pend[i].from = from;
	pend[i].cap = query_cap(q, (size_t)n);
	pend[i].deadline = now_ms() + TIMEOUT_MS;
}

static void udp_answer(struct proxy *p, struct pending *x)
{
	static uint8_t in[65535], out[65535];
	ssize_t n = recv(x->fd, in, sizeof(in), 0);

	if (n >= 12) {
		size_t len = rewrite(p, in, (size_t)n, out, x->cap);
		sendto(p->ufd, out, len, 0, (void *)&x->from, sizeof(x->from));
	}
	close(x->fd);
	x->fd = -1;
}

/* --- TCP: one connection at a time, each question asked upstream over
 * TCP in turn (rare: answers too large for UDP) --- */

static int io_all(int fd, uint8_t *p, size_t len, bool rd)
{
	while (len) {
		struct pollfd pf = {fd, rd ? POLLIN : POLLOUT, 0};
		ssize_t n;
		if (poll(&pf, 1, TIMEOUT_MS) != 1)
			return -1;
		n = rd ? recv(fd, p, len, 0) : send(fd, p, len, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int frame_read(int fd, uint8_t *buf, size_t *len)
{
	uint8_t l[2];

	if (io_all(fd, l, 2, true))
		return -1;
	*len = (size_t)(l[0] << 8 | l[1]);
	return io_all(fd, buf, *len, true);
}

static int frame_write(int fd, const uint8_t *buf, size_t len)
{
	uint8_t l[2] = {(uint8_t)(len >> 8), (uint8_t)len};

	if (io_all(fd, l, 2, false))
		return -1;
	return io_all(fd, (uint8_t *)buf, len, false);
}

/* One question over TCP to the upstream; returns the answer's length. */
static ssize_t tcp_ask(struct proxy *p, const uint8_t *q, size_t qlen,
		       uint8_t *ans)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	size_t len = 0;
	int err = fd < 0 || connect(fd, (void *)&p->up, sizeof(p->up)) ||
		  frame_write(fd, q, qlen) || frame_read(fd, ans, &len);

	if (fd >= 0)
		close(fd);
	return err ? -1 : (ssize_t)len;
}

static void tcp_client(struct proxy *p)
{
	static uint8_t q[65535], in[65535], out[65535];
	int fd = accept4(p->tfd, NULL, NULL, SOCK_CLOEXEC);
	size_t qlen;
	ssize_t n;

	if (fd < 0)
		return;
	while (!frame_read(fd, q, &qlen) && (n = tcp_ask(p, q, qlen, in)) >= 12)
		if (frame_write(fd, out,
				rewrite(p, in, (size_t)n, out, sizeof(out))))
			break;
	close(fd);
}

/* --- main --- */

static int listen_on(const struct sockaddr_in *a, int type)
{
	int one = 1, fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const void *)a, sizeof(*a)) ||
	    (type == SOCK_STREAM && listen(fd, 64))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void expire(void)
{
	int64_t now = now_ms();

	for (size_t i = 0; i < MAX_PENDING; i++)
		if (pend[i].fd >= 0 && pend[i].deadline < now) {
			close(pend[i].fd);
			pend[i].fd = -1;
		}
}

static void serve(struct proxy *p)
{
	struct pollfd pf[2 + MAX_PENDING];
	size_t map[MAX_PENDING];

	while (!stopping) {
		nfds_t n = 2;
		pf[0] = (struct pollfd){p->ufd, POLLIN, 0};
		pf[1] = (struct pollfd){p->tfd, POLLIN, 0};
		for (size_t i = 0; i < MAX_PENDING; i++)
			if (pend[i].fd >= 0) {
				map[n - 2] = i;
				pf[n++] =
					(struct pollfd){pend[i].fd, POLLIN, 0};
			}
		if (poll(pf, n, 200) < 0 && errno != EINTR)
			break;
		for (nfds_t k = 2; k < n; k++)
			if (pf[k].revents)
				udp_answer(p, &pend[map[k - 2]]);
		if (pf[0].revents & POLLIN)
			udp_query(p);
		if (pf[1].revents & POLLIN)
			tcp_client(p);
		expire();
	}
}

static int addr(const char *text, uint16_t port, struct sockaddr_in *ret)
{
	*ret = (struct sockaddr_in){.sin_family = AF_INET,
				    .sin_port = htons(port)};
	return inet_pton(AF_INET, text, &ret->sin_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct proxy p = {.ufd = -1, .tfd = -1};
	const char *listen_addr = NULL, *up = NULL;
	unsigned port = 53;
	struct sockaddr_in la;
	int opt;

	while ((opt = getopt(argc, argv, "l:u:p:c:m:s:S:")) != -1) {
		switch (opt) {
		case 'l': listen_addr = optarg; break;
		case 'u': up = optarg; break;
		case 'p': port = (unsigned)atoi(optarg); break;
		case 'c': p.control = optarg; break;
		case 'm': p.percent = (unsigned)atoi(optarg); break;
		case 's':
			rng ^= strtoull(optarg, NULL, 10) * 2654435761u;
			break;
		case 'S': p.stats = optarg; break;
		default: return 2;
		}
	}
	if (!listen_addr || !up || addr(listen_addr, (uint16_t)port, &la) ||
	    addr(up, 53, &p.up)) {
		fprintf(stderr, "usage: injector -l ADDR -u UPSTREAM [-p PORT] "
				"[-c CONTROL] [-m PERCENT] [-s SEED] "
				"[-S STATS]\n");
		return 2;
	}
	p.ufd = listen_on(&la, SOCK_DGRAM);
	p.tfd = listen_on(&la, SOCK_STREAM);
	if (p.ufd < 0 || p.tfd < 0) {
		perror("injector: bind");
		return 1;
	}
	for (size_t i = 0; i < MAX_PENDING; i++)
		pend[i].fd = -1;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "injector: listening on %s@%u\n", listen_addr, port);
	serve(&p);
	write_stats(&p);
	return 0;
}
