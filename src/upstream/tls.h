/* SPDX-License-Identifier: MIT */
/*
 * DNS over TLS to an upstream (RFC 7858, RFC 8310 strict profile): the
 * TLS layer of a TCP try in transport.c. The server's certificate must
 * chain to the system's store (or to the tls-ca file) and name the
 * server's authentication name (a DNS name, checked as RFC 6125 says);
 * anything else ends the handshake, and the try fails as an unreachable
 * server does. What the server then answers is validated like any other
 * upstream's answer: TLS protects the path, never the data's trust.
 *
 * The only file of src/upstream that uses libssl. Non-blocking: each call
 * says which readiness the socket must reach before it is called again.
 */
#ifndef DT_UPSTREAM_TLS_H
#define DT_UPSTREAM_TLS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct up_tls;	     /* the client's TLS settings (an SSL_CTX) */
struct up_tls_sess;  /* one connection's TLS state (an SSL) */

/* What a call waits for when it returns UP_TLS_AGAIN. */
enum up_tls_want {
	UP_TLS_WANT_READ = 1,
	UP_TLS_WANT_WRITE = 2,
};

#define UP_TLS_AGAIN (-EAGAIN) /* call again once *want is ready */

/*
 * Settings for the TLS connections of one client: certificates checked
 * against ca_file (PEM, one or more certificates) or, when ca_file is NULL
 * or empty, the system's store. TLS 1.2 at least. Returns NULL and sets
 * *err (-errno or DT_ECONFIG for a CA file that does not load).
 */
struct up_tls *up_tls_new(const char *ca_file, int *err);
void up_tls_free(struct up_tls *t);

/*
 * A TLS client on the connected (or connecting) socket fd, to a server
 * whose certificate must name auth_name (SNI sent with it). NULL without
 * memory.
 */
struct up_tls_sess *up_tls_sess_new(struct up_tls *t, int fd,
				    const char *auth_name);
void up_tls_sess_free(struct up_tls_sess *s);

/* The handshake: 0 when done, UP_TLS_AGAIN (with *want), or -EPROTO
 * (a failed handshake or certificate check: the reason in why, at most
 * len octets). */
int up_tls_handshake(struct up_tls_sess *s, enum up_tls_want *want,
		     char *why, size_t len);

/* Writes or reads up to len octets: the count (> 0), UP_TLS_AGAIN (with
 * *want), 0 (read: the server closed the stream) or -EPROTO / -EPIPE. */
ssize_t up_tls_write(struct up_tls_sess *s, const uint8_t *buf, size_t len,
		     enum up_tls_want *want);
ssize_t up_tls_read(struct up_tls_sess *s, uint8_t *buf, size_t len,
		    enum up_tls_want *want);

#endif
