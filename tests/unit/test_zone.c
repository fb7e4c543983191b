/* SPDX-License-Identifier: MIT */
/*
 * Zone-file reader (src/wire/zone.c): text -> wire -> text for every type
 * with a layout, directives and owners, errors with their exact line, the
 * limits, RFC 3597, and the RFC example zones of tests/data (copied from the RFCs).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/errcode.h"
#include "tap.h"
#include "vectors.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

static char out[WIRE_RR_TEXT_MAXLEN(DT_RDATA_MAXLEN)];

static struct wire_zreader *zr_text(const char *text)
{
	return wire_zreader_new(text, strlen(text), "example.", 3600, "t.zone");
}

/* Reads the first record of text and writes it back ("ERR: message" when
 * the reader fails). */
static const char *rt(const char *text)
{
	struct wire_zreader *zr = zr_text(text);
	struct wire_rr rr;
	int ret = wire_zreader_next(zr, &rr);

	if (ret == 1)
		ret = wire_rr_to_str(&rr, out, sizeof(out));
	if (ret <= 0)
		snprintf(out, sizeof(out), "ERR %d: %s", ret,
			 wire_zreader_error(zr));
	wire_zreader_free(zr);
	return out;
}

/* Reads all of text; returns the first error (or the record count) and
 * the error's line and message. */
static int read_all(const char *text, unsigned *ret_line, const char **msg)
{
	static char msgbuf[1024];
	struct wire_zreader *zr = zr_text(text);
	struct wire_rr rr;
	int ret, n = 0;

	while ((ret = wire_zreader_next(zr, &rr)) == 1)
		n++;
	*ret_line = wire_zreader_line(zr);
	snprintf(msgbuf, sizeof(msgbuf), "%s", wire_zreader_error(zr));
	*msg = msgbuf;
	wire_zreader_free(zr);
	return ret < 0 ? ret : n;
}

/* The start of a test text on one line, for the TAP description. */
static const char *one_line(const char *text)
{
	static char buf[72];
	size_t i;

	for (i = 0; i + 1 < sizeof(buf) && text[i]; i++)
		buf[i] = (text[i] == '\n' || text[i] == '\t') ? ' ' : text[i];
	buf[i] = '\0';
	return buf;
}

static void is_err(const char *text, int want_err, unsigned want_line,
		   const char *want_in_msg, const char *what)
{
	const char *msg;
	unsigned line;
	int ret = read_all(text, &line, &msg);

	is_int(ret, want_err, "%s: error code (%s)", what, one_line(msg));
	is_int(line, want_line, "%s: line", what);
	if (!ok(strstr(msg, want_in_msg) != NULL, "%s: message", what))
		diag("message \"%s\" lacks \"%s\"", msg, want_in_msg);
}

#define RT(in, want) is_str(rt(in), want, "%s", one_line(in))

static void test_basic_types(void)
{
	RT("a 300 IN A 192.0.2.1", "a.example.\t300\tIN\tA\t192.0.2.1");
	RT("a A 0.0.0.0", "a.example.\t3600\tIN\tA\t0.0.0.0");
	RT("a AAAA 2001:DB8:0:0:0:0:F00:BAA9",
	   "a.example.\t3600\tIN\tAAAA\t2001:db8::f00:baa9");
	RT("a AAAA ::ffff:192.0.2.1",
	   "a.example.\t3600\tIN\tAAAA\t::ffff:192.0.2.1");
	RT("a NS ns1", "a.example.\t3600\tIN\tNS\tns1.example.");
	RT("a CNAME b.other.", "a.example.\t3600\tIN\tCNAME\tb.other.");
	RT("a DNAME @", "a.example.\t3600\tIN\tDNAME\texample.");
	RT("a PTR .", "a.example.\t3600\tIN\tPTR\t.");
	RT("a MD m", "a.example.\t3600\tIN\tMD\tm.example.");
	RT("a MF m", "a.example.\t3600\tIN\tMF\tm.example.");
	RT("a MB m", "a.example.\t3600\tIN\tMB\tm.example.");
	RT("a MG m", "a.example.\t3600\tIN\tMG\tm.example.");
	RT("a MR m", "a.example.\t3600\tIN\tMR\tm.example.");
	RT("a MINFO r e", "a.example.\t3600\tIN\tMINFO\tr.example. e.example.");
	RT("@ IN SOA ns1 host\\.master ( 2024010101 1h 15m 1w 1d )",
	   "example.\t3600\tIN\tSOA\tns1.example. host\\.master.example. "
	   "2024010101 3600 900 604800 86400");
	RT("a MX 10 mail", "a.example.\t3600\tIN\tMX\t10 mail.example.");
	RT("a RP mbox.a. txt",
	   "a.example.\t3600\tIN\tRP\tmbox.a. txt.example.");
	RT("a AFSDB 1 db", "a.example.\t3600\tIN\tAFSDB\t1 db.example.");
	RT("a RT 2 r", "a.example.\t3600\tIN\tRT\t2 r.example.");
	RT("a KX 3 k", "a.example.\t3600\tIN\tKX\t3 k.example.");
	RT("a PX 4 m o", "a.example.\t3600\tIN\tPX\t4 m.example. o.example.");
	RT("_sip._tcp SRV 10 20 5060 sip",
	   "_sip._tcp.example.\t3600\tIN\tSRV\t10 20 5060 sip.example.");
	RT("a NAPTR 100 10 S \"SIP+D2U\" \"!^.*$!sip:i@example.com!\" "
	   "_sip._udp",
	   "a.example.\t3600\tIN\tNAPTR\t100 10 \"S\" \"SIP+D2U\" "
	   "\"!^.*$!sip:i@example.com!\" _sip._udp.example.");
	RT("a HINFO \"KLH-10\" ITS",
	   "a.example.\t3600\tIN\tHINFO\t\"KLH-10\" \"ITS\"");
}

