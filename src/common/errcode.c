/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "common/errcode.h"

static const char *const dt_err_text[] = {
	[DT_EMALF - DT_ERR_BASE] = "malformed wire data",
	[DT_ETRUNC - DT_ERR_BASE] = "data truncated",
	[DT_ELABEL - DT_ERR_BASE] = "label longer than 63 octets",
	[DT_ENAMELEN - DT_ERR_BASE] = "name longer than 255 octets",
	[DT_EPTR - DT_ERR_BASE] = "bad compression pointer",
	[DT_EPTRLIMIT - DT_ERR_BASE] = "too many compression pointers",
	[DT_ESPACE - DT_ERR_BASE] = "not enough space in output buffer",
	[DT_ESYNTAX - DT_ERR_BASE] = "syntax error",
	[DT_ETYPE - DT_ERR_BASE] = "unknown type or class",
	[DT_ETRAIL - DT_ERR_BASE] = "trailing data",
	[DT_ERDATA - DT_ERR_BASE] = "RDATA does not match its type",
	[DT_EBITMAP - DT_ERR_BASE] = "malformed type bitmap",
	[DT_EBASE64 - DT_ERR_BASE] = "bad base64/base32hex/hex encoding",
	[DT_ERELATIVE - DT_ERR_BASE] = "relative name without origin",
	[DT_EOPT - DT_ERR_BASE] = "bad EDNS OPT record",
	[DT_ELIMIT - DT_ERR_BASE] = "limit reached",
	[DT_ERANGE - DT_ERR_BASE] = "number out of range",
	[DT_EQDCOUNT - DT_ERR_BASE] = "question count other than 0 or 1",
	[DT_ESECTION - DT_ERR_BASE] = "section out of order",
	[DT_EKEY - DT_ERR_BASE] = "malformed or unusable DNSKEY public key",
	[DT_EKEYSIZE - DT_ERR_BASE] = "key size out of accepted range",
	[DT_EUNSUPPORTED - DT_ERR_BASE] = "unsupported algorithm or digest type",
	[DT_EBADSIG - DT_ERR_BASE] = "signature does not verify",
	[DT_ECRYPTO - DT_ERR_BASE] = "crypto library failure",
	[DT_ETIMEOUT - DT_ERR_BASE] = "timed out",
	[DT_ENOSERVER - DT_ERR_BASE] = "no upstream nameserver",
	[DT_EUPSTREAM - DT_ERR_BASE] = "no usable upstream answer",
	[DT_ECONFIG - DT_ERR_BASE] = "bad configuration",
	[DT_ETOOBIG - DT_ERR_BASE] = "file larger than its limit",
	[DT_EABSENT - DT_ERR_BASE] = "not in the input",
	[DT_ENETBLOCKED - DT_ERR_BASE] =
		"the network blocks queries to authoritative servers",
};

const char *dt_strerror(int err)
{
	if (err >= 0)
		return "success";
	if (err >= DT_ERR_BASE && err < DT_ERR_END) {
		const char *t = dt_err_text[err - DT_ERR_BASE];
		return t ? t : "unknown error";
	}
	if (err > -4096)
		return strerror(-err);
	return "unknown error";
}
