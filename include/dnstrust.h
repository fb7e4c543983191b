/* SPDX-License-Identifier: MIT */
/*
 * libdnstrust: DNS answers validated by dnstrustd, the host's DNSSEC
 * validator, with their trust status.
 *
 * Every function asks dnstrustd over its Unix socket (the protocol of
 * docs/PROTOCOL.md) and believes the answer only after checking that the
 * socket's peer is root or the daemon's configured user (SO_PEERCRED).
 * When the daemon cannot be reached, functions fail with
 * DT_ERR_UNAVAILABLE: they never return unvalidated data, unless the
 * caller opted in to a fallback (dt_ctx_set_fallback), and then such data
 * is marked DT_STATUS_UNVALIDATED. So is the data dnstrustd itself returns
 * without proof during a hotspot sign-on (`dnstrust hotspot`), which the
 * administrator asks for so that a captive portal can be reached.
 *
 * Without the daemon, the library can validate in the calling process
 * instead (dt_ctx_set_mode: DT_MODE_INPROCESS, or DT_MODE_AUTO).
 *
 * Thread safety: every function may be called from any thread. A context
 * may be shared between threads (it holds settings, and in-process its
 * engine, used by one call at a time; each daemon call opens or borrows
 * its own connection). The only state outside contexts is the
 * default context (created on first use, never freed while the process
 * runs) and each thread's last status (dt_last_status).
 *
 * Memory: every result is one allocation freed by one call
 * (dt_result_free, dt_freeaddrinfo, dt_tlsa_free, dt_sshfp_free).
 * Output parameters are written only on success.
 */
#ifndef DNSTRUST_H
#define DNSTRUST_H

#include <netdb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* <netdb.h> defines struct addrinfo only with POSIX (_POSIX_C_SOURCE
 * 200112L or more, the default without -std=c11): declared here so that
 * the header compiles under strict ISO C too. Code that fills hints or
 * reads results needs the POSIX definition anyway. */
struct addrinfo;

/* The ABI: soname libdnstrust.so.MAJOR, symbol version
 * DNSTRUST_MAJOR.MINOR. */
#define DT_LIB_VERSION_MAJOR 1
#define DT_LIB_VERSION_MINOR 0

/* --- errors --- */

/* Negative return values of the functions below (0 is success), from
 * -10001 down: outside the range of -errno values (-1..-4095), so that
 * neither is ever taken for the other. Numbered explicitly; a code keeps
 * its value for as long as the library keeps its soname. */
enum dt_error {
	DT_OK = 0,
	DT_ERR_UNAVAILABLE = -10001, /* dnstrustd not reachable (no socket,
					refused, closed) */
	DT_ERR_UNTRUSTED = -10002,   /* the socket's peer is not root or
					the daemon's user: an impostor,
					ignored */
	DT_ERR_TIMEOUT = -10003,     /* no answer within the context's
					timeout */
	DT_ERR_NOT_SECURE = -10004,  /* DT_FLAG_REQUIRE_SECURE and the
					answer was not secure */
	DT_ERR_BOGUS = -10005,	     /* the answer is bogus (data withheld) */
	DT_ERR_INVALID = -10006,     /* bad argument (name, type, flags) */
	DT_ERR_NOMEM = -10007,	     /* out of memory */
	DT_ERR_PROTOCOL = -10008,    /* the daemon's answer made no sense */
	DT_ERR_NODATA = -10009,	     /* no records of the type asked (tlsa,
					sshfp) */
	DT_ERR_NXDOMAIN = -10010,    /* the name does not exist (tlsa,
					sshfp) */
	DT_ERR_SERVFAIL = -10011,    /* the daemon could not get an answer
					(no upstream answered,
					indeterminate) */
};

/* A static English text for an enum dt_error value. Never NULL. */
const char *dt_error_str(int err);

/* --- trust status (RFC 4033 §5) --- */

enum dt_status {
	DT_STATUS_NONE = 0,	     /* no answer yet, or not about data */
	DT_STATUS_SECURE = 1,	     /* validated by dnstrustd from a trust
					anchor */
	DT_STATUS_INSECURE = 2,	     /* provably unsigned */
	DT_STATUS_BOGUS = 3,	     /* signed, and not validly */
	DT_STATUS_INDETERMINATE = 4, /* could not be decided */
	DT_STATUS_UNVALIDATED = 5,   /* from the opt-in fallback (dnstrustd
					was not asked), or not proven and
					returned by dnstrustd during a
					hotspot sign-on */
};

