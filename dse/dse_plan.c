/* dse_plan.c - a sweep's points as files: each point's interconnect spec
 * (the base spec with the point's knobs applied), its settings for
 * scripts/dse_point.sh, and the make file that runs the points. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/util.h"
#include "dse.h"

/* A value the point sets at a path of the spec ("tracks.16"); value NULL
 * removes the key. */
typedef struct Override {
	const char *path, *value;
} Override;

typedef struct Spec {
	Override *ov;       /* room for every knob's and dse's own */
	int nov, cap;
	Arena *arena;
} Spec;

/* The index of the override at path, or -1. */
static int find(const Spec *sp, const char *path)
{
	for (int i = 0; i < sp->nov; i++)
		if (strcmp(sp->ov[i].path, path) == 0)
			return i;
	return -1;
}

static void set(Spec *sp, const char *path, const char *value)
{
	int i = find(sp, path);
	if (i >= 0)
		sp->ov[i].value = value;
	else if (ALWAYS(sp->nov < sp->cap))
		sp->ov[sp->nov++] = (Override){ path, value };
}

const char *dse_relative(Arena *a, const char *dir, const char *path)
{
	char from[PATH_MAX], to[PATH_MAX];
	if (!realpath(dir, from) || !realpath(path, to))
		return NULL;
	size_t i = 0, common = 0;
	for (; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i;
	if (!from[i] && to[i] == '/')
		common = i;     /* dir holds path */
	StrBuf b = { 0 };
	for (const char *p = from + common; *p; p++)
		if (*p == '/')
			sb_printf(&b, "../");
	sb_printf(&b, "%s", to + common + 1);
	const char *r = arena_strdup(a, b.s);
	free(b.s);
	return r;
}

/* ---- writing the spec: the base's tree with the overrides, the top level
 * in block style, everything below it in flow style ---- */

static int has_prefix(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	return n == 0 || (strncmp(path, prefix, n) == 0 && path[n] == '.');
}

static const char *child_path(Arena *a, const char *path, const char *key)
{
	return *path ? arena_printf(a, "%s.%s", path, key) : key;
}

/* 1 if s reads back as the same plain scalar inside a flow collection
 * (numbers and true/false stay what the spec language reads them as). */
static int plain_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || s[0] == ' ' || s[n - 1] == ' ' || (strchr("?:,[]{}#&*!|>'\"%@`", s[0])) ||
	    (s[0] == '-' && !(s[1] >= '0' && s[1] <= '9')) || strpbrk(s, ",[]{}\n\t") || strstr(s, ": ") ||
	    strstr(s, " #"))
		return 0;
	return s[n - 1] != ':';
}

