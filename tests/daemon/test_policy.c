/* SPDX-License-Identifier: MIT */
/*
 * Private names (src/policy/policy.c, policy_private_domain): the
 * built-in list, private-domain lines, no-private-defaults, the
 * resolv.conf search list, the deepest match and where it came from.
 * Split-DNS routes learnt from per-interface domains (src/policy/route.c):
 * learnt from search and routing-only domains of interfaces with
 * servers, merged when two interfaces name a domain, left out when they
 * change nothing, bounded; the deepest wins, a DS routed by its parent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "policy/config.h"
#include "policy/policy.h"
#include "policy/route.h"
#include "tap.h"
#include "upstream/resolvconf.h"
#include "upstream/source.h"
#include "wire/rr.h"
#include "wire/dname.h"

static const uint8_t *wire(const char *text)
{
	static uint8_t buf[4][DT_NAME_MAXLEN];
	static unsigned i;
	uint8_t *b = buf[i++ % 4];

	if (wire_dname_from_str(text, strlen(text), NULL, b) < 0)
		abort();
	return b;
}

static void conf(const char *text, struct cfg *c)
{
	char err[256];

	if (cfg_parse(text, strlen(text), "t.conf", c, err, sizeof(err)) < 0) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
}

/* "DOMAIN/SOURCE" for name, or "none". */
static const char *match(const struct cfg *c, const struct up_conf *uc,
			 const char *name)
{
	static const char *const src_name[] = {"none", "builtin", "config",
					       "search"};
	static char buf[DT_NAME_TEXT_MAXLEN + 16];
	enum policy_private_src src = POLICY_PRIVATE_NONE;
	const uint8_t *d = policy_private_domain(c, uc, wire(name), &src);
	char text[DT_NAME_TEXT_MAXLEN];

	if (!d)
		return "none";
	wire_dname_to_str(d, text, sizeof(text));
	snprintf(buf, sizeof(buf), "%s/%s", text, src_name[src]);
	return buf;
}

