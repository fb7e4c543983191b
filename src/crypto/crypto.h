/* SPDX-License-Identifier: MIT */
/*
 * src/crypto: the only layer that uses OpenSSL. Pure functions and
 * immutable key objects; no I/O, no clock, no global mutable state.
 *
 *   alg.h     which algorithms and DS digest types are supported
 *   key.h     struct crypto_key, parsed once from DNSKEY RDATA
 *   verify.h  signature verification, one buffer or gathered chunks
 *   ds.h      DS digests and DS-to-DNSKEY matching
 *   nsec3.h   NSEC3 hashing and its cost
 *
 * This header only gathers them.
 */
#ifndef DT_CRYPTO_CRYPTO_H
#define DT_CRYPTO_CRYPTO_H

#include "crypto/alg.h"
#include "crypto/ds.h"
#include "crypto/key.h"
#include "crypto/nsec3.h"
#include "crypto/verify.h"

#endif
