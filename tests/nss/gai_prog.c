/* SPDX-License-Identifier: MIT */
/*
 * An ordinary program resolving names the way applications do, through
 * glibc and whatever nsswitch.conf says; it knows nothing of dnstrust.
 * tests/nss/nss_lab.sh runs it in a private mount namespace with the
 * module in nsswitch.conf.
 *
 *   gai_prog ai NAME [unspec|inet|inet6]   getaddrinfo, AI_CANONNAME
 *   gai_prog name NAME                     gethostbyname
 *   gai_prog name2 NAME inet|inet6         gethostbyname2
 *   gai_prog addr ADDRESS                  gethostbyaddr
 *   gai_prog again NAME                    getaddrinfo, again after each
 *                                          line read on stdin, until EOF
 *   gai_prog dlopen MODULE NAME COUNT      COUNT times: dlopen MODULE,
 *                                          its gethostbyname4_r, dlclose
 *
 * Prints "canon NAME", "alias NAME" and "addr ADDRESS" lines; on failure
 * one line "error CODE" (EAI_* or h_errno name) and exit status 2.
 * "again" prints one line per lookup, "ok" or "error CODE", flushed;
 * "dlopen" one line "ok N fds BEFORE AFTER" (descriptors open before the
 * first dlopen and after the last dlclose).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <nss.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const char *eai_name(int e)
{
	switch (e) {
	case EAI_AGAIN: return "EAI_AGAIN";
	case EAI_FAIL: return "EAI_FAIL";
	case EAI_NONAME: return "EAI_NONAME";
	case EAI_NODATA: return "EAI_NODATA";
	case EAI_SYSTEM: return "EAI_SYSTEM";
	case EAI_MEMORY: return "EAI_MEMORY";
	case EAI_ADDRFAMILY: return "EAI_ADDRFAMILY";
	case EAI_FAMILY: return "EAI_FAMILY";
	default: return "EAI_OTHER";
	}
}

static const char *herr_name(int e)
{
	switch (e) {
	case HOST_NOT_FOUND: return "HOST_NOT_FOUND";
	case TRY_AGAIN: return "TRY_AGAIN";
	case NO_RECOVERY: return "NO_RECOVERY";
	case NO_DATA: return "NO_DATA";
	case NETDB_INTERNAL: return "NETDB_INTERNAL";
	default: return "H_OTHER";
	}
}

static int family(const char *s)
{
	if (s == NULL || strcmp(s, "unspec") == 0)
		return AF_UNSPEC;
	return strcmp(s, "inet6") == 0 ? AF_INET6 : AF_INET;
}

static void print_addr(int af, const void *a)
{
	char text[INET6_ADDRSTRLEN];

	printf("addr %s\n", inet_ntop(af, a, text, sizeof(text)));
}

static int by_gai(const char *name, int af)
{
	struct addrinfo hints = {.ai_family = af,
				 .ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_CANONNAME};
	struct addrinfo *res, *ai;
	int e = getaddrinfo(name, NULL, &hints, &res);

	if (e != 0) {
		printf("error %s %s\n", eai_name(e), gai_strerror(e));
		return 2;
	}
	if (res->ai_canonname != NULL)
		printf("canon %s\n", res->ai_canonname);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET)
			print_addr(AF_INET,
				   &((struct sockaddr_in *)(void *)ai->ai_addr)
					    ->sin_addr);
		else
			print_addr(AF_INET6,
				   &((struct sockaddr_in6 *)(void *)ai->ai_addr)
					    ->sin6_addr);
	}
	freeaddrinfo(res);
	return 0;
}

static int print_hostent(const struct hostent *h)
{
	if (h == NULL) {
		printf("error %s\n", herr_name(h_errno));
		return 2;
	}
	printf("canon %s\n", h->h_name);
	for (char **a = h->h_aliases; *a != NULL; a++)
		printf("alias %s\n", *a);
	for (char **a = h->h_addr_list; *a != NULL; a++)
		print_addr(h->h_addrtype, *a);
	return 0;
}

static int by_addr(const char *text)
{
	unsigned char a[16];

	if (inet_pton(AF_INET, text, a) == 1)
		return print_hostent(gethostbyaddr(a, 4, AF_INET));
	if (inet_pton(AF_INET6, text, a) == 1)
		return print_hostent(gethostbyaddr(a, 16, AF_INET6));
	printf("error not an address\n");
	return 2;
}

static int again(const char *name)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM};
	char line[64];

	do {
		struct addrinfo *res;
		int e = getaddrinfo(name, NULL, &hints, &res);
		if (e == 0) {
			freeaddrinfo(res);
			printf("ok\n");
		} else {
			printf("error %s\n", eai_name(e));
		}
		fflush(stdout);
	} while (fgets(line, sizeof(line), stdin) != NULL);
	return 0;
}

static int fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

typedef enum nss_status (*name4_fn)(const char *, struct gaih_addrtuple **,
				    char *, size_t, int *, int *, int32_t *);

static int dl_cycles(const char *module, const char *name, int count)
{
	static char buf[4096];
	int before = fd_count(), good = 0;

	for (int i = 0; i < count; i++) {
		void *h = dlopen(module, RTLD_NOW | RTLD_LOCAL);
		name4_fn fn;
		struct gaih_addrtuple *t = NULL;
		int err, herr;
		int32_t ttl;

		if (h == NULL) {
			printf("error dlopen %s\n", dlerror());
			return 2;
		}
		fn = (name4_fn)dlsym(h, "_nss_dnstrust_gethostbyname4_r");
		if (fn != NULL &&
		    fn(name, &t, buf, sizeof(buf), &err, &herr, &ttl) ==
			    NSS_STATUS_SUCCESS &&
		    t != NULL)
			good++;
		dlclose(h);
	}
	printf("ok %d fds %d %d\n", good, before, fd_count());
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s ai|name|name2|addr ARG [FAMILY]\n",
			argv[0]);
		return 1;
	}
	if (strcmp(argv[1], "ai") == 0)
		return by_gai(argv[2], family(argc > 3 ? argv[3] : NULL));
	if (strcmp(argv[1], "name") == 0)
		return print_hostent(gethostbyname(argv[2]));
	if (strcmp(argv[1], "name2") == 0)
		return print_hostent(gethostbyname2(
			argv[2], family(argc > 3 ? argv[3] : "inet")));
	if (strcmp(argv[1], "addr") == 0)
		return by_addr(argv[2]);
	if (strcmp(argv[1], "again") == 0)
		return again(argv[2]);
	if (strcmp(argv[1], "dlopen") == 0 && argc > 4)
		return dl_cycles(argv[2], argv[3], atoi(argv[4]));
	fprintf(stderr, "%s: unknown mode %s\n", argv[0], argv[1]);
	return 1;
}
