/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "tap.h"
#include "wire/dname.h"

static int from(const char *s, const uint8_t *origin, uint8_t *out)
{
	return wire_dname_from_str(s, strlen(s), origin, out);
}

/* Round trip text → wire → text. */
static void text_round_trip(const char *in, const char *want)
{
	uint8_t n[DT_NAME_MAXLEN];
	char buf[DT_NAME_TEXT_MAXLEN];
	int r = from(in, NULL, n);

	ok(r > 0, "parse \"%s\" (%d)", in, r);
	if (r <= 0)
		return;
	is_int(wire_dname_check(n, n + r), r, "check \"%s\"", in);
	wire_dname_to_str(n, buf, sizeof(buf));
	is_str(buf, want, "print \"%s\"", in);
}

static void test_text(void)
{
	uint8_t n[DT_NAME_MAXLEN];

	text_round_trip(".", ".");
	text_round_trip("example.com.", "example.com.");
	text_round_trip("a\\.b.example.", "a\\.b.example.");
	text_round_trip("a\\046b.example.", "a\\.b.example.");
	text_round_trip("\\000\\255.x.", "\\000\\255.x.");
	text_round_trip("sp\\ ace.\\(\\)\\;\\\"\\@\\$.", "sp\\ ace.\\(\\)\\;\\\"\\@\\$.");
	text_round_trip("\\X.", "X.");
	text_round_trip("*.w.example.", "*.w.example.");

	is_int(from("a..b.", NULL, n), DT_ESYNTAX, "empty label rejected");
	is_int(from(".a.", NULL, n), DT_ESYNTAX, "leading dot rejected");
	is_int(from("", NULL, n), DT_ESYNTAX, "empty string rejected");
	is_int(from("a\\25", NULL, n), DT_ESYNTAX, "short \\DDD rejected");
	is_int(from("a\\256.", NULL, n), DT_ESYNTAX, "\\256 rejected");
	is_int(from("a\\", NULL, n), DT_ESYNTAX, "trailing backslash rejected");
	is_int(from("www", NULL, n), DT_ERELATIVE, "relative without origin");

	uint8_t origin[DT_NAME_MAXLEN];
	char buf[DT_NAME_TEXT_MAXLEN];
	from("example.com.", NULL, origin);
	ok(from("www", origin, n) > 0, "relative with origin");
	wire_dname_to_str(n, buf, sizeof(buf));
	is_str(buf, "www.example.com.", "origin appended");
	ok(from("@", origin, n) > 0, "@ is origin");
	wire_dname_to_str(n, buf, sizeof(buf));
	is_str(buf, "example.com.", "@ prints as origin");
	is_int(from("@", NULL, n), DT_ERELATIVE, "@ without origin");

	char small[5];
	is_int(wire_dname_to_str(origin, small, sizeof(small)), DT_ESPACE,
	       "to_str reports short buffer");
}

/* Builds a name of nlabels labels of len octets each. */
static char *make_text(int nlabels, int len)
{
	char *s = malloc((size_t)nlabels * (size_t)(len + 1) + 2);
	size_t n = 0;

	for (int i = 0; i < nlabels; i++) {
		memset(s + n, 'a' + i % 26, (size_t)len);
		n += (size_t)len;
		s[n++] = '.';
	}
	s[n] = '\0';
	return s;
}

