/* SPDX-License-Identifier: MIT */
/*
 * dnstrust verify: the offline validator. Reads records in presentation
 * format, builds the chain of trust from the trust anchors and prints the
 * status of the answer (see dnstrust(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/arena.h"
#include "cli/verify_resolver.h"
#include "common/errcode.h"
#include "common/file.h"
#include "common/limits.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "validator/response.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

enum section { SEC_NONE, SEC_QUESTION, SEC_ANSWER, SEC_AUTHORITY, SEC_OTHER };

/* Everything read from the input files. */
struct input {
	struct arena arena;
	struct wire_rr *rr;
	uint8_t *sec;		/* enum section of each record */
	size_t n, cap;
	bool has_question, has_sections;
	uint8_t qname[DT_NAME_MAXLEN];
	uint16_t qtype, qclass;
	int rcode;		/* -1: not given */
};

struct verify_opts {
	const char *anchor_files[16];
	int nanchors;
	int64_t now;
	bool json, trace;
	bool resolver;		/* also through the resolver core */
	const char *question;
	const char *rcode;
	const char *zone;
};

/* Section marker lines of dig output and of the RFC vector files. */
static enum section marker(const char *line, size_t len)
{
	static const struct {
		const char *text;
		enum section sec;
	} m[] = {
		{";; QUESTION SECTION:", SEC_QUESTION},
		{";; ANSWER SECTION:", SEC_ANSWER},
		{";; AUTHORITY SECTION:", SEC_AUTHORITY},
		{";; ADDITIONAL SECTION:", SEC_OTHER},
		{";; Answer", SEC_ANSWER},
		{";; Authority", SEC_AUTHORITY},
		{";; Additional", SEC_OTHER},
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		size_t l = strlen(m[i].text);
		if (len >= l && strncmp(line, m[i].text, l) == 0 &&
		    (len == l || line[l] == ' ' || line[l] == '\t' ||
		     line[l] == '\r'))
			return m[i].sec;
	}
	return SEC_NONE;
}

static int rcode_from_str(const char *s, size_t len)
{
	static const char *const names[] = {"NOERROR", "FORMERR", "SERVFAIL",
					    "NXDOMAIN", "NOTIMP", "REFUSED"};
	for (int i = 0; i < 6; i++) {
		if (strlen(names[i]) == len && strncasecmp(s, names[i], len) == 0)
			return i;
	}
	return -1;
}

/* Parses "name [class] type" (class IN assumed when absent). */
static int parse_question(struct input *in, const char *s)
{
	char buf[DT_NAME_TEXT_MAXLEN + 64], *tok[3], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, " \t/", &save); t && n < 3;
	     t = strtok_r(NULL, " \t/", &save))
		tok[n++] = t;
	if (n < 2)
		return DT_ESYNTAX;
	const char *name = tok[0][0] == ';' ? tok[0] + 1 : tok[0];
	if (wire_dname_from_str(name, strlen(name), (const uint8_t *)"", in->qname) < 0)
		return DT_ESYNTAX;
	in->qclass = WIRE_CLASS_IN;
	if (n == 3 && wire_class_from_str(tok[1], strlen(tok[1]), &in->qclass) < 0)
		return DT_ESYNTAX;
	if (wire_type_from_str(tok[n - 1], strlen(tok[n - 1]), &in->qtype) < 0)
		return DT_ESYNTAX;
	in->has_question = true;
	return 0;
}

/* Reads the question and RCODE from comment lines of one line. */
static void scan_comment(struct input *in, const char *line, size_t len,
			 enum section cur)
{
	char tmp[DT_NAME_TEXT_MAXLEN + 64];
	const char *p;

	if (len >= sizeof(tmp))
		return;
	memcpy(tmp, line, len);
	tmp[len] = '\0';
	if (in->rcode < 0 && (p = strstr(tmp, "status: ")) != NULL)
		in->rcode = rcode_from_str(p + 8, strcspn(p + 8, ", \t"));
	if (in->rcode < 0 && (p = strstr(tmp, "RCODE=")) != NULL)
		in->rcode = atoi(p + 6);
	if (!in->has_question && strncmp(tmp, ";; Q: ", 6) == 0)
		parse_question(in, tmp + 6);
	else if (!in->has_question && cur == SEC_QUESTION && tmp[0] == ';' &&
		 tmp[1] != ';')
		parse_question(in, tmp + 1);
}