/* "secure", "insecure", "bogus", "indeterminate", "unvalidated", "none". */
const char *dt_status_str(enum dt_status status);

/* The status of the last answer this thread received from any libdnstrust
 * call (like errno: per thread, overwritten by each call). */
enum dt_status dt_last_status(void);

/* --- contexts --- */

typedef struct dt_ctx dt_ctx_t;

/* A new context with the defaults: the socket /run/dnstrust/socket, a
 * 5000 ms timeout, the daemon trusted when its uid is 0, no fallback.
 * Returns 0 or DT_ERR_NOMEM. */
int dt_ctx_new(dt_ctx_t **ret);

/* Frees a context (NULL allowed). Not the default context. */
void dt_ctx_free(dt_ctx_t *ctx);

/* The process's default context, used wherever a function takes ctx NULL. */
dt_ctx_t *dt_ctx_default(void);

/* Another socket path (for a daemon started with another `socket`).
 * Returns 0, DT_ERR_INVALID (too long for a Unix socket) or
 * DT_ERR_NOMEM. */
int dt_ctx_set_socket(dt_ctx_t *ctx, const char *path);

/* Time allowed for one answer, in milliseconds (1..600000; otherwise
 * DT_ERR_INVALID). dt_getaddrinfo's A and AAAA questions share it. */
int dt_ctx_set_timeout(dt_ctx_t *ctx, unsigned ms);

/* Also trust a daemon running as uid (the `user` of its configuration);
 * root is always trusted. */
int dt_ctx_set_daemon_uid(dt_ctx_t *ctx, uid_t uid);

/* Opt in (or out) of the fallback: when dnstrustd is unreachable, ask the
 * nameservers of /etc/resolv.conf directly, unvalidated, and mark every
 * such answer DT_STATUS_UNVALIDATED. Off by default. */
int dt_ctx_set_fallback(dt_ctx_t *ctx, bool on);

/* --- where answers come from (since DNSTRUST_1.1) --- */

/*
 * Who validates a context's questions:
 * DT_MODE_DAEMON     dnstrustd over its socket (the default);
 * DT_MODE_INPROCESS  the library itself, in the calling process, with
 *                    dnstrustd's resolver core, validator, cache and
 *                    policy: the servers of the process's resolv.conf
 *                    (dnstrust.conf's resolv-conf), dnstrust.conf when
 *                    readable (dt_ctx_set_config; else the defaults), the
 *                    anchors of its auto-trust-anchor-file when readable,
 *                    else its trust-anchor-file, else the built-in root
 *                    KSKs. The same statuses, EDE and reasons as the
 *                    daemon's. `resolution recursive` is followed (from
 *                    the root hints); `auto` probes resolv.conf's
 *                    servers as the daemon does and recurses from the
 *                    root hints when none can do DNSSEC;
 * DT_MODE_AUTO       the daemon when its socket answers and its peer is
 *                    trusted, in-process otherwise (no socket, as in a
 *                    container without /run/dnstrust).
 * In-process, a call runs the resolution on the caller's thread until
 * its answers are in or the context's timeout passes: no thread, no
 * signal handler. The context's threads share one engine (one cache),
 * taking turns; a child of fork() builds its own on its first call.
 */
enum dt_mode {
	DT_MODE_DAEMON = 1,
	DT_MODE_INPROCESS = 2,
	DT_MODE_AUTO = 3,
};

/* Sets the mode. Returns 0 or DT_ERR_INVALID. */
int dt_ctx_set_mode(dt_ctx_t *ctx, enum dt_mode mode);

/* The mode set (DT_MODE_DAEMON unless changed). */
enum dt_mode dt_ctx_get_mode(dt_ctx_t *ctx);

/* The mode that answered this thread's last libdnstrust call:
 * DT_MODE_DAEMON or DT_MODE_INPROCESS; 0 when no answer came (like
 * dt_last_status: per thread). */
int dt_last_mode(void);

