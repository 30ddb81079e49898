/* dse_plan.c - a sweep's points as files: each point's interconnect spec
 * (the base spec with the point's knobs applied), its settings for
 * scripts/dse_point.sh, and the make file that runs the points. */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "dse.h"

/* A value the point sets at a path of the spec ("tracks.16"); value NULL
 * removes the key. */
typedef struct Override {
	const char *path, *value;
} Override;

typedef struct Spec {
	Override ov[32];
	int nov;
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
	else if (ALWAYS(sp->nov < 32))
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

/* Writes text to path unless the file holds it already; 0 with a message
 * if it cannot. */
static int write_if_changed(const char *path, const char *text)
{
	size_t len;
	char *old = util_read_file(path, &len);
	int same = old && len == strlen(text) && memcmp(old, text, len) == 0;
	free(old);
	if (same)
		return 1;
	OutSet *set = outset_new();
	FILE *f = outset_open(set, path);
	if (!f) {
		outset_abort(set);
		return 0;
	}
	fputs(text, f);
	return outset_commit(set) == 0;
}

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

/* The spec of point k (1-based) in its folder dir; NULL if a core spec's
 * path cannot be resolved. */
static char *point_spec(const Sweep *s, const Point *p, int k, const char *dir)
{
	Spec sp = { .arena = s->arena };
	set(&sp, "interconnect", arena_printf(s->arena, "%s_%d", s->name, k));
	const char *pe = dse_point_spec_file(s, p, KNOB_PE), *mem = dse_point_spec_file(s, p, KNOB_MEM);
	for (int i = 0; i < s->nknobs; i++) {
		const YNode *v = p->values[i];
		if (!v)
			continue;
		const Knob *kn = &s->knobs[i];
		switch (kn->kind) {
		case KNOB_TRACKS: set(&sp, arena_printf(s->arena, "tracks.%d", kn->width), v->value); break;
		case KNOB_SWITCHBOX: set(&sp, "switchbox", v->value); break;
		case KNOB_SB_REGISTERS: set(&sp, "registers.switchbox_outputs", v->value); break;
		case KNOB_MEM_EVERY: set(&sp, "cores.mem.columns.every", v->value); break;
		case KNOB_MEM_FIRST: set(&sp, "cores.mem.columns.first", v->value); break;
		case KNOB_COLS: set(&sp, "array.cols", v->value); break;
		case KNOB_ROWS: set(&sp, "array.rows", v->value); break;
		case KNOB_ARRAY: {
			size_t x = strcspn(v->value, "x");
			set(&sp, "array.cols", arena_strndup(s->arena, v->value, x));
			set(&sp, "array.rows", v->value + x + 1);
			break;
		}
		default: break;
		}
	}
	const char *pe_rel = pe ? dse_relative(s->arena, dir, pe) : NULL;
	const char *mem_rel = mem ? dse_relative(s->arena, dir, mem) : NULL;
	if (!pe_rel || (mem && !mem_rel)) {
		fprintf(stderr, "dse: cannot resolve the core specs of point %s from %s\n", p->label, dir);
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
	fprintf(f, "# point %d of %d of the sweep %s (%s): %s\n", k, s->npoints, s->name, s->file, p->label);
	fprintf(f, "# the base %s with the point's knobs; written by bin/dse plan\n", s->base_path);
	pairs(f, &sp, s->base->root, "", 1);
	fclose(f);
	return text;
}

/* The point's settings for scripts/dse_point.sh, as shell assignments. */
static char *point_env(const Sweep *s, const Point *p, int k)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "# point %d of %d of the sweep %s: read by scripts/dse_point.sh\n", k, s->npoints, s->name);
	fprintf(f, "INDEX=%d\nCOUNT=%d\nLABEL=", k, s->npoints);
	shell_word(f, p->label);
	fputs("\nAPPS=", f);
	StrBuf b = { 0 };
	for (int i = 0; i < s->napps; i++)
		sb_printf(&b, "%s%s", i ? " " : "", s->apps[i]);
	shell_word(f, b.s ? b.s : "");
	free(b.s);
	b = (StrBuf){ 0 };
	for (int i = 0; i < s->nopts; i++)
		sb_printf(&b, "%s%s", b.len ? " " : "", s->cgrac_opts[i]);
	for (int i = 0; i < s->nknobs; i++) {
		const YNode *v = p->values[i];
		if (!v)
			continue;
		switch (s->knobs[i].kind) {
		case KNOB_HOP_LIMIT: sb_printf(&b, "%s--hop-limit %s", b.len ? " " : "", v->value); break;
		case KNOB_PLACE_SEED: sb_printf(&b, "%s--place-seed %s", b.len ? " " : "", v->value); break;
		case KNOB_PACKING:
		case KNOB_PIPELINE:
			if (strcmp(v->value, "false") == 0)
				sb_printf(&b, "%s%s", b.len ? " " : "",
					  s->knobs[i].kind == KNOB_PACKING ? "--no-register-packing" : "--no-pipeline");
			break;
		default: break;
		}
	}
	fputs("\nCGRAC_OPTS=", f);
	shell_word(f, b.s ? b.s : "");
	fputc('\n', f);
	free(b.s);
	fclose(f);
	return text;
}

int dse_plan(const Sweep *s, const char *dir)
{
	StrBuf mk = { 0 };
	sb_printf(&mk, "# The points of %s, written by bin/dse plan: each a target that\n"
		  "# scripts/dse_point.sh makes, run through $(LAUNCH) (e.g. srun -N1 -n1).\n"
		  "DSE_TOOLS := bin/peak bin/lake bin/canal bin/cgrac scripts/dse_point.sh scripts/area.sh\n"
		  "DSE_APPS :=", s->file);
	for (int i = 0; i < s->napps; i++)
		sb_printf(&mk, " $(wildcard apps/%s/*)", s->apps[i]);
	sb_printf(&mk, "\n.PHONY: all\nall:");
	for (int i = 0; i < s->npoints; i++)
		sb_printf(&mk, " %s/%s/result.txt", dir, s->points[i].name);
	sb_printf(&mk, "\n");
	int ok = 1;
	for (int i = 0; i < s->npoints && ok; i++) {
		const Point *p = &s->points[i];
		char *pdir = util_path_join(dir, p->name);
		char *spec = NULL, *env = NULL;
		ok = util_mkdir_p(pdir) == 0;
		if (!ok)
			fprintf(stderr, "dse: cannot create %s\n", pdir);
		ok = ok && (spec = point_spec(s, p, i + 1, pdir)) != NULL;
		env = ok ? point_env(s, p, i + 1) : NULL;
		char *spath = util_path_join(pdir, "spec.yaml"), *epath = util_path_join(pdir, "point.env");
		ok = ok && write_if_changed(spath, spec) && write_if_changed(epath, env);
		if (ok) {
			const char *pe = dse_point_spec_file(s, p, KNOB_PE), *mem = dse_point_spec_file(s, p, KNOB_MEM);
			sb_printf(&mk, "%s/result.txt: %s %s $(DSE_TOOLS) $(DSE_APPS) %s %s\n"
				  "\t$(LAUNCH) bash scripts/dse_point.sh %s\n",
				  pdir, spath, epath, pe ? pe : "", mem ? mem : "", pdir);
		}
		free(spath);
		free(epath);
		free(spec);
		free(env);
		free(pdir);
	}
	char *mkpath = util_path_join(dir, "points.mk");
	ok = ok && write_if_changed(mkpath, mk.s);
	free(mkpath);
	free(mk.s);
	return ok;
}