static void test_limits(void)
{
	uint8_t n[DT_NAME_MAXLEN];
	char *s;

	s = make_text(1, 63);
	is_int(from(s, NULL, n), 65, "63-octet label accepted");
	free(s);
	s = make_text(1, 64);
	is_int(from(s, NULL, n), DT_ELABEL, "64-octet label rejected");
	free(s);
	/* 3 * 64 + 62 + 1 = 255 octets: the longest name. */
	char *a = make_text(3, 63), *b = make_text(1, 61);
	char full[400];
	snprintf(full, sizeof(full), "%s%s", a, b);
	is_int(from(full, NULL, n), 255, "255-octet name accepted");
	is_int(wire_dname_check(n, n + 255), 255, "255-octet name checks");
	is_int(wire_dname_labels(n), 4, "labels of 255-octet name");
	char out[DT_NAME_TEXT_MAXLEN];
	wire_dname_to_str(n, out, sizeof(out));
	is_str(out, full, "255-octet name prints back");
	free(b);
	b = make_text(1, 62);
	snprintf(full, sizeof(full), "%s%s", a, b);
	is_int(from(full, NULL, n), DT_ENAMELEN, "256-octet name rejected");
	uint8_t origin[DT_NAME_MAXLEN];
	snprintf(full, sizeof(full), "%s", a);
	from(full, NULL, origin);
	b[strlen(b) - 1] = '\0'; /* relative: 63 + 193 = 256 octets */
	is_int(from(b, origin, n), DT_ENAMELEN,
	       "relative + origin over 255 rejected");
	free(a);
	free(b);

	/* 127 one-octet labels is the label maximum (254 + root). */
	s = make_text(127, 1);
	is_int(from(s, NULL, n), 255, "127 labels accepted");
	is_int(wire_dname_labels(n), 127, "127 labels counted");
	free(s);
	s = make_text(128, 1);
	is_int(from(s, NULL, n), DT_ENAMELEN, "128 labels rejected");
	free(s);

	/* Worst-case text length fits DT_NAME_TEXT_MAXLEN. */
	uint8_t w[DT_NAME_MAXLEN];
	w[0] = 63;
	memset(w + 1, 0, 63);
	memcpy(w + 64, w, 64);
	memcpy(w + 128, w, 64);
	w[192] = 61;
	memset(w + 193, 0xff, 61);
	w[254] = 0;
	ok(wire_dname_to_str(w, out, sizeof(out)) > 900,
	   "all-escaped 255-octet name fits the text maximum");
}

static void test_check(void)
{
	const uint8_t ok1[] = "\3www\7example\0";
	is_int(wire_dname_check(ok1, ok1 + 13), 13, "check plain name");
	is_int(wire_dname_check(ok1, ok1 + 12), DT_ETRUNC,
	       "check without root label is truncated");
	is_int(wire_dname_check(ok1, ok1 + 3), DT_ETRUNC,
	       "check label past end");
	const uint8_t ptr[] = "\3www\xc0\x0c";
	is_int(wire_dname_check(ptr, ptr + 6), DT_EPTR,
	       "pointer not allowed in uncompressed name");
	uint8_t big[70] = {64};
	is_int(wire_dname_check(big, big + 70), DT_ELABEL, "label 64 rejected");
	const uint8_t root[] = {0};
	is_int(wire_dname_check(root, root + 1), 1, "root checks");
	is_int(wire_dname_check(root, root), DT_ETRUNC, "empty input");
}

/* A message: 12-octet header, then the bytes given. */
static size_t mkmsg(uint8_t *msg, const uint8_t *body, size_t len)
{
	memset(msg, 0, 12);
	memcpy(msg + 12, body, len);
	return 12 + len;
}

