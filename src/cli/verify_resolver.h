/* SPDX-License-Identifier: MIT */
/*
 * dnstrust verify --resolver: the input also through dnstrustd's resolver
 * core (src/resolver), with an upstream in the process that answers its
 * DS and DNSKEY questions from the input's records, as an authoritative
 * server holding them would. The offline walk and the resolver core share
 * one chain-of-trust walk (validator/walk.h): this says whether they
 * reach the same verdict on the same records.
 */
#ifndef DT_CLI_VERIFY_RESOLVER_H
#define DT_CLI_VERIFY_RESOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "validator/val.h"

struct val_anchors;

/* What the resolver core concluded. */
struct vr_verdict {
	enum val_status status;
	uint16_t ede;			/* VAL_EDE_NONE when none */
	char tag[64];
	char reason[VAL_REASON_MAXLEN];
	unsigned fetches;		/* questions it asked the upstream */
};

/*
 * Resolves (qname, qtype, qclass) through the core at time now with the
 * anchors ta: the question itself is answered with rcode, the records
 * ans and auth; every other question from rrs (n records). Returns 0
 * with *ret written, or -ENOMEM.
 */
int verify_resolver(const struct val_anchors *ta, int64_t now,
		    const uint8_t *qname, uint16_t qtype, uint16_t qclass,
		    uint16_t rcode, const struct wire_rr *ans, size_t nans,
		    const struct wire_rr *auth, size_t nauth,
		    const struct wire_rr *rrs, size_t n,
		    struct vr_verdict *ret);

#endif
