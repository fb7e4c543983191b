/* SPDX-License-Identifier: MIT */
/*
 * The CNAME chain of an answer and the records at its end.
 */
#include "nss/answer.h"

#include <string.h>
#include <sys/socket.h>

#include "nss/name.h"

int dtnss_chain_follow(const dt_result_t *res, const uint8_t *qname,
		       struct dtnss_chain *ret)
{
	struct dtnss_chain c = {.nalias = 0, .ttl = UINT32_MAX};
	size_t pos;
	dt_rr_t rr;
	int len;

	if ((len = dtnss_name_check(qname, DT_NAME_MAXLEN)) < 0)
		return -1;
	memcpy(c.end, qname, (size_t)len);
	for (;;) {
		pos = 0;
		if (!dtnss_chain_next(res, &c, DTNSS_TYPE_CNAME, &pos, &rr))
			break;
		if (c.nalias == DT_VAL_CHAIN_MAX)
			return -1; /* a loop, or longer than any validator
				      would follow */
		if ((len = dtnss_name_check(rr.rdata, rr.rdlen)) < 0)
			return -1;
		c.alias[c.nalias++] = rr.owner;
		if (rr.ttl < c.ttl)
			c.ttl = rr.ttl;
		memcpy(c.end, rr.rdata, (size_t)len);
	}
	*ret = c;
	return 0;
}

bool dtnss_chain_next(const dt_result_t *res, const struct dtnss_chain *chain,
		      uint16_t type, size_t *pos, dt_rr_t *ret)
{
	size_t n = dt_result_count(res, DT_SECTION_ANSWER);
	dt_rr_t rr;

	for (size_t i = *pos; i < n; i++) {
		if (dt_result_rr(res, DT_SECTION_ANSWER, i, &rr) != 0 ||
		    rr.type != type || rr.rclass != DTNSS_CLASS_IN ||
		    !dtnss_owner_is(rr.owner, chain->end))
			continue;
		*pos = i + 1;
		*ret = rr;
		return true;
	}
	*pos = n;
	return false;
}

bool dtnss_addr_next(const dt_result_t *res, const struct dtnss_chain *chain,
		     int af, size_t *pos, dt_rr_t *ret)
{
	uint16_t type = af == AF_INET ? DTNSS_TYPE_A : DTNSS_TYPE_AAAA;
	size_t want = af == AF_INET ? 4 : 16;
	dt_rr_t rr;

	while (dtnss_chain_next(res, chain, type, pos, &rr)) {
		if (rr.rdlen == want) {
			*ret = rr;
			return true;
		}
	}
	return false;
}

size_t dtnss_addr_count(const dt_result_t *res, const struct dtnss_chain *chain,
			int af)
{
	size_t n = 0, pos = 0;
	dt_rr_t rr;

	while (dtnss_addr_next(res, chain, af, &pos, &rr))
		n++;
	return n;
}
