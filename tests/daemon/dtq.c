/* SPDX-License-Identifier: MIT */
/*
 * A test client for dnstrustd: sends one question over the Unix socket
 * (framed), TCP or UDP, with the status option, and prints what the
 * tests assert on, as one line of key=value pairs:
 *
 *   rcode=NOERROR status=secure ad=1 ede=- cached=0 answers=2 tc=0
 *   text="..."                  (the EDE's EXTRA-TEXT, when present)
 *   txt=...                     (one line per TXT string, CH answers)
 *
 * usage: dtq (-s SOCKET | -u ADDR | -t ADDR) [-p PORT] [+cd] [+do]
 *            [+noedns] [-c CLASS] NAME [TYPE]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/protocol.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

static const char *status_name(int s)
{
	static const char *const n[] = {"none", "secure", "insecure", "bogus",
					"indeterminate", "unvalidated"};
	return s >= 0 && s <= 5 ? n[s] : "?";
}

static const char *rcode_name(int r)
{
	static const char *const n[] = {"NOERROR", "FORMERR", "SERVFAIL",
					"NXDOMAIN", "NOTIMP", "REFUSED"};
	return r >= 0 && r <= 5 ? n[r] : "OTHER";
}

static int full_io(int fd, uint8_t *buf, size_t len, bool rd)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = rd ? read(fd, buf + off, len - off)
			       : write(fd, buf + off, len - off);
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

static int wait_readable(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, ms) == 1 ? 0 : -1;
}

static int connect_to(char mode, const char *where, int port, bool *stream)
{
	int fd;

	*stream = mode != 'u';
	if (mode == 's') {
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", where);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return -1;
		return fd;
	}
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port)};
	if (inet_pton(AF_INET, where, &sa.sin_addr) != 1)
		return -1;
	fd = socket(AF_INET, *stream ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -1;
	return fd;
}

static size_t build_query(const uint8_t *name, uint16_t type, uint16_t qclass,
			  bool cd, bool do_bit, bool edns, uint8_t *buf)
{
	struct wire_builder b;
	uint8_t opt[8];
	size_t olen = 0;

	/* AD=1, as libdnstrust asks (RFC 6840 §5.8). */
	wire_build_init(&b, buf, 4096, 0x1234,
			WIRE_FLAG_RD | WIRE_FLAG_AD | (cd ? WIRE_FLAG_CD : 0));
	wire_build_question(&b, name, type, qclass);
	if (edns) {
		wire_opt_put(opt, sizeof(opt), &olen, DT_PROTO_OPT_STATUS,
			     NULL, 0);
		wire_build_opt(&b, 1232, 0, 0, do_bit ? WIRE_EDNS_DO : 0, opt,
			       olen);
	}
	return wire_build_finish(&b);
}

static void print_answer(const struct wire_msg *m)
{
	int status = -1, cached = 0, pflags = -1;
	uint16_t code, len;
	const uint8_t *data;
	size_t pos = 0;
	uint16_t ede = 0;
	const char *text = NULL;
	size_t tlen = 0;
	int has_ede = wire_edns_ede(&m->edns, &ede, &text, &tlen) == 1;

	while (wire_edns_opt_next(&m->edns, &pos, &code, &data, &len) == 1)
		if (code == DT_PROTO_OPT_STATUS && len == 4) {
			status = data[1];
			cached = (data[2] & 0x80) != 0;
			pflags = data[2] << 8 | data[3];
		}
	printf("rcode=%s status=%s ad=%d ede=", rcode_name(m->rcode),
	       status < 0 ? "-" : status_name(status),
	       (m->hdr.flags & WIRE_FLAG_AD) != 0);
	if (has_ede)
		printf("%u", ede);
	else
		printf("-");
	printf(" cached=%d answers=%zu tc=%d id=%u nta=%d permissive=%d\n",
	       cached, m->count[WIRE_SEC_ANSWER],
	       (m->hdr.flags & WIRE_FLAG_TC) != 0, m->hdr.id,
	       pflags >= 0 && (pflags & 0x4000) != 0,
	       pflags >= 0 && (pflags & 0x2000) != 0);
	if (has_ede)
		printf("text=\"%.*s\"\n", (int)tlen, text);
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		if (rr->type == WIRE_TYPE_TXT && rr->rdlen)
			printf("txt=%.*s\n", rr->rdata[0], rr->rdata + 1);
	}
}

int main(int argc, char **argv)
{
	char mode = 0;
	const char *where = NULL, *qname = NULL, *qtype = "A";
	bool cd = false, do_bit = false, edns = true, stream;
	uint16_t type, qclass = WIRE_CLASS_IN;
	int port = 53;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "-u") ||
		    !strcmp(argv[i], "-t")) {
			mode = argv[i][1];
			where = argv[++i];
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			port = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			qclass = !strcmp(argv[++i], "CH") ? WIRE_CLASS_CH
							  : WIRE_CLASS_IN;
		} else if (!strcmp(argv[i], "+cd")) {
			cd = true;
		} else if (!strcmp(argv[i], "+do")) {
			do_bit = true;
		} else if (!strcmp(argv[i], "+noedns")) {
			edns = false;
		} else if (!qname) {
			qname = argv[i];
		} else {
			qtype = argv[i];
		}
	}
	uint8_t name[DT_NAME_MAXLEN];
	if (!mode || !where || !qname ||
	    wire_dname_from_str(qname, strlen(qname), (const uint8_t *)"", name) < 0 ||
	    wire_type_from_str(qtype, strlen(qtype), &type) < 0) {
		fprintf(stderr, "usage: dtq (-s SOCKET | -u ADDR | -t ADDR) "
				"[-p PORT] [+cd] [+do] [+noedns] [-c CH] NAME "
				"[TYPE]\n");
		return 64;
	}
	static uint8_t buf[2 + 65535];
	size_t len = build_query(name, type, qclass, cd, do_bit, edns, buf + 2);
	int fd = connect_to(mode, where, port, &stream);
	if (fd < 0) {
		printf("error=connect %s\n", strerror(errno));
		return 2;
	}
	buf[0] = (uint8_t)(len >> 8);
	buf[1] = (uint8_t)len;
	if (stream ? full_io(fd, buf, len + 2, false)
		   : (write(fd, buf + 2, len) != (ssize_t)len)) {
		printf("error=send\n");
		return 2;
	}
	if (wait_readable(fd, 10000) < 0) {
		printf("error=timeout\n");
		return 2;
	}
	ssize_t n;
	if (stream) {
		if (full_io(fd, buf, 2, true) < 0 ||
		    full_io(fd, buf + 2, (size_t)(buf[0] << 8 | buf[1]), true)) {
			printf("error=closed\n");
			return 2;
		}
		n = buf[0] << 8 | buf[1];
	} else {
		n = read(fd, buf + 2, 65535);
	}
	int err;
	struct wire_msg *m = n > 0 ? wire_msg_parse(buf + 2, (size_t)n, 0, &err)
				   : NULL;
	if (!m) {
		printf("error=unparsable\n");
		return 2;
	}
	print_answer(m);
	wire_msg_free(m);
	close(fd);
	return 0;
}
