/* SPDX-License-Identifier: MIT */
/*
 * A client question as the reply must honour it (struct qinfo), read
 * from the query: for dnstrustd's server and libdnstrust's in-process
 * engine alike. Pure (no cache, no clock), so the server's fake
 * resolution of tests/daemon/fake_server.c links it as it is.
 */
#include <string.h>

#include "common/protocol.h"
#include "resolver/answer.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* Whether the query carries the status option. */
static bool wants_status(const struct wire_edns *e)
{
	size_t pos = 0;
	uint16_t code, len;
	const uint8_t *data;

	while (wire_edns_opt_next(e, &pos, &code, &data, &len) == 1)
		if (code == DT_PROTO_OPT_STATUS)
			return true;
	return false;
}

void qinfo_from_msg(struct qinfo *q, const struct wire_msg *m, bool udp,
		    bool admin, bool hotspot)
{
	memset(q, 0, sizeof(*q));
	q->id = m->hdr.id;
	q->flags = m->hdr.flags;
	q->edns = m->edns.present;
	q->do_bit = m->edns.present && (m->edns.flags & WIRE_EDNS_DO);
	q->want_status = m->edns.present && wants_status(&m->edns);
	if (udp) {
		uint16_t sz = m->edns.present ? m->edns.udp_size : 512;
		q->udp_size = sz < 512 ? 512
			      : sz > DT_UP_EDNS_BUFSIZE ? DT_UP_EDNS_BUFSIZE
							: sz;
	}
	wire_dname_copy(q->qname, m->qname);
	q->qtype = m->qtype;
	q->qclass = m->qclass;
	q->admin = admin;
	q->hotspot = hotspot;
}

bool qinfo_type_unsupported(uint16_t t)
{
	/* Zone transfers, ANY, MAILA/MAILB, OPT and the meta types: not for a
	 * validating forwarder (RFC 8482 for ANY). */
	return t == 0 || t == WIRE_TYPE_OPT || (t >= 128 && t <= 255);
}