static void test_txt(void)
{
	RT("t TXT \"hello world\" \"a\\\"b\\\\c\" \"\\001\\255\" bare",
	   "t.example.\t3600\tIN\tTXT\t\"hello world\" \"a\\\"b\\\\c\" "
	   "\"\\001\\255\" \"bare\"");
	RT("t TXT \"\"", "t.example.\t3600\tIN\tTXT\t\"\"");
	RT("t TXT a\\ b\\;c\\\"", "t.example.\t3600\tIN\tTXT\t\"a b;c\\\"\"");
	RT("t TXT \"\\065\\0667\" \"\\x\"",
	   "t.example.\t3600\tIN\tTXT\t\"AB7\" \"x\"");
	RT("t TXT \"semi;colon (paren)\"",
	   "t.example.\t3600\tIN\tTXT\t\"semi;colon (paren)\"");
	RT("t TXT ( \"one\"\n \"two\" ) ; comment",
	   "t.example.\t3600\tIN\tTXT\t\"one\" \"two\"");
	RT("t TXT \"tab\there\"",
	   "t.example.\t3600\tIN\tTXT\t\"tab\\009here\"");
}

static void test_dnssec_types(void)
{
	RT("a DS 60485 5 1 2bb183af5f22588179a53b0a98631fad1a292118",
	   "a.example.\t3600\tIN\tDS\t60485 5 1 "
	   "2BB183AF5F22588179A53B0A98631FAD1A292118");
	RT("a DS 60485 5 1 ( 2BB183AF5F225881 79A53B0A98631FAD1A292118 )",
	   "a.example.\t3600\tIN\tDS\t60485 5 1 "
	   "2BB183AF5F22588179A53B0A98631FAD1A292118");
	RT("a CDS 0 0 0 00", "a.example.\t3600\tIN\tCDS\t0 0 0 00");
	RT("a SSHFP 1 1 dead beef",
	   "a.example.\t3600\tIN\tSSHFP\t1 1 DEADBEEF");
	RT("_443._tcp TLSA 3 1 1 0a0B",
	   "_443._tcp.example.\t3600\tIN\tTLSA\t3 1 1 0A0B");
	RT("@ ZONEMD 2024 1 1 000102030405060708090a0b",
	   "example.\t3600\tIN\tZONEMD\t2024 1 1 000102030405060708090A0B");
	RT("@ DNSKEY 257 3 13 ( GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edb\n"
	   "  krSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA== ) ; KSK",
	   "example.\t3600\tIN\tDNSKEY\t257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubC"
	   "vTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==");
	RT("@ DNSKEY 256 3 8 Y Q = =",
	   "example.\t3600\tIN\tDNSKEY\t256 3 8 YQ==");
	RT("@ CDNSKEY 0 3 0 AA==", "example.\t3600\tIN\tCDNSKEY\t0 3 0 AA==");
	RT("@ RRSIG A 15 2 3600 1440021600 1438207200 3613 example.com. /w==",
	   "example.\t3600\tIN\tRRSIG\tA 15 2 3600 20150819220000 "
	   "20150729220000 3613 example.com. /w==");
	RT("@ RRSIG TYPE65280 8 0 1h 21060207062815 19700101000000 0 . /w==",
	   "example.\t3600\tIN\tRRSIG\tTYPE65280 8 0 3600 21060207062815 "
	   "19700101000000 0 . /w==");
	RT("@ SIG A 8 0 0 20000229000000 0 0 . /w==",
	   "example.\t3600\tIN\tSIG\tA 8 0 0 20000229000000 19700101000000 0 . "
	   "/w==");
	RT("@ NSEC b.Example. A NS SOA RRSIG NSEC DNSKEY TYPE65534 CAA",
	   "example.\t3600\tIN\tNSEC\tb.Example. A NS SOA RRSIG NSEC DNSKEY "
	   "CAA TYPE65534");
	RT("@ NSEC b NSEC NSEC a TYPE1",
	   "example.\t3600\tIN\tNSEC\tb.example. A NSEC");
	RT("@ NSEC b", "example.\t3600\tIN\tNSEC\tb.example.");
	RT("x NSEC3 1 1 12 AABBCCDD ( 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S A RRSIG "
	   ")",
	   "x.example.\t3600\tIN\tNSEC3\t1 1 12 aabbccdd "
	   "2vptu5timamqttgl4luu9kg21e0aor3s A RRSIG");
	RT("x NSEC3 1 0 0 - cpnmuoj1e8",
	   "x.example.\t3600\tIN\tNSEC3\t1 0 0 - cpnmuoj1e8");
	RT("x NSEC3PARAM 1 0 12 aabbccdd",
	   "x.example.\t3600\tIN\tNSEC3PARAM\t1 0 12 aabbccdd");
	RT("x NSEC3PARAM 1 0 0 -", "x.example.\t3600\tIN\tNSEC3PARAM\t1 0 0 -");
	/* Algorithm mnemonics (RFC 4034 App. A.1 and later), written as
	 * numbers. */
	RT("a DS 60485 RSASHA1 1 2bb183af",
	   "a.example.\t3600\tIN\tDS\t60485 5 1 2BB183AF");
	RT("@ DNSKEY 256 3 ecdsap256sha256 YQ==",
	   "example.\t3600\tIN\tDNSKEY\t256 3 13 YQ==");
	RT("@ RRSIG A ED448 2 3600 1440021600 1438207200 3613 example.com. /w==",
	   "example.\t3600\tIN\tRRSIG\tA 16 2 3600 20150819220000 "
	   "20150729220000 3613 example.com. /w==");
	RT("@ CDS 1 DSA-NSEC3-SHA1 2 00", "example.\t3600\tIN\tCDS\t1 6 2 00");
	RT("@ DNSKEY 256 3 PRIVATEOID YQ==",
	   "example.\t3600\tIN\tDNSKEY\t256 3 254 YQ==");
	is_err("@ DNSKEY 256 3 RSASHA999 YQ==\n", DT_ESYNTAX, 1, "DNSKEY",
	       "an unknown algorithm mnemonic is refused");
}

