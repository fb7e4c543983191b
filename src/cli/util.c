/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "common/errcode.h"
#include "common/limits.h"
#include "wire/dname.h"

void cli_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int digits(const char *s, size_t n, int *ret)
{
	int v = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*ret = v;
	return 0;
}

int cli_parse_time(const char *s, int64_t *ret)
{
	size_t len = strlen(s);
	int y, mo, d, h, mi, se;

	if (len == 14) {
		if (digits(s, 4, &y) || digits(s + 4, 2, &mo) ||
		    digits(s + 6, 2, &d) || digits(s + 8, 2, &h) ||
		    digits(s + 10, 2, &mi) || digits(s + 12, 2, &se))
			return -1;
		if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
		    se > 60)
			return -1;
		*ret = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
		       se;
		return 0;
	}
	if (len == 0 || len > 12)
		return -1;
	int64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*ret = v;
	return 0;
}

const char *cli_time_str(int64_t t, char buf[24])
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, 24, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, 24, "@%lld", (long long)t);
	return buf;
}

/* The longest label of name in presentation form, escapes counted as the
 * octet they stand for. */
static size_t longest_label(const char *name)
{
	size_t best = 0, cur = 0;

	for (const char *p = name; *p; p++) {
		if (*p == '.') {
			cur = 0;
			continue;
		}
		if (*p == '\\' && isdigit((unsigned char)p[1]))
			p += p[2] && p[3] ? 3 : strlen(p) - 1;
		else if (*p == '\\' && p[1])
			p++;
		if (++cur > best)
			best = cur;
	}
	return best;
}

int cli_name_check(const char *cmd, const char *what, const char *name,
		   size_t extra)
{
	uint8_t wire[DT_NAME_MAXLEN];
	int r = wire_dname_from_str(name, strlen(name), (const uint8_t *)"",
				    wire);

	if (r >= 0 && (size_t)r + extra <= DT_NAME_MAXLEN)
		return 0;
	fprintf(stderr, "dnstrust %s: bad %s '%s': ", cmd, what, name);
	if (r == DT_ELABEL)
		fprintf(stderr, "a label has %zu octets, at most 63 are "
				"allowed between two dots (RFC 1035 §2.3.4)\n",
			longest_label(name));
	else if (r == DT_ENAMELEN || r >= 0)
		fprintf(stderr, "%s longer than 255 octets in wire form (RFC "
				"1035 §2.3.4)\n",
			r >= 0 ? "with the labels added, the name is"
			       : "the name is");
	else
		fprintf(stderr, "an empty label (two dots in a row, or a "
				"leading dot) or a bad \\ escape\n");
	return -1;
}

/* One line per option of the subcommands, in the order printed; a
 * name is matched as a word of cli_options_help's list. */
static const struct {
	const char *name, *text;
} option_help[] = {
	{"reverse", "  -x, --reverse ADDR  ask about ADDR's reverse name "
		    "(PTR by default)"},
	{"trace", "  --trace         the chain of trust, validated again "
		  "offline"},
	{"cd", "  --cd            checking disabled: bogus data returned, "
	       "marked bogus"},
	{"dnssec", "  --dnssec        DO set: RRSIGs and denial records come "
		   "with the answer"},
	{"require-secure", "  --require-secure  withhold every answer that "
			   "is not secure"},
	{"trace-after", "  --trace         the chain of trust after the "
			"verdict"},
	{"zone", "  --zone ORIGIN   check the whole zone FILE of ORIGIN"},
	{"anchor", "  --anchor FILE   trust the DS/DNSKEY records in FILE "
		   "(repeatable, up to 16)"},
	{"time", "  --time TIME     validate as at TIME (YYYYMMDDHHMMSS UTC "
		 "or epoch seconds)"},
	{"resolver", "  --resolver      also through the resolver core; "
		     "do the two agree?"},
	{"question", "  --question 'NAME [CLASS] TYPE'  the question to "
		     "validate (class IN by default)"},
	{"rcode", "  --rcode RCODE   the response's RCODE (NOERROR, "
		  "NXDOMAIN...)"},
	{"until", "  --until WHEN    (add) the anchor ends then; default "
		  "none"},
	{"minutes", "  --minutes N     how long names go unvalidated"},
	{"done", "  --done          end the sign-on now"},
	{"status", "  --status        whether a sign-on is under way, and "
		   "until when"},
	{"resolv-conf", "  --resolv-conf PATH  check PATH instead of "
			"/etc/resolv.conf"},
	{"nsswitch", "  --nsswitch PATH  check PATH instead of "
		     "/etc/nsswitch.conf"},
	{"config", "  --config PATH   the daemon's configuration (default "
		   "/etc/dnstrust/dnstrust.conf)"},
	{"json", "  --json          one JSON object instead of text"},
	{"socket", "  --socket PATH   the daemon's socket (default "
		   "/run/dnstrust/socket)"},
	{"in-process", "  --in-process    validate in this process, without the "
		       "daemon (libdnstrust's\n"
		       "                  DT_MODE_INPROCESS: dnstrust.conf, "
		       "$DNSTRUST_CONF)"},
	{"count", "  --count N       stop after N questions (1 or more)"},
	{"reset", "  --reset         set the counters to zero (root only)"},
	{"bogus", "  --bogus         drop the cached bogus answers"},
	{"negative", "  --negative      drop the cached negative answers"},
};

/* Whether the space-separated list names holds word. */
static bool has_word(const char *names, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = names; (p = strstr(p, word)) != NULL; p += n)
		if ((p == names || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

void cli_options_help(FILE *f, const char *names)
{
	fprintf(f, "options:\n");
	for (size_t i = 0; i < sizeof(option_help) / sizeof(*option_help); i++)
		if (has_word(names, option_help[i].name))
			fprintf(f, "%s\n", option_help[i].text);
	fprintf(f, "  -h, --help      this help\n");
}
