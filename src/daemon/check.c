/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "common/errcode.h"
#include "crypto/alg.h"
#include "daemon/autotrust.h"
#include "daemon/check.h"
#include "policy/config.h"
#include "validator/anchor.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/rr.h"

/* DNSKEY flags (RFC 4034 §2.1.1, RFC 5011 §7). */
#define KEY_FLAG_ZONE 0x0100
#define KEY_FLAG_REVOKE 0x0080

static bool ds_usable(const struct wire_rr *rr)
{
	return rr->rdlen > 4 && crypto_alg_supported(rr->rdata[2]) &&
	       crypto_ds_digest_supported(rr->rdata[3]);
}

static bool dnskey_usable(const struct wire_rr *rr)
{
	if (rr->rdlen <= 4)
		return false;
	unsigned flags = wire_get16(rr->rdata);
	return (flags & KEY_FLAG_ZONE) && !(flags & KEY_FLAG_REVOKE) &&
	       rr->rdata[2] == 3 && crypto_alg_supported(rr->rdata[3]);
}

/* Every zone of ta has a record the validator can start from. */
static int anchors_usable(const struct val_anchors *ta, char *err,
			  size_t errlen)
{
	char zone[DT_NAME_TEXT_MAXLEN];

	for (size_t i = 0; i < val_anchors_count(ta); i++) {
		const struct val_anchor_zone *az = val_anchors_get(ta, i);
		bool ok = false;
		for (size_t k = 0; k < az->nds && !ok; k++)
			ok = ds_usable(&az->ds[k]);
		for (size_t k = 0; k < az->ndnskey && !ok; k++)
			ok = dnskey_usable(&az->dnskey[k]);
		if (ok)
			continue;
		wire_dname_to_str(az->zone, zone, sizeof(zone));
		snprintf(err, errlen,
			 "trust anchor %s: no usable key (algorithms 5, 7, 8, "
			 "10, 13-16 and DS digests 1, 2, 4 are supported; a "
			 "DNSKEY needs the zone flag and no revoke flag)",
			 zone);
		return DT_ECONFIG;
	}
	return 0;
}

static int load_file(const char *path, struct val_anchors *ta, char *err,
		     size_t errlen)
{
	int r = val_anchors_load(ta, path, err, errlen);

	if (r == 0 && val_anchors_count(ta) == 0) {
		snprintf(err, errlen, "%.400s: no DS or DNSKEY record", path);
		r = DT_ECONFIG;
	}
	return r;
}

int check_anchors(const struct cfg *cfg, struct val_anchors *ta, bool dry,
		  char *desc, size_t desclen, char *err, size_t errlen)
{
	int r;

	err[0] = '\0';
	if (cfg->auto_trust_anchor_file[0] && dry) {
		r = autotrust_check(cfg, ta, err, errlen);
		snprintf(desc, desclen, "%s (RFC 5011)",
			 cfg->auto_trust_anchor_file);
	} else if (cfg->auto_trust_anchor_file[0]) {
		r = autotrust_anchors(cfg, ta, desc, desclen, err, errlen);
	} else if (cfg->trust_anchor_file[0]) {
		r = load_file(cfg->trust_anchor_file, ta, err, errlen);
		snprintf(desc, desclen, "%s", cfg->trust_anchor_file);
	} else {
		r = val_anchors_add_root(ta);
		snprintf(err, errlen, "built-in root anchors: %s",
			 errcode_str(r));
		snprintf(desc, desclen,
			 "built-in IANA root KSKs (20326, 38696)");
	}
	if (r == 0)
		r = anchors_usable(ta, err, errlen);
	if (r < 0 && !err[0])
		snprintf(err, errlen, "%s", errcode_str(r));
	return r;
}

int check_user(const struct cfg *cfg, char *err, size_t errlen)
{
	if (!cfg->user[0])
		return 0;
	errno = 0;
	if (getpwnam(cfg->user))
		return 0;
	if (errno)
		snprintf(err, errlen, "user %s: %s", cfg->user,
			 strerror(errno));
	else
		snprintf(err, errlen,
			 "user %s: no such user (create it, e.g. with "
			 "systemd-sysusers or adduser --system, or change "
			 "`user`)",
			 cfg->user);
	return -1;
}

int check_startup(const struct cfg *cfg, char *err, size_t errlen)
{
	struct val_anchors *ta = val_anchors_new();
	char desc[512];
	int r;

	if (!ta) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	r = check_anchors(cfg, ta, true, desc, sizeof(desc), err, errlen);
	val_anchors_free(ta);
	if (r < 0)
		return -1;
	return check_user(cfg, err, errlen);
}