static void test_generic(void)
{
	char text[128];
	struct wire_zreader *zr;
	struct wire_rr rr;
	uint8_t want[4] = {10, 0, 0, 1};

	RT("x A \\# 4 0a000001", "x.example.\t3600\tIN\tA\t10.0.0.1");
	zr = zr_text("x TYPE1 \\# 4 0A 00 00 01\n");
	ok(wire_zreader_next(zr, &rr) == 1 && rr.type == WIRE_TYPE_A,
	   "TYPE1 \\# with split hex is an A record");
	is_mem(rr.rdata, rr.rdlen, want, 4, "RDATA 10.0.0.1");
	wire_zreader_free(zr);
	RT("x TYPE65280 \\# 3 abcdef",
	   "x.example.\t3600\tIN\tTYPE65280\t\\# 3 abcdef");
	strcpy(text, rt("x TYPE65280 \\# 3 abcdef"));
	is_str(rt(text), text, "TYPE65280 written text reads back the same");
	RT("x CLASS32 TYPE65281 \\# 0",
	   "x.example.\t3600\tCLASS32\tTYPE65281\t\\# 0");
	RT("x TXT \\# 4 03616263", "x.example.\t3600\tIN\tTXT\t\"abc\"");
	RT("x TXT \"\\#\" 1", "x.example.\t3600\tIN\tTXT\t\"#\" \"1\"");
	RT("x CAA \\# 4 00016162", "x.example.\t3600\tIN\tCAA\t0 a \"b\"");
	RT("x TSIG \\# 4 00016162", "x.example.\t3600\tIN\tTSIG\t\\# 4 00016162");
	is_err("x A \\# 3 0a0000", DT_ETRUNC, 1, "RDATA not valid for A",
	       "\\# with 3 octets for A");
	is_err("x A \\# 4 0a0000", DT_ERDATA, 1, "\\# says 4 octets",
	       "\\# length mismatch");
	is_err("x A \\# 2 0a0", DT_EBASE64, 1, "bad hex", "\\# odd hex");
	is_err("x TYPE65280 \\# 65536", DT_ERANGE, 1, "bad RDATA length",
	       "\\# length over 65535");
	is_err("x NULL \"ca.example\"", DT_ESYNTAX, 1,
	       "no text form known for NULL", "opaque type without \\#");
}

#define RD_IS(in, want) is_str(rt(in) + strlen("x.example.\t3600\tIN\t"), \
			       want, "%s", one_line(in))

/* CAA, URI, LOC, CSYNC, OPENPGPKEY, SMIMEA: text read and written back
 * as dig prints it (the expected text is named-checkzone -D's). */
static void test_modern_types(void)
{
	RD_IS("x CAA 0 issue \"letsencrypt.org\"",
	      "CAA\t0 issue \"letsencrypt.org\"");
	RD_IS("x CAA 128 tbs \"Unknown \\\"quoted\\\" ;value\"",
	      "CAA\t128 tbs \"Unknown \\\"quoted\\\" ;value\"");
	RD_IS("x CAA 0 issuewild \"\"", "CAA\t0 issuewild \"\"");
	RD_IS("x CAA 0 iodef mailto:a@example.com",
	      "CAA\t0 iodef \"mailto:a@example.com\"");
	is_err("x CAA 0 is-sue \"ca\"", DT_ESYNTAX, 1, "letters and digits",
	       "CAA tag with a hyphen");
	is_err("x CAA 0 issue \"ca\" more", DT_ETRAIL, 1, "too many fields",
	       "CAA with two values");
	RD_IS("x URI 10 1 \"ftp://ftp1.example.com/public\"",
	      "URI\t10 1 \"ftp://ftp1.example.com/public\"");
	RD_IS("x LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m",
	      "LOC\t52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m");
	RD_IS("x LOC 42 21 54 N 71 06 18 W -24m 30m",
	      "LOC\t42 21 54.000 N 71 6 18.000 W -24.00m 30m 10000m 10m");
	RD_IS("x LOC 60 9 N 24 39 E 10m",
	      "LOC\t60 9 0.000 N 24 39 0.000 E 10.00m 1m 10000m 10m");
	RD_IS("x LOC 0 0 0.001 S 180 0 0 W 42849672.95m 90000000m 90000000m "
	      "0.01m",
	      "LOC\t0 0 0.001 S 180 0 0.000 W 42849672.95m 90000000m "
	      "90000000m 0.01m");
	RD_IS("x LOC ( 1 N 2 E -100000m 15m )",
	      "LOC\t1 0 0.000 N 2 0 0.000 E -100000.00m 10m 10000m 10m");
	is_err("x LOC 91 N 0 E 0m", DT_ERANGE, 1, "out of range",
	       "LOC latitude 91");
	is_err("x LOC 1 0 60 N 0 E 0m", DT_ERANGE, 1, "out of range",
	       "LOC 60 seconds");
	is_err("x LOC 1 N 0 E -100000.01m", DT_ERANGE, 1, "out of range",
	       "LOC below the altitude base");
	is_err("x LOC 1 N 0 E", DT_ESYNTAX, 1, "bad LOC", "LOC without altitude");
	is_err("x LOC 1 E 0 N 0m", DT_ESYNTAX, 1, "bad LOC",
	       "LOC with hemispheres swapped");
	is_err("x LOC 1 N 0 E 0m 1m 1m 1m 1m", DT_ESYNTAX, 1, "bad LOC",
	       "LOC with a fifth number");
	RD_IS("x CSYNC 66 3 A NS AAAA", "CSYNC\t66 3 A NS AAAA");
	RD_IS("x CSYNC 0 0", "CSYNC\t0 0");
	RD_IS("x OPENPGPKEY ( mQINBFit2jsBEADrbl5vjVxYeAE0g0IDYCBp\n"
	      " Hirv1Sjlqxx5gjtPhb2YhvyDMXjq )",
	      "OPENPGPKEY\tmQINBFit2jsBEADrbl5vjVxYeAE0g0IDYCBpHirv1Sjlqxx5gjtPhb2"
	      "YhvyDMXjq");
	RD_IS("x SMIMEA 3 1 1 d2abde240d7cd3ee",
	      "SMIMEA\t3 1 1 D2ABDE240D7CD3EE");
	RD_IS("x ZONEMD 2018031900 1 1 c68090d90a7aed716bc459f9",
	      "ZONEMD\t2018031900 1 1 C68090D90A7AED716BC459F9");
}

