/*
 * dt-lookup: the addresses and TXT records of a name, validated by
 * dnstrustd, each with how far it can be trusted.
 *
 *     dt-lookup [-s SOCKET] NAME
 *
 * Exit status: 0 answered, 1 no usable answer (bogus, not found...),
 * 2 dnstrustd unreachable, 64 usage.
 *
 * Build: cc -o dt-lookup dt-lookup.c $(pkg-config --cflags --libs dnstrust)
 */
#include <arpa/inet.h>
#include <dnstrust.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static int print_addresses(const char *name)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM};
	struct addrinfo *res, *ai;
	enum dt_status status;
	char text[INET6_ADDRSTRLEN];
	int err;

	err = dt_getaddrinfo(name, NULL, &hints, &res);
	status = dt_last_status();
	if (err) {
		fprintf(stderr, "%s: %s (status %s)\n", name,
			dt_gai_strerror(err), dt_status_str(status));
		return err == DT_EAI_UNAVAILABLE ? 2 : 1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		const void *addr;

		if (ai->ai_family == AF_INET)
			addr = &((struct sockaddr_in *)ai->ai_addr)->sin_addr;
		else
			addr = &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
		inet_ntop(ai->ai_family, addr, text, sizeof(text));
		printf("%s address %s %s\n", name, text, dt_status_str(status));
	}
	dt_freeaddrinfo(res);
	return 0;
}

static int print_txt(const char *name)
{
	dt_result_t *res;
	const char *why;
	char line[1024];
	size_t i;
	int err, ede;

	err = dt_query(NULL, name, 1 /* IN */, 16 /* TXT */, 0, &res);
	if (err) {
		fprintf(stderr, "%s TXT: %s (status %s)\n", name,
			dt_error_str(err), dt_status_str(dt_last_status()));
		return err == DT_ERR_UNAVAILABLE ? 2 : 1;
	}
	for (i = 0; i < dt_result_count(res, DT_SECTION_ANSWER); i++)
		if (dt_result_rr_text(res, DT_SECTION_ANSWER, i, line,
				      sizeof(line)) >= 0)
			printf("%s\n", line);
	printf("%s TXT rcode %d %s", name, dt_result_rcode(res),
	       dt_status_str(dt_result_status(res)));
	ede = dt_result_ede(res, &why);
	if (ede >= 0)
		printf(" (EDE %d: %s)", ede, why);
	printf("\n");
	dt_result_free(res);
	return 0;
}

int main(int argc, char **argv)
{
	int a, t;

	if (argc == 4 && strcmp(argv[1], "-s") == 0) {
		/* a daemon listening elsewhere than /run/dnstrust/socket */
		if (dt_ctx_set_socket(NULL, argv[2]) != 0)
			return 64;
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: dt-lookup [-s SOCKET] NAME\n");
		return 64;
	}
	a = print_addresses(argv[1]);
	if (a == 2)
		return 2;
	t = print_txt(argv[1]);
	return a ? a : t;
}
