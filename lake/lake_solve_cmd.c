/* lake_solve_cmd.c - `lake solve`: a controller's configuration registers for
 * a requested stream of operations, by the configuration solver
 * (collateral/memsolve.h) on the collateral `<mem>.info.yaml` and `<mem>.smt2`.
 * The request is a stream file (one event per line) or an affine file (a
 * small YAML); both formats are in lake/COLLATERAL.md, "Solver requests". The
 * answer is written as configuration bus writes, the format `lake sim
 * --config` reads. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../collateral/memsolve.h"
#include "../common/util.h"
#include "../common/vec.h"
#include "../common/yamlr.h"
#include "lake_cmds.h"

static const char usage[] =
	"usage: lake solve DIR/<mem>.info.yaml --ctrl NAME (--stream FILE | --affine FILE) [-o REGS] [-q]\n"
	"  Solves controller NAME's configuration registers for the requested operations with Z3 on\n"
	"  DIR/<mem>.smt2 and confirms them with the functional model. A stream file has one event per\n"
	"  line, 'cycle address [address2]' (decimal, '#' comments); an affine file gives extents,\n"
	"  schedule and addresses (lake/COLLATERAL.md, \"Solver requests\"). Writes the controller's\n"
	"  registers and tile_en as configuration bus writes 'AAAAAAAA DDDDDDDD' (hex) to REGS or\n"
	"  stdout, the input of 'lake sim --config'. Exit status 1 if the request cannot be served.\n";

typedef struct SolveOpts {
	const char *info, *ctrl, *stream, *affine, *out;
	int quiet;
} SolveOpts;

static int parse_opts(int argc, char **argv, SolveOpts *o)
{
	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (strcmp(a, "--ctrl") == 0 && has)
			o->ctrl = argv[++i];
		else if (strcmp(a, "--stream") == 0 && has)
			o->stream = argv[++i];
		else if (strcmp(a, "--affine") == 0 && has)
			o->affine = argv[++i];
		else if (strcmp(a, "-o") == 0 && has)
			o->out = argv[++i];
		else if (strcmp(a, "-q") == 0)
			o->quiet = 1;
		else if (a[0] != '-' && !o->info)
			o->info = a;
		else {
			fprintf(stderr, "lake solve: unexpected argument '%s' (see lake solve --help)\n", a);
			return 0;
		}
	}
	if (!o->info || !o->ctrl || !o->stream == !o->affine) {
		fputs(usage, stderr);
		return 0;
	}
	return 1;
}

/* ---- the collateral ---- */

/* DIR/<mem>.smt2 next to the info file (__give), or NULL after a message. */
static char *read_smt2(const char *info, const MemInfo *mi)
{
	const char *slash = strrchr(info, '/');
	char *path = slash ? xasprintf("%.*s/%s.smt2", (int)(slash - info), info, mi->name)
		     : xasprintf("%s.smt2", mi->name);
	char *text = util_read_file(path, NULL);
	if (!text)
		fprintf(stderr, "lake: error: %s: cannot read: %s\n", path, util_read_why(errno));
	free(path);
	return text;
}

static int find_ctrl(const MemInfo *mi, const char *name)
{
	for (int c = 0; c < mi->nctrls; c++)
		if (strcmp(mi->ctrls[c].name, name) == 0)
			return c;
	fprintf(stderr, "lake: no controller '%s' in %s (controllers:", name, mi->name);
	for (int c = 0; c < mi->nctrls; c++)
		fprintf(stderr, " %s", mi->ctrls[c].name);
	fputs(")\n", stderr);
	return -1;
}

/* Addresses the controller takes, and "the address at X, then Y" for messages. */
static int ctrl_naddr(const MemInfo *mi, const MemCtrl *c, char *what, size_t len)
{
	int n = 0;
	snprintf(what, len, "no address");
	const MemAddrGen *g[2] = { c->src, c->dst };
	for (int k = 0; k < 2; k++)
		if (g[k]) {
			size_t at = strlen(what);
			if (n == 0)
				snprintf(what, len, "the address at %s", mem_end_name(mi, g[k]->end));
			else
				snprintf(what + at, len - at, ", then at %s", mem_end_name(mi, g[k]->end));
			n++;
		}
	return n;
}

/* ---- stream files ---- */

typedef struct StreamFile {
	VEC(int64_t) col[3];
	VEC(int) line;          /* source line of each event */
} StreamFile;

