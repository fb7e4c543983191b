/* SPDX-License-Identifier: MIT */
/*
 * What each resolv.conf nameserver can do for a validator, learnt from the
 * traffic the workers see and from src/upstream/probe.c's probes: does it
 * answer with EDNS, return RRSIGs when DO=1, answer DS queries, deliver
 * responses above 512 octets (or TCP when it truncates)? From that, a
 * verdict per server: dnssec yes, no or unknown, with a short reason.
 *
 * A server that does not answer at all is "unknown", never "no": silence
 * is not proof that a server cannot do DNSSEC, and a "no" may make the
 * daemon resolve from the root. Each property keeps its last observation,
 * but a server once judged "no" for the DNSSEC content of its answers
 * (RRSIGs, DS, the root's DNSKEY, DO) stays "no" (its first reason kept) until a probe goes through
 * all its steps finding nothing wrong (hysteresis:
 * an on-path party that signs some answers and strips others cannot
 * flip the mode with the traffic; it can only wait for the probe, whose
 * back-off grows with every "no" of the same network, probe.c).
 *
 * One table for the daemon, behind a mutex: the workers feed it, the main
 * thread reads it. Servers not in the table (split-DNS ones) are ignored.
 * The change callback runs on the thread that made the observation, with
 * the mutex released.
 */
#ifndef DT_UPSTREAM_CAPAB_H
#define DT_UPSTREAM_CAPAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

struct capab;

enum capab_tri {
	CAPAB_UNKNOWN = 0,
	CAPAB_YES,
	CAPAB_NO,
};

/* What one exchange with a server showed. */
enum capab_obs {
	CAPAB_ANSWER,		/* it answered something (any RCODE) */
	CAPAB_UNREACHABLE,	/* a try timed out, or ICMP refused it */
	CAPAB_EDNS_OK,		/* answered an EDNS query with OPT */
	CAPAB_EDNS_FORMERR,	/* FORMERR or NOTIMP to EDNS, then answered
				   without */
	CAPAB_EDNS_IGNORED,	/* answered DNSKEY or DS, EDNS, no OPT */
	CAPAB_RRSIG_OK,		/* a DNSKEY or DS RRset with its RRSIG, DO=1 */
	CAPAB_RRSIG_STRIPPED,	/* a DNSKEY or DS RRset without RRSIG, DO=1 */
	CAPAB_AD_STRIPPED,	/* the same, with AD=1 */
	CAPAB_DS_OK,		/* answered a DS query for an existing zone */
	CAPAB_DS_SERVFAIL,	/* SERVFAIL to such a DS query */
	CAPAB_DS_NXDOMAIN,	/* NXDOMAIN to it */
	CAPAB_DS_REFUSED,	/* REFUSED or NOTIMP to it */
	CAPAB_TRUNCATED,	/* TC=1 over UDP */
	CAPAB_BIG_OK,		/* a response above 512 octets over UDP */
	CAPAB_TCP_OK,		/* answered over TCP */
	CAPAB_TCP_FAIL,		/* TCP to it failed (after TC=1) */
	CAPAB_PROBED,		/* the probe (probe.c) went through all its
				   steps with it, whatever they showed */
	CAPAB_ROOTKEY_NODATA,	/* no DNSKEY RRset for the root (NOERROR) */
	CAPAB_ROOTKEY_NXDOMAIN, /* NXDOMAIN to the root DNSKEY */
	CAPAB_DO_CLEARED,	/* a DNSKEY or DS answer to DO=1 with DO=0
				   (RFC 3225 §3: the bit is copied) */
	CAPAB_DS_EMPTY,		/* no DS RRset and no denial (NSEC, NSEC3)
				   for an existing zone's DS */
	CAPAB_NXD_ANSWERED,	/* a name that does not exist answered with
				   an address: a captive portal, or a
				   resolver that rewrites NXDOMAIN
				   (capab_view.portal): "no", held as for
				   the content of answers (capab_portal()
				   gives the address) */
	CAPAB_NXD_OK,		/* such a name answered NXDOMAIN */
	CAPAB_ROOTKEY_OK,	/* the root's DNSKEY RRset answered */
	CAPAB_OBS_COUNT,	/* not an observation: their number */
};

