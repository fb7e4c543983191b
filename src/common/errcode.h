/* SPDX-License-Identifier: MIT */
/*
 * Error codes shared by every layer.
 *
 * Functions return 0 or a non-negative value on success and a negative
 * code on failure. System errors are -errno; the codes below sit in a
 * project range far from errno values, and errcode_str() names them all.
 */
#ifndef DT_COMMON_ERRCODE_H
#define DT_COMMON_ERRCODE_H

enum errcode {
	DT_EOK = 0,
	DT_E_BASE = -1000,
	DT_EMALF = DT_E_BASE,	/* malformed wire data */
	DT_ETRUNC,		/* data ends before the structure does */
	DT_ELABEL,		/* label longer than 63 octets */
	DT_ENAMELEN,		/* name longer than 255 octets */
	DT_EPTR,		/* bad compression pointer (forward, into header, past end) */
	DT_EPTRLIMIT,		/* too many compression pointers in one name */
	DT_ESPACE,		/* output buffer too small */
	DT_ESYNTAX,		/* presentation-format syntax error */
	DT_ETYPE,		/* unknown type or class mnemonic */
	DT_ETRAIL,		/* trailing data after a complete structure */
	DT_ERDATA,		/* RDATA does not match its type's layout */
	DT_EBITMAP,		/* malformed NSEC/NSEC3 type bitmap */
	DT_EBASE64,		/* bad base64, base32hex or hex text */
	DT_ERELATIVE,		/* relative name without an origin */
	DT_EOPT,		/* bad EDNS OPT record (owner, count, options) */
	DT_ELIMIT,		/* an explicit limit was reached */
	DT_ERANGE,		/* number out of range for its field */
	DT_EQDCOUNT,		/* question count other than 0 or 1 */
	DT_ESECTION,		/* records added to a section out of order */
	DT_EKEY,		/* DNSKEY public key malformed or unusable */
	DT_EKEYSIZE,		/* key size outside the range we accept */
	DT_EUNSUPPORTED,	/* algorithm or digest type not implemented */
	DT_EBADSIG,		/* signature does not verify */
	DT_ECRYPTO,		/* the crypto library failed (not the data) */
	DT_ETIMEOUT,		/* no answer within the time allowed */
	DT_ENOSERVER,		/* no upstream nameserver to ask */
	DT_EUPSTREAM,		/* every upstream failed or answered unusably */
	DT_ECONFIG,		/* bad configuration (file:line in the message) */
	DT_ETOOBIG,		/* a file larger than its limit */
	DT_EABSENT,		/* not in an offline input (and never will be) */
	DT_ENETBLOCKED,		/* no root server answered: the network blocks
				   queries to authoritative servers */
	DT_ENOAUTH,		/* the zone's authoritative servers answered,
				   none usably (refused, lame, broken) */
	DT_ERECURSION,		/* a limit of recursion was reached (referrals,
				   CNAME links, queries for one question) */
	DT_EBADANSWER,		/* the zone's authoritative servers sent
				   responses that do not parse */
	DT_E_END
};

/* Returns a static, human-readable text for any code this project returns
 * (project codes and -errno). Never NULL. */
const char *errcode_str(int err);

#endif