/* Section of each line of text (by line number, 1-based). */
static uint8_t *line_sections(struct input *in, const char *text, size_t len,
			      size_t *ret_lines)
{
	size_t lines = 1;

	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	uint8_t *secs = calloc(lines + 2, 1);
	if (!secs)
		return NULL;
	enum section cur = SEC_NONE;
	size_t ln = 1;
	for (size_t i = 0; i < len; ln++) {
		size_t e = i;
		while (e < len && text[e] != '\n')
			e++;
		enum section m = marker(text + i, e - i);
		if (m != SEC_NONE) {
			cur = m;
			in->has_sections = true;
		} else if (text[i] == ';') {
			scan_comment(in, text + i, e - i, cur);
		}
		secs[ln] = (uint8_t)cur;
		i = e + 1;
	}
	*ret_lines = lines;
	return secs;
}

static int input_add(struct input *in, const struct wire_rr *rr,
		     enum section sec)
{
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 256;
		struct wire_rr *nr = realloc(in->rr, cap * sizeof(*nr));
		uint8_t *ns = realloc(in->sec, cap);
		if (nr)
			in->rr = nr;
		if (ns)
			in->sec = ns;
		if (!nr || !ns)
			return -ENOMEM;
		in->cap = cap;
	}
	size_t olen = wire_dname_len(rr->owner);
	uint8_t *owner = arena_memdup(&in->arena, rr->owner, olen);
	uint8_t *rdata = arena_memdup(&in->arena, rr->rdata, rr->rdlen);
	if (!owner || !rdata)
		return -ENOMEM;
	in->rr[in->n] = *rr;
	in->rr[in->n].owner = owner;
	in->rr[in->n].rdata = rdata;
	in->sec[in->n++] = (uint8_t)sec;
	return 0;
}

/* Reads path ("-": standard input) whole. Returns 0 or an error of
 * file_read_fd(): a file that cannot be read to its end is never taken for
 * a shorter one. */
static int slurp(const char *path, char **ret_text, size_t *ret_len)
{
	if (strcmp(path, "-") == 0)
		return file_read_fd(STDIN_FILENO, DT_ZONE_FILE_MAXSIZE,
				    ret_text, ret_len);
	return file_read_path(path, DT_ZONE_FILE_MAXSIZE, ret_text, ret_len);
}

/* Reads one file into in. Returns 0 or prints an error and returns < 0. */
static int read_file(struct input *in, const char *path)
{
	size_t len, lines;
	struct wire_rr rr;
	int r;

	char *text;

	r = slurp(path, &text, &len);
	if (r < 0) {
		fprintf(stderr, "dnstrust verify: %s: %s%s\n", path,
			errcode_str(r),
			r == -EISDIR ? " (give the files of records, e.g. "
				       "dig +dnssec output, not a directory)"
				     : "");
		return -1;
	}
	uint8_t *secs = line_sections(in, text, len, &lines);
	struct wire_zreader *zr = secs ? wire_zreader_new(text, len, ".", 3600,
							  path)
				       : NULL;
	free(text);
	if (!zr) {
		free(secs);
		fprintf(stderr, "dnstrust verify: out of memory\n");
		return -1;
	}
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		unsigned ln = wire_zreader_line(zr);
		enum section sec = ln <= lines ? secs[ln] : SEC_NONE;
		if ((r = input_add(in, &rr, sec)) < 0)
			break;
	}
	if (r < 0)
		fprintf(stderr, "dnstrust verify: %s\n",
			r == -ENOMEM ? "out of memory" : wire_zreader_error(zr));
	wire_zreader_free(zr);
	free(secs);
	return r < 0 ? -1 : 0;
}

static bool is_meta(uint16_t type)
{
	return type == WIRE_TYPE_RRSIG || type == WIRE_TYPE_NSEC ||
	       type == WIRE_TYPE_NSEC3 || type == WIRE_TYPE_NSEC3PARAM ||
	       type == WIRE_TYPE_DS || type == WIRE_TYPE_DNSKEY ||
	       type == WIRE_TYPE_SOA;
}

/* Without a question in the input: the last record that is data, or
 * failing that the last DNSKEY. */
static int infer_question(struct input *in)
{
	const struct wire_rr *pick = NULL;

	for (size_t i = 0; i < in->n; i++) {
		if (!is_meta(in->rr[i].type))
			pick = &in->rr[i];
	}
	for (size_t i = in->n; !pick && i-- > 0;) {
		if (in->rr[i].type == WIRE_TYPE_DNSKEY)
			pick = &in->rr[i];
	}
	if (!pick)
		return -1;
	wire_dname_copy(in->qname, pick->owner);
	in->qtype = pick->type;
	in->qclass = pick->rclass;
	in->has_question = true;
	return 0;
}