/* Reads a decimal number at *p (advanced): 1, 0 if there is none, -1 if it
 * does not fit 63 bits. */
static int read_number(const char **p, int64_t *v)
{
	const char *s = *p;
	int neg = *s == '-', big = 0;
	if (neg)
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	uint64_t u = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		big |= u > ((uint64_t)INT64_MAX - (uint64_t)(*s - '0')) / 10;
		u = big ? 0 : u * 10 + (uint64_t)(*s - '0');
	}
	if (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#')
		return 0;
	if (big)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	*p = s;
	return 1;
}

/* One line: want numbers, or none (blank or comment). */
static void read_event(StreamFile *sf, const char *path, int lineno, const char *line, int want,
		       const char *what, Diags *d)
{
	int64_t v[3];
	int n = 0;
	const char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			break;
		if (n == want) {
			diag_error(d, path, lineno, (int)(p - line) + 1,
				   "too many numbers: an event is the cycle, then %s", what);
			return;
		}
		int got = read_number(&p, &v[n]);
		if (got <= 0) {
			diag_error(d, path, lineno, (int)(p - line) + 1,
				   got < 0 ? "number too large" : "expected a decimal number");
			return;
		}
		n++;
	}
	if (n == 0)
		return;
	if (n < want) {
		diag_error(d, path, lineno, (int)(p - line) + 1,
			   "expected %d numbers: the cycle, then %s", want, what);
		return;
	}
	for (int k = 0; k < want; k++)
		vec_push(&sf->col[k], v[k]);
	vec_push(&sf->line, lineno);
}

/* Reads a stream file; 1 and s filled (arrays owned by sf), or 0 after errors. */
static int read_stream(const char *path, int naddr, const char *what, StreamFile *sf, MemStream *s,
		       Diags *d)
{
	char *text = util_read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "lake: error: %s: cannot read: %s\n", path, util_read_why(errno));
		return 0;
	}
	diags_add_source(d, path, text);
	int errors = diags_errors(d), lineno = 1;
	for (char *p = text;; lineno++) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		read_event(sf, path, lineno, p, 1 + naddr, what, d);
		if (!eol)
			break;
		p = eol + 1;
	}
	free(text);
	memset(s, 0, sizeof *s);
	s->n = sf->line.len;
	s->naddr = naddr;
	s->cycle = sf->col[0].data;
	for (int a = 0; a < naddr; a++)
		s->addr[a] = sf->col[1 + a].data;
	return diags_errors(d) == errors;
}

/* ---- affine files ---- */

/* A number of at least lo; what names it in messages ("the extent"). */
static int yint(const YNode *n, int64_t lo, int64_t *out, const char *what, Diags *d)
{
	long long v;
	if (n->kind != YN_SCALAR || yscalar_int(n, &v) != 0) {
		ynode_error(d, n, "expected a number for %s", what);
		return 0;
	}
	if (v < lo) {
		ynode_error(d, n, "%s %lld is less than %" PRId64, what, v, lo);
		return 0;
	}
	*out = v;
	return 1;
}

/* { start: N, strides: [N, ...] } with one stride per level. */
static int read_map(const YNode *n, const char *what, AffineMap *m, int dims, Diags *d)
{
	static const char *const keys[] = { "start", "strides", NULL };
	if (!ynode_expect(n, YN_MAP, "a mapping { start, strides }", d))
		return 0;
	int ok = ymap_check_keys(n, keys, what, d) == 0;
	const YNode *start = ymap_get(n, "start"), *strides = ymap_get(n, "strides");
	if (!start || !strides) {
		ynode_error(d, n, "%s needs 'start' and 'strides'", what);
		return 0;
	}
	ok &= yint(start, INT64_MIN, &m->offset, "the start", d);
	if (!ynode_expect(strides, YN_SEQ, "a list of strides", d))
		return 0;
	if (dims >= 0 && strides->len != dims) {
		ynode_error(d, strides, "%d strides for %d extents (one per level, innermost first)",
			    strides->len, dims);
		return 0;
	}
	for (int l = 0; l < strides->len; l++) {
		int64_t v = 0;
		ok &= yint(strides->items[l], INT64_MIN, &v, "the stride", d);
		if (l < AFFINE_MAX_DIMS)
			m->stride[l] = v;
	}
	m->dims = dims >= 0 ? dims : 0;
	return ok;
}

