/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "common/errcode.h"

static const char *const dt_err_text[] = {
	[DT_EMALF - DT_E_BASE] = "malformed wire data",
	[DT_ETRUNC - DT_E_BASE] = "data truncated",
	[DT_ELABEL - DT_E_BASE] = "label longer than 63 octets",
	[DT_ENAMELEN - DT_E_BASE] = "name longer than 255 octets",
	[DT_EPTR - DT_E_BASE] = "bad compression pointer",
	[DT_EPTRLIMIT - DT_E_BASE] = "too many compression pointers",
	[DT_ESPACE - DT_E_BASE] = "not enough space in output buffer",
	[DT_ESYNTAX - DT_E_BASE] = "syntax error",
	[DT_ETYPE - DT_E_BASE] = "unknown type or class",
	[DT_ETRAIL - DT_E_BASE] = "trailing data",
	[DT_ERDATA - DT_E_BASE] = "RDATA does not match its type",
	[DT_EBITMAP - DT_E_BASE] = "malformed type bitmap",
	[DT_EBASE64 - DT_E_BASE] = "bad base64/base32hex/hex encoding",
	[DT_ERELATIVE - DT_E_BASE] = "relative name without origin",
	[DT_EOPT - DT_E_BASE] = "bad EDNS OPT record",
	[DT_ELIMIT - DT_E_BASE] = "limit reached",
	[DT_ERANGE - DT_E_BASE] = "number out of range",
	[DT_EQDCOUNT - DT_E_BASE] = "question count other than 0 or 1",
	[DT_ESECTION - DT_E_BASE] = "section out of order",
	[DT_EKEY - DT_E_BASE] = "malformed or unusable DNSKEY public key",
	[DT_EKEYSIZE - DT_E_BASE] = "key size out of accepted range",
	[DT_EUNSUPPORTED - DT_E_BASE] = "unsupported algorithm or digest type",
	[DT_EBADSIG - DT_E_BASE] = "signature does not verify",
	[DT_ECRYPTO - DT_E_BASE] = "crypto library failure",
	[DT_ETIMEOUT - DT_E_BASE] = "timed out",
	[DT_ENOSERVER - DT_E_BASE] = "no upstream nameserver",
	[DT_EUPSTREAM - DT_E_BASE] = "no usable upstream answer",
	[DT_ECONFIG - DT_E_BASE] = "bad configuration",
	[DT_ETOOBIG - DT_E_BASE] = "file larger than its limit",
	[DT_EABSENT - DT_E_BASE] = "not in the input",
	[DT_ENETBLOCKED - DT_E_BASE] =
		"the network blocks queries to authoritative servers",
	[DT_ENOAUTH - DT_E_BASE] =
		"no authoritative server gave a usable answer",
	[DT_ERECURSION - DT_E_BASE] = "a recursion limit was reached",
	[DT_EBADANSWER - DT_E_BASE] =
		"the authoritative servers' responses do not parse",
};

const char *errcode_str(int err)
{
	if (err >= 0)
		return "success";
	if (err >= DT_E_BASE && err < DT_E_END) {
		const char *t = dt_err_text[err - DT_E_BASE];
		return t ? t : "unknown error";
	}
	if (err > -4096)
		return strerror(-err);
	return "unknown error";
}