/* Answer and authority records as the response validator takes them. */
static void split_sections(const struct input *in, struct wire_rr *ans,
			   size_t *nans, struct wire_rr *auth, size_t *nauth)
{
	*nans = *nauth = 0;
	for (size_t i = 0; i < in->n; i++) {
		if (!in->has_sections || in->sec[i] == SEC_ANSWER)
			ans[(*nans)++] = in->rr[i];
		else if (in->sec[i] == SEC_AUTHORITY)
			auth[(*nauth)++] = in->rr[i];
	}
	/* Without sections, denial records serve as the authority too. */
	if (!in->has_sections) {
		for (size_t i = 0; i < in->n; i++) {
			uint16_t t = in->rr[i].type;
			if (t == WIRE_TYPE_NSEC || t == WIRE_TYPE_NSEC3 ||
			    t == WIRE_TYPE_RRSIG || t == WIRE_TYPE_SOA)
				auth[(*nauth)++] = in->rr[i];
		}
	}
}

static int load_anchors(struct val_anchors *ta, const struct verify_opts *o)
{
	char err[512];

	if (o->nanchors == 0)
		return val_anchors_add_root(ta);
	for (int i = 0; i < o->nanchors; i++) {
		int r = val_anchors_load(ta, o->anchor_files[i], err,
					 sizeof(err));
		if (r < 0) {
			fprintf(stderr, "dnstrust verify: %s\n", err);
			return r;
		}
	}
	if (val_anchors_count(ta) == 0) {
		fprintf(stderr, "dnstrust verify: no DS or DNSKEY records in "
				"the anchor file(s)\n");
		return DT_ERDATA;
	}
	return 0;
}

/* Collected trace lines, printed after the verdict. */
struct trace_buf {
	char **lines;
	size_t n;
};

static void trace_line(void *arg, const char *line)
{
	struct trace_buf *t = arg;
	char **nl = realloc(t->lines, (t->n + 1) * sizeof(*nl));

	if (!nl)
		return;
	t->lines = nl;
	if ((t->lines[t->n] = strdup(line)) != NULL)
		t->n++;
}

static const char *kind_name(enum val_kind k)
{
	switch (k) {
	case VAL_KIND_ANSWER: return "answer";
	case VAL_KIND_NODATA: return "nodata";
	case VAL_KIND_NXDOMAIN: return "nxdomain";
	case VAL_KIND_YXDOMAIN: return "yxdomain";
	case VAL_KIND_NEED_KEYS: return "incomplete";
	}
	return "unknown";
}

static bool agree(const struct val_result *res, const struct vr_verdict *vr)
{
	return res->verdict.status == vr->status &&
	       res->verdict.ede == vr->ede &&
	       strcmp(res->verdict.tag ? res->verdict.tag : "", vr->tag) == 0;
}

static void print_text(const struct input *in, const struct val_result *res,
		       const struct trace_buf *t, bool trace,
		       const struct vr_verdict *vr)
{
	char name[DT_NAME_TEXT_MAXLEN], ty[16], cl[16];

	wire_dname_to_str(in->qname, name, sizeof(name));
	printf("question: %s %s %s\n", name, wire_class_to_str(in->qclass, cl),
	       wire_type_to_str(in->qtype, ty));
	printf("status: %s\n", val_status_name(res->verdict.status));
	printf("result: %s", kind_name(res->kind));
	if (res->links)
		printf(" after %u CNAME/DNAME link%s", res->links,
		       res->links == 1 ? "" : "s");
	printf("\n");
	if (res->verdict.ede != VAL_EDE_NONE)
		printf("ede: %u (%s)\n", res->verdict.ede,
		       wire_ede_name(res->verdict.ede));
	if (res->verdict.reason[0])
		printf("reason: %s [%s]\n", res->verdict.reason,
		       res->verdict.tag);
	if (res->verdict.status == VAL_SECURE)
		printf("ttl: %u\n", res->ttl);
	if (trace) {
		printf("chain of trust:\n");
		for (size_t i = 0; i < t->n; i++)
			printf("  %s\n", t->lines[i]);
	}
	if (!vr)
		return;
	printf("resolver core: %s", val_status_name(vr->status));
	if (vr->ede != VAL_EDE_NONE)
		printf(", ede %u", vr->ede);
	printf(" [%s], %u upstream question%s\n", vr->tag, vr->fetches,
	       vr->fetches == 1 ? "" : "s");
	printf("the offline walk and the resolver core %s\n",
	       agree(res, vr) ? "agree" : "DISAGREE");
}