static int read_extents(const YNode *root, AffineMap *sched, Diags *d)
{
	const YNode *ext = ymap_get(root, "extents");
	if (!ext) {
		ynode_error(d, root, "missing 'extents'");
		return 0;
	}
	if (!ynode_expect(ext, YN_SEQ, "a list of extents (innermost first)", d))
		return 0;
	if (ext->len > AFFINE_MAX_DIMS) {
		ynode_error(d, ext, "%d levels (at most %d)", ext->len, AFFINE_MAX_DIMS);
		return 0;
	}
	int ok = 1;
	for (int l = 0; l < ext->len; l++)
		ok &= yint(ext->items[l], 1, &sched->extent[l], "the extent", d);
	sched->dims = ext->len;
	return ok;
}

static int read_addresses(const YNode *root, MemAffineReq *r, int naddr, const char *what, int dims,
			  Diags *d)
{
	const YNode *addrs = ymap_get(root, "addresses");
	int have = addrs && addrs->kind == YN_SEQ ? addrs->len : 0;
	if (addrs && !ynode_expect(addrs, YN_SEQ, "a list of address maps", d))
		return 0;
	if (have != naddr) {
		ynode_error(d, addrs ? addrs : root, "%d address map%s; the controller takes %s", have,
			    have == 1 ? "" : "s", what);
		return 0;
	}
	int ok = 1;
	r->naddr = naddr;
	for (int a = 0; a < naddr; a++)
		ok &= read_map(addrs->items[a], "an address map", &r->addr[a], dims, d);
	return ok;
}

/* A solver request's file: what the controller takes, the request read. */
typedef struct Request {
	int naddr;
	const char *what;
	MemAffineReq *r;
	Diags *d;
} Request;

static void read_request(void *ctx, const YNode *root)
{
	static const char *const keys[] = { "extents", "schedule", "addresses", NULL };
	Request *q = ctx;
	Diags *d = q->d;
	ymap_check_keys(root, keys, "a solver request", d);
	/* without usable extents the maps are still read, for their own errors */
	int dims = read_extents(root, &q->r->sched, d) ? q->r->sched.dims : -1;
	const YNode *sched = ymap_get(root, "schedule");
	if (!sched)
		ynode_error(d, root, "missing 'schedule'");
	else
		read_map(sched, "the schedule", &q->r->sched, dims, d);
	read_addresses(root, q->r, q->naddr, q->what, dims, d);
}

static int read_affine(const char *path, int naddr, const char *what, MemAffineReq *r, Diags *d)
{
	Request q = { naddr, what, r, d };
	YDoc *doc;
	memset(r, 0, sizeof *r);
	int ok = ydoc_read(path, NULL, NULL, "a mapping with extents, schedule and addresses", read_request, &q,
			   &doc, d);
	ydoc_free(doc);
	return ok;
}

/* ---- the answer ---- */

static void write_regs(const MemInfo *mi, int ctrl, const uint32_t *regs, FILE *f)
{
	const MemReg *te = &mi->regs[mi->tile_en];
	for (int i = 0; i < mi->nregs; i++)
		if (mi->regs[i].feature == ctrl + 1)
			fprintf(f, "%08" PRIx32 " %08" PRIx32 "\n", mem_reg_address(&mi->regs[i]), regs[i]);
	/* last: the tile runs from the cycle tile_en is written */
	fprintf(f, "%08" PRIx32 " %08" PRIx32 "\n", mem_reg_address(te), (uint32_t)1);
}

