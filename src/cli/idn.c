/* SPDX-License-Identifier: MIT */
/*
 * Internationalized names typed on the command line: UTF-8 to the ASCII
 * form asked in DNS (IDNA2008 with the UTS #46 mapping, non-transitional:
 * "ß" stays a letter of its own, as browsers do), by libidn2.
 */
#include <idn2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static bool all_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

int cli_idn_to_ascii(const char *name, char *ret, size_t retlen, char *why,
		     size_t whylen)
{
	char *ace = NULL;
	int r;

	if (all_ascii(name)) {
		snprintf(ret, retlen, "%s", name);
		return 0;
	}
	r = idn2_to_ascii_8z(name, &ace,
			     IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
	if (r != IDN2_OK) {
		snprintf(why, whylen,
			 "'%s' is not a valid internationalized name: %s",
			 name, idn2_strerror(r));
		return -1;
	}
	if (strlen(ace) >= retlen) {
		snprintf(why, whylen, "'%s': its ASCII form is too long", name);
		idn2_free(ace);
		return -1;
	}
	snprintf(ret, retlen, "%s", ace);
	idn2_free(ace);
	return 1;
}