static void text_scalar(FILE *f, const char *s, int quoted)
{
	if (!quoted && plain_ok(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void scalar(FILE *f, const YNode *n)
{
	text_scalar(f, n->value, n->style != YS_PLAIN);
}

static void value(FILE *f, const Spec *sp, const YNode *n, const char *path);

/* The overrides below path whose key is not in map m (NULL: none exists),
 * as "key: value" pairs; *first tells whether a separator is due. */
static void missing(FILE *f, const Spec *sp, const YNode *m, const char *path, int block, int *first)
{
	size_t skip = *path ? strlen(path) + 1 : 0;
	for (int i = 0; i < sp->nov; i++) {
		const Override *o = &sp->ov[i];
		if (!has_prefix(o->path, path))
			continue;
		const char *rest = o->path + skip;
		size_t klen = strcspn(rest, ".");
		char *key = arena_strndup(sp->arena, rest, klen);
		if (ymap_get(m, key))
			continue;
		int seen = 0;
		for (int j = 0; j < i; j++)
			if (has_prefix(sp->ov[j].path, path) &&
			    strncmp(sp->ov[j].path + skip, key, klen) == 0 && strchr(".", sp->ov[j].path[skip + klen]))
				seen = 1;
		if (seen || (!rest[klen] && !o->value))
			continue;
		fputs(block ? "" : *first ? "" : ", ", f);
		*first = 0;
		fprintf(f, "%s: ", key);
		if (!rest[klen]) {
			text_scalar(f, o->value, 0);
		} else {
			int inner = 1;
			fputs("{ ", f);
			missing(f, sp, NULL, child_path(sp->arena, path, key), 0, &inner);
			fputs(" }", f);
		}
		if (block)
			fputc('\n', f);
	}
}

/* The pairs of map m at path; block: one per line (the top level). */
static void pairs(FILE *f, const Spec *sp, const YNode *m, const char *path, int block)
{
	int first = 1;
	for (int i = 0; i < m->len; i++) {
		const char *p = child_path(sp->arena, path, m->keys[i]->value);
		int k = find(sp, p);
		const Override *o = k >= 0 ? &sp->ov[k] : NULL;
		if (o && !o->value)
			continue;
		fputs(block || first ? "" : ", ", f);
		first = 0;
		scalar(f, m->keys[i]);
		fputs(": ", f);
		if (o)
			text_scalar(f, o->value, 0);
		else
			value(f, sp, m->vals[i], p);
		if (block)
			fputc('\n', f);
	}
	missing(f, sp, m, path, block, &first);
}

static void value(FILE *f, const Spec *sp, const YNode *n, const char *path)
{
	switch (n->kind) {
	case YN_SCALAR:
		scalar(f, n);
		break;
	case YN_SEQ:
		fputc('[', f);
		for (int i = 0; i < n->len; i++) {
			fputs(i ? ", " : "", f);
			value(f, sp, n->items[i], arena_printf(sp->arena, "%s.#%d", path, i));
		}
		fputc(']', f);
		break;
	case YN_MAP:
		fputs(n->len ? "{ " : "{", f);
		pairs(f, sp, n, path, 0);
		fputs(n->len ? " }" : "}", f);
		break;
	}
}

/* ---- the point's files ---- */

/* A word for a POSIX shell: single-quoted. */
static void shell_word(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* Text for a comment line: control characters (a newline in a path) as '?'. */
static void comment_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < ' ' || *s == 127 ? '?' : *s, f);
}

/* An integer knob's value as canal and cgrac read it: decimal, no sign or
 * prefix (the sweep may write 0x10 or +3). */
static const char *int_text(const Sweep *s, const YNode *v)
{
	long long x = 0;
	if (!ALWAYS(yscalar_int(v, &x) == 0))
		return v->value;
	return arena_printf(s->arena, "%lld", x);
}

char *dse_point_spec(const Sweep *s, int k, const char *dir)
{
	const Point *p = &s->points[k];
	Spec sp = { .arena = s->arena, .cap = 2 * s->nknobs + 4 };
	sp.ov = arena_alloc(s->arena, (size_t)sp.cap * sizeof *sp.ov);
	set(&sp, "interconnect", arena_printf(s->arena, "%s_%d", s->name, k + 1));
	const char *pe = dse_point_spec_file(s, p, KNOB_PE), *mem = dse_point_spec_file(s, p, KNOB_MEM);
	for (int i = 0; i < s->nknobs; i++) {
		const YNode *v = p->values[i];
		if (!v)
			continue;
		const Knob *kn = &s->knobs[i];
		switch (kn->kind) {
		case KNOB_TRACKS: set(&sp, arena_printf(s->arena, "tracks.%d", kn->width), int_text(s, v)); break;
		case KNOB_SWITCHBOX: set(&sp, "switchbox", v->value); break;
		case KNOB_SB_REGISTERS: set(&sp, "registers.switchbox_outputs", v->value); break;
		case KNOB_MEM_EVERY: set(&sp, "cores.mem.columns.every", int_text(s, v)); break;
		case KNOB_MEM_FIRST: set(&sp, "cores.mem.columns.first", int_text(s, v)); break;
		case KNOB_COLS: set(&sp, "array.cols", int_text(s, v)); break;
		case KNOB_ROWS: set(&sp, "array.rows", int_text(s, v)); break;
		case KNOB_ARRAY: {
			size_t x = strcspn(v->value, "x");
			set(&sp, "array.cols", arena_printf(s->arena, "%d", atoi(v->value)));
			set(&sp, "array.rows", arena_printf(s->arena, "%d", atoi(v->value + x + 1)));
			break;
		}
		default: break;
		}
	}
	const char *pe_rel = pe ? dse_relative(s->arena, dir, pe) : NULL;
	const char *mem_rel = mem ? dse_relative(s->arena, dir, mem) : NULL;
	if (!pe_rel || (mem && !mem_rel)) {
		fprintf(stderr, "dse: error: cannot resolve the core specs of point %s from %s\n", p->label, dir);
		return NULL;
	}
	set(&sp, "cores.pe.spec", pe_rel);
	if (mem_rel)
		set(&sp, "cores.mem.spec", mem_rel);
	else
		set(&sp, "cores.mem", NULL);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "# point %d of %d of the sweep %s (", k + 1, s->npoints, s->name);
	comment_text(f, s->file);
	fputs("): ", f);
	comment_text(f, p->label);
	fputs("\n# the base ", f);
	comment_text(f, s->base_path);
	fputs(" with the point's knobs; written by bin/dse plan\n", f);
	pairs(f, &sp, s->base->root, "", 1);
	fclose(f);
	return text;
}

/* Appends option o (and its number) to the point's cgrac options. */
static void opt(FILE *f, const char *o, const char *num)
{
	fputc(' ', f);
	shell_word(f, o);
	if (num) {
		fputc(' ', f);
		shell_word(f, num);
	}
}

char *dse_point_env(const Sweep *s, int k)
{
	const Point *p = &s->points[k];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "# point %d of %d of the sweep %s: read by scripts/dse_point.sh\n", k + 1, s->npoints, s->name);
	fprintf(f, "INDEX=%d\nCOUNT=%d\nLABEL=", k + 1, s->npoints);
	shell_word(f, p->label);
	fputs("\nAPPS=", f);
	StrBuf b = { 0 };
	for (int i = 0; i < s->napps; i++)
		sb_printf(&b, "%s%s", i ? " " : "", s->apps[i]);
	shell_word(f, b.s ? b.s : "");
	free(b.s);
	/* an array: each option one word, never split or globbed */
	fputs("\nCGRAC_OPTS=(", f);
	for (int i = 0; i < s->nopts; i++)
		opt(f, s->cgrac_opts[i], NULL);
	for (int i = 0; i < s->nknobs; i++) {
		const YNode *v = p->values[i];
		if (!v)
			continue;
		switch (s->knobs[i].kind) {
		case KNOB_HOP_LIMIT: opt(f, "--hop-limit", int_text(s, v)); break;
		case KNOB_PLACE_SEED: opt(f, "--place-seed", int_text(s, v)); break;
		case KNOB_PACKING:
			if (strcmp(v->value, "false") == 0)
				opt(f, "--no-register-packing", NULL);
			break;
		case KNOB_PIPELINE:
			if (strcmp(v->value, "false") == 0)
				opt(f, "--no-pipeline", NULL);
			break;
		default: break;
		}
	}
	fputs(" )\n", f);
	fclose(f);
	return text;
}