/* SVCB and HTTPS, among them the RFC 9460 Appendix D test vectors. */
static void test_svcb(void)
{
	RD_IS("x SVCB 0 foo.example.com.", "SVCB\t0 foo.example.com.");
	RD_IS("x SVCB 1 .", "SVCB\t1 .");
	RD_IS("x SVCB 16 foo.example.com. port=53",
	      "SVCB\t16 foo.example.com. port=53");
	RD_IS("x SVCB 1 foo.example.com. key667=hello",
	      "SVCB\t1 foo.example.com. key667=\"hello\"");
	RD_IS("x SVCB 1 foo.example.com. key667=\"hello\\210qoo\"",
	      "SVCB\t1 foo.example.com. key667=\"hello\\210qoo\"");
	RD_IS("x SVCB 1 foo.example.com. ( ipv6hint=\"2001:db8::1,"
	      "2001:db8::53:1\" )",
	      "SVCB\t1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1");
	RD_IS("x SVCB 1 example.com. ipv6hint=\"2001:db8:122:344::192.0.2.33\"",
	      "SVCB\t1 example.com. ipv6hint=2001:db8:122:344::c000:221");
	RD_IS("x SVCB 16 foo.example.org. ( alpn=h2,h3-19 "
	      "mandatory=ipv4hint,alpn ipv4hint=192.0.2.1 )",
	      "SVCB\t16 foo.example.org. mandatory=alpn,ipv4hint "
	      "alpn=\"h2,h3-19\" ipv4hint=192.0.2.1");
	RD_IS("x SVCB 16 foo.example.org. alpn=\"f\\\\\\\\oo\\\\,bar,h2\"",
	      "SVCB\t16 foo.example.org. alpn=\"f\\\\\\\\oo\\\\,bar,h2\"");
	RD_IS("x SVCB 16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2",
	      "SVCB\t16 foo.example.org. alpn=\"f\\\\\\\\oo\\\\,bar,h2\"");
	RD_IS("x HTTPS 1 . alpn=h2 no-default-alpn port=8443 key65000 "
	      "key65001=\"\" ech=AQID",
	      "HTTPS\t1 . alpn=\"h2\" no-default-alpn port=8443 ech=AQID "
	      "key65000 key65001");
	RD_IS("x HTTPS 1 . dohpath=/dns-query{?dns} ohttp",
	      "HTTPS\t1 . dohpath=\"/dns-query{?dns}\" ohttp");
	RD_IS("x HTTPS 1 . alpn= \"h3\"", "HTTPS\t1 . alpn=\"h3\"");
	RD_IS("x HTTPS 1 . key1=\"\\002h2\"", "HTTPS\t1 . alpn=\"h2\"");

	/* RFC 9460 App. D.3: failure cases */
	is_err("x SVCB 1 foo.example.com. key123=abc key123=def", DT_ESYNTAX,
	       1, "key123 given twice", "repeated key");
	is_err("x SVCB 1 foo.example.com. mandatory", DT_ESYNTAX, 1,
	       "bad value for mandatory", "mandatory without value");
	is_err("x SVCB 1 foo.example.com. alpn", DT_ESYNTAX, 1,
	       "bad value for alpn", "alpn without value");
	is_err("x SVCB 1 foo.example.com. port", DT_ESYNTAX, 1,
	       "bad value for port", "port without value");
	is_err("x SVCB 1 foo.example.com. ipv4hint", DT_ESYNTAX, 1,
	       "bad value for ipv4hint", "ipv4hint without value");
	is_err("x SVCB 1 foo.example.com. ipv6hint", DT_ESYNTAX, 1,
	       "bad value for ipv6hint", "ipv6hint without value");
	is_err("x SVCB 1 foo.example.com. no-default-alpn=abc", DT_ESYNTAX, 1,
	       "bad value for no-default-alpn", "no-default-alpn with value");
	is_err("x SVCB 1 foo.example.com. mandatory=key123", DT_ERDATA, 1,
	       "mandatory lists key123, absent", "mandatory key missing");
	is_err("x SVCB 1 foo.example.com. mandatory=mandatory", DT_ESYNTAX, 1,
	       "bad value for mandatory", "mandatory lists itself");
	is_err("x SVCB 1 foo.example.com. ( ipv6hint=\"2001:db8::1\" "
	       "ipv6hint=\"2001:db8::53:1\" )",
	       DT_ESYNTAX, 1, "ipv6hint given twice", "repeated hint");
	is_err("x SVCB 1 . key65535=x", DT_ERANGE, 1, "key65535 is reserved",
	       "key65535");
	is_err("x SVCB 1 . colour=red", DT_ESYNTAX, 1, "unknown SvcParamKey",
	       "unknown key name");
	is_err("x SVCB 1 . port=65536", DT_ERANGE, 1, "bad value for port",
	       "port out of range");
	is_err("x SVCB 1 . ipv4hint=192.0.2.1,,192.0.2.2", DT_ESYNTAX, 1,
	       "bad value for ipv4hint", "empty hint");
	is_err("x SVCB 1 . alpn=h2,,h3", DT_ESYNTAX, 1, "bad value for alpn",
	       "empty alpn id");
	is_err("x SVCB 1 . ech=!!", DT_EBASE64, 1, "bad value for ech",
	       "ech not base64");
	is_err("x SVCB 1 . key1=h2", DT_ERDATA, 1, "bad value for alpn",
	       "key1 with a malformed alpn");
	is_err("x SVCB 1 . \"alpn=h2\"", DT_ESYNTAX, 1, "quoted string",
	       "a quoted parameter");
}

