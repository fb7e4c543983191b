/* SPDX-License-Identifier: MIT */
/*
 * dnstrust.conf: the daemon's own configuration, which only the admin
 * writes. One `key value...` per line, `#` outside double quotes starts a
 * comment, blank lines are ignored; a value with spaces is written in
 * double quotes (escapes \" and \\ only); keys may repeat only where
 * said. An unknown key or a bad value is an error naming file:line, and
 * the daemon does not start (or, on SIGHUP, keeps its old configuration).
 * The syntax and every key are in docs/dnstrust.conf.5.
 */
#ifndef DT_POLICY_CONFIG_H
#define DT_POLICY_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"
#include "upstream/source.h"

/* Build-time defaults (meson may override DT_SYSCONFDIR / DT_RUNSTATEDIR). */
#define CFG_DEFAULT_PATH "/etc/dnstrust/dnstrust.conf"
#define CFG_DEFAULT_SOCKET "/run/dnstrust/socket"
#define CFG_DEFAULT_RESOLV_CONF "/etc/resolv.conf"
#define CFG_DEFAULT_CACHE_SIZE (64u * 1024 * 1024)

/* syslog(3) priorities, as names in the file: error warning notice info
 * debug. */
enum cfg_log_level {
	CFG_LOG_ERROR = 3,
	CFG_LOG_WARNING = 4,
	CFG_LOG_NOTICE = 5,
	CFG_LOG_INFO = 6,
	CFG_LOG_DEBUG = 7,
};

/* mode: what happens to bogus answers. */
enum cfg_mode {
	CFG_MODE_ENFORCE = 0,	/* withheld: SERVFAIL (the default) */
	CFG_MODE_PERMISSIVE = 1, /* returned, marked bogus, and logged */
};

/* resolution: where records come from. */
enum cfg_resolution {
	CFG_RES_AUTO = 0,	/* forward while the network's resolvers can do
				   DNSSEC, recursive when none can (the
				   default; the judgement calls
				   resolve_set_recursing) */
	CFG_RES_FORWARD = 1,	/* always the resolv.conf servers */
	CFG_RES_RECURSIVE = 2,	/* always from the root (root-hints) */
};

/* "auto", "forward" or "recursive". */
const char *cfg_resolution_name(enum cfg_resolution r);

/* negative-trust-anchor DOMAIN [until YYYY-MM-DD] (RFC 7646). */
struct cfg_nta {
	uint8_t name[DT_NAME_MAXLEN];	/* wire form, lower case */
	int64_t until;			/* seconds since the epoch when it
					   stops applying (00:00 UTC of the
					   date); 0: no end */
};

/* domain DOMAIN upstream ADDR... / domain DOMAIN validate no. */
struct cfg_domain {
	uint8_t name[DT_NAME_MAXLEN];	/* wire form, lower case */
	struct up_server ns[DT_UP_MAXNS]; /* split DNS: where questions at or
					     below go; nns 0: resolv.conf */
	size_t nns;
	bool novalidate;		/* validate no: answers returned
					   unvalidated, indeterminate */
};

/* allow-remote NET...: a client network, ADDR/PREFIX (or one address). */
struct cfg_net {
	int family;			/* AF_INET or AF_INET6 */
	uint8_t addr[16];		/* network order; bits past prefix 0 */
	unsigned prefix;		/* 0..32 or 0..128 */
};

/* Whether addr (sockaddr_in, sockaddr_in6 or an IPv4-mapped IPv6
 * address) is a loopback address. */
bool cfg_addr_loopback(const struct sockaddr *addr);

/* Whether addr is in one of the n networks. */
bool cfg_nets_match(const struct cfg_net *nets, size_t n,
		    const struct sockaddr *addr);