/* ---- writing the plan ---- */

/* 1 if the file at path holds exactly text (read at most one byte more). */
static int holds(const char *path, const char *text)
{
	size_t len = strlen(text), got;
	if (dse_file_problem(path, len))
		return 0;
	char *old = util_read_file_max(path, &got, len);
	int same = old && got == len && memcmp(old, text, len) == 0;
	free(old);
	return same;
}

/* A file of the plan whose text changed. */
typedef struct PlanFile {
	char *path, *text;
	int point;          /* its point; -1 for points.mk */
} PlanFile;

typedef struct Plan {
	PlanFile *files;
	int nfiles;
	size_t bytes;       /* of every text made */
	char **made;        /* folders made, parents first */
	int nmade;
} Plan;

static void plan_add(Plan *pl, char *path, char *text, int point, int force)
{
	pl->bytes += strlen(text);
	if (!force && holds(path, text)) {
		free(path);
		free(text);
		return;
	}
	pl->files = xrealloc(pl->files, (size_t)(pl->nfiles + 1) * sizeof *pl->files);
	pl->files[pl->nfiles++] = (PlanFile){ path, text, point };
}

/* Makes folder dir and its missing parents, remembering those it made; 0
 * with a message if it cannot. */
static int plan_mkdir(Plan *pl, const char *dir)
{
	if (util_is_dir(dir))
		return 1;
	char *parent = xstrdup(dir);
	char *slash = strrchr(parent, '/');
	while (slash && slash > parent && slash[1] == 0) {
		*slash = 0;
		slash = strrchr(parent, '/');
	}
	int ok = 1;
	if (slash && slash > parent) {
		*slash = 0;
		ok = plan_mkdir(pl, parent);
	}
	free(parent);
	if (ok && mkdir(dir, 0777) != 0 && !(errno == EEXIST && util_is_dir(dir))) {
		fprintf(stderr, "dse: error: %s: cannot create the folder: %s\n", dir,
			errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
		ok = 0;
	} else if (ok) {
		pl->made = xrealloc(pl->made, (size_t)(pl->nmade + 1) * sizeof *pl->made);
		pl->made[pl->nmade++] = xstrdup(dir);
	}
	return ok;
}

/* The files open at once in one OutSet: what the limit of open files
 * leaves, raised to its hard limit first. */
static int set_size(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 64;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	rlim_t n = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1 << 20 ? 1 << 20 : rl.rlim_cur;
	return n > 48 ? (int)(n - 32) : 16;
}

/* Writes the plan's files: one OutSet, points.mk its marker, when they fit
 * the open files at once; else points.mk is removed first, the points go
 * in sets of whole points and points.mk last. 1 if every file was written. */
static int plan_write(const Plan *pl, const char *mkpath)
{
	int max = set_size(), i = 0, ok = 1;
	if (pl->nfiles > max && unlink(mkpath) != 0 && errno != ENOENT) {
		fprintf(stderr, "dse: error: %s: cannot remove: %s\n", mkpath, strerror(errno));
		return 0;
	}
	while (i < pl->nfiles && ok) {
		OutSet *set = outset_new();
		int n = 0;
		/* a point's files stay in one set */
		for (; i < pl->nfiles && ok; i++, n++) {
			const PlanFile *f = &pl->files[i];
			if (n + 2 > max && f->point >= 0 && f->point != pl->files[i - 1].point)
				break;
			FILE *fp = f->point < 0 ? outset_open_marker(set, f->path) : outset_open(set, f->path);
			ok = fp != NULL;
			if (fp)
				fputs(f->text, fp);
		}
		ok = ok ? outset_commit(set) == 0 : (outset_abort(set), 0);
	}
	return ok;
}

static void plan_free(Plan *pl, int failed)
{
	for (int i = 0; i < pl->nfiles; i++) {
		free(pl->files[i].path);
		free(pl->files[i].text);
	}
	/* a failed plan removes the folders it made (those still empty) */
	for (int i = pl->nmade - 1; i >= 0; i--) {
		if (failed)
			rmdir(pl->made[i]);
		free(pl->made[i]);
	}
	free(pl->files);
	free(pl->made);
}

/* points.mk: a target per point. */
static char *points_mk(const Sweep *s, const char *dir)
{
	StrBuf mk = { 0 };
	sb_printf(&mk, "# The points of the sweep %s, written by bin/dse plan: each a target that\n"
		  "# scripts/dse_point.sh makes, run through $(LAUNCH) (e.g. srun -N1 -n1).\n"
		  "DSE_TOOLS := bin/peak bin/lake bin/canal bin/cgrac bin/cgrasim scripts/dse_point.sh scripts/rtl.sh \\\n"
		  "             scripts/area.sh\n"
		  "DSE_APPS :=", s->name);
	for (int i = 0; i < s->napps; i++)
		sb_printf(&mk, " $(wildcard apps/%s/*)", s->apps[i]);
	sb_printf(&mk, "\n.PHONY: all\nall:");
	for (int i = 0; i < s->npoints; i++)
		sb_printf(&mk, " %s/%s/result.txt", dir, s->points[i].name);
	sb_printf(&mk, "\n");
	for (int i = 0; i < s->npoints; i++) {
		const Point *p = &s->points[i];
		const char *pe = dse_point_spec_file(s, p, KNOB_PE), *mem = dse_point_spec_file(s, p, KNOB_MEM);
		sb_printf(&mk, "%s/%s/result.txt: %s/%s/spec.yaml %s/%s/point.env $(DSE_TOOLS) $(DSE_APPS) %s %s\n"
			  "\t$(LAUNCH) bash scripts/dse_point.sh %s/%s\n",
			  dir, p->name, dir, p->name, dir, p->name, pe ? pe : "", mem ? mem : "", dir, p->name);
	}
	return mk.s;
}

int dse_plan(const Sweep *s, const char *dir)
{
	if (!dse_path_safe(dir)) {
		fprintf(stderr, "dse: error: %s: the output folder's path must be made of " "letters, digits and "
			"/ . _ - + , @ (points.mk names it)\n", dir);
		return 0;
	}
	Plan pl = { 0 };
	int ok = plan_mkdir(&pl, dir);
	for (int i = 0; i < s->npoints && ok; i++) {
		char *pdir = util_path_join(dir, s->points[i].name);
		char *spec = NULL;
		ok = plan_mkdir(&pl, pdir) && (spec = dse_point_spec(s, i, pdir)) != NULL;
		if (ok && pl.bytes + strlen(spec) > DSE_PLAN_MAX) {
			fprintf(stderr, "dse: error: %s: the points' files would take more than %zu bytes (%d points of "
				"about %zu bytes): a smaller sweep or base\n", s->file, DSE_PLAN_MAX, s->npoints,
				strlen(spec));
			free(spec);
			ok = 0;
		}
		if (ok) {
			plan_add(&pl, util_path_join(pdir, "spec.yaml"), spec, i, 0);
			plan_add(&pl, util_path_join(pdir, "point.env"), dse_point_env(s, i), i, 0);
		}
		free(pdir);
	}
	char *mkpath = util_path_join(dir, "points.mk");
	if (ok)
		plan_add(&pl, xstrdup(mkpath), points_mk(s, dir), -1, pl.nfiles > 0); /* the marker of any change */
	ok = ok && plan_write(&pl, mkpath);
	free(mkpath);
	plan_free(&pl, !ok);
	return ok;
}