static void test_owner_ttl_class(void)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	int i, ret;
	static const char zone[] =
		"$TTL 1h30m\n"
		"a IN 300 A 192.0.2.1\n"
		"  A 192.0.2.2\n"
		"\tCH 20 TXT x\n"
		"b TXT y ; class CH from the previous record\n"
		"@ 0 IN A 192.0.2.3\n"
		"$ORIGIN sub\n"
		"c 1w2d3h4m5s A 192.0.2.4\n"
		"$ORIGIN other.\n"
		"@ A 192.0.2.5\n"
		"$ttl 7\n"
		"d.example. in a 192.0.2.6\n";
	static const char *const want[] = {
		"a.example.\t300\tIN\tA\t192.0.2.1",
		"a.example.\t5400\tIN\tA\t192.0.2.2",
		"a.example.\t20\tCH\tTXT\t\"x\"",
		"b.example.\t5400\tCH\tTXT\t\"y\"",
		"example.\t0\tIN\tA\t192.0.2.3",
		"c.sub.example.\t788645\tIN\tA\t192.0.2.4",
		"other.\t5400\tIN\tA\t192.0.2.5",
		"d.example.\t7\tIN\tA\t192.0.2.6",
	};
	static const unsigned want_line[] = {2, 3, 4, 5, 6, 8, 10, 12};

	zr = zr_text(zone);
	for (i = 0; (ret = wire_zreader_next(zr, &rr)) == 1 && i < 8; i++) {
		wire_rr_to_str(&rr, out, sizeof(out));
		is_str(out, want[i], "record %d", i);
		is_int(wire_zreader_line(zr), want_line[i], "record %d line",
		       i);
	}
	is_int(ret, 0, "end of text");
	is_int(i, 8, "8 records");
	is_int(wire_zreader_next(zr, &rr), 0, "end again");
	is_str(wire_zreader_error(zr), "", "no error");
	wire_zreader_free(zr);

	zr = wire_zreader_new("a A 1.2.3.4\n", 12, NULL, 77, NULL);
	is_int(wire_zreader_next(zr, &rr), DT_ERELATIVE,
	       "relative owner without origin");
	ok(strstr(wire_zreader_error(zr), "<text>:1: owner: relative name") !=
		   NULL,
	   "message names the text and line (%s)", wire_zreader_error(zr));
	wire_zreader_free(zr);

	zr = wire_zreader_new("a. A 1.2.3.4", 12, NULL, 77, NULL);
	ok(wire_zreader_next(zr, &rr) == 1 && rr.ttl == 77,
	   "default TTL before any $TTL; no newline at the end");
	wire_zreader_free(zr);

	RT("a ANY A 1.2.3.4", "a.example.\t3600\tANY\tA\t1.2.3.4");
	RT("a 60 CLASS1 A 1.2.3.4", "a.example.\t60\tIN\tA\t1.2.3.4");
	RT("\\$a A 1.2.3.4", "\\$a.example.\t3600\tIN\tA\t1.2.3.4");
	RT("* MX 0 .", "*.example.\t3600\tIN\tMX\t0 .");
	RT("a\\.b\\032c\\\\ TXT x",
	   "a\\.b\\ c\\\\.example.\t3600\tIN\tTXT\t\"x\"");
	RT("\\@ A 1.2.3.4", "\\@.example.\t3600\tIN\tA\t1.2.3.4");
	RT("a.EXAMPLE. a 1.2.3.4", "a.EXAMPLE.\t3600\tIN\tA\t1.2.3.4");
	RT("a 0 in type1 1.2.3.4", "a.example.\t0\tIN\tA\t1.2.3.4");
}

static void test_long_names(void)
{
	char name[400], text[600];
	const char *r;

	/* 3 labels of 63, one of 61: 3 * 64 + 62 + 1 = 255 octets */
	memset(name, 'a', 63);
	name[63] = '.';
	memset(name + 64, 'b', 63);
	name[127] = '.';
	memset(name + 128, 'c', 63);
	name[191] = '.';
	memset(name + 192, 'd', 61);
	strcpy(name + 253, ".");
	snprintf(text, sizeof(text), "%s A 1.2.3.4", name);
	r = rt(text);
	ok(strncmp(r, name, 254) == 0 &&
		   strcmp(r + 254, "\t3600\tIN\tA\t1.2.3.4") == 0,
	   "255-octet owner name");
	snprintf(text, sizeof(text), "x NS %s", name);
	r = rt(text);
	ok(strncmp(r, "x.example.\t3600\tIN\tNS\t", 22) == 0 &&
		   strcmp(r + 22, name) == 0,
	   "255-octet name in RDATA");
	strcpy(name + 253, "d.");
	snprintf(text, sizeof(text), "%s A 1.2.3.4", name);
	is_err(text, DT_ENAMELEN, 1, "name longer than 255", "256-octet name");
	memset(name, 'a', 64);
	strcpy(name + 64, ".");
	snprintf(text, sizeof(text), "x CNAME %s", name);
	is_err(text, DT_ELABEL, 1, "label longer than 63", "64-octet label");
}

