/* SPDX-License-Identifier: MIT */
/*
 * The dnstrust command's side of libdnstrust: the context, errors and
 * administrative TXT answers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "common/protocol.h"
#include "wire/rr.h"

int cli_daemon_open(struct cli_daemon *d, const char *socket)
{
	d->socket = socket ? socket : DT_PROTO_SOCKET;
	d->in_process = false;
	if (dt_ctx_new(&d->ctx) < 0) {
		fprintf(stderr, "dnstrust: out of memory\n");
		return CLI_EXIT_INPUT;
	}
	if (socket && dt_ctx_set_socket(d->ctx, socket) < 0) {
		fprintf(stderr, "dnstrust: bad socket path '%s'\n", socket);
		dt_ctx_free(d->ctx);
		d->ctx = NULL;
		return CLI_EXIT_USAGE;
	}
	return 0;
}

void cli_daemon_in_process(struct cli_daemon *d)
{
	dt_ctx_set_mode(d->ctx, DT_MODE_INPROCESS);
	d->in_process = true;
}

void cli_daemon_close(struct cli_daemon *d)
{
	dt_ctx_free(d->ctx);
	d->ctx = NULL;
}

bool cli_err_unavailable(int err)
{
	return err == DT_ERR_UNAVAILABLE || err == DT_ERR_UNTRUSTED ||
	       err == DT_ERR_TIMEOUT || err == DT_ERR_PROTOCOL;
}

/* Why nothing answers at path, when the path itself says: missing, or
 * not a socket (--socket /etc/passwd); NULL when it is a socket. */
static const char *path_trouble(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOENT ? "no such file" : strerror(errno);
	return S_ISSOCK(st.st_mode) ? NULL : "not a socket";
}

int cli_err_report(const struct cli_daemon *d, const char *cmd, int err)
{
	const char *why;

	if (d->in_process && cli_err_unavailable(err)) {
		fprintf(stderr,
			"dnstrust %s: no in-process answer: %s%s\n", cmd,
			err == DT_ERR_UNAVAILABLE
				? "dnstrust.conf or the trust anchors "
				  "cannot be read"
				: dt_error_str(err),
			err == DT_ERR_UNAVAILABLE ? " (see DNSTRUST_CONF)" : "");
		return CLI_EXIT_UNAVAILABLE;
	}
	if (err == DT_ERR_UNAVAILABLE && (why = path_trouble(d->socket))) {
		fprintf(stderr,
			"dnstrust %s: dnstrustd unavailable at %s: %s\n", cmd,
			d->socket, why);
		return CLI_EXIT_UNAVAILABLE;
	}
	if (cli_err_unavailable(err)) {
		fprintf(stderr,
			"dnstrust %s: dnstrustd unavailable at %s: %s\n", cmd,
			d->socket, dt_error_str(err));
		return CLI_EXIT_UNAVAILABLE;
	}
	fprintf(stderr, "dnstrust %s: %s\n", cmd, dt_error_str(err));
	if (err == DT_ERR_INVALID)
		return CLI_EXIT_USAGE;
	return CLI_EXIT_INPUT;
}

int cli_exit_of_status(enum dt_status status)
{
	switch (status) {
	case DT_STATUS_SECURE: return CLI_EXIT_SECURE;
	case DT_STATUS_INSECURE: return CLI_EXIT_INSECURE;
	case DT_STATUS_BOGUS: return CLI_EXIT_BOGUS;
	default: return CLI_EXIT_INDETERMINATE;
	}
}

char *cli_txt_join(const uint8_t *rdata, size_t len)
{
	char *s = malloc(len + 1);
	size_t w = 0;

	if (!s)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = rdata[i++];
		if (n > len - i)
			n = len - i;
		memcpy(s + w, rdata + i, n);
		w += n;
		i += n;
	}
	s[w] = '\0';
	return s;
}

static int txt_add(struct cli_txt *t, const dt_rr_t *rr)
{
	char **nl = realloc(t->line, (t->n + 1) * sizeof(*nl));

	if (!nl)
		return DT_ERR_NOMEM;
	t->line = nl;
	if (!(t->line[t->n] = cli_txt_join(rr->rdata, rr->rdlen)))
		return DT_ERR_NOMEM;
	t->n++;
	return 0;
}

int cli_txt_get(struct cli_daemon *d, const char *name, struct cli_txt *ret)
{
	struct cli_txt t = {0};
	dt_result_t *res;
	const char *text;
	int r = dt_query(d->ctx, name, WIRE_CLASS_CH, WIRE_TYPE_TXT, 0, &res);

	if (r < 0)
		return r;
	t.rcode = dt_result_rcode(res);
	t.ede = dt_result_ede(res, &text);
	snprintf(t.ede_text, sizeof(t.ede_text), "%s", text ? text : "");
	size_t n = dt_result_count(res, DT_SECTION_ANSWER);
	for (size_t i = 0; i < n && r == 0; i++) {
		dt_rr_t rr;
		if (dt_result_rr(res, DT_SECTION_ANSWER, i, &rr) == 0 &&
		    rr.type == WIRE_TYPE_TXT)
			r = txt_add(&t, &rr);
	}
	dt_result_free(res);
	if (r < 0) {
		cli_txt_free(&t);
		return r;
	}
	*ret = t;
	return 0;
}

const char *cli_txt_value(const struct cli_txt *t, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; i < t->n; i++)
		if (strncmp(t->line[i], key, n) == 0 && t->line[i][n] == '=')
			return t->line[i] + n + 1;
	return NULL;
}

void cli_txt_free(struct cli_txt *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->line[i]);
	free(t->line);
	t->line = NULL;
	t->n = 0;
}
