/* SPDX-License-Identifier: MIT */
/*
 * /etc/resolv.conf as glibc reads it: where queries go (never what is
 * trusted). Only the lines that matter to a forwarder are kept:
 * nameserver (at most DT_UP_MAXNS, like glibc's MAXNS), options
 * timeout:N attempts:N rotate, and the search list (search or domain:
 * names the network's own resolver knows, policy.h). Everything else
 * (ndots, sortlist, unknown options) is ignored, as glibc ignores what it
 * does not know; a malformed nameserver line is skipped and counted.
 */
#ifndef DT_UPSTREAM_RESOLVCONF_H
#define DT_UPSTREAM_RESOLVCONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "common/limits.h"

/* One upstream nameserver (IPv4 or IPv6, with scope id; port 53 unless a
 * caller sets another, e.g. split-DNS servers given as ADDR@PORT). */
struct up_server {
	struct sockaddr_storage addr;
	socklen_t addrlen;
};

struct up_conf {
	struct up_server ns[DT_UP_MAXNS];
	char tls_name[DT_UP_MAXNS][DT_UP_TLS_NAME_MAX]; /* ns[i] is asked
							   over TLS, its
							   certificate
							   naming this; ""
							   for plain DNS
							   (resolv.conf's
							   servers) */
	size_t nns;
	unsigned timeout_ms;	/* per try; options timeout:N seconds
				   (glibc: default 5, at most 30; N <= 0
				   is 1 s, as glibc's res_send makes it) */
	unsigned attempts;	/* rounds over the list; options attempts:N
				   (glibc: default 2, at most 5; N <= 0,
				   which makes glibc send nothing, is 1) */
	bool rotate;		/* options rotate: start at the next server
				   each query */
	bool defaulted;		/* no usable nameserver line: 127.0.0.1
				   assumed, as glibc does */
	unsigned skipped;	/* malformed nameserver lines ignored */
	uint8_t search[DT_UP_SEARCH_MAXLEN]; /* the search list (the last
						search or domain line),
						wire form, lower case,
						back to back; the root
						and bad names left out */
	size_t nsearch;
	size_t searchlen;	/* octets of search in use */
	uint8_t route[DT_UP_SEARCH_MAXLEN]; /* routing-only domains, as
					       search (networkd's
					       ROUTE_DOMAINS; never from a
					       resolv.conf file): not
					       searched, but the network's
					       names as search names are
					       (policy_search_domain) */
	size_t nroute;
	size_t routelen;	/* octets of route in use */
};

/* Fills *ret from resolv.conf text (len octets, need not be
 * NUL-terminated). Never fails: what is not understood is ignored. */
void up_conf_parse(const char *text, size_t len, struct up_conf *ret);

/* Reads and parses a file. Returns 0, or -errno when it cannot be read
 * (then *ret is untouched). Files over DT_UP_CONF_MAXSIZE → DT_ETOOBIG. */
int up_conf_load(const char *path, struct up_conf *ret);

/* Whether two configurations send queries to the same places the same
 * way and have the same search list (for logging only real changes). */
bool up_conf_equal(const struct up_conf *a, const struct up_conf *b);

/* The i-th name of the search list (i < nsearch), wire form. */
const uint8_t *up_conf_search(const struct up_conf *c, size_t i);

/* The i-th routing-only domain (i < nroute), wire form. */
const uint8_t *up_conf_route(const struct up_conf *c, size_t i);

/*
 * Adds name (wire form, lower case) to a list of names back to back
 * (search or route of an up_conf: buf of cap octets, *n names in *len
 * octets) unless it is there; false when it is full (DT_UP_MAXSEARCH
 * names or cap octets) and name was not added.
 */
bool up_names_add(uint8_t *buf, size_t cap, size_t *n, size_t *len,
		  const uint8_t *name);

/* Whether a and b are the same address, port and (IPv6) scope. */
bool up_server_equal(const struct up_server *a, const struct up_server *b);

/* "192.0.2.1", "192.0.2.1:5353", "fe80::1%eth0", "[2001:db8::1]:5353"
 * (the port only when not 53; an IPv6 scope by interface name, or number
 * when no interface has it), for logs and `dnstrust status`; writes at
 * most len octets (NUL included). */
void up_server_str(const struct up_server *s, char *buf, size_t len);

/* Parses "ADDR" or "ADDR@PORT" (IPv4 dotted quad or IPv6, IPv6 scope
 * "%NAME" or "%NUMBER" allowed; port 1..65535) into *ret, port 53 by
 * default. Returns 0 or DT_ESYNTAX (*ret untouched). Used by the config
 * (listen, split-DNS upstreams). */
int up_server_parse(const char *text, struct up_server *ret);

#endif