static void test_errors(void)
{
	is_err("a A 1.2.3.4\nb A 1.2.3.5\nc TXT ( \"x\"\nd A 1.2.3.6\n",
	       DT_ESYNTAX, 3, "t.zone:3: '(' not closed", "unclosed paren");
	is_err("a A 1.2.3.4\n\nc TXT \"x\" )\n", DT_ESYNTAX, 3,
	       "')' without '('", "unbalanced ')'");
	is_err("a A 1.2.3.4\nb TXT ( x\n  ( y ) )\n", DT_ESYNTAX, 3,
	       "nested '('", "nested paren");
	is_err("a A 1.2.3.4\nb 3600x A 1.2.3.4\n", DT_ESYNTAX, 2,
	       "t.zone:2: bad TTL (near '3600x')", "bad TTL");
	is_err("b 1h30 A 1.2.3.4\n", DT_ESYNTAX, 1, "bad TTL", "TTL 1h30");
	is_err("b 4294967296 A 1.2.3.4\n", DT_ERANGE, 1, "bad TTL",
	       "TTL over 32 bits");
	is_err("a A 1.2.3.4\n\n\nb FOO 1\n", DT_ETYPE, 4,
	       "t.zone:4: unknown type (near 'FOO')", "unknown type");
	is_err("a A 1.2.3.4\nb 300 IN\n", DT_ESYNTAX, 2, "type missing",
	       "no type");
	is_err("a 1 IN DNSKEY 257 3 13 (\n AAAA\n A*== )\n", DT_EBASE64, 2,
	       "t.zone:2: bad base64 in DNSKEY (near 'AAAA')", "bad base64");
	is_err("a TXT \"\\256\"\n", DT_ERANGE, 1, "\\DDD escape above 255",
	       "\\DDD 256 in a string");
	is_err("a TXT \"\\25\"\n", DT_ESYNTAX, 1, "three digits", "\\DD");
	is_err("a\\256 A 1.2.3.4\n", DT_ESYNTAX, 1, "owner: bad name",
	       "\\DDD 256 in a name");
	is_err("a A 1.2.3\n", DT_ESYNTAX, 1,
	       "bad IPv4 address in A (near '1.2.3')", "A with 1.2.3");
	is_err("a A 1.2.3.4.5\n", DT_ESYNTAX, 1, "bad IPv4", "five parts");
	is_err("a A 01.2.3.4\n", DT_ESYNTAX, 1, "bad IPv4", "leading zero");
	is_err("a A 1.2.3.256\n", DT_ESYNTAX, 1, "bad IPv4", "part > 255");
	is_err("a A x1.2.3.4\n", DT_ESYNTAX, 1, "bad IPv4", "leading garbage");
	is_err("a A 1.2.3.4x\n", DT_ESYNTAX, 1, "bad IPv4", "trailing garbage");
	is_err("a AAAA 1.2.3.4\n", DT_ESYNTAX, 1, "bad IPv6", "AAAA of IPv4");
	is_err(" A 1.2.3.4\n", DT_ESYNTAX, 1, "no owner",
	       "owner missing at start");
	is_err("; comment\n\n\tA 1.2.3.4\n", DT_ESYNTAX, 3, "no owner",
	       "owner missing after comments");
	is_err("$ORIGIN example.\n$INCLUDE other.zone\n", DT_ESYNTAX, 2,
	       "t.zone:2: $INCLUDE refused", "$INCLUDE");
	is_err("$GENERATE 1-2 a$ A 1.2.3.$\n", DT_ESYNTAX, 1,
	       "unknown directive", "$GENERATE");
	is_err("$ORIGIN\n", DT_ESYNTAX, 1, "$ORIGIN takes one name",
	       "$ORIGIN without name");
	is_err("$TTL 1 2\n", DT_ESYNTAX, 1, "$TTL takes one TTL",
	       "$TTL two args");
	is_err("$TTL x\n", DT_ESYNTAX, 1, "bad TTL in $TTL", "$TTL x");
	is_err("a MX 10\n", DT_ETRUNC, 1, "too few fields for MX", "MX short");
	is_err("a MX 10 b c\n", DT_ETRAIL, 1,
	       "too many fields for MX (near 'c')", "MX long");
	is_err("a DS 1 2 3\n", DT_ETRUNC, 1, "too few fields for DS",
	       "DS short");
	is_err("a TXT\n", DT_ETRUNC, 1, "too few fields for TXT", "TXT short");
	is_err("a MX 65536 b\n", DT_ERANGE, 1, "bad number for MX (0..65535)",
	       "MX preference too big");
	is_err("a MX -1 b\n", DT_ESYNTAX, 1, "bad number", "negative");
	is_err("a DS 1 256 1 00\n", DT_ERANGE, 1, "bad number for DS (0..255)",
	       "u8 too big");
	is_err("a RRSIG A 8 0 0 20250230000000 0 0 . AA==\n", DT_ERANGE, 1,
	       "bad time in RRSIG", "February 30th");
	is_err("a RRSIG A 8 0 0 19691231235959 0 0 . AA==\n", DT_ERANGE, 1,
	       "bad time", "before 1970");
	is_err("a RRSIG A 8 0 0 21060207062816 0 0 . AA==\n", DT_ERANGE, 1,
	       "bad time", "after the 32-bit range");
	is_err("a RRSIG A 8 0 0 4294967296 0 0 . AA==\n", DT_ERANGE, 1,
	       "bad time", "seconds over 32 bits");
	is_err("a RRSIG FOO 8 0 0 0 0 0 . AA==\n", DT_ETYPE, 1,
	       "unknown type in RRSIG", "RRSIG type covered");
	is_err("a NSEC b A BOGUS\n", DT_ETYPE, 1,
	       "unknown type in the bitmap of NSEC (near 'BOGUS')", "bitmap");
	is_err("a NSEC3 1 0 0 abc 00\n", DT_EBASE64, 1, "bad hex salt",
	       "odd salt");
	is_err("a NSEC3 1 0 0 - 0w\n", DT_EBASE64, 1, "bad base32hex hash",
	       "bad hash");
	is_err("a DS 1 2 3 \"00\"\n", DT_ESYNTAX, 1,
	       "quoted string not allowed", "quoted hex");
	is_err("\"a\" A 1.2.3.4\n", DT_ESYNTAX, 1, "quoted owner",
	       "quoted owner");
	is_err("a TXT \"open\nb A 1.2.3.4\n", DT_ESYNTAX, 1,
	       "quoted string not closed", "quote across lines");
	is_err("a TXT \"open", DT_ESYNTAX, 1, "quoted string not closed",
	       "quote at the end");
	is_err("a TXT x\\", DT_ESYNTAX, 1, "backslash at end",
	       "lone backslash");
	is_err("a NS ..\n", DT_ESYNTAX, 1, "bad name", "empty label");
	is_err("a A 1.2.3.4\nb\n", DT_ESYNTAX, 2, "type missing",
	       "owner alone");
}

static void test_sticky_and_nul(void)
{
	static const char text[] = "a A 1.2.3.4\nb A \0 x\nc A 1.2.3.5\n";
	struct wire_zreader *zr;
	struct wire_rr rr;

	zr = wire_zreader_new(text, sizeof(text) - 1, "example.", 0, "n");
	is_int(wire_zreader_next(zr, &rr), 1, "first record");
	is_int(wire_zreader_next(zr, &rr), DT_ESYNTAX, "NUL character refused");
	is_str(wire_zreader_error(zr), "n:2: NUL character (near '? x')",
	       "exact message");
	is_int(wire_zreader_next(zr, &rr), DT_ESYNTAX, "error repeats");
	is_int(wire_zreader_line(zr), 2, "line of the error");
	wire_zreader_free(zr);

	zr = wire_zreader_new("", 0, "bad..origin", 0, "o");
	is_int(wire_zreader_next(zr, &rr), DT_ESYNTAX, "bad origin reported");
	ok(strstr(wire_zreader_error(zr), "bad origin") != NULL, "%s",
	   wire_zreader_error(zr));
	wire_zreader_free(zr);
	wire_zreader_free(NULL);
}

