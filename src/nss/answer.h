/* SPDX-License-Identifier: MIT */
/*
 * What the NSS module takes from one answer of dnstrustd: the CNAME chain
 * from the name asked, and the records owned by the chain's end. Records
 * of the answer section owned by any other name are never used, whatever
 * the status: an insecure zone's server may add what it likes.
 * Pointers returned point into the dt_result_t; nothing is allocated.
 */
#ifndef DT_NSS_ANSWER_H
#define DT_NSS_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dnstrust.h>

#include "common/limits.h"

#define DTNSS_TYPE_A	 1
#define DTNSS_TYPE_CNAME 5
#define DTNSS_TYPE_PTR	 12
#define DTNSS_TYPE_AAAA	 28
#define DTNSS_CLASS_IN	 1
#define DTNSS_RCODE_NXDOMAIN 3

/* A CNAME chain: its end (wire form), the owner of each CNAME followed
 * (presentation form, in order), the smallest CNAME TTL (UINT32_MAX when
 * there is none) and the index of the first answer record after the last
 * link (records at the end count only from there). */
struct dtnss_chain {
	uint8_t end[DT_NAME_MAXLEN];
	const char *alias[DT_VAL_CHAIN_MAX];
	size_t nalias;
	uint32_t ttl;
	size_t start;
};

/*
 * Follows the CNAME records of class IN in res's answer section from
 * qname (wire form), in their order: a record counts only when its owner
 * is the name reached so far; any other is ignored. Writes the chain to
 * *ret and returns 0, or returns -1 when the answer has two readings (two
 * CNAMEs at one owner, a CNAME beside records of qtype, records of qtype
 * at the end before the last link, a loop, NXDOMAIN beside records of
 * qtype), more than DT_VAL_CHAIN_MAX links, or a malformed CNAME target; *ret is written only on success.
 */
int dtnss_chain_follow(const dt_result_t *res, const uint8_t *qname,
		       uint16_t qtype, struct dtnss_chain *ret);

/*
 * The next record of class IN and type type owned by chain->end in res's
 * answer section, from index *pos (at least chain->start) on. Returns true and the record in *ret
 * with *pos moved past it; false when there is none left.
 */
bool dtnss_chain_next(const dt_result_t *res, const struct dtnss_chain *chain,
		      uint16_t type, size_t *pos, dt_rr_t *ret);

/*
 * The next address record (A of 4 octets for AF_INET, AAAA of 16 for
 * AF_INET6) owned by chain->end, as dtnss_chain_next; records of another
 * length are skipped.
 */
bool dtnss_addr_next(const dt_result_t *res, const struct dtnss_chain *chain,
		     int af, size_t *pos, dt_rr_t *ret);

/* How many records dtnss_addr_next would return. */
size_t dtnss_addr_count(const dt_result_t *res, const struct dtnss_chain *chain,
			int af);

#endif