static void print_json(const struct input *in, const struct val_result *res,
		       const struct trace_buf *t, const struct vr_verdict *vr)
{
	char name[DT_NAME_TEXT_MAXLEN], ty[16], cl[16];

	wire_dname_to_str(in->qname, name, sizeof(name));
	printf("{\"question\":{\"name\":");
	cli_json_str(stdout, name);
	printf(",\"class\":\"%s\",\"type\":\"%s\"},",
	       wire_class_to_str(in->qclass, cl),
	       wire_type_to_str(in->qtype, ty));
	printf("\"status\":\"%s\",\"result\":\"%s\",\"links\":%u,",
	       val_status_name(res->verdict.status), kind_name(res->kind),
	       res->links);
	if (res->verdict.ede != VAL_EDE_NONE)
		printf("\"ede\":{\"code\":%u,\"name\":\"%s\"},", res->verdict.ede,
		       wire_ede_name(res->verdict.ede));
	else
		printf("\"ede\":null,");
	printf("\"reason\":");
	cli_json_str(stdout, res->verdict.reason);
	printf(",\"tag\":");
	cli_json_str(stdout, res->verdict.tag ? res->verdict.tag : "");
	printf(",\"ttl\":%u,\"trace\":[", res->ttl);
	for (size_t i = 0; i < t->n; i++) {
		if (i)
			printf(",");
		cli_json_str(stdout, t->lines[i]);
	}
	printf("]");
	if (vr) {
		printf(",\"resolver\":{\"status\":\"%s\",\"ede\":",
		       val_status_name(vr->status));
		if (vr->ede != VAL_EDE_NONE)
			printf("%u", vr->ede);
		else
			printf("null");
		printf(",\"tag\":");
		cli_json_str(stdout, vr->tag);
		printf(",\"reason\":");
		cli_json_str(stdout, vr->reason);
		printf(",\"fetches\":%u},\"agree\":%s", vr->fetches,
		       agree(res, vr) ? "true" : "false");
	}
	printf("}\n");
}

int cli_exit_code(enum val_status s)
{
	switch (s) {
	case VAL_SECURE: return CLI_EXIT_SECURE;
	case VAL_INSECURE: return CLI_EXIT_INSECURE;
	case VAL_BOGUS: return CLI_EXIT_BOGUS;
	case VAL_INDETERMINATE: return CLI_EXIT_INDETERMINATE;
	}
	return CLI_EXIT_INDETERMINATE;
}

static int validate(struct input *in, const struct verify_opts *o)
{
	struct val_anchors *ta = val_anchors_new();
	struct trace_buf t = {0};
	struct val_keysource src;
	struct val_result res;
	struct val_ctx ctx;
	int code = CLI_EXIT_INPUT;

	struct wire_rr *ans = calloc(in->n + 1, sizeof(*ans));
	struct wire_rr *auth = calloc(2 * in->n + 1, sizeof(*auth));
	if (!ta || !ans || !auth || load_anchors(ta, o) < 0)
		goto out;
	size_t nans, nauth;
	split_sections(in, ans, &nans, auth, &nauth);
	val_ctx_init(&ctx, o->now, NULL);
	ctx.trace = trace_line;
	ctx.trace_arg = &t;
	struct val_bag *bag = val_bag_new(&ctx, ta, in->rr, in->n);
	if (!bag)
		goto out;
	val_bag_keysource(bag, &src);
	struct val_response resp = {
		.qname = in->qname,
		.qtype = in->qtype,
		.qclass = in->qclass,
		.rcode = (uint16_t)(in->rcode < 0 ? 0 : in->rcode),
		.answer = ans,
		.nanswer = nans,
		.authority = auth,
		.nauthority = nauth,
	};
	if (val_response_validate(&ctx, &resp, &src, &res) == 0) {
		if (res.kind == VAL_KIND_NEED_KEYS)
			res.verdict.status = VAL_INDETERMINATE;
		struct vr_verdict vr;
		bool have_vr =
			o->resolver &&
			verify_resolver(ta, o->now, in->qname, in->qtype,
					in->qclass, resp.rcode, ans, nans, auth,
					nauth, in->rr, in->n, &vr) == 0;
		if (o->json)
			print_json(in, &res, &t, have_vr ? &vr : NULL);
		else
			print_text(in, &res, &t, o->trace, have_vr ? &vr : NULL);
		code = cli_exit_code(res.verdict.status);
	}
	val_bag_free(bag);
out:
	for (size_t i = 0; i < t.n; i++)
		free(t.lines[i]);
	free(t.lines);
	free(ans);
	free(auth);
	val_anchors_free(ta);
	return code;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrust verify [--anchor FILE]... [--time TIME] "
		"[--json] [--trace] [--resolver]\n"
		"                       [--question 'NAME [CLASS] TYPE'] "
		"[--rcode RCODE] FILE...\n"
		"       dnstrust verify --zone ORIGIN [--anchor FILE]... "
		"[--time TIME] [--json] FILE\n"
		"TIME is YYYYMMDDHHMMSS (UTC) or seconds since the epoch.\n");
}