/* Output of `dig +dnssec +multi` and of ldns-signzone, as printed. */
static void test_tool_formats(void)
{
	static const char dig[] =
		"\n; <<>> DiG 9.18.28 <<>> +dnssec +multi example.net. DNSKEY\n"
		";; global options: +cmd\n"
		";; Got answer:\n"
		";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1\n"
		";; flags: qr rd ra ad; QUERY: 1, ANSWER: 2, AUTHORITY: 0\n"
		"\n;; OPT PSEUDOSECTION:\n"
		"; EDNS: version: 0, flags: do; udp: 1232\n"
		";; QUESTION SECTION:\n"
		";example.net.\t\tIN DNSKEY\n\n"
		";; ANSWER SECTION:\n"
		"example.net.\t\t3600 IN DNSKEY 257 3 13 (\n"
		"\t\t\t\tGojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edb\n"
		"\t\t\t\tkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==\n"
		"\t\t\t\t) ; KSK; alg = ECDSAP256SHA256 ; key id = 55648\n"
		"example.net.\t\t3600 IN RRSIG DNSKEY 13 2 3600 (\n"
		"\t\t\t\t20100909100439 20100812100439 55648 example.net.\n"
		"\t\t\t\tqx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SN\n"
		"\t\t\t\truPFKG7tZoLBLlUzGGus7ZwmwWep666VCw== )\n"
		"example.net.\t\t3600 IN SOA ns.example.net. h.example.net. (\n"
		"\t\t\t\t2022091320 ; serial\n"
		"\t\t\t\t7200       ; refresh (2 hours)\n"
		"\t\t\t\t3600       ; retry (1 hour)\n"
		"\t\t\t\t1209600    ; expire (2 weeks)\n"
		"\t\t\t\t3600       ; minimum (1 hour)\n"
		"\t\t\t\t)\n"
		"\n;; Query time: 3 msec\n"
		";; SERVER: 127.0.0.1#53(127.0.0.1) (UDP)\n"
		";; MSG SIZE  rcvd: 1024\n";
	static const char ldns[] =
		"example.com.\t3600\tIN\tDNSKEY\t257 3 15 "
		"l02Woi0iS8Aa25FQkUd9RMzZ"
		"HJpBoRQwAQEX1SxZJA4= ;{id = 3613 (ksk), size = 256b}\n"
		"0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example.com.\t3600\tIN\tNSEC3"
		"\t1 1 12 aabbccdd 2t7b4g4vsa5smi47k61mv5bv1a22bojr MX DNSKEY "
		"NS "
		"SOA NSEC3PARAM RRSIG ;{ flags: optout, from: "
		"0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example., to: "
		"2t7b4g4vsa5smi47k61mv5bv1a22bojr.example.}\n";
	const char *msg;
	unsigned line;

	is_int(read_all(dig, &line, &msg), 3, "dig +multi output: 3 records");
	RT(dig, "example.net.\t3600\tIN\tDNSKEY\t257 3 13 GojIhhXUN/u4v54ZQqGSn"
		"yhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8"
		"NAA==");
	is_int(read_all(ldns, &line, &msg), 2,
	       "ldns-signzone lines: 2 records");
}

static void test_limits(void)
{
	size_t n = DT_ZONE_TOKEN_MAXLEN + 64, i;
	char *big = malloc(DT_ZONE_RECORD_MAXLEN + 4096);
	const char *msg;
	unsigned line;

	/* one token of DT_ZONE_TOKEN_MAXLEN + 1 characters */
	memcpy(big, "a TXT ", 6);
	memset(big + 6, 'x', DT_ZONE_TOKEN_MAXLEN + 1);
	big[6 + DT_ZONE_TOKEN_MAXLEN + 1] = '\0';
	is_int(read_all(big, &line, &msg), DT_ELIMIT, "token too long");
	ok(strstr(msg, "token longer than 65536") != NULL, "%.60s", msg);

	/* DT_ZONE_MAXTOKENS tokens are fine (then RDATA too long); one more
	 * is not */
	memcpy(big, "a NSEC b.", 9);
	n = 9;
	for (i = 0; i < DT_ZONE_MAXTOKENS - 3; i++) {
		memcpy(big + n, " A", 2);
		n += 2;
	}
	big[n] = '\0';
	is_int(read_all(big, &line, &msg), 1, "DT_ZONE_MAXTOKENS tokens");
	strcpy(big + n, " A");
	is_int(read_all(big, &line, &msg), DT_ELIMIT, "one token too many");
	ok(strstr(msg, "more than 16384 tokens") != NULL, "%.60s", msg);

	/* a record of more than DT_ZONE_RECORD_MAXLEN characters */
	memcpy(big, "a DNSKEY 1 3 8 (\n", 17);
	for (n = 17; n < DT_ZONE_RECORD_MAXLEN + 100; n += 4001) {
		memset(big + n, 'A', 4000);
		big[n + 4000] = '\n';
	}
	strcpy(big + n, ")\n");
	is_int(read_all(big, &line, &msg), DT_ELIMIT, "record too long");
	ok(strstr(msg, "record longer than 1048576") != NULL, "%.60s", msg);
	is_int(line, 264, "line of the token that went over");

	/* RDATA over 65535 octets: 257 strings of 255 */
	memcpy(big, "a TXT", 5);
	n = 5;
	for (i = 0; i < 257; i++) {
		big[n++] = ' ';
		memset(big + n, 'y', 255);
		n += 255;
	}
	big[n] = '\0';
	is_int(read_all(big, &line, &msg), DT_ELIMIT, "RDATA too long");
	ok(strstr(msg, "RDATA of TXT longer than 65535") != NULL, "%.60s", msg);
	memcpy(big, "a TXT ", 6);
	memset(big + 6, 'z', 256);
	big[6 + 256] = '\0';
	is_int(read_all(big, &line, &msg), DT_ERANGE, "string of 256 octets");
	free(big);
}

