/* SPDX-License-Identifier: MIT */
/*
 * RFC 5011 steps of Unbound's scenarios (rpl_at.h): testbound's macros,
 * Unbound's state file read for what it means, and its comparison with
 * dnstrust's trust point.
 */
#include "rpl_at.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errcode.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

/* A macro's text, expanded or not. */
#define MACRO_MAXLEN 1024

/* ---- macros ---- */

int rpl_var_set(struct rpl_vars *vars, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < vars->n; i++)
		if (strcmp(vars->v[i].name, name) == 0)
			break;
	if (i == vars->n) {
		if (vars->n == RPL_MAX_VARS)
			return -1;
		vars->n++;
		snprintf(vars->v[i].name, sizeof(vars->v[i].name), "%s", name);
	}
	snprintf(vars->v[i].value, sizeof(vars->v[i].value), "%s", value);
	return 0;
}

static const char *var_get(const struct rpl_vars *vars, const char *name,
			   size_t len)
{
	for (size_t i = 0; i < vars->n; i++)
		if (strlen(vars->v[i].name) == len &&
		    strncmp(vars->v[i].name, name, len) == 0)
			return vars->v[i].value;
	return NULL;
}

/* The '}' that closes the "${" just before s, or NULL. */
static const char *macro_end(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (s[0] == '$' && s[1] == '{') {
			depth++;
			s++;
		} else if (*s == '}') {
			if (!depth)
				return s;
			depth--;
		}
	}
	return NULL;
}

struct out {
	char *p;
	size_t cap, len;
};

static int put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap)
		return -1;
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
	return 0;
}

