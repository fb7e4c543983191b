/* SPDX-License-Identifier: MIT */
/*
 * The engine's state: dnstrust.conf and the trust anchors, read as
 * dnstrustd reads them (policy/config.c, validator/anchor.c and the
 * RFC 5011 state of validator/autotrust.h), but never written: the
 * RFC 5011 state file is the daemon's to keep up to date; a process
 * that cannot read it uses the anchors it was made from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/errcode.h"
#include "common/file.h"
#include "common/limits.h"
#include "inproc/state.h"
#include "policy/config.h"
#include "resolver/state.h"
#include "validator/anchor.h"
#include "validator/autotrust.h"

/* The keys of an RFC 5011 state file: 1 and more trusted, 0 when the
 * file cannot be read (the configured anchors then apply), or an error
 * for a file that is there but wrong. */
static int anchors_auto(const char *path, struct val_anchors *ta, char *err,
			size_t errlen)
{
	struct val_at *at;
	char *buf = NULL;
	size_t len = 0;
	int r = file_read_path(path, DT_AT_FILE_MAXSIZE, &buf, &len);

	if (r == -ENOENT || r == -EACCES || r == -EPERM)
		return 0;
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, errcode_str(r));
		return r;
	}
	at = malloc(sizeof(*at));
	r = at ? val_at_parse(buf, len, path, at, err, errlen) : -ENOMEM;
	free(buf);
	if (r == 0) {
		r = val_at_anchors(at, ta);
		if (r < 0)
			snprintf(err, errlen, "%s: %s", path, errcode_str(r));
		else if (r == 0)
			r = DT_ECONFIG; /* every key revoked (RFC 5011 §5) */
	}
	free(at);
	if (r == DT_ECONFIG)
		snprintf(err, errlen, "%s: no trusted key", path);
	return r;
}

static int anchors_load(const struct cfg *cfg, struct val_anchors *ta,
			char *desc, size_t desclen, char *err, size_t errlen)
{
	int r = 0;

	if (cfg->auto_trust_anchor_file[0]) {
		r = anchors_auto(cfg->auto_trust_anchor_file, ta, err, errlen);
		if (r > 0)
			snprintf(desc, desclen, "%s (RFC 5011, %d keys trusted)",
				 cfg->auto_trust_anchor_file, r);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	if (cfg->trust_anchor_file[0]) {
		r = val_anchors_load(ta, cfg->trust_anchor_file, err, errlen);
		if (r == 0 && val_anchors_count(ta) == 0) {
			snprintf(err, errlen, "%.400s: no DS or DNSKEY record",
				 cfg->trust_anchor_file);
			r = DT_ECONFIG;
		}
		snprintf(desc, desclen, "%s", cfg->trust_anchor_file);
		return r;
	}
	r = val_anchors_add_root(ta);
	if (r < 0)
		snprintf(err, errlen, "built-in root anchors: %s",
			 errcode_str(r));
	snprintf(desc, desclen, "built-in IANA root KSKs (20326, 38696)");
	return r;
}

struct dstate *inproc_state_load(const char *conf, char *err, size_t errlen)
{
	struct val_anchors *ta = val_anchors_new();
	struct dstate *st = dstate_alloc();
	char desc[PATH_MAX + 64];

	snprintf(err, errlen, "%s", errcode_str(-ENOMEM));
	if (!ta || !st)
		goto fail;
	/* The default file may be absent (the defaults apply); a file the
	 * caller named must be there. Parsed in place, not copied: struct
	 * cfg is mostly room for rules, and pages nobody writes cost
	 * neither a page fault nor resident memory. */
	if (cfg_load_zeroed(conf ? conf : CFG_DEFAULT_PATH, conf != NULL,
			    &st->cfg, err, errlen) < 0)
		goto fail;
	err[0] = '\0';
	if (anchors_load(&st->cfg, ta, desc, sizeof(desc), err, errlen) < 0) {
		if (!err[0])
			snprintf(err, errlen, "trust anchors unusable");
		goto fail;
	}
	dstate_finish(st, ta, desc); /* takes ta */
	return st;
fail:
	val_anchors_free(ta);
	dstate_put(st);
	return NULL;
}