static void test_builtin(void)
{
	static const char *const yes[] = {
		"router.lan.",	       "nas.home.arpa.",     "printer.local.",
		"x.home.",	       "git.internal.",	     "wiki.intranet.",
		"a.private.",	       "b.corp.",	     "host.localdomain.",
		"foo.test.",	       "bar.invalid.",	     "1.0.0.10.in-addr.arpa.",
		"1.1.16.172.in-addr.arpa.", "9.9.31.172.in-addr.arpa.",
		"1.1.168.192.in-addr.arpa.", "1.0.64.100.in-addr.arpa.",
		"1.0.127.100.in-addr.arpa.", "1.1.254.169.in-addr.arpa.",
		"1.0.0.0.d.f.ip6.arpa.", "1.0.8.e.f.ip6.arpa.",
		"b.e.f.ip6.arpa.",     "LAN.",
	};
	static const char *const no[] = {
		"www.example.com.",	   "lan.example.",
		"1.1.15.172.in-addr.arpa.", "1.1.32.172.in-addr.arpa.",
		"1.0.63.100.in-addr.arpa.", "1.0.128.100.in-addr.arpa.",
		"1.1.169.192.in-addr.arpa.", "c.e.f.ip6.arpa.",
		"c.f.ip6.arpa.",	   "in-addr.arpa.",
		"arpa.",		   ".",
		"172.in-addr.arpa.",	   "100.in-addr.arpa.",
	};
	struct cfg c;

	cfg_default(&c);
	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		ok(policy_private(&c, NULL, wire(yes[i])), "private: %s",
		   yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		ok(!policy_private(&c, NULL, wire(no[i])), "not private: %s",
		   no[i]);
	is_str(match(&c, NULL, "router.LAN."), "lan./builtin",
	       "router.lan: lan., built-in");
	is_str(match(&c, NULL, "4.3.2.10.in-addr.arpa."),
	       "10.in-addr.arpa./builtin", "10/8 reverse");
	ok(policy_private_nbuiltin > 80, "the built-in list: %zu domains",
	   policy_private_nbuiltin);
}

static void test_config(void)
{
	struct cfg c;

	conf("private-domain corp.example.com\nprivate-domain fritz.box\n", &c);
	is_str(match(&c, NULL, "git.corp.example.com."),
	       "corp.example.com./config", "configured");
	is_str(match(&c, NULL, "fritz.box."), "fritz.box./config",
	       "the domain itself");
	is_str(match(&c, NULL, "example.com."), "none", "above it: not");
	is_str(match(&c, NULL, "x.lan."), "lan./builtin",
	       "the built-in list kept beside it");
	conf("private-domain lan\nprivate-domain box.lan\n", &c);
	is_str(match(&c, NULL, "a.box.lan."), "box.lan./config",
	       "the deepest wins");
	conf("no-private-defaults\nprivate-domain fritz.box\n", &c);
	is_str(match(&c, NULL, "router.lan."), "none",
	       "no-private-defaults: lan not private");
	is_str(match(&c, NULL, "1.1.168.192.in-addr.arpa."), "none",
	       "no-private-defaults: RFC 1918 reverse not private");
	is_str(match(&c, NULL, "fritz.box."), "fritz.box./config",
	       "no-private-defaults: private-domain kept");
}

static void test_search(void)
{
	static const char rc[] = "nameserver 192.0.2.1\n"
				 "search dhcp.example.net corp.lan\n";
	struct up_conf uc;
	struct cfg c;

	up_conf_parse(rc, sizeof(rc) - 1, &uc);
	cfg_default(&c);
	is_str(match(&c, &uc, "pc1.dhcp.example.net."),
	       "dhcp.example.net./search", "resolv.conf search suffix");
	is_str(match(&c, &uc, "example.net."), "none", "above it: not");
	is_str(match(&c, &uc, "pc.corp.lan."), "corp.lan./search",
	       "the deeper search suffix beats the built-in lan.");
	is_str(match(&c, NULL, "pc1.dhcp.example.net."), "none",
	       "without resolv.conf: not private");
	conf("no-private-defaults\n", &c);
	is_str(match(&c, &uc, "pc1.dhcp.example.net."),
	       "dhcp.example.net./search",
	       "no-private-defaults keeps the search list");
	up_conf_parse("domain home.example\n", 20, &uc);
	is_str(match(&c, &uc, "pc1.dhcp.example.net."), "none",
	       "resolv.conf changed: the old suffix is gone");
	is_str(match(&c, &uc, "nas.home.example."), "home.example./search",
	       "resolv.conf changed: domain line");
}

/* Interface i of d: name, its resolv.conf text. */
static void iface(struct up_source_data *d, size_t i, const char *name,
		  const char *text)
{
	snprintf(d->iface[i].name, sizeof(d->iface[i].name), "%s", name);
	up_conf_parse(text, strlen(text), &d->iface[i].conf);
	d->iface[i].default_route = -1;
	if (d->niface <= i)
		d->niface = i + 1;
}

/* The route of (name, type) as policy_route_str has it, or "none". */
static const char *routed(const struct policy_routes *rt, const char *name,
			  uint16_t type)
{
	static char buf[512];
	const struct policy_route *r = policy_route_find(rt, wire(name), type);

	if (!r)
		return "none";
	policy_route_str(r, buf, sizeof(buf));
	return buf;
}

static void test_routes(void)
{
	static struct up_source_data d;
	static struct policy_routes rt;
	const uint8_t *corp;

	memset(&d, 0, sizeof(d));
	iface(&d, 0, "tun0", "nameserver 10.8.0.1\nsearch corp.example\n");
	iface(&d, 1, "wlan0", "nameserver 192.0.2.1\nsearch home.lan\n");
	iface(&d, 2, "eth0", "search nowhere.example\n");
	up_conf_parse("nameserver 10.8.0.1\nnameserver 192.0.2.1\n", 40,
		      &d.conf);
	policy_routes_learn(&d, &rt);
	is_int(rt.n, 2, "two routes (an interface without servers routes "
			"nothing)");
	is_str(routed(&rt, "www.corp.example.", WIRE_TYPE_A),
	       "corp.example. 10.8.0.1 (tun0)", "a VPN's name to its server");
	is_str(routed(&rt, "nas.home.lan.", WIRE_TYPE_A),
	       "home.lan. 192.0.2.1 (wlan0)", "the Wi-Fi's to its own");
	is_str(routed(&rt, "www.example.", WIRE_TYPE_A), "none",
	       "other names: no route (the merged servers)");
	is_str(routed(&rt, "corp.example.", WIRE_TYPE_DNSKEY),
	       "corp.example. 10.8.0.1 (tun0)", "the apex's DNSKEY: routed");
	is_str(routed(&rt, "corp.example.", WIRE_TYPE_DS), "none",
	       "its DS: the parent's, asked where example. is");
	is_str(routed(&rt, "sub.corp.example.", WIRE_TYPE_DS),
	       "corp.example. 10.8.0.1 (tun0)", "a DS below: routed");

	iface(&d, 2, "tun1", "nameserver 10.9.0.1\n"
			     "search corp.example dev.corp.example\n");
	policy_routes_learn(&d, &rt);
	is_str(routed(&rt, "www.corp.example.", WIRE_TYPE_A),
	       "corp.example. 10.8.0.1 10.9.0.1 (tun0)",
	       "two interfaces name it: both their servers");
	is_str(routed(&rt, "x.dev.corp.example.", WIRE_TYPE_A),
	       "dev.corp.example. 10.9.0.1 (tun1)", "the deepest route wins");
	corp = wire("corp.example.");
	ok(wire_dname_equal(rt.r[0].name, corp), "in the order met");

	memset(&d, 0, sizeof(d));
	iface(&d, 0, "eth0", "nameserver 192.0.2.1\nsearch corp.example\n");
	up_conf_parse("nameserver 192.0.2.1\n", 21, &d.conf);
	policy_routes_learn(&d, &rt);
	is_int(rt.n, 0, "one interface: its route changes nothing, none");

	memset(&d, 0, sizeof(d));
	for (size_t i = 0; i < DT_UP_MAXIFACES; i++) {
		char text[256], name[16];
		snprintf(name, sizeof(name), "if%zu", i);
		snprintf(text, sizeof(text),
			 "nameserver 10.0.0.%zu\nsearch a%zu.x b%zu.x c%zu.x\n",
			 i + 1, i, i, i);
		iface(&d, i, name, text);
	}
	policy_routes_learn(&d, &rt);
	is_int(rt.n, DT_UP_MAXROUTES, "at most DT_UP_MAXROUTES routes");
	is_int(rt.dropped, 3 * DT_UP_MAXIFACES - DT_UP_MAXROUTES,
	       "those past it counted");
	ok(policy_routes_equal(&rt, &rt), "a table equals itself");
}

int main(void)
{
	test_routes();
	test_builtin();
	test_config();
	test_search();
	return done_testing();
}
