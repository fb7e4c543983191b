/* SPDX-License-Identifier: MIT */
/*
 * dt_getaddrinfo_ex of one name, COUNT times spread over SECONDS, through
 * the socket given (for lab_abuse.sh: root's lookups while the socket is
 * under attack). Prints "secure=N other=RC/STATUS,..." ("-" when none).
 *
 * usage: gaiq SOCKET NAME COUNT SECONDS
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dnstrust.h"

int main(int argc, char **argv)
{
	dt_ctx_t *ctx;

	if (argc != 5 || dt_ctx_new(&ctx) != 0 ||
	    dt_ctx_set_socket(ctx, argv[1]) != 0) {
		fprintf(stderr, "usage: gaiq SOCKET NAME COUNT SECONDS\n");
		return 2;
	}
	int count = atoi(argv[3]), secure = 0;
	useconds_t pause = (useconds_t)(atof(argv[4]) * 1e6 / count);
	char other[4096] = "";
	size_t off = 0;

	for (int i = 0; i < count; i++) {
		struct addrinfo *res = NULL;
		enum dt_status st = DT_STATUS_NONE;
		int r = dt_getaddrinfo_ex(ctx, argv[2], NULL, NULL, 0, &res,
					  &st);
		if (r == 0)
			dt_freeaddrinfo(res);
		if (r == 0 && st == DT_STATUS_SECURE)
			secure++;
		else if (off < sizeof(other) - 32)
			off += (size_t)snprintf(other + off, sizeof(other) - off,
						"%s%d/%d", off ? "," : "", r,
						(int)st);
		usleep(pause);
	}
	printf("secure=%d other=%s\n", secure, off ? other : "-");
	dt_ctx_free(ctx);
	return 0;
}
