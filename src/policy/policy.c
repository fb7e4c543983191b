/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "policy/nta.h"
#include "policy/policy.h"
#include "wire/dname.h"

const struct cfg_nta *policy_nta(const struct cfg *c, const struct nta_rt *rt,
				 const uint8_t *name, int64_t now)
{
	/* those added by dnstrust nta add first: on a tie, they win */
	return nta_closest(c->nta, c->nnta, name, now,
			   nta_rt_find(rt, name, now));
}

const uint8_t *policy_require_secure(const struct cfg *c, const uint8_t *name)
{
	for (size_t i = 0; i < c->nrequire; i++)
		if (wire_dname_is_subdomain(name, c->require_secure[i]))
			return c->require_secure[i];
	return NULL;
}

const struct cfg_domain *policy_domain(const struct cfg *c,
				       const uint8_t *name, bool upstream_only)
{
	const struct cfg_domain *best = NULL;

	for (size_t i = 0; i < c->ndomain; i++) {
		const struct cfg_domain *d = &c->domain[i];
		if ((upstream_only && !d->nns) ||
		    !wire_dname_is_subdomain(name, d->name))
			continue;
		if (!best ||
		    wire_dname_labels(d->name) > wire_dname_labels(best->name))
			best = d;
	}
	return best;
}

/*
 * The built-in private domains (docs/dnstrust.conf.5 says why each is
 * there): special-use names that are never delegated in the public DNS
 * or that home routers and company networks use as if they were, and
 * the reverse zones of the private, shared and link-local address
 * ranges, which only the local network can answer.
 */
const char *const policy_private_builtin[] = {
	"home.arpa.",	/* RFC 8375: homenet */
	"local.",	/* RFC 6762: mDNS, also unicast on some networks */
	"lan.", "home.", "internal.", "intranet.", "private.", "corp.",
	"localdomain.",	/* used by routers and distributions, never
			   delegated (ICANN: .internal reserved, 2024) */
	"test.", "invalid.", /* RFC 6761 */
	"10.in-addr.arpa.", /* RFC 1918 10/8 */
	"16.172.in-addr.arpa.", "17.172.in-addr.arpa.",
	"18.172.in-addr.arpa.", "19.172.in-addr.arpa.",
	"20.172.in-addr.arpa.", "21.172.in-addr.arpa.",
	"22.172.in-addr.arpa.", "23.172.in-addr.arpa.",
	"24.172.in-addr.arpa.", "25.172.in-addr.arpa.",
	"26.172.in-addr.arpa.", "27.172.in-addr.arpa.",
	"28.172.in-addr.arpa.", "29.172.in-addr.arpa.",
	"30.172.in-addr.arpa.", "31.172.in-addr.arpa.", /* 172.16/12 */
	"168.192.in-addr.arpa.", /* RFC 1918 192.168/16 */
	"64.100.in-addr.arpa.", "65.100.in-addr.arpa.",
	"66.100.in-addr.arpa.", "67.100.in-addr.arpa.",
	"68.100.in-addr.arpa.", "69.100.in-addr.arpa.",
	"70.100.in-addr.arpa.", "71.100.in-addr.arpa.",
	"72.100.in-addr.arpa.", "73.100.in-addr.arpa.",
	"74.100.in-addr.arpa.", "75.100.in-addr.arpa.",
	"76.100.in-addr.arpa.", "77.100.in-addr.arpa.",
	"78.100.in-addr.arpa.", "79.100.in-addr.arpa.",
	"80.100.in-addr.arpa.", "81.100.in-addr.arpa.",
	"82.100.in-addr.arpa.", "83.100.in-addr.arpa.",
	"84.100.in-addr.arpa.", "85.100.in-addr.arpa.",
	"86.100.in-addr.arpa.", "87.100.in-addr.arpa.",
	"88.100.in-addr.arpa.", "89.100.in-addr.arpa.",
	"90.100.in-addr.arpa.", "91.100.in-addr.arpa.",
	"92.100.in-addr.arpa.", "93.100.in-addr.arpa.",
	"94.100.in-addr.arpa.", "95.100.in-addr.arpa.",
	"96.100.in-addr.arpa.", "97.100.in-addr.arpa.",
	"98.100.in-addr.arpa.", "99.100.in-addr.arpa.",
	"100.100.in-addr.arpa.", "101.100.in-addr.arpa.",
	"102.100.in-addr.arpa.", "103.100.in-addr.arpa.",
	"104.100.in-addr.arpa.", "105.100.in-addr.arpa.",
	"106.100.in-addr.arpa.", "107.100.in-addr.arpa.",
	"108.100.in-addr.arpa.", "109.100.in-addr.arpa.",
	"110.100.in-addr.arpa.", "111.100.in-addr.arpa.",
	"112.100.in-addr.arpa.", "113.100.in-addr.arpa.",
	"114.100.in-addr.arpa.", "115.100.in-addr.arpa.",
	"116.100.in-addr.arpa.", "117.100.in-addr.arpa.",
	"118.100.in-addr.arpa.", "119.100.in-addr.arpa.",
	"120.100.in-addr.arpa.", "121.100.in-addr.arpa.",
	"122.100.in-addr.arpa.", "123.100.in-addr.arpa.",
	"124.100.in-addr.arpa.", "125.100.in-addr.arpa.",
	"126.100.in-addr.arpa.", "127.100.in-addr.arpa.", /* RFC 6598
							     100.64/10 */
	"254.169.in-addr.arpa.", /* RFC 3927 link-local 169.254/16 */
	"d.f.ip6.arpa.",	 /* RFC 4193 ULA fd00::/8 */
	"8.e.f.ip6.arpa.", "9.e.f.ip6.arpa.", "a.e.f.ip6.arpa.",
	"b.e.f.ip6.arpa.",	 /* RFC 4291 link-local fe80::/10 */
};
const size_t policy_private_nbuiltin =
	sizeof(policy_private_builtin) / sizeof(policy_private_builtin[0]);