static int parse_args(int argc, char **argv, struct verify_opts *o)
{
	static const struct option longopts[] = {
		{"anchor", required_argument, NULL, 'a'},
		{"time", required_argument, NULL, 't'},
		{"json", no_argument, NULL, 'j'},
		{"trace", no_argument, NULL, 'T'},
		{"resolver", no_argument, NULL, 'R'},
		{"question", required_argument, NULL, 'q'},
		{"rcode", required_argument, NULL, 'r'},
		{"zone", required_argument, NULL, 'z'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	o->now = (int64_t)time(NULL);
	optind = 1;
	while ((c = getopt_long(argc, argv, "a:t:jTq:r:z:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			if (o->nanchors == 16)
				return -1;
			o->anchor_files[o->nanchors++] = optarg;
			break;
		case 't':
			if (cli_parse_time(optarg, &o->now) < 0) {
				fprintf(stderr, "dnstrust verify: bad time "
						"'%s'\n", optarg);
				return -1;
			}
			break;
		case 'j': o->json = true; break;
		case 'T': o->trace = true; break;
		case 'R': o->resolver = true; break;
		case 'q': o->question = optarg; break;
		case 'r': o->rcode = optarg; break;
		case 'z': o->zone = optarg; break;
		case 'h': return -2;
		default: return -1;
		}
	}
	return optind < argc ? optind : -1;
}

/* A directory given as a file is refused before anything is read. */
static int no_directory(const char *what, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	fprintf(stderr,
		"dnstrust verify: %s %s is a directory: give files (records "
		"as dig +dnssec prints them, or a zone file with --zone)\n",
		what, path);
	return -1;
}

static int no_directories(const struct verify_opts *o, int nfiles,
			  char **files)
{
	for (int i = 0; i < o->nanchors; i++)
		if (no_directory("--anchor", o->anchor_files[i]) < 0)
			return -1;
	for (int i = 0; i < nfiles; i++)
		if (no_directory("input", files[i]) < 0)
			return -1;
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts o = {0};
	struct input in = {.rcode = -1};
	int first = parse_args(argc, argv, &o), code = CLI_EXIT_INPUT;

	if (first == -2) {
		usage(stdout);
		cli_options_help(stdout, "zone anchor time json trace-after "
					 "resolver "
					 "question rcode");
		return 0;
	}
	if (first < 0) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (no_directories(&o, argc - first, argv + first) < 0)
		return CLI_EXIT_INPUT;
	if (o.zone)
		return cli_verify_zone(o.zone, o.anchor_files, o.nanchors,
				       o.now, o.json, argc - first,
				       argv + first);
	arena_init(&in.arena, 1u << 30);
	if (o.question && parse_question(&in, o.question) < 0) {
		fprintf(stderr, "dnstrust verify: bad question '%s'\n",
			o.question);
		code = CLI_EXIT_USAGE;
		goto out;
	}
	if (o.rcode && (in.rcode = rcode_from_str(o.rcode, strlen(o.rcode))) < 0) {
		fprintf(stderr, "dnstrust verify: bad rcode '%s'\n", o.rcode);
		code = CLI_EXIT_USAGE;
		goto out;
	}
	for (int i = first; i < argc; i++) {
		if (read_file(&in, argv[i]) < 0)
			goto out;
	}
	if (!in.has_question && infer_question(&in) < 0) {
		fprintf(stderr, "dnstrust verify: no question given and no "
				"data record to infer one from\n");
		goto out;
	}
	code = validate(&in, &o);
out:
	free(in.rr);
	free(in.sec);
	arena_free(&in.arena);
	return code;
}
