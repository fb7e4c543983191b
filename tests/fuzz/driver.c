/* SPDX-License-Identifier: MIT */
/*
 * Replays fuzz inputs without libFuzzer: each argument is a file or a
 * directory of files, each file one input passed to
 * LLVMFuzzerTestOneInput(). Output is TAP, one line per input, so the
 * corpus replay counts in `make check`. A crash or a sanitizer report
 * fails the run.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n_run;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("not ok %d - %s: %s\n", ++n_run, path, strerror(errno));
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (!buf) {
		printf("not ok %d - %s: out of memory\n", ++n_run, path);
		return 1;
	}
	/* Exact-size copy so ASan sees reads past the input's end. */
	uint8_t *in = malloc(len ? len : 1);
	if (!in) {
		free(buf);
		printf("not ok %d - %s: out of memory\n", ++n_run, path);
		return 1;
	}
	memcpy(in, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(in, len);
	free(in);
	printf("ok %d - %s (%zu octets)\n", ++n_run, path, len);
	return 0;
}

static int compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		printf("not ok %d - %s: %s\n", ++n_run, path, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	DIR *d = opendir(path);
	if (!d) {
		printf("not ok %d - %s: %s\n", ++n_run, path, strerror(errno));
		return 1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn)
			break;
		names = nn;
		size_t sz = strlen(path) + strlen(de->d_name) + 2;
		names[n] = malloc(sz);
		if (!names[n])
			break;
		snprintf(names[n++], sz, "%s/%s", path, de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), compare);
	int fails = 0;
	for (size_t i = 0; i < n; i++) {
		fails += run_file(names[i]);
		free(names[i]);
	}
	free(names);
	return fails;
}

int main(int argc, char **argv)
{
	int fails = 0;
	for (int i = 1; i < argc; i++)
		fails += run_path(argv[i]);
	printf("1..%d\n", n_run);
	return fails ? 1 : (n_run ? 0 : 1);
}