static void test_unpack(void)
{
	uint8_t msg[600], out[DT_NAME_MAXLEN];
	char txt[DT_NAME_TEXT_MAXLEN];
	size_t pos, len;

	/* 12: www.example.com.  29: pointer to 16 (example.com.) preceded
	 * by "mail". */
	const uint8_t body[] = "\3www\7example\3com\0\4mail\xc0\x10";
	len = mkmsg(msg, body, sizeof(body) - 1);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), 17, "plain name");
	is_int(pos, 29, "pos after plain name");
	is_int(wire_dname_unpack(msg, len, &pos, out), 18, "compressed name");
	is_int(pos, 36, "pos after pointer");
	wire_dname_to_str(out, txt, sizeof(txt));
	is_str(txt, "mail.example.com.", "compressed name text");

	/* Pointer to itself. */
	const uint8_t self[] = "\xc0\x0c";
	len = mkmsg(msg, self, 2);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTR, "self pointer");

	/* Two pointers pointing at each other: 12 → 14, 14 → 12. */
	const uint8_t loop[] = "\xc0\x0e\xc0\x0c";
	len = mkmsg(msg, loop, 4);
	pos = 14;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTR,
	       "pointer loop (second hop forward)");
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTR,
	       "forward pointer");

	/* Label then pointer back into the same name. */
	const uint8_t inname[] = "\1a\xc0\x0c";
	len = mkmsg(msg, inname, 4);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTR,
	       "pointer to the start of the current name");

	/* Pointer into the header. */
	const uint8_t hdr[] = "\xc0\x02";
	len = mkmsg(msg, hdr, 2);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTR,
	       "pointer into header");

	/* Pointer past the end, and a cut pointer. */
	const uint8_t past[] = "\0\xc0\xff";
	len = mkmsg(msg, past, 3);
	pos = 13;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTR,
	       "pointer past end (forward)");
	len = mkmsg(msg, (const uint8_t *)"\xc0", 1);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_ETRUNC,
	       "pointer cut in half");
	len = mkmsg(msg, (const uint8_t *)"\3ab", 3);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_ETRUNC,
	       "label past end");
	len = mkmsg(msg, (const uint8_t *)"\x41", 1);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EMALF,
	       "extended label type rejected");

	/* A chain of pointers each pointing at the previous one. */
	size_t n = 0;
	uint8_t chain[2 * (DT_NAME_MAXPTRS + 2) + 1];
	chain[n++] = 0; /* root at 12 */
	for (int i = 0; i <= DT_NAME_MAXPTRS; i++) {
		size_t target = i == 0 ? 12 : 12 + n - 2;
		chain[n++] = (uint8_t)(0xC0 | target >> 8);
		chain[n++] = (uint8_t)target;
	}
	len = mkmsg(msg, chain, n);
	pos = 12 + n - 2; /* the last pointer: DT_NAME_MAXPTRS + 1 hops */
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_EPTRLIMIT,
	       "pointer chain over the limit");
	pos = 12 + n - 4; /* exactly DT_NAME_MAXPTRS hops */
	is_int(wire_dname_unpack(msg, len, &pos, out), 1,
	       "pointer chain at the limit");

	/* Decompressed result over 255 octets. */
	uint8_t longm[600];
	n = 0;
	for (int i = 0; i < 4; i++) {
		longm[n++] = 63;
		memset(longm + n, 'x', 63);
		n += 63;
	}
	longm[n++] = 0; /* 257 octets uncompressed */
	len = mkmsg(msg, longm, n);
	pos = 12;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_ENAMELEN,
	       "256+ octets rejected while unpacking");
	/* 3 labels of 63 in one place, a pointer adding 63 more. */
	n = 0;
	longm[n++] = 61;
	memset(longm + n, 'y', 61);
	n += 61;
	longm[n++] = 0;
	for (int i = 0; i < 3; i++) {
		longm[n++] = 63;
		memset(longm + n, 'x', 63);
		n += 63;
	}
	longm[n++] = 0xC0;
	longm[n++] = 12;
	len = mkmsg(msg, longm, n);
	pos = 12 + 63;
	is_int(wire_dname_unpack(msg, len, &pos, out), 255,
	       "255 octets reached through a pointer");
	/* 3 labels of 63 and one of 1 before the pointer: 256 + 63. */
	n = 63;
	for (int i = 0; i < 3; i++) {
		longm[n++] = 63;
		memset(longm + n, 'x', 63);
		n += 63;
	}
	longm[n++] = 1;
	longm[n++] = 'z';
	longm[n++] = 0xC0;
	longm[n++] = 12;
	len = mkmsg(msg, longm, n);
	pos = 12 + 63;
	is_int(wire_dname_unpack(msg, len, &pos, out), DT_ENAMELEN,
	       "over 255 octets through a pointer rejected");
}

