/* SPDX-License-Identifier: MIT */
/*
 * DNS over TLS to an upstream (tls.h), with OpenSSL's libssl.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "common/errcode.h"
#include "upstream/tls.h"

struct up_tls {
	SSL_CTX *ctx;
};

struct up_tls_sess {
	SSL *ssl;
};

struct up_tls *up_tls_new(const char *ca_file, int *err)
{
	struct up_tls *t = calloc(1, sizeof(*t));

	*err = -ENOMEM;
	if (!t)
		return NULL;
	t->ctx = SSL_CTX_new(TLS_client_method());
	if (!t->ctx)
		goto fail;
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
	/* A server that closes without close_notify ends its stream: the
	 * frame length says whether the answer was whole. */
	SSL_CTX_set_options(t->ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
	int ok = ca_file && ca_file[0]
			 ? SSL_CTX_load_verify_locations(t->ctx, ca_file, NULL)
			 : SSL_CTX_set_default_verify_paths(t->ctx);
	if (ok != 1) {
		*err = DT_ECONFIG;
		goto fail;
	}
	*err = 0;
	return t;
fail:
	ERR_clear_error();
	up_tls_free(t);
	return NULL;
}

void up_tls_free(struct up_tls *t)
{
	if (!t)
		return;
	SSL_CTX_free(t->ctx);
	free(t);
}

struct up_tls_sess *up_tls_sess_new(struct up_tls *t, int fd,
				    const char *auth_name)
{
	struct up_tls_sess *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ssl = SSL_new(t->ctx);
	if (!s->ssl || SSL_set_fd(s->ssl, fd) != 1 ||
	    SSL_set_tlsext_host_name(s->ssl, auth_name) != 1 ||
	    SSL_set1_host(s->ssl, auth_name) != 1) {
		ERR_clear_error();
		up_tls_sess_free(s);
		return NULL;
	}
	/* The name is a DNS name: no partial wildcards (RFC 6125 §7.2). */
	SSL_set_hostflags(s->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
	SSL_set_connect_state(s->ssl);
	return s;
}

void up_tls_sess_free(struct up_tls_sess *s)
{
	if (!s)
		return;
	SSL_free(s->ssl); /* the socket stays the caller's */
	free(s);
}

/* A failed call's result: UP_TLS_AGAIN with *want, or err. */
static int failed(struct up_tls_sess *s, int r, enum up_tls_want *want,
		  int err)
{
	switch (SSL_get_error(s->ssl, r)) {
	case SSL_ERROR_WANT_READ:
		*want = UP_TLS_WANT_READ;
		return UP_TLS_AGAIN;
	case SSL_ERROR_WANT_WRITE:
		*want = UP_TLS_WANT_WRITE;
		return UP_TLS_AGAIN;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	default:
		ERR_clear_error();
		return err;
	}
}

int up_tls_handshake(struct up_tls_sess *s, enum up_tls_want *want,
		     char *why, size_t len)
{
	int r = SSL_do_handshake(s->ssl);

	if (r == 1)
		return 0;
	unsigned long e = ERR_peek_error();
	long v = SSL_get_verify_result(s->ssl);
	int ret = failed(s, r, want, -EPROTO);
	if (ret == UP_TLS_AGAIN)
		return ret;
	if (v != X509_V_OK)
		snprintf(why, len, "certificate: %s",
			 X509_verify_cert_error_string(v));
	else if (e)
		snprintf(why, len, "handshake: %s", ERR_reason_error_string(e)
							 ? ERR_reason_error_string(e)
							 : "failed");
	else
		snprintf(why, len, "handshake: connection closed");
	return -EPROTO;
}

ssize_t up_tls_write(struct up_tls_sess *s, const uint8_t *buf, size_t len,
		     enum up_tls_want *want)
{
	size_t n = 0;
	int r = SSL_write_ex(s->ssl, buf, len, &n);

	if (r == 1)
		return (ssize_t)n;
	r = failed(s, r, want, -EPIPE);
	return r == 0 ? -EPIPE : r;
}

ssize_t up_tls_read(struct up_tls_sess *s, uint8_t *buf, size_t len,
		    enum up_tls_want *want)
{
	size_t n = 0;
	int r = SSL_read_ex(s->ssl, buf, len, &n);

	if (r == 1)
		return (ssize_t)n;
	return failed(s, r, want, -EPROTO);
}