/* The built-in list in wire form, made once. */
static uint8_t builtin_wire[sizeof(policy_private_builtin) /
			   sizeof(policy_private_builtin[0])][DT_NAME_MAXLEN];
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
	for (size_t i = 0; i < policy_private_nbuiltin; i++)
		wire_dname_from_str(policy_private_builtin[i],
				    strlen(policy_private_builtin[i]), NULL,
				    builtin_wire[i]);
}

/* Keeps d when it is deeper than *best. */
static void deeper(const uint8_t *d, enum policy_private_src src,
		   const uint8_t *name, const uint8_t **best,
		   enum policy_private_src *best_src)
{
	if (!wire_dname_is_subdomain(name, d))
		return;
	if (!*best || wire_dname_labels(d) > wire_dname_labels(*best)) {
		*best = d;
		*best_src = src;
	}
}

const uint8_t *policy_private_domain(const struct cfg *c,
				     const struct up_conf *uc,
				     const uint8_t *name,
				     enum policy_private_src *ret_src)
{
	enum policy_private_src src = POLICY_PRIVATE_NONE;
	const uint8_t *best = NULL;

	for (size_t i = 0; i < c->nprivate; i++)
		deeper(c->private_domain[i], POLICY_PRIVATE_CONFIG, name,
		       &best, &src);
	if (!c->no_private_defaults) {
		pthread_once(&builtin_once, builtin_init);
		for (size_t i = 0; i < policy_private_nbuiltin; i++)
			deeper(builtin_wire[i], POLICY_PRIVATE_BUILTIN, name,
			       &best, &src);
	}
	for (size_t i = 0; uc && i < uc->nsearch; i++)
		deeper(up_conf_search(uc, i), POLICY_PRIVATE_SEARCH, name,
		       &best, &src);
	if (best && ret_src)
		*ret_src = src;
	return best;
}

bool policy_private(const struct cfg *c, const struct up_conf *uc,
		    const uint8_t *name)
{
	return policy_private_domain(c, uc, name, NULL) != NULL;
}

const uint8_t *policy_search_domain(const struct up_conf *uc,
				    const uint8_t *name)
{
	enum policy_private_src src = POLICY_PRIVATE_NONE;
	const uint8_t *best = NULL;

	for (size_t i = 0; uc && i < uc->nsearch; i++)
		deeper(up_conf_search(uc, i), POLICY_PRIVATE_SEARCH, name,
		       &best, &src);
	for (size_t i = 0; uc && i < uc->nroute; i++)
		deeper(up_conf_route(uc, i), POLICY_PRIVATE_SEARCH, name,
		       &best, &src);
	return best;
}

bool policy_changed(const struct cfg *a, const struct cfg *b)
{
	size_t off = offsetof(struct cfg, mode);

	return memcmp((const char *)a + off, (const char *)b + off,
		      sizeof(*a) - off) != 0;
}

void policy_date(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t) {
		snprintf(buf, len, "no end");
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d", &tm);
}