/* dnstrust.conf for in-process answers (default /etc/dnstrust/
 * dnstrust.conf, whose absence means the defaults; a file named here
 * must exist). Without it, the environment variable DNSTRUST_CONF names
 * one, except in a setuid or setgid program. Returns 0 or
 * DT_ERR_INVALID (NULL, empty or longer than 255 octets). */
int dt_ctx_set_config(dt_ctx_t *ctx, const char *path);

/* The in-process cache's size in octets: default 4 MiB, at least 2 MiB.
 * Returns 0 or DT_ERR_INVALID. */
int dt_ctx_set_cache_size(dt_ctx_t *ctx, size_t bytes);

/* --- flags of dt_query and dt_getaddrinfo_ex --- */

#define DT_FLAG_REQUIRE_SECURE 0x1u /* anything but secure is an error */
#define DT_FLAG_RETURN_BOGUS 0x2u   /* CD=1: return bogus data with its
				       status instead of DT_ERR_BOGUS */
#define DT_FLAG_DNSSEC 0x4u	    /* DO=1: RRSIGs and proofs included */

/* --- the low-level query --- */

typedef struct dt_result dt_result_t;

enum dt_section {
	DT_SECTION_ANSWER = 0,
	DT_SECTION_AUTHORITY = 1,
	DT_SECTION_ADDITIONAL = 2,
};

/* One record of a result, pointing into the result. */
typedef struct dt_rr {
	const char *owner;	 /* presentation form, fully qualified */
	uint16_t type;
	uint16_t rclass;
	uint32_t ttl;
	uint16_t rdlen;
	const uint8_t *rdata;	 /* wire form, names uncompressed */
} dt_rr_t;

/*
 * Asks dnstrustd one question: name in presentation form (absolute or
 * not: a final dot is implied), class (1 for IN) and type. Returns 0 and
 * a result when an answer came, whatever its RCODE and status, except:
 * a bogus answer without DT_FLAG_RETURN_BOGUS → DT_ERR_BOGUS; with
 * DT_FLAG_REQUIRE_SECURE, any status but secure → DT_ERR_NOT_SECURE.
 * Other errors: DT_ERR_UNAVAILABLE, DT_ERR_UNTRUSTED, DT_ERR_TIMEOUT,
 * DT_ERR_INVALID, DT_ERR_NOMEM, DT_ERR_PROTOCOL. The status is also left
 * in dt_last_status().
 */
int dt_query(dt_ctx_t *ctx, const char *name, uint16_t rclass, uint16_t type,
	     unsigned flags, dt_result_t **ret);

void dt_result_free(dt_result_t *res);

/* The answer's RCODE (0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN...). */
int dt_result_rcode(const dt_result_t *res);

enum dt_status dt_result_status(const dt_result_t *res);

/* The Extended DNS Error (RFC 8914) INFO-CODE, or -1 when none; *text
 * (may be NULL) gets its EXTRA-TEXT, NUL-terminated, "" when none. */
int dt_result_ede(const dt_result_t *res, const char **text);

/* Whether the answer came from the daemon's cache. */
bool dt_result_cached(const dt_result_t *res);

/* Records in a section, and the i-th (0 or DT_ERR_INVALID). */
size_t dt_result_count(const dt_result_t *res, enum dt_section sec);
int dt_result_rr(const dt_result_t *res, enum dt_section sec, size_t i,
		 dt_rr_t *ret);

/* The i-th record of a section in presentation form, as in a zone file,
 * into buf (len octets). Returns the length (snprintf-like) or
 * DT_ERR_INVALID (DT_ERR_NOMEM: it allocates a scratch buffer). */
int dt_result_rr_text(const dt_result_t *res, enum dt_section sec, size_t i,
		      char *buf, size_t len);

/* The answer (DNS wire form), len octets, cut to its chain as
 * libdnstrust(3) describes. */
const uint8_t *dt_result_wire(const dt_result_t *res, size_t *len);

/* --- addresses: getaddrinfo's contract --- */

/* Error returned by dt_getaddrinfo when dnstrustd cannot be reached (and
 * no fallback was chosen); EAI_FAIL is returned for bogus answers. The
 * DT_EAI_* codes share getaddrinfo's EAI_* space (glibc: -1..-11 and
 * -100..-105; never -errno, which EAI_SYSTEM leaves in errno). */
