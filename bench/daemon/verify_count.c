/* SPDX-License-Identifier: MIT */
/*
 * Counts the signature verifications of a process that verifies through
 * OpenSSL's EVP_DigestVerifyFinal(): dnstrustd calls it for every RRSIG
 * it checks; Unbound's EVP_DigestVerify() reaches it through libcrypto's
 * own PLT, once per RRSIG. Loaded with LD_PRELOAD by bench/cold_cpu.sh
 * (BENCH_COUNT_VERIFY=1) in a run apart from the timed one.
 *
 * The count is written to the file named by VERIFY_COUNT_FILE, opened
 * when the library is loaded (before any sandbox), rewritten in place at
 * every call as one fixed-width decimal line, so that it can be read at
 * any moment from outside.
 *
 *   cc -O2 -shared -fPIC -o verify_count.so verify_count.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct evp_md_ctx_st EVP_MD_CTX;

static atomic_long count;
static int fd = -1;

__attribute__((constructor)) static void verify_count_open(void)
{
	const char *path = getenv("VERIFY_COUNT_FILE");

	if (path != NULL)
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int EVP_DigestVerifyFinal(EVP_MD_CTX *ctx, const unsigned char *sig,
			  size_t siglen)
{
	static int (*real)(EVP_MD_CTX *, const unsigned char *, size_t);
	char line[24];
	int len;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "EVP_DigestVerifyFinal");
	len = snprintf(line, sizeof(line), "%20ld\n", ++count);
	if (fd >= 0 && pwrite(fd, line, (size_t)len, 0) != len)
		fd = -1;
	return real(ctx, sig, siglen);
}
