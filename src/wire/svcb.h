/* SPDX-License-Identifier: MIT */
/*
 * SvcParams of SVCB and HTTPS records (RFC 9460 §2.1, §7; dohpath of RFC
 * 9461 §5; ohttp of RFC 9540 §4): key names, the layout check, and the
 * conversion of one value between wire form and presentation form.
 *
 * Presentation follows what dig prints: alpn, dohpath and keyNNNNN values
 * quoted, the others bare; a key with an empty value alone. A keyNNNNN
 * value is always the raw wire value (as BIND reads it), also for a key
 * that has a name. Nothing here allocates.
 */
#ifndef DT_WIRE_SVCB_H
#define DT_WIRE_SVCB_H

#include <stddef.h>
#include <stdint.h>

enum wire_svc_key {
	WIRE_SVC_MANDATORY = 0,
	WIRE_SVC_ALPN = 1,
	WIRE_SVC_NO_DEFAULT_ALPN = 2,
	WIRE_SVC_PORT = 3,
	WIRE_SVC_IPV4HINT = 4,
	WIRE_SVC_ECH = 5,
	WIRE_SVC_IPV6HINT = 6,
	WIRE_SVC_DOHPATH = 7,
	WIRE_SVC_OHTTP = 8,
	WIRE_SVC_INVALID = 65535, /* RFC 9460 §14.3.2: "Invalid key" */
};

/* Name of a key ("alpn") or "keyNNNNN" written to buf. Returns buf. */
const char *wire_svc_key_to_str(uint16_t key, char buf[16]);

/* Parses a key name (lowercase, as RFC 9460 spells them) or keyNNNNN
 * (decimal, no leading zeros beyond "key0"). Returns 0 and *ret_key, or
 * DT_ESYNTAX for an unknown name and DT_ERANGE for key65535. */
int wire_svc_key_from_str(const char *s, size_t len, uint16_t *ret_key);

/* Checks the layout of SvcParams (the RDATA after the target name):
 * entries of key, length and value that fill len exactly. Order and
 * values are not checked here (see wire_svcparams_canonical). Returns 0
 * or DT_ETRUNC. */
int wire_svcparams_check(const uint8_t *p, size_t len);

/* True when laid-out SvcParams are in the form a zone file can express:
 * keys strictly increasing, 65535 absent, every named key's value well
 * formed for its key, every key listed in mandatory present. */
int wire_svcparams_canonical(const uint8_t *p, size_t len);

/* True when the value of a named key is well formed (alpn: non-empty
 * list of non-empty strings; port: two octets; hints: whole addresses,
 * at least one; mandatory: a strictly increasing non-empty key list
 * without key 0; no-default-alpn and ohttp: empty). Other keys: always. */
int wire_svc_value_ok(uint16_t key, const uint8_t *val, size_t len);

/* Turns the presentation value of key, already freed of its zone-file
 * escapes (\DDD, \c), into its wire value. Returns the wire length, or
 * DT_ESYNTAX / DT_ERANGE / DT_EBASE64 for a value its key cannot have,
 * DT_ESPACE when outcap is too small. */
int wire_svc_value_from_text(uint16_t key, const uint8_t *in, size_t inlen,
			     uint8_t *out, size_t outcap);

/* Writes "key" or "key=value" in presentation form (zone-file escapes
 * included, NUL terminated). Returns the length, DT_ESPACE, or DT_ERDATA
 * when a named key's value is not well formed. */
int wire_svc_param_to_str(uint16_t key, const uint8_t *val, size_t len,
			  char *buf, size_t cap);

#endif
