/* SPDX-License-Identifier: MIT */
#include "wire/msg.h"

static const char *const ede_names[] = {
	[WIRE_EDE_OTHER] = "Other Error",
	[WIRE_EDE_UNSUPPORTED_DNSKEY_ALG] = "Unsupported DNSKEY Algorithm",
	[WIRE_EDE_UNSUPPORTED_DS_DIGEST] = "Unsupported DS Digest Type",
	[WIRE_EDE_STALE_ANSWER] = "Stale Answer",
	[WIRE_EDE_FORGED_ANSWER] = "Forged Answer",
	[WIRE_EDE_DNSSEC_INDETERMINATE] = "DNSSEC Indeterminate",
	[WIRE_EDE_DNSSEC_BOGUS] = "DNSSEC Bogus",
	[WIRE_EDE_SIGNATURE_EXPIRED] = "Signature Expired",
	[WIRE_EDE_SIGNATURE_NOT_YET_VALID] = "Signature Not Yet Valid",
	[WIRE_EDE_DNSKEY_MISSING] = "DNSKEY Missing",
	[WIRE_EDE_RRSIGS_MISSING] = "RRSIGs Missing",
	[WIRE_EDE_NO_ZONE_KEY_BIT] = "No Zone Key Bit Set",
	[WIRE_EDE_NSEC_MISSING] = "NSEC Missing",
	[WIRE_EDE_CACHED_ERROR] = "Cached Error",
	[WIRE_EDE_NOT_READY] = "Not Ready",
	[WIRE_EDE_BLOCKED] = "Blocked",
	[WIRE_EDE_CENSORED] = "Censored",
	[WIRE_EDE_FILTERED] = "Filtered",
	[WIRE_EDE_PROHIBITED] = "Prohibited",
	[WIRE_EDE_STALE_NXDOMAIN] = "Stale NXDOMAIN Answer",
	[WIRE_EDE_NOT_AUTHORITATIVE] = "Not Authoritative",
	[WIRE_EDE_NOT_SUPPORTED] = "Not Supported",
	[WIRE_EDE_NO_REACHABLE_AUTHORITY] = "No Reachable Authority",
	[WIRE_EDE_NETWORK_ERROR] = "Network Error",
	[WIRE_EDE_INVALID_DATA] = "Invalid Data",
	[WIRE_EDE_SIGNATURE_EXPIRED_BEFORE_VALID] =
		"Signature Expired before Valid",
	[WIRE_EDE_TOO_EARLY] = "Too Early",
	[WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS] =
		"Unsupported NSEC3 Iterations Value",
};

const char *wire_ede_name(uint16_t code)
{
	if (code < sizeof(ede_names) / sizeof(ede_names[0]) && ede_names[code])
		return ede_names[code];
	return "Unknown";
}