/* in with every $name replaced by its value. */
static int subst_vars(const struct rpl_vars *vars, const char *in, char *out,
		      size_t cap, char *why, size_t whylen)
{
	struct out o = {.p = out, .cap = cap};

	out[0] = '\0';
	while (*in) {
		const char *d = strchr(in, '$'), *name, *val;
		size_t n;

		if (!d)
			return put(&o, in, strlen(in)) < 0 ? -1 : 0;
		if (put(&o, in, (size_t)(d - in)) < 0)
			return -1;
		name = d + 1;
		for (n = 0; isalnum((unsigned char)name[n]) || name[n] == '_';
		     n++)
			;
		val = var_get(vars, name, n);
		if (!val) {
			snprintf(why, whylen, "variable $%.*s not defined",
				 (int)n, name);
			return -1;
		}
		if (put(&o, val, strlen(val)) < 0)
			return -1;
		in = name + n;
	}
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* "N [op N]..." worked out left to right; false when s is not that. */
static bool arith(const char *s, int64_t *ret)
{
	char *end;
	int64_t v, x;

	s = skip_blanks(s);
	if (!isdigit((unsigned char)*s) &&
	    !(*s == '-' && isdigit((unsigned char)s[1])))
		return false;
	v = strtoll(s, &end, 10);
	for (s = skip_blanks(end); *s; s = skip_blanks(end)) {
		char op = *s;

		s = skip_blanks(s + 1);
		if (!strchr("+-*/", op) || !isdigit((unsigned char)*s))
			return false;
		x = strtoll(s, &end, 10);
		if (op == '+')
			v += x;
		else if (op == '-')
			v -= x;
		else if (op == '*')
			v *= x;
		else if (x)
			v /= x;
		else
			return false;
	}
	*ret = v;
	return true;
}

/* ctime N: the date, in the form of ctime(3) (UTC here; only comments
 * of the state file hold it). */
static int macro_ctime(const char *arg, char *out, size_t cap, char *why,
		       size_t whylen)
{
	int64_t v;
	time_t t;
	struct tm tm;

	if (!arith(arg, &v)) {
		snprintf(why, whylen, "ctime: %s: not a number", arg);
		return -1;
	}
	t = (time_t)v;
	if (!gmtime_r(&t, &tm) ||
	    !strftime(out, cap, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(out, cap, "?");
	return 0;
}

/* range LOW VALUE HIGH: VALUE, which must be within. */
static int macro_range(const char *arg, char *out, size_t cap, char *why,
		       size_t whylen)
{
	long long lo, v, hi;

	if (sscanf(arg, "%lld %lld %lld", &lo, &v, &hi) != 3) {
		snprintf(why, whylen, "range: %s: not three numbers", arg);
		return -1;
	}
	if (v < lo || v > hi) {
		snprintf(why, whylen, "value %lld not in range [%lld, %lld]", v,
			 lo, hi);
		return -1;
	}
	snprintf(out, cap, "%lld", v);
	return 0;
}

/* The value of one macro whose inner macros are expanded. */
static int macro_eval(const struct rpl_vars *vars, const char *body, char *out,
		      size_t cap, char *why, size_t whylen)
{
	char sub[MACRO_MAXLEN];
	int64_t v;

	body = skip_blanks(body);
	if (strcmp(body, "time") == 0) {
		snprintf(out, cap, "%" PRId64, vars->now);
		return 0;
	}
	if (strcmp(body, "timeout") == 0) {
		snprintf(out, cap, "%" PRId64, vars->timeout);
		return 0;
	}
	if (subst_vars(vars, body, sub, sizeof(sub), why, whylen) < 0)
		return -1;
	if (strncmp(sub, "ctime", 5) == 0 && isspace((unsigned char)sub[5]))
		return macro_ctime(sub + 6, out, cap, why, whylen);
	if (strncmp(sub, "range", 5) == 0 && isspace((unsigned char)sub[5]))
		return macro_range(sub + 6, out, cap, why, whylen);
	if (arith(sub, &v))
		snprintf(out, cap, "%" PRId64, v);
	else
		snprintf(out, cap, "%s", sub);
	return 0;
}

int rpl_expand(const struct rpl_vars *vars, const char *in, char *out,
	       size_t cap, char *why, size_t whylen)
{
	struct out o = {.p = out, .cap = cap};

	out[0] = '\0';
	while (*in) {
		const char *m = strstr(in, "${"), *e;
		char inner[MACRO_MAXLEN], body[MACRO_MAXLEN], val[256];

		if (!m)
			return put(&o, in, strlen(in)) < 0 ? -1 : 0;
		if (put(&o, in, (size_t)(m - in)) < 0)
			goto too_long;
		e = macro_end(m + 2);
		if (!e) {
			snprintf(why, whylen, "%s: no '}'", m);
			return -1;
		}
		if ((size_t)(e - m) > sizeof(inner))
			goto too_long;
		snprintf(inner, sizeof(inner), "%.*s", (int)(e - m - 2), m + 2);
		if (rpl_expand(vars, inner, body, sizeof(body), why, whylen) <
			    0 ||
		    macro_eval(vars, body, val, sizeof(val), why, whylen) < 0)
			return -1;
		if (put(&o, val, strlen(val)) < 0)
			goto too_long;
		in = e + 1;
	}
	return 0;
too_long:
	snprintf(why, whylen, "macro expansion too long");
	return -1;
}

/* ---- Unbound's state file ---- */

/* ";;name: N" lines of the header. */
static bool header_num(const char *line, const char *name, int64_t *ret)
{
	size_t n = strlen(name);

	if (strncmp(line, name, n) != 0)
		return false;
	*ret = strtoll(line + n, NULL, 10);
	return true;
}

/* The number after key ("state=") in the ';;' fields, or -1. */
static int64_t field(const char *fields, const char *key)
{
	const char *f = fields ? strstr(fields, key) : NULL;

	return f ? strtoll(f + strlen(key), NULL, 10) : -1;
}

/* One record line, with its ';;' fields. */
static int key_line(const char *line, struct rpl_ub_point *ret, char *why,
		    size_t whylen)
{
	const char *fields = strstr(line, ";;");
	size_t len = fields ? (size_t)(fields - line) : strlen(line);
	struct wire_zreader *zr =
		wire_zreader_new(line, len, ".", 3600, "file");
	struct rpl_ub_key *k;
	struct wire_rr rr;
	int r;

	if (!zr) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	r = wire_zreader_next(zr, &rr);
	if (r == 1 && rr.type != WIRE_TYPE_DNSKEY && rr.type != WIRE_TYPE_DS) {
		wire_zreader_free(zr);
		return 0;
	}
	if (r == 1 && !ret->zone[0] && !ret->has_id) {
		wire_dname_copy(ret->zone, rr.owner);
		wire_dname_tolower(ret->zone);
	}
	if (r != 1 || !wire_dname_equal(rr.owner, ret->zone) || rr.rdlen < 4 ||
	    rr.rdlen > DT_AT_KEY_MAXLEN || ret->nkeys == DT_AT_MAX_KEYS) {
		snprintf(why, whylen,
			 "state file: not a key of the zone: %.80s", line);
		wire_zreader_free(zr);
		return -1;
	}
	k = &ret->keys[ret->nkeys++];
	memset(k, 0, sizeof(*k));
	k->type = rr.type;
	k->ttl = rr.ttl;
	k->rdlen = rr.rdlen;
	memcpy(k->rdata, rr.rdata, rr.rdlen);
	wire_zreader_free(zr);
	k->has_state = field(fields, ";;state=") >= 0;
	k->state = (int)field(fields, ";;state=");
	k->count = (long)field(fields, ";;count=");
	k->lastchange = field(fields, ";;lastchange=");
	if (k->has_state &&
	    (k->state < VAL_AT_START || k->state > VAL_AT_REMOVED)) {
		snprintf(why, whylen, "state file: state %d unknown", k->state);
		return -1;
	}
	return 0;
}

/* ";;id: NAME CLASS": the trust point's name. */
static int id_line(const char *line, struct rpl_ub_point *ret, char *why,
		   size_t whylen)
{
	const char *n = skip_blanks(line + 5);
	size_t len = strcspn(n, " \t");

	if (wire_dname_from_str(n, len, (const uint8_t *)"", ret->zone) < 0) {
		snprintf(why, whylen, "state file: %s: bad name", line);
		return -1;
	}
	wire_dname_tolower(ret->zone);
	ret->has_id = true;
	return 0;
}

static int ub_line(const char *line, struct rpl_ub_point *ret, char *why,
		   size_t whylen)
{
	int64_t v;

	line = skip_blanks(line);
	if (!*line)
		return 0;
	if (strncmp(line, ";;id:", 5) == 0)
		return id_line(line, ret, why, whylen);
	else if (header_num(line, ";;last_queried:", &v))
		ret->last_queried = v;
	else if (header_num(line, ";;last_success:", &v))
		ret->last_success = v;
	else if (header_num(line, ";;next_probe_time:", &v))
		ret->next_probe = v;
	else if (header_num(line, ";;query_failed:", &v))
		ret->query_failed = (long)v;
	else if (header_num(line, ";;query_interval:", &v))
		ret->query_interval = (long)v;
	else if (header_num(line, ";;retry_time:", &v))
		ret->retry_time = (long)v;
	else if (strncmp(line, ";;REVOKED", 9) == 0)
		ret->revoked = true;
	else if (*line != ';')
		return key_line(line, ret, why, whylen);
	return 0;
}

int rpl_ub_parse(const char *text, struct rpl_ub_point *ret, char *why,
		 size_t whylen)
{
	memset(ret, 0, sizeof(*ret));
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		char line[DT_AT_LINE_MAXLEN];

		if (n >= sizeof(line)) {
			snprintf(why, whylen, "state file: line too long");
			return -1;
		}
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		if (ub_line(line, ret, why, whylen) < 0)
			return -1;
		text = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* ---- Unbound's file as dnstrust's point ---- */

static struct val_at_point *point_new(struct val_at *at, const uint8_t *zone)
{
	struct val_at_point *tp;

	for (size_t i = 0; i < at->npoints; i++)
		if (wire_dname_equal(at->points[i].zone, zone))
			return &at->points[i];
	if (at->npoints == DT_AT_MAX_POINTS)
		return NULL;
	tp = &at->points[at->npoints++];
	memset(tp, 0, sizeof(*tp));
	wire_dname_copy(tp->zone, zone);
	tp->retry = 3600; /* RFC 5011 §2.3's least */
	return tp;
}

static void key_from_ub(struct val_at_key *k, const struct rpl_ub_key *u,
			const struct val_at_policy *pol)
{
	memset(k, 0, sizeof(*k));
	k->type = u->type;
	k->ttl = u->ttl;
	k->rdlen = u->rdlen;
	memcpy(k->rdata, u->rdata, u->rdlen);
	if (!u->has_state) {
		k->state = VAL_AT_VALID; /* a configured anchor */
		return;
	}
	k->state = (enum val_at_state)u->state;
	k->changed = u->lastchange;
	if (k->state == VAL_AT_ADDPEND) {
		k->first_seen = u->lastchange;
		k->hold_until = u->lastchange + pol->add_holddown;
		k->count = u->count > 0 ? (uint32_t)u->count : 1;
	}
}

int rpl_ub_to_point(const struct rpl_ub_point *ub, struct val_at *at,
		    const struct val_at_policy *pol, char *why, size_t whylen)
{
	struct val_at_point *tp;

	if (!ub->zone[0] && !ub->has_id) {
		snprintf(why, whylen, "AUTOTRUST_FILE without a key");
		return -1;
	}
	tp = point_new(at, ub->zone);
	if (!tp) {
		snprintf(why, whylen, "too many trust points");
		return -1;
	}
	for (size_t i = 0; i < ub->nkeys; i++) {
		const struct rpl_ub_key *u = &ub->keys[i];

		if (u->type == WIRE_TYPE_DNSKEY && u->rdata[2] != 3) {
			snprintf(why, whylen, "a DNSKEY of protocol %u",
				 u->rdata[2]);
			return -1;
		}
		if (tp->nkeys == DT_AT_MAX_KEYS) {
			snprintf(why, whylen, "too many keys");
			return -1;
		}
		key_from_ub(&tp->keys[tp->nkeys++], u, pol);
	}
	if (ub->has_id) {
		tp->last_query = ub->last_queried;
		tp->last_success = ub->last_success;
		tp->next_query = ub->next_probe;
		tp->failures = (uint32_t)ub->query_failed;
		if (ub->retry_time > 0)
			tp->retry = (uint32_t)ub->retry_time;
	}
	return 0;
}

/* ---- comparison ---- */

/* Keys Unbound writes: DNSKEYs neither START nor REMOVED. */
static bool listed(const struct val_at_key *k)
{
	return k->type == WIRE_TYPE_DNSKEY && k->state != VAL_AT_START &&
	       k->state != VAL_AT_REMOVED;
}

static const struct val_at_key *find_key(const struct val_at_point *tp,
					 const struct rpl_ub_key *u)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];

		if (k->type == u->type && k->rdlen == u->rdlen &&
		    memcmp(k->rdata, u->rdata, u->rdlen) == 0)
			return k;
	}
	return NULL;
}

static int cmp_num(const char *what, int64_t ub, int64_t dt, char *why,
		   size_t whylen)
{
	if (ub == dt)
		return 0;
	snprintf(why, whylen, "%s %" PRId64 ", Unbound's %" PRId64, what, dt,
		 ub);
	return -1;
}

/* The point's own fields (RFC 5011 §2.3's schedule). query_interval is
 * not compared: dnstrust keeps no such field, its next_probe_time (which
 * is) being the interval applied. Of query_failed, only whether the last
 * query failed: RFC 5011 §2.3 defines the retry schedule after a failure,
 * no count, and Unbound counts each of its validator's retries of a bogus
 * DNSKEY RRset (up to six for one refresh) where dnstrust counts one. */
static int cmp_header(const struct rpl_ub_point *ub,
		      const struct val_at_point *tp, char *why, size_t whylen)
{
	if (!ub->has_id)
		return 0;
	if (cmp_num("last query", ub->last_queried, tp->last_query, why,
		    whylen) < 0 ||
	    cmp_num("last success", ub->last_success, tp->last_success, why,
		    whylen) < 0 ||
	    cmp_num("next query", ub->next_probe, tp->next_query, why, whylen) <
		    0 ||
	    cmp_num("last query failed (0 no, 1 yes):", ub->query_failed > 0,
		    tp->failures > 0, why, whylen) < 0 ||
	    cmp_num("retry interval", ub->retry_time, tp->retry, why, whylen) <
		    0)
		return -1;
	return 0;
}

/* One key of Unbound's file against dnstrust's: the state, and the
 * timers RFC 5011 defines: the add hold-down's start (§2.4.1; with the
 * sightings counted) and the revocation (§2.4.2's remove hold-down). */
static int cmp_key(const struct rpl_ub_key *u, const struct val_at_point *tp,
		   char *why, size_t whylen)
{
	const struct val_at_key *k = find_key(tp, u);
	uint16_t tag = wire_keytag(u->rdata, u->rdlen);
	char what[64];

	if (!k || !listed(k)) {
		snprintf(why, whylen, "key %u: %s, Unbound's %s", tag,
			 k ? val_at_state_name(k->state) : "none",
			 val_at_state_name((enum val_at_state)u->state));
		return -1;
	}
	if ((int)k->state != u->state) {
		snprintf(why, whylen, "key %u: %s, Unbound's %s", tag,
			 val_at_state_name(k->state),
			 val_at_state_name((enum val_at_state)u->state));
		return -1;
	}
	snprintf(what, sizeof(what), "key %u %s since", tag,
		 val_at_state_name(k->state));
	if (k->state == VAL_AT_ADDPEND &&
	    cmp_num(what, u->lastchange, k->changed, why, whylen) < 0)
		return -1;
	/* Unbound starts the remove hold-down again at each RRset that
	 * still holds the revoked key, dnstrust counts it from the
	 * revocation; RFC 5011 §2.4.2 makes that timer bookkeeping only
	 * (a revoked key is never trusted again, and dnstrust keeps it as
	 * REMOVED). The revocation must not be later in dnstrust. */
	if (k->state == VAL_AT_REVOKED && k->changed > u->lastchange) {
		snprintf(why, whylen,
			 "key %u revoked at %" PRId64 ", Unbound's at %" PRId64,
			 tag, k->changed, u->lastchange);
		return -1;
	}
	snprintf(what, sizeof(what), "key %u sightings", tag);
	if (k->state == VAL_AT_ADDPEND &&
	    cmp_num(what, u->count, k->count, why, whylen) < 0)
		return -1;
	return 0;
}

int rpl_ub_compare(const struct rpl_ub_point *ub, const struct val_at_point *tp,
		   char *why, size_t whylen)
{
	/* A deleted point's schedule means nothing (RFC 5011 §5: every key
	 * revoked, it is asked no more; Unbound's file keeps "the last
	 * probe"): only its keys are compared. */
	if (!ub->revoked && cmp_header(ub, tp, why, whylen) < 0)
		return -1;
	if (ub->revoked != !val_at_point_trusted(tp)) {
		snprintf(why, whylen, "trust point %s, Unbound's %s",
			 ub->revoked ? "trusted" : "revoked",
			 ub->revoked ? "revoked" : "trusted");
		return -1;
	}
	for (size_t i = 0; i < ub->nkeys; i++)
		if (ub->keys[i].type == WIRE_TYPE_DNSKEY &&
		    cmp_key(&ub->keys[i], tp, why, whylen) < 0)
			return -1;
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];
		bool found = false;

		if (!listed(k))
			continue;
		for (size_t j = 0; j < ub->nkeys && !found; j++)
			found = ub->keys[j].rdlen == k->rdlen &&
				memcmp(ub->keys[j].rdata, k->rdata, k->rdlen) ==
					0;
		if (!found) {
			snprintf(why, whylen, "key %u: %s, Unbound has none",
				 val_at_key_tag(k),
				 val_at_state_name(k->state));
			return -1;
		}
	}
	return 0;
}