static int emit(const SolveOpts *o, const MemInfo *mi, int ctrl, const uint32_t *regs)
{
	if (!o->out) {
		write_regs(mi, ctrl, regs, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	OutSet *set = outset_new();
	FILE *f = outset_open(set, o->out);
	if (!f) {
		outset_abort(set);
		return 1;
	}
	write_regs(mi, ctrl, regs, f);
	return outset_commit(set) == 0 ? 0 : 1;
}

/* The event a reason names, at its line of the stream file. */
static void note_event(const char *path, const StreamFile *sf, long event, Diags *d)
{
	if (path && event >= 0 && event < sf->line.len) {
		diag_note(d, path, sf->line.data[event], 1, "event %ld", event);
		diags_flush(d);
	}
}

/* Event k of an affine request is a point of its domain (level 0 fastest). */
static void note_point(const AffineMap *m, long k)
{
	if (k < 0)
		return;
	fprintf(stderr, "lake: event %ld is the point (", k);
	for (int l = 0; l < m->dims; l++) {
		fprintf(stderr, "%s%ld", l ? ", " : "", k % (long)m->extent[l]);
		k /= (long)m->extent[l];
	}
	fprintf(stderr, ") of the domain, innermost level first\n");
}

static void summary(const SolveOpts *o, const MemInfo *mi, int ctrl, long events, const MemSolveStats *st)
{
	char nest[200] = "";
	size_t at = 0;
	for (int l = 0; l < st->levels && l < MEM_MAX_DIMS && at < sizeof nest; l++)
		at += (size_t)snprintf(nest + at, sizeof nest - at, "%s%" PRId64, l ? " x " : "",
				       st->extent[l]);
	fprintf(stderr, "lake solve: %s %s: %ld event%s, loop nest %s, %d Z3 call%s (%d event%s given), "
		"%.3f s -> %s\n", mi->name, mi->ctrls[ctrl].name, events, events == 1 ? "" : "s",
		st->levels ? nest : "(one point)", st->iterations, st->iterations == 1 ? "" : "s",
		st->events_used, st->events_used == 1 ? "" : "s", st->seconds, o->out ? o->out : "stdout");
}

/* Points of the request's domain (saturating). */
static long domain_size(const AffineMap *m)
{
	long n = 1;
	for (int l = 0; l < m->dims; l++)
		n = m->extent[l] > 0 && n <= LONG_MAX / m->extent[l] ? n * (long)m->extent[l] : LONG_MAX;
	return n;
}

/* Reads the request and solves; the exit status. */
static int solve(const SolveOpts *o, const MemInfo *mi, const char *smt2, int ctrl, Diags *d)
{
	char what[200], why[512] = "";
	int naddr = ctrl_naddr(mi, &mi->ctrls[ctrl], what, sizeof what);
	uint32_t *regs = xcalloc((size_t)mi->nregs + 1, sizeof(uint32_t));
	StreamFile sf;
	memset(&sf, 0, sizeof sf);
	MemSolveStats st;
	memset(&st, 0, sizeof st);
	long events = 0;
	int read, ok = 0;
	MemAffineReq r;
	memset(&r, 0, sizeof r);
	if (o->stream) {
		MemStream s;
		read = read_stream(o->stream, naddr, what, &sf, &s, d);
		events = s.n;
		ok = read && memsolve_stream(mi, smt2, ctrl, &s, regs, why, sizeof why, &st);
	} else {
		read = read_affine(o->affine, naddr, what, &r, d);
		events = read ? domain_size(&r.sched) : 0;
		ok = read && memsolve_affine(mi, smt2, ctrl, &r, regs, why, sizeof why, &st);
	}
	diags_flush(d);
	int status = 1;
	if (ok) {
		status = emit(o, mi, ctrl, regs);
		if (status == 0 && !o->quiet)
			summary(o, mi, ctrl, events, &st);
	} else if (read) {
		fprintf(stderr, "lake: %s\n", why);
		note_event(o->stream, &sf, st.event, d);
		if (o->affine)
			note_point(&r.sched, st.event);
	} else {
		fprintf(stderr, "lake: %d error%s in %s\n", diags_errors(d), diags_errors(d) == 1 ? "" : "s",
			o->stream ? o->stream : o->affine);
	}
	for (int k = 0; k < 3; k++)
		vec_free(&sf.col[k]);
	vec_free(&sf.line);
	free(regs);
	return status;
}

int lake_cmd_solve(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
	SolveOpts o;
	if (!parse_opts(argc, argv, &o))
		return 2;
	Diags *d = diags_new(stderr);
	MemInfo *mi = meminfo_load(o.info, d);
	int status = 1;
	if (!mi) {
		int errors = diags_errors(d);
		diags_flush(d);
		fprintf(stderr, "lake: %d error%s in %s\n", errors, errors == 1 ? "" : "s", o.info);
	} else {
		char *smt2 = read_smt2(o.info, mi);
		int ctrl = smt2 ? find_ctrl(mi, o.ctrl) : -1;
		if (ctrl >= 0)
			status = solve(&o, mi, smt2, ctrl, d);
		free(smt2);
		meminfo_free(mi);
	}
	diags_free(d);
	return status;
}