static void test_compare(void)
{
	uint8_t a[DT_NAME_MAXLEN], b[DT_NAME_MAXLEN];

	from("WWW.Example.COM.", NULL, a);
	from("www.example.com.", NULL, b);
	ok(wire_dname_equal(a, b), "equal ignores ASCII case");
	is_int(wire_dname_canon_cmp(a, b), 0, "canon_cmp equal");
	from("www.example.co.", NULL, b);
	ok(!wire_dname_equal(a, b), "different names");
	from("\\200.example.", NULL, a);
	from("\\224.example.", NULL, b);
	ok(!wire_dname_equal(a, b), "no case folding beyond ASCII");

	/* RFC 4034 §6.1 example order. */
	static const char *const order[] = {
		"example.",	  "a.example.",	     "yljkjljk.a.example.",
		"Z.a.example.",	  "zABC.a.EXAMPLE.", "z.example.",
		"\\001.z.example.", "*.z.example.",    "\\200.z.example.",
	};
	size_t n = sizeof(order) / sizeof(order[0]);
	int good = 1;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			from(order[i], NULL, a);
			from(order[j], NULL, b);
			int c = wire_dname_canon_cmp(a, b);
			int want = i < j ? -1 : i > j ? 1 : 0;
			if ((c < 0 ? -1 : c > 0 ? 1 : 0) != want) {
				diag("%s vs %s: %d", order[i], order[j], c);
				good = 0;
			}
		}
	}
	ok(good, "RFC 4034 §6.1 canonical order, all pairs");
}

static void test_structure(void)
{
	uint8_t a[DT_NAME_MAXLEN], b[DT_NAME_MAXLEN], w[DT_NAME_MAXLEN];
	char txt[DT_NAME_TEXT_MAXLEN];

	from("x.y.w.example.", NULL, a);
	is_int(wire_dname_labels(a), 4, "label count");
	is_int(wire_dname_len(a), 15, "wire length");
	const uint8_t *p = wire_dname_parent(a);
	wire_dname_to_str(p, txt, sizeof(txt));
	is_str(txt, "y.w.example.", "parent");
	p = wire_dname_ancestor(a, 1);
	wire_dname_to_str(p, txt, sizeof(txt));
	is_str(txt, "example.", "ancestor with 1 label");
	ok(wire_dname_is_root(wire_dname_ancestor(a, 0)), "ancestor 0 is root");
	ok(wire_dname_ancestor(a, 5) == NULL, "no ancestor below the name");
	ok(wire_dname_parent(wire_dname_ancestor(a, 0)) == NULL,
	   "root has no parent");

	from("W.Example.", NULL, b);
	ok(wire_dname_is_subdomain(a, b), "subdomain, case-insensitive");
	ok(wire_dname_is_subdomain(b, b), "a name is its own subdomain");
	ok(!wire_dname_is_subdomain(b, a), "parent is not subdomain of child");
	from("xw.example.", NULL, b);
	ok(!wire_dname_is_subdomain(a, b), "label boundary respected");
	from(".", NULL, b);
	ok(wire_dname_is_subdomain(a, b), "everything is below the root");

	from("z.w.example.", NULL, b);
	is_int(wire_dname_common_labels(a, b), 2, "common labels");
	is_int(wire_dname_common_labels(a, a), 4, "common labels, same name");

	ok(!wire_dname_is_wildcard(a), "not a wildcard");
	is_int(wire_dname_wildcard_of(w, wire_dname_parent(a)), 15,
	       "wildcard_of");
	ok(wire_dname_is_wildcard(w), "wildcard detected");
	wire_dname_to_str(w, txt, sizeof(txt));
	is_str(txt, "*.y.w.example.", "wildcard text");
	from("\\*.example.", NULL, b);
	ok(wire_dname_is_wildcard(b), "escaped asterisk is the same octet");
	from("**.example.", NULL, b);
	ok(!wire_dname_is_wildcard(b), "** is not a wildcard label");

	char *t = make_text(3, 63), *u = make_text(1, 60), both[300];
	snprintf(both, sizeof(both), "%s%s", t, u);
	free(t);
	free(u);
	is_int(from(both, NULL, b), 254, "254-octet name");
	is_int(wire_dname_wildcard_of(w, b), DT_ENAMELEN,
	       "wildcard_of over 255 rejected");

	from("MiXeD.CaSe.", NULL, b);
	wire_dname_tolower(b);
	wire_dname_to_str(b, txt, sizeof(txt));
	is_str(txt, "mixed.case.", "tolower");
	is_int(wire_dname_copy(w, b), 12, "copy length");
	ok(memcmp(w, b, 12) == 0, "copy content");
}

int main(void)
{
	test_text();
	test_limits();
	test_check();
	test_unpack();
	test_compare();
	test_structure();
	return done_testing();
}