struct cfg {
	char socket[PATH_MAX];		/* socket PATH */
	struct up_server listen[DT_CFG_MAX_LISTEN]; /* listen ADDR@PORT,
						       repeatable */
	size_t nlisten;
	struct cfg_net allow[DT_CFG_MAX_ALLOW]; /* allow-remote NET...:
						   listen may then be other
						   than loopback */
	size_t nallow;
	unsigned ratelimit;		/* ratelimit N: questions per second
					   of one remote client address */
	unsigned max_conns_per_address;	/* max-connections-per-address N:
					   TCP connections of one remote
					   client address */
	enum up_source_kind upstream_source; /* upstream-source KIND [PATH]
						(resolv-conf PATH: file) */
	char resolv_conf[PATH_MAX];	/* its path; empty for auto */
	char stub_resolv_conf[PATH_MAX]; /* stub-resolv-conf PATH: the
					    resolv.conf naming the listener
					    that the daemon writes; empty:
					    none */
	struct up_conf upstream;	/* upstream SERVER [tls], repeatable:
					   in place of resolv.conf's servers
					   (nns 0: resolv.conf's) */
	struct up_conf fallback;	/* fallback-upstream ADDR#NAME,
					   repeatable: over TLS, when the
					   network's servers and recursion
					   both fail a question */
	char tls_ca[PATH_MAX];		/* tls-ca PATH; empty: the system's
					   certificate store */
	enum cfg_resolution resolution;	/* resolution auto|forward|recursive */
	char root_hints[PATH_MAX];	/* root-hints PATH: named.root-style
					   file; empty: the built-in IANA
					   hints */
	char trust_anchor_file[PATH_MAX]; /* trust-anchor-file PATH; empty:
					     the built-in root anchors */
	char auto_trust_anchor_file[PATH_MAX]; /* auto-trust-anchor-file PATH:
						  RFC 5011 state; empty: the
						  anchors are not updated */
	unsigned auto_trust_add_holddown;    /* auto-trust-add-holddown S */
	unsigned auto_trust_remove_holddown; /* auto-trust-remove-holddown S */
	size_t cache_size;		/* cache-size SIZE (K, M, G) */
	unsigned threads;		/* threads N; 0: number of cores */
	char user[64];			/* user NAME; empty: _dnstrust (or
					   nobody); "root": stay root */
	enum cfg_log_level log_level;	/* log-level LEVEL */
	unsigned query_timeout_ms;	/* query-timeout SECONDS (default 5):
					   every client question is answered
					   within this time */
	unsigned nsec3_max_iterations;	/* nsec3-max-iterations N */
	unsigned clock_skew;		/* clock-skew SECONDS */
	unsigned max_cache_ttl;		/* max-cache-ttl SECONDS */
	unsigned bogus_ttl;		/* bogus-ttl SECONDS (default 60) */
	unsigned serve_stale_max;	/* serve-stale-max SECONDS (RFC 8767;
					   0: never) */
	bool prefetch;			/* prefetch yes|no */
	bool aggressive_nsec;		/* aggressive-nsec yes|no (RFC 8198) */
	unsigned max_conns_per_user;	/* max-connections-per-user N */
	char hotspot_group[64];		/* hotspot-group NAME: its members
					   may start and end a hotspot
					   sign-on; empty: root and the
					   daemon's user only */
	/* policy */
	enum cfg_mode mode;		/* mode enforce|permissive */
	bool insecure_reject;		/* insecure accept|reject */
	struct cfg_nta nta[DT_CFG_MAX_POLICY];
	size_t nnta;
	uint8_t require_secure[DT_CFG_MAX_POLICY][DT_NAME_MAXLEN];
	size_t nrequire;
	struct cfg_domain domain[DT_CFG_MAX_POLICY];
	size_t ndomain;
	uint8_t private_domain[DT_CFG_MAX_PRIVATE][DT_NAME_MAXLEN];
	size_t nprivate;		/* private-domain NAME, repeatable */
	bool no_private_defaults;	/* no-private-defaults: only the
					   private-domain lines and the
					   resolv.conf search list */
};

/* Fills *c with every default. */
void cfg_default(struct cfg *c);

/*
 * Parses text (len octets, need not be NUL-terminated) named name (for
 * messages) over the defaults. On success writes *ret, empties err and
 * returns 0. On error writes "name:line: message" into err (errlen
 * octets, always NUL-terminated when errlen > 0; err may be NULL when
 * errlen is 0) and returns DT_ECONFIG; *ret is untouched. A text over
 * DT_CFG_MAXSIZE octets is refused as "name: larger than ...". Allocates
 * nothing.
 */
int cfg_parse(const char *text, size_t len, const char *name, struct cfg *ret,
	      char *err, size_t errlen);

/* Reads path (at most DT_CFG_MAXSIZE octets) and parses it; a missing
 * file is an error only when must_exist (the default path may be
 * absent: then the defaults apply). Returns 0; DT_ECONFIG for the
 * content, as cfg_parse; DT_ETOOBIG for a file over DT_CFG_MAXSIZE; or
 * -errno when the file cannot be opened or read, with "path: reason" in
 * err. *ret is written
 * only on success. The read buffer lives for the call only. */
int cfg_load(const char *path, bool must_exist, struct cfg *ret, char *err,
	     size_t errlen);

/* upstream lines (cfg->upstream): their servers in place of those of
 * uc (the upstream source's, which still gives the search list and the
 * timing); nothing without them. dnstrustd's and the in-process
 * engine's rule. */
void cfg_upstream_over(const struct cfg *cfg, struct up_conf *uc);

/* cfg_load in place into c, which must be zero (calloc): no copy, and
 * only the pages its settings and rules are written in are touched,
 * where cfg_load's copy writes all of struct cfg's some 200 KiB (each
 * page a fault and resident). Returns as cfg_load; on error c holds
 * part of the file and is to be dropped. */
int cfg_load_zeroed(const char *path, bool must_exist, struct cfg *c,
		    char *err, size_t errlen);

/* Writes the configuration back as a dnstrust.conf text for
 * `dnstrustd -n` (check and print): every key with a one-line comment,
 * keys without a value (no listener, trust anchors or user) commented
 * out. cfg_parse reads the text of any configuration it produced back to
 * an equal one. Returns the length the full text needs (as snprintf: at
 * most len - 1 octets are written and NUL-terminated; buf may be NULL
 * when len is 0). */
size_t cfg_format(const struct cfg *c, char *buf, size_t len);

/* The name of the i-th key of dnstrust.conf, in the order cfg_format
 * writes them, or NULL past the last: the keys are described once, in
 * config.c's table, and docs/dnstrust.conf.5 lists exactly these (test
 * config checks it). */
const char *cfg_key_name(size_t i);

#endif