/* Events for the change callback (a mask). */
enum {
	CAPAB_EV_VERDICT = 1 << 0,   /* a server's verdict changed */
	CAPAB_EV_RECOVERED = 1 << 1, /* every server was unreachable, and
					one answered */
	CAPAB_EV_SETTLED = 1 << 2,   /* capab_settled turned true */
	CAPAB_EV_PORTAL = 1 << 3,    /* a server answered a name that does
					not exist (capab_view.portal) */
};

typedef void capab_event_fn(void *arg, unsigned events);

/* One server as the table sees it (a copy). */
struct capab_view {
	struct up_server server;
	enum capab_tri dnssec; /* the verdict */
	char reason[DT_CAPAB_REASON_LEN]; /* why */
	enum capab_tri alive;  /* answers at all */
	enum capab_tri edns, rrsig, ds, tcp, big;
	bool edns_off;	/* queries go without EDNS */
	bool tcp_first; /* queries go over TCP at once */
	bool probed;	/* the probe went through all its steps */
	bool portal;	/* it answered a name that does not exist */
	bool held;	/* "no" kept by the hysteresis rule, whatever
			   the last observations show */
};

/* What every server's verdict says about where to resolve. */
enum capab_mode {
	CAPAB_MODE_UNDECIDED, /* no server has a verdict: keep the mode */
	CAPAB_MODE_FORWARD,   /* at least one server can do DNSSEC */
	CAPAB_MODE_RECURSIVE, /* every server with a verdict cannot, and
				 at least one has a verdict */
};

/* A new empty table; cb (may be NULL) is told of changes. NULL when out
 * of memory. Freed by capab_free (NULL allowed). */
struct capab *capab_new(capab_event_fn *cb, void *arg);
void capab_free(struct capab *c);

/* The servers to know (resolv.conf's): everything learnt before is
 * forgotten, even for an address that stays (on another network, the
 * same private address is another server). */
void capab_set_servers(struct capab *c, const struct up_conf *conf);

/* Records one observation of server s (ignored for a server not in the
 * table). May run the change callback. */
void capab_observe(struct capab *c, const struct up_server *s,
		   enum capab_obs obs);

/* CAPAB_NXD_ANSWERED, with the address addr (text, may be NULL) that s
 * answered the name that does not exist with: the reason of its "no"
 * names it ("captive portal (answers rewritten to ADDR)"). */
void capab_portal(struct capab *c, const struct up_server *s, const char *addr);

/*
 * Records what one response shows: it answered; with OPT when edns_sent
 * (without OPT counts only for DNSKEY and DS); its size over UDP, or
 * that TCP worked; and for a DNSKEY or DS question answered NOERROR with
 * the RRset (DO=1 sent), whether the RRSIG came with it. msg is the
 * checked response of len octets.
 */
void capab_learn_response(struct capab *c, const struct up_server *s,
			  uint16_t qtype, const uint8_t *msg, size_t len,
			  bool edns_sent, bool tcp);

/* Remembered behaviour for transport.c: whether to ask s without EDNS
 * (it answered FORMERR to EDNS: once, or twice in a row when it answered
 * with EDNS before), and over TCP at once (it truncates
 * every response above 512 octets but answers TCP). */
bool capab_edns_off(struct capab *c, const struct up_server *s);
bool capab_tcp_first(struct capab *c, const struct up_server *s);

/* Copies the table into out (at most cap, in resolv.conf order).
 * Returns the number of servers. */
size_t capab_list(struct capab *c, struct capab_view *out, size_t cap);

/* The auto-mode judgement over the table; *ret_reason (when not NULL) gets
 * a static string saying why. */
enum capab_mode capab_mode(struct capab *c, const char **ret_reason);

/*
 * Whether the judgement is one a fetch may follow without racing the
 * probe: recursive, or forward through a server whose "yes" the probe
 * has finished checking. A "yes" comes from the first step (DNSKEY with
 * its RRSIG); the DS step that may still turn it into "no" follows, and
 * a fetch forwarded in between can meet the failure the probe is about
 * to report (the start-up hold waits for this: drive/fetch_net.c's
 * must_wait with resolve.c's hold_until).
 */
bool capab_settled(struct capab *c);

/* "yes", "no", "unknown". */
const char *capab_tri_name(enum capab_tri t);

#endif
