/* SPDX-License-Identifier: MIT */
/*
 * The client protocol between dnstrustd and its clients (libdnstrust, the
 * NSS module, the dnstrust command), version 1. Specified in
 * docs/PROTOCOL.md; these are its constants, shared by both sides.
 *
 * Transport: DNS messages over the stream socket DT_PROTO_SOCKET, each
 * preceded by a two-octet length (RFC 1035 §4.2.2, RFC 7766).
 */
#ifndef DT_COMMON_PROTOCOL_H
#define DT_COMMON_PROTOCOL_H

/* Where the daemon listens unless its configuration says otherwise. */
#define DT_PROTO_SOCKET "/run/dnstrust/socket"

/* Protocol version carried in the status option. */
#define DT_PROTO_VERSION 1

/*
 * The status option: an EDNS option from the Local/Experimental range
 * (RFC 6891 §9: 65001-65534). In a query (empty, or 1 octet: the client's
 * protocol version) it asks for the status; in a response it holds
 * 4 octets: VERSION, STATUS, FLAGS (2 octets, network order).
 */
#define DT_PROTO_OPT_STATUS 65101
#define DT_PROTO_OPT_STATUS_LEN 4

/* STATUS octet values. 0 is for answers that were not validated
 * (administrative queries). */
enum dt_proto_status {
	DT_PROTO_STATUS_NONE = 0,
	DT_PROTO_STATUS_SECURE = 1,
	DT_PROTO_STATUS_INSECURE = 2,
	DT_PROTO_STATUS_BOGUS = 3,
	DT_PROTO_STATUS_INDETERMINATE = 4,
	DT_PROTO_STATUS_UNVALIDATED = 5, /* not proven, returned during a
					    hotspot sign-on */
};

/* FLAGS bits. */
#define DT_PROTO_FLAG_CACHED 0x8000	/* answered from the answer cache */
#define DT_PROTO_FLAG_NTA 0x4000	/* a negative trust anchor applied */
#define DT_PROTO_FLAG_PERMISSIVE 0x2000 /* bogus data returned by policy */
#define DT_PROTO_FLAG_UPSTREAM_FAIL 0x1000 /* no usable upstream answer */

/* Administrative queries: class CH, type TXT, under this name. */
#define DT_PROTO_ADMIN_ZONE "dnstrust."
#define DT_PROTO_ADMIN_VERSION "version.dnstrust."
#define DT_PROTO_ADMIN_STATUS "status.dnstrust."
#define DT_PROTO_ADMIN_FLUSH "flush.dnstrust."	/* NAME.flush.dnstrust.: at
						   and below NAME */
#define DT_PROTO_ADMIN_RELOAD "reload.dnstrust."
#define DT_PROTO_ADMIN_HOTSPOT "hotspot.dnstrust." /* MINUTES.hotspot.:
							start; done.hotspot.:
							end */
#define DT_PROTO_ADMIN_ANCHORS "anchors.dnstrust." /* the trust anchors,
							one record per TXT */

#endif
