/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "daemon/check.h"
#include "daemon/state.h"
#include "policy/nta.h"
#include "policy/policy.h"
#include "validator/anchor.h"
#include "wire/dname.h"

/* The state directory when $STATE_DIRECTORY is not set, and the file of
 * the runtime negative trust anchors in it (policy/nta.h). */
#define STATE_DIR      NTA_STATE_DIR
#define STATE_NTA_FILE NTA_STATE_FILE

/* Negative trust anchors already expired: logged, ignored by policy. */
static void log_expired(const struct cfg *cfg, int64_t offset)
{
	struct timespec now;
	char txt[DT_NAME_TEXT_MAXLEN], date[16];

	clock_gettime(CLOCK_REALTIME, &now);
	now.tv_sec += offset;
	for (size_t i = 0; i < cfg->nnta; i++) {
		const struct cfg_nta *n = &cfg->nta[i];
		if (nta_in_force(n, now.tv_sec))
			continue;
		wire_dname_to_str(n->name, txt, sizeof(txt));
		policy_date(n->until, date, sizeof(date));
		log_warn("negative-trust-anchor %s expired on %s: ignored", txt,
			 date);
	}
}

int state_nta_path(char *buf, size_t len)
{
	const char *dir = getenv("STATE_DIRECTORY");
	size_t n = dir ? strcspn(dir, ":") : 0;

	if (!n) {
		dir = STATE_DIR;
		n = strlen(dir);
	}
	if ((size_t)snprintf(buf, len, "%.*s/%s", (int)n, dir,
			     STATE_NTA_FILE) >= len)
		return -ENAMETOOLONG;
	return 0;
}

struct nta_rt *state_nta_load(void)
{
	char path[PATH_MAX];
	struct nta_rt *rt;

	if (state_nta_path(path, sizeof(path)) < 0) {
		log_err("the state directory's name is too long");
		return NULL;
	}
	rt = nta_rt_new(path);
	if (rt)
		nta_rt_load(rt);
	return rt;
}

struct dstate *state_load(const struct cfg *cfg, struct nta_rt *nta,
			  int64_t offset, char *err, size_t errlen)
{
	struct dstate *st;

	struct val_anchors *ta = val_anchors_new();
	char desc[PATH_MAX + 64];

	snprintf(err, errlen, "%s", strerror(ENOMEM));
	if (!ta)
		return NULL;
	if (check_anchors(cfg, ta, false, desc, sizeof(desc), err, errlen) <
	    0) {
		val_anchors_free(ta);
		return NULL;
	}
	log_expired(cfg, offset);
	st = dstate_new(cfg, ta, desc);
	if (st)
		st->nta = nta;
	return st;
}

static bool rrs_equal(const struct wire_rr *a, const struct wire_rr *b,
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].rdlen != b[i].rdlen ||
		    memcmp(a[i].rdata, b[i].rdata, a[i].rdlen) != 0)
			return false;
	return true;
}

static bool anchors_equal(const struct dstate *a, const struct dstate *b)
{
	size_t n = val_anchors_count(a->ta);

	if (n != val_anchors_count(b->ta))
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct val_anchor_zone *x = val_anchors_get(a->ta, i);
		const struct val_anchor_zone *y = val_anchors_get(b->ta, i);
		if (!wire_dname_equal(x->zone, y->zone) || x->nds != y->nds ||
		    x->ndnskey != y->ndnskey ||
		    !rrs_equal(x->ds, y->ds, x->nds) ||
		    !rrs_equal(x->dnskey, y->dnskey, x->ndnskey))
			return false;
	}
	return true;
}

bool state_same_trust(const struct dstate *a, const struct dstate *b)
{
	return anchors_equal(a, b) &&
	       memcmp(&a->lim, &b->lim, sizeof(a->lim)) == 0 &&
	       !policy_changed(&a->cfg, &b->cfg);
}
