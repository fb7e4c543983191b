/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/errcode.h"
#include "crypto/alg.h"
#include "daemon/autotrust.h"
#include "daemon/check.h"
#include "policy/config.h"
#include "policy/nta.h"
#include "policy/policy.h"
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

/* --- warnings: what works, but not as the author may think --- */

static void warn_anchor_file(const struct cfg *cfg, check_warn_fn warn,
			     void *arg)
{
	char msg[CHECK_WARN_MAX];

	if (!cfg->trust_anchor_file[0] || !cfg->auto_trust_anchor_file[0] ||
	    access(cfg->auto_trust_anchor_file, F_OK) != 0)
		return;
	snprintf(msg, sizeof(msg),
		 "trust-anchor-file %.300s is ignored: the RFC 5011 state "
		 "%.300s exists, and its keys are the ones trusted (to start "
		 "again from the file: stop dnstrustd, remove the state, "
		 "start it)",
		 cfg->trust_anchor_file, cfg->auto_trust_anchor_file);
	warn(msg, arg);
}

static void warn_resolv_conf(const struct cfg *cfg, check_warn_fn warn,
			     void *arg)
{
	char msg[CHECK_WARN_MAX];
	struct stat st;

	if (!cfg->resolv_conf[0] || stat(cfg->resolv_conf, &st) == 0)
		return;
	snprintf(msg, sizeof(msg),
		 "%s %.300s: %s: no upstream until it appears%s",
		 cfg->upstream_source == UP_SOURCE_FILE ? "resolv-conf"
							: "upstream-source",
		 cfg->resolv_conf, strerror(errno),
		 cfg->resolution == CFG_RES_FORWARD
			 ? " (resolution forward: every name fails meanwhile)"
			 : "");
	warn(msg, arg);
}

static void warn_nta_past(const struct cfg *cfg, int64_t now,
			  check_warn_fn warn, void *arg)
{
	char msg[CHECK_WARN_MAX], name[DT_NAME_TEXT_MAXLEN], date[16];

	for (size_t i = 0; i < cfg->nnta; i++) {
		const struct cfg_nta *n = &cfg->nta[i];
		if (!n->until || n->until > now)
			continue;
		wire_dname_to_str(n->name, name, sizeof(name));
		policy_date(n->until, date, sizeof(date));
		snprintf(msg, sizeof(msg),
			 "negative-trust-anchor %s: its end, %s, is past: "
			 "the line does nothing (remove it)",
			 name, date);
		warn(msg, arg);
	}
}

/* The user the daemon gives root up for, or NULL (it stays root, or no
 * such user: check_user says so). */
static const struct passwd *daemon_user(const struct cfg *cfg)
{
	const struct passwd *pw;

	if (strcmp(cfg->user, "root") == 0)
		return NULL;
	if (cfg->user[0])
		pw = getpwnam(cfg->user);
	else if (!(pw = getpwnam("_dnstrust")))
		pw = getpwnam("nobody");
	return pw && pw->pw_uid ? pw : NULL;
}

/* What the daemon needs once it is no longer root: files it reads again
 * (a reload, a changed resolv.conf), directories it writes. */
struct need {
	const char *what;
	char path[PATH_MAX];
	int mode; /* for access(): R_OK, or W_OK | X_OK for a directory */
};

static size_t needs_of(const struct cfg *cfg, const char *conf_path,
		       const char *nta_path, struct need *n, size_t max)
{
	size_t k = 0;

#define NEED(w, p, m)                                                       \
	do {                                                                \
		if ((p)[0] && k < max) {                                    \
			n[k].what = (w);                                    \
			snprintf(n[k].path, sizeof(n[k].path), "%s", (p));  \
			n[k++].mode = (m);                                  \
		}                                                           \
	} while (0)
	NEED("the configuration (read again at a reload)", conf_path, R_OK);
	NEED("the upstream source (read again when it changes)",
	     cfg->resolv_conf,
	     cfg->upstream_source == UP_SOURCE_RESOLVCONF ||
			     cfg->upstream_source == UP_SOURCE_NETWORKD
		     ? R_OK | X_OK
		     : R_OK);
	if (cfg->stub_resolv_conf[0] && k < max) {
		char *slash;
		NEED("the directory of stub-resolv-conf (rewritten when the "
		     "upstream source changes)",
		     cfg->stub_resolv_conf, W_OK | X_OK);
		slash = strrchr(n[k - 1].path, '/');
		if (slash)
			slash[slash == n[k - 1].path] = '\0';
	}
	NEED("trust-anchor-file (read again at a reload)",
	     cfg->trust_anchor_file, R_OK);
	NEED("root-hints (read again at a reload)", cfg->root_hints, R_OK);
	NEED("tls-ca (read at each TLS upstream's first connection)",
	     cfg->tls_ca, R_OK);
	if (cfg->auto_trust_anchor_file[0] && k < max) {
		char *slash;
		NEED("the directory of auto-trust-anchor-file (RFC 5011 "
		     "updates are written there)",
		     cfg->auto_trust_anchor_file, W_OK | X_OK);
		slash = strrchr(n[k - 1].path, '/');
		if (slash)
			slash[slash == n[k - 1].path] = '\0';
	}
	if (k < max) {
		char *slash;
		NEED("the state directory (dnstrust nta add saves there)",
		     nta_path, W_OK | X_OK);
		slash = strrchr(n[k - 1].path, '/');
		if (slash)
			slash[slash == n[k - 1].path] = '\0';
	}
#undef NEED
	return k;
}

/* Which of the needs the user pw lacks, as bits, found by a child that
 * becomes pw (groups included) and asks access(2). -1 when it could not
 * tell. */
static int lacking(const struct passwd *pw, const struct need *n, size_t k)
{
	pid_t pid = fork();
	int status, bits = 0;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (initgroups(pw->pw_name, pw->pw_gid) < 0 ||
		    setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0)
			_exit(255);
		for (size_t i = 0; i < k; i++)
			if (access(n[i].path, n[i].mode) != 0 && errno != ENOENT)
				bits |= 1 << i;
		_exit(bits);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -1;
	return WEXITSTATUS(status);
}

static void warn_user(const struct cfg *cfg, const char *conf_path,
		      const char *nta_path, check_warn_fn warn, void *arg)
{
	struct need n[CHECK_NEEDS_MAX];
	char msg[CHECK_WARN_MAX];
	const struct passwd *pw;
	size_t k;
	int bits;

	if (geteuid() != 0 || !(pw = daemon_user(cfg)))
		return;
	k = needs_of(cfg, conf_path, nta_path, n, CHECK_NEEDS_MAX);
	if ((bits = lacking(pw, n, k)) < 0) {
		snprintf(msg, sizeof(msg),
			 "could not check what user %s may read and write",
			 pw->pw_name);
		warn(msg, arg);
		return;
	}
	for (size_t i = 0; i < k; i++) {
		if (!(bits & (1 << i)))
			continue;
		snprintf(msg, sizeof(msg),
			 "once root is given up, user %s cannot %s %.300s: %s",
			 pw->pw_name, n[i].mode == R_OK ? "read" : "write in",
			 n[i].path, n[i].what);
		warn(msg, arg);
	}
}

void check_warnings(const struct cfg *cfg, const char *conf_path,
		    const char *nta_path, int64_t now, check_warn_fn warn,
		    void *arg)
{
	warn_anchor_file(cfg, warn, arg);
	warn_resolv_conf(cfg, warn, arg);
	warn_nta_past(cfg, now, warn, arg);
	warn_user(cfg, conf_path, nta_path, warn, arg);
}