static void test_open(void)
{
	char path[] = "/tmp/dt_test_zone_XXXXXX";
	struct wire_zreader *zr = NULL;
	struct wire_rr rr;
	int fd = mkstemp(path);
	static const char text[] = "$ORIGIN example.\n@ A 192.0.2.1\n";

	ok(fd >= 0 && write(fd, text, sizeof(text) - 1) ==
			      (ssize_t)sizeof(text) - 1,
	   "temp file written");
	is_int(wire_zreader_open(path, NULL, 60, &zr), 0, "open");
	ok(zr && wire_zreader_next(zr, &rr) == 1 && rr.ttl == 60 &&
		   rr.rdlen == 4,
	   "record read from the file");
	wire_zreader_free(zr);
	zr = NULL;
	is_int(wire_zreader_open(path, NULL, 60, &zr), 0, "open again");
	is_int(wire_zreader_next(zr, &rr), 1, "one record");
	ok(strstr(wire_zreader_error(zr), "") != NULL, "no error");
	wire_zreader_free(zr);
	/* a sparse file one octet over the limit */
	ok(ftruncate(fd, ((off_t)1 << 30) + 1) == 0, "sparse 1 GiB + 1 file");
	zr = NULL;
	is_int(wire_zreader_open(path, NULL, 60, &zr), DT_ETOOBIG,
	       "over 1 GiB: DT_ETOOBIG");
	ok(zr == NULL, "nothing returned");
	close(fd);
	unlink(path);
	is_int(wire_zreader_open("/nonexistent/zone", NULL, 60, &zr), -ENOENT,
	       "missing file: -ENOENT");
	is_int(wire_zreader_open("/", NULL, 60, &zr), -EISDIR,
	       "a directory: -EISDIR, not an empty zone");
}

/* Counts the records of a file and checks that each one written and read
 * again gives the same record. */
static int count_and_roundtrip(const char *path, int *ret_mismatch)
{
	struct wire_zreader *zr, *zr2;
	struct wire_rr rr, rr2;
	int ret, n = 0;

	*ret_mismatch = 0;
	ret = wire_zreader_open(path, NULL, 3600, &zr);
	if (ret < 0)
		return ret;
	while ((ret = wire_zreader_next(zr, &rr)) == 1) {
		n++;
		wire_rr_to_str(&rr, out, sizeof(out));
		zr2 = wire_zreader_new(out, strlen(out), NULL, 0, "rt");
		if (wire_zreader_next(zr2, &rr2) != 1 ||
		    !wire_dname_equal(rr.owner, rr2.owner) ||
		    rr.type != rr2.type || rr.rclass != rr2.rclass ||
		    rr.ttl != rr2.ttl || rr.rdlen != rr2.rdlen ||
		    memcmp(rr.rdata, rr2.rdata, rr.rdlen) != 0)
			(*ret_mismatch)++;
		wire_zreader_free(zr2);
	}
	if (ret < 0)
		diag("%s", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return ret < 0 ? ret : n;
}

/*
 * Record counts of tests/data/rfc-vectors/ (every *.zone file), counted
 * independently with `ldns-read-zone FILE | grep -vc '^;'` (ldns 1.8.3) and
 * confirmed with `named-compilezone -q -i none -o - example. FILE | grep
 * -vc '^;'` (BIND 9.18.49) for the two whole zones.
 */
static const struct {
	const char *file;
	int records;
} rfc_vectors[] = {
	{"rfc4035-appendix-A-signed-zone.zone", 63},
	{"rfc5155-appendix-A-nsec3-zone.zone", 70},
	{"rfc5702-section6.1-rsasha256.zone", 3},
	{"rfc5702-section6.2-rsasha512.zone", 3},
	{"rfc6605-section6.1-ecdsap256sha256.zone", 4},
	{"rfc6605-section6.2-ecdsap384sha384.zone", 4},
	{"rfc8080-section6.1-ed25519-example1.zone", 4},
	{"rfc8080-section6.1-ed25519-example2.zone", 4},
	{"rfc8080-section6.2-ed448-example1.zone", 4},
	{"rfc8080-section6.2-ed448-example2.zone", 4},
};

static int want_records(const char *file)
{
	for (size_t i = 0; i < sizeof(rfc_vectors) / sizeof(rfc_vectors[0]);
	     i++)
		if (strcmp(rfc_vectors[i].file, file) == 0)
			return rfc_vectors[i].records;
	return -1;
}

/* wire_zreader_set_lax(): a recorded server's malformed records, as
 * sent. */
static void test_lax(void)
{
	const uint8_t five[5] = {1, 2, 3, 4, 5};
	struct wire_zreader *zr;
	struct wire_rr rr;

	zr = zr_text("x A \\# 5 0102030405\n"
		     "x DNSKEY 257 3 253 UNUSABLE==\n"
		     "x DNSKEY 257 3 253 AAA\n"
		     "x DNSKEY 257 3 253 A\n");
	wire_zreader_set_lax(zr);
	ok(wire_zreader_next(zr, &rr) == 1 && rr.type == WIRE_TYPE_A,
	   "lax: an A of 5 octets is read");
	is_mem(rr.rdata, rr.rdlen, five, 5, "as it was written");
	ok(wire_zreader_next(zr, &rr) == 1 && rr.rdlen == 4 + 6,
	   "lax: base64 with padding past its quantum is read up to it");
	ok(wire_zreader_next(zr, &rr) == 1 && rr.rdlen == 4 + 2,
	   "lax: base64 without its padding is read");
	ok(wire_zreader_next(zr, &rr) < 0,
	   "lax: base64 of a single character in a quantum is still refused");
	wire_zreader_free(zr);
	is_err("x DNSKEY 257 3 253 UNUSABLE==\n", DT_EBASE64, 1, "bad base64",
	       "not lax: the same base64 is refused");
}

static void test_rfc_vectors(void)
{
	const char *peer = getenv("DT_PEER"), *dir = vec_dir();
	struct dirent *de;
	int files = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		diag("SKIP RFC vectors: %s: %s (DT_PEER=%s)", dir,
		     strerror(errno), peer ? peer : "(unset)");
		return;
	}
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		int n, mismatch;

		if (len < 5 || strcmp(de->d_name + len - 5, ".zone") != 0)
			continue;
		n = count_and_roundtrip(vec_path(de->d_name), &mismatch);
		is_int(n, want_records(de->d_name), "%s: record count",
		       de->d_name);
		is_int(mismatch, 0, "%s: every record reads back the same",
		       de->d_name);
		files++;
	}
	closedir(d);
	is_int(files, 10, "all 10 RFC zone files found");
}

int main(void)
{
	test_basic_types();
	test_txt();
	test_dnssec_types();
	test_generic();
	test_modern_types();
	test_svcb();
	test_owner_ttl_class();
	test_long_names();
	test_errors();
	test_sticky_and_nul();
	test_tool_formats();
	test_limits();
	test_open();
	test_lax();
	test_rfc_vectors();
	return done_testing();
}