#define DT_EAI_UNAVAILABLE (-1000)
/* dt_getaddrinfo_ex with DT_FLAG_REQUIRE_SECURE: the address records are
 * not secure. */
#define DT_EAI_NOT_SECURE (-1001)

/*
 * getaddrinfo(3) through dnstrustd: the same arguments, AI_* flags
 * (AI_PASSIVE, AI_CANONNAME, AI_NUMERICHOST, AI_NUMERICSERV,
 * AI_ADDRCONFIG, AI_V4MAPPED, AI_ALL), numeric hosts, services from
 * /etc/services, and /etc/hosts first (as glibc's "files" source). Bogus
 * → EAI_FAIL; name or address records absent → EAI_NONAME / EAI_NODATA;
 * daemon unreachable → DT_EAI_UNAVAILABLE. The status of the answer is in
 * dt_last_status() (secure only when every address record used was).
 * Numeric hosts and /etc/hosts entries are local configuration, not DNS
 * data: status DT_STATUS_NONE, and DT_FLAG_REQUIRE_SECURE accepts them.
 */
int dt_getaddrinfo(const char *node, const char *service,
		   const struct addrinfo *hints, struct addrinfo **res);

/* The same with a context, DT_FLAG_* flags and, on success, the status
 * written to *status (may be NULL). */
int dt_getaddrinfo_ex(dt_ctx_t *ctx, const char *node, const char *service,
		      const struct addrinfo *hints, unsigned flags,
		      struct addrinfo **res, enum dt_status *status);

/* Frees a whole list; res is its first entry, as returned. */
void dt_freeaddrinfo(struct addrinfo *res);

/* gai_strerror(3) that also knows DT_EAI_*. */
const char *dt_gai_strerror(int err);

/* --- key material: returned only when secure --- */

typedef struct dt_tlsa {
	uint8_t usage, selector, matching_type;
	size_t len;
	const uint8_t *data;	/* certificate association data */
} dt_tlsa_t;

typedef struct dt_tlsa_set {
	size_t n;
	dt_tlsa_t *rr;
	char name[256];		/* the name asked, e.g. _443._tcp.host. */
} dt_tlsa_set_t;

/* TLSA records (RFC 6698) of _PORT._PROTO.HOST (proto "tcp", "udp" or
 * "sctp"). Returns 0 and a set only when the answer is secure; otherwise
 * DT_ERR_NOT_SECURE, DT_ERR_BOGUS, DT_ERR_NODATA, DT_ERR_NXDOMAIN,
 * DT_ERR_SERVFAIL or a transport error. */
int dt_tlsa(dt_ctx_t *ctx, const char *host, uint16_t port, const char *proto,
	    dt_tlsa_set_t **ret);
void dt_tlsa_free(dt_tlsa_set_t *set);

typedef struct dt_sshfp {
	uint8_t algorithm, fp_type;
	size_t len;
	const uint8_t *fingerprint;
} dt_sshfp_t;

typedef struct dt_sshfp_set {
	size_t n;
	dt_sshfp_t *rr;
} dt_sshfp_set_t;

/* SSHFP records (RFC 4255) of host, only when secure (as dt_tlsa). */
int dt_sshfp(dt_ctx_t *ctx, const char *host, dt_sshfp_set_t **ret);
void dt_sshfp_free(dt_sshfp_set_t *set);

/* --- the one bit --- */

/* 1 when a trusted dnstrustd answers right now (reachable, peer
 * credentials right, protocol understood), or, in DT_MODE_INPROCESS or
 * DT_MODE_AUTO, when the in-process engine is ready (its configuration
 * and anchors read); 0 otherwise. dt_last_mode() then tells which. */
int dt_trust_available(dt_ctx_t *ctx);

/* --- res_query(3) --- */

/*
 * res_query's contract (returns the answer's length, or -1 with h_errno
 * set: HOST_NOT_FOUND, NO_DATA, TRY_AGAIN, NO_RECOVERY), through
 * dnstrustd: the AD bit of the answer means "validated as secure by
 * dnstrustd". A bogus answer is SERVFAIL: -1 with NO_RECOVERY.
 */
int dt_res_query(const char *dname, int rclass, int type,
		 unsigned char *answer, int anslen);

#ifdef __cplusplus
}
#endif

#endif
