/* dse_sweep.c - reading a sweep file (dse/README.md) and expanding its
 * points: every knob and value is checked here, at its position, so that a
 * sweep with a wrong name or a value out of range runs nothing. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/strmap.h"
#include "../common/util.h"
#include "../common/vec.h"
#include "dse.h"

/* The knobs, with the values each takes. */
static const struct {
	const char *name;
	KnobKind kind;
	const char *what;
} knob_table[] = {
	{ "pe", KNOB_PE, "a PE spec: a name of peak/specs/ or a path to a .yaml file" },
	{ "mem", KNOB_MEM, "a MEM spec: a name of lake/specs/, a path to a .yaml file, or none" },
	{ "switchbox", KNOB_SWITCHBOX, "imran, wilton or disjoint" },
	{ "sb_registers", KNOB_SB_REGISTERS, "true or false (registers on the switch-box outputs)" },
	{ "mem_every", KNOB_MEM_EVERY, "1 to 255 (a MEM column every so many columns)" },
	{ "mem_first", KNOB_MEM_FIRST, "0 to 255 (the first MEM column)" },
	{ "array", KNOB_ARRAY, "COLSxROWS, e.g. 16x8" },
	{ "cols", KNOB_COLS, "2 to 255" },
	{ "rows", KNOB_ROWS, "2 to 254" },
	{ "hop_limit", KNOB_HOP_LIMIT, "0 to 1000 (cgrac --hop-limit)" },
	{ "register_packing", KNOB_PACKING, "true or false (false: cgrac --no-register-packing)" },
	{ "pipeline", KNOB_PIPELINE, "true or false (false: cgrac --no-pipeline)" },
	{ "place_seed", KNOB_PLACE_SEED, "0 to 2147483647 (cgrac --place-seed)" },
};
#define NKNOB_TABLE ((int)(sizeof knob_table / sizeof knob_table[0]))

static const char *const switchboxes[] = { "imran", "wilton", "disjoint", NULL };

/* ---- files ---- */

const char *dse_file_problem(const char *path, size_t max)
{
	static char why[160];
	struct stat st;
	if (!*path)
		return "an empty path";
	if (stat(path, &st) != 0)
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "a folder, not a file";
	if (!S_ISREG(st.st_mode))
		return "not a regular file (a device, a pipe or a socket)";
	if ((unsigned long long)st.st_size > max) {
		snprintf(why, sizeof why, "file too large: %llu bytes, the limit is %zu",
			 (unsigned long long)st.st_size, max);
		return why;
	}
	if (access(path, R_OK) != 0)
		return strerror(errno);
	return NULL;
}

char *dse_read_text(const char *path, size_t max, size_t *len, Diags *d)
{
	size_t n = 0;
	const char *why = dse_file_problem(path, max);
	char *text = why ? NULL : util_read_file_max(path, &n, max);
	if (!why && !text)
		why = util_read_why(errno);
	if (why) {
		diag_error(d, path, 0, 0, "%s", why);
		return NULL;
	}
	if (!diags_check_nul(d, path, text, n)) {
		free(text);
		return NULL;
	}
	if (len)
		*len = n;
	return text;
}

YDoc *dse_load_yaml(const char *path, Diags *d)
{
	size_t len;
	char *text = dse_read_text(path, YAML_READ_MAX, &len, d);
	YDoc *doc = text ? ydoc_load_string(path, text, d) : NULL;
	free(text);
	return doc;
}

int dse_path_safe(const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p >= 128 ||
		      strchr("/._-+,@", *p)))
			return 0;
	return *path != 0;
}

#define SAFE_CHARS "letters, digits and / . _ - + , @ (points.mk names it)"

/* The kind of a knob's name, or -1 with an error at n. tracksW is the
 * W-bit network's tracks per direction. */
static int knob_of(const YNode *n, int *width, Diags *d)
{
	for (int i = 0; i < NKNOB_TABLE; i++)
		if (strcmp(n->value, knob_table[i].name) == 0)
			return knob_table[i].kind;
	const char *p = n->value;
	if (strncmp(p, "tracks", 6) == 0 && p[6] >= '1' && p[6] <= '9' && strspn(p + 6, "0123456789") == strlen(p + 6) &&
	    strlen(p + 6) <= 2 && atoi(p + 6) <= 64) {
		*width = atoi(p + 6);
		return KNOB_TRACKS;
	}
	StrBuf b = { 0 };
	for (int i = 0; i < NKNOB_TABLE; i++)
		sb_printf(&b, "%s, ", knob_table[i].name);
	ynode_error(d, n, "unknown knob '%s' (knobs: %stracks<W> for the W-bit network)", n->value, b.s);
	free(b.s);
	return -1;
}

/* The length of s without its ".yaml" ending, if it has one. */
static size_t stem_len(const char *s)
{
	size_t n = strlen(s);
	return n > 5 && strcmp(s + n - 5, ".yaml") == 0 ? n - 5 : n;
}

/* path as written in file: relative to file's folder unless absolute. */
static const char *beside(const Sweep *s, const char *file, const char *path)
{
	const char *slash = strrchr(file, '/');
	if (path[0] == '/' || !slash)
		return path;
	return arena_printf(s->arena, "%.*s/%s", (int)(slash - file), file, path);
}

/* A spec named in the sweep file: NAME is folder/NAME.yaml, anything with a
 * '/' or ending in .yaml a path relative to the sweep file's folder. */
static const char *core_path(const Sweep *s, const char *value, const char *folder)
{
	if (!strchr(value, '/') && stem_len(value) == strlen(value))
		return arena_printf(s->arena, "%s/%s.yaml", folder, value);
	return beside(s, s->file, value);
}

/* A core spec named at n (a knob's value or the base's spec:) is a file a
 * generator can read, named by a path points.mk can hold; 1 if so. */
static int check_core_file(const YNode *n, const char *path, int pe, Diags *d)
{
	const char *what = pe ? "PE" : "MEM";
	if (!*n->value || access(path, F_OK) != 0) {
		ynode_error(d, n, "no %s spec '%s' (%s)", what, path,
			    pe ? "a name of peak/specs/ or a path" : "a name of lake/specs/, a path, or none");
		return 0;
	}
	const char *why = dse_file_problem(path, YAML_READ_MAX);
	if (why) {
		ynode_error(d, n, "the %s spec '%s': %s", what, path, why);
		return 0;
	}
	if (!dse_path_safe(path)) {
		ynode_error(d, n, "the %s spec's path '%s' has characters other than " SAFE_CHARS, what, path);
		return 0;
	}
	return 1;
}

/* "COLSxROWS": cols 2 to 255 and rows 2 to 254 in decimal digits; 1 if v
 * is one. */
static int parse_array(const char *v, int *cols, int *rows)
{
	size_t c = strspn(v, "0123456789"), r = c < strlen(v) && v[c] == 'x' ? strspn(v + c + 1, "0123456789") : 0;
	if (c == 0 || c > 3 || r == 0 || r > 3 || v[c + 1 + r])
		return 0;
	*cols = atoi(v);
	*rows = atoi(v + c + 1);
	return *cols >= 2 && *cols <= 255 && *rows >= 2 && *rows <= 254;
}

/* Checks one value of a knob; 1 if it is one the knob takes. */
static int check_value(const Sweep *s, const Knob *k, const YNode *v, Diags *d)
{
	int x, flag;
	if (v->kind != YN_SCALAR) {
		ynode_error(d, v, "a value of knob '%s' is a scalar", k->name);
		return 0;
	}
	switch (k->kind) {
	case KNOB_PE:
	case KNOB_MEM: {
		if (k->kind == KNOB_MEM && strcmp(v->value, "none") == 0)
			return 1;
		const char *folder = k->kind == KNOB_PE ? "peak/specs" : "lake/specs";
		return check_core_file(v, core_path(s, v->value, folder), k->kind == KNOB_PE, d);
	}
	case KNOB_TRACKS: return yread_int(d, v, k->name, 1, 32, 0, &x);
	case KNOB_SWITCHBOX: return yread_choice(d, v, "the switch box", switchboxes) >= 0;
	case KNOB_SB_REGISTERS:
	case KNOB_PACKING:
	case KNOB_PIPELINE: return yread_bool(d, v, k->name, &flag);
	case KNOB_MEM_EVERY: return yread_int(d, v, k->name, 1, 255, 0, &x);
	case KNOB_MEM_FIRST: return yread_int(d, v, k->name, 0, 255, 0, &x);
	case KNOB_COLS: return yread_int(d, v, k->name, 2, 255, 0, &x);
	case KNOB_ROWS: return yread_int(d, v, k->name, 2, 254, 0, &x);
	case KNOB_HOP_LIMIT: return yread_int(d, v, k->name, 0, 1000, 0, &x);
	case KNOB_PLACE_SEED: return yread_int(d, v, k->name, 0, 2147483647L, 0, &x);
	case KNOB_ARRAY: {
		int c, r;
		if (!parse_array(v->value, &c, &r)) {
			ynode_error(d, v, "expected COLSxROWS for knob 'array' (cols 2 to 255, rows 2 to 254), not '%s'",
				    v->value);
			return 0;
		}
		return 1;
	}
	}
	return 0;
}

/* The index of a knob among the sweep's, adding it if new; -1 with an
 * error if its name is not a knob. */
static int knob_index(Sweep *s, const YNode *key, Diags *d)
{
	for (int i = 0; i < s->nknobs; i++)
		if (strcmp(s->knobs[i].name, key->value) == 0)
			return i;
	int width = 0, kind = knob_of(key, &width, d);
	if (kind < 0)
		return -1;
	s->knobs = xrealloc(s->knobs, (size_t)(s->nknobs + 1) * sizeof *s->knobs);
	s->knobs[s->nknobs] = (Knob){ key->value, (KnobKind)kind, width };
	return s->nknobs++;
}

/* Characters of a value kept in a folder name. */
static void name_part(StrBuf *b, const char *knob, const char *value)
{
	const char *base = strrchr(value, '/');
	base = base ? base + 1 : value;
	size_t n = stem_len(base);
	sb_printf(b, "%s%s_", b->len ? "-" : "", knob);
	for (size_t i = 0; i < n; i++) {
		char c = base[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
		sb_printf(b, "%c", ok ? c : '_');
	}
}

typedef VEC(Point) PointVec;

/* Adds the points of one listed point (vals, NULL where unset) crossed with
 * the cross product of cross (ncross knobs from knob index c0). */
static void expand(Sweep *s, PointVec *out, const YNode **vals, const YNode *cross, int c0)
{
	int ncross = cross ? cross->len : 0;
	int idx[64] = { 0 };
	for (;;) {
		Point p = { 0 };
		p.values = arena_alloc(s->arena, (size_t)s->nknobs * sizeof *p.values);
		for (int k = 0; k < s->nknobs; k++)
			p.values[k] = vals ? vals[k] : NULL;
		for (int j = 0; j < ncross; j++)
			p.values[c0 + j] = cross->vals[j]->kind == YN_SEQ ? cross->vals[j]->items[idx[j]] : cross->vals[j];
		vec_push(out, p);
		int j = ncross - 1;
		while (j >= 0) {
			int len = cross->vals[j]->kind == YN_SEQ ? cross->vals[j]->len : 1;
			if (++idx[j] < len)
				break;
			idx[j--] = 0;
		}
		if (j < 0)
			return;
	}
}

/* Names and labels the points; a name two points share gets the point's
 * number appended. */
static void name_points(Sweep *s)
{
	for (int i = 0; i < s->npoints; i++) {
		Point *p = &s->points[i];
		StrBuf name = { 0 }, label = { 0 };
		for (int k = 0; k < s->nknobs; k++)
			if (p->values[k]) {
				name_part(&name, s->knobs[k].name, p->values[k]->value);
				sb_printf(&label, "%s%s=%s", label.len ? " " : "", s->knobs[k].name, p->values[k]->value);
			}
		if (!name.len) {
			sb_printf(&name, "base");
			sb_printf(&label, "base");
		}
		if (name.len > DSE_MAX_NAME)
			p->name = arena_printf(s->arena, "%.*s-%d", DSE_MAX_NAME, name.s, i + 1);
		else
			p->name = arena_strdup(s->arena, name.s);
		p->label = arena_strdup(s->arena, label.s);
		free(name.s);
		free(label.s);
	}
	StrMap seen;
	strmap_init(&seen);
	for (int j = 0; j < s->npoints; j++)
		if (!strmap_put(&seen, s->points[j].name, j))
			s->points[j].name = arena_printf(s->arena, "%s-%d", s->points[j].name, j + 1);
	strmap_free(&seen);
}


/* Registers and checks the knobs of a mapping KNOB: VALUE (a listed point)
 * or, with lists, KNOB: [VALUE, ...] (cross, every list non-empty). */
static int read_knobs(Sweep *s, const YNode *m, int lists, Diags *d)
{
	int ok = 1;
	for (int j = 0; j < m->len; j++) {
		int k = knob_index(s, m->keys[j], d);
		const YNode *v = m->vals[j];
		if (k < 0) {
			ok = 0;
		} else if (lists && v->kind == YN_SEQ) {
			if (v->len == 0) {
				ynode_error(d, v, "knob '%s' has no value: the sweep has no point", m->keys[j]->value);
				ok = 0;
			}
			for (int i = 0; i < v->len; i++)
				ok &= check_value(s, &s->knobs[k], v->items[i], d);
		} else {
			ok &= check_value(s, &s->knobs[k], v, d);
		}
	}
	return ok;
}

/* The number of points of listed points crossed with cross, counted before
 * any is made; 1 if at most DSE_MAX_POINTS, else an error with the count
 * (saturated at UINT64_MAX, as a product can overflow). */
static int count_ok(const YNode *list, const YNode *cross, Diags *d)
{
	uint64_t n = list ? (uint64_t)list->len : 1;
	for (int j = 0; cross && j < cross->len; j++) {
		uint64_t len = cross->vals[j]->kind == YN_SEQ ? (uint64_t)cross->vals[j]->len : 1;
		n = len && n > UINT64_MAX / len ? UINT64_MAX : n * len;
	}
	if (n == UINT64_MAX)
		ynode_error(d, cross ? cross : list, "the sweep has more than %llu points; at most %d",
			    (unsigned long long)UINT64_MAX - 1, DSE_MAX_POINTS);
	else if (n > DSE_MAX_POINTS)
		ynode_error(d, cross ? cross : list, "the sweep has %llu points; at most %d", (unsigned long long)n,
			    DSE_MAX_POINTS);
	return n <= DSE_MAX_POINTS;
}

/* points: and cross: into s->points. */
static int read_points(Sweep *s, const YNode *list, const YNode *cross, Diags *d)
{
	int ok = 1;
	if (list && ynode_expect(list, YN_SEQ, "points: [{ KNOB: VALUE, ... }, ...]", d)) {
		if (list->len == 0) {
			ynode_error(d, list, "the list of points is empty: the sweep has no point");
			ok = 0;
		}
		for (int i = 0; i < list->len; i++)
			ok &= ynode_expect(list->items[i], YN_MAP, "a point { KNOB: VALUE, ... }", d) &&
			      read_knobs(s, list->items[i], 0, d);
	} else if (list) {
		ok = 0;
	}
	int c0 = s->nknobs;
	if (cross && ynode_expect(cross, YN_MAP, "cross: { KNOB: [VALUE, ...], ... }", d)) {
		if (cross->len == 0 || cross->len > 64) {
			ynode_error(d, cross, "cross names 1 to 64 knobs");
			ok = 0;
		}
		for (int j = 0; j < cross->len && j < 64; j++)
			for (int k = 0; k < c0; k++)
				if (strcmp(s->knobs[k].name, cross->keys[j]->value) == 0) {
					ynode_error(d, cross->keys[j], "knob '%s' is both in points and in cross",
						    cross->keys[j]->value);
					ok = 0;
				}
		ok = ok && read_knobs(s, cross, 1, d);
	} else if (cross) {
		ok = 0;
	}
	if (!list && !cross) {
		ynode_error(d, s->doc->root, "a sweep needs 'points:', 'cross:' or both: it has no point");
		ok = 0;
	}
	if (!ok || !count_ok(list, cross, d))
		return 0;
	PointVec v = { 0 };
	const YNode *xc = cross && cross->len ? cross : NULL;
	if (!list) {
		expand(s, &v, NULL, xc, c0);
	} else {
		for (int i = 0; i < list->len; i++) {
			const YNode **vals = arena_alloc(s->arena, (size_t)s->nknobs * sizeof *vals);
			const YNode *m = list->items[i];
			for (int j = 0; j < m->len; j++)
				for (int k = 0; k < c0; k++)
					if (strcmp(s->knobs[k].name, m->keys[j]->value) == 0)
						vals[k] = m->vals[j];
			expand(s, &v, vals, xc, c0);
		}
	}
	s->points = v.data;
	s->npoints = v.len;
	name_points(s);
	return 1;
}

/* apps: a list of names of apps/ (default: every folder of apps/ with an
 * <app>.hl). */
static int read_apps(Sweep *s, const YNode *n, Diags *d)
{
	if (!n) {
		struct dirent **e = NULL;
		int n_e = scandir("apps", &e, NULL, alphasort);
		for (int i = 0; i < n_e; i++) {
			const char *app = e[i]->d_name;
			char *hl = xasprintf("apps/%s/%s.hl", app, app);
			if (util_is_identifier(app) && !dse_file_problem(hl, SIZE_MAX)) {
				s->apps = xrealloc(s->apps, (size_t)(s->napps + 1) * sizeof *s->apps);
				s->apps[s->napps++] = arena_strdup(s->arena, app);
			}
			free(hl);
			free(e[i]);
		}
		free(e);
		if (!s->napps)
			ynode_error(d, s->doc->root, "no application in apps/ (run from the repository's root)");
		return s->napps > 0;
	}
	if (!ynode_expect(n, YN_SEQ, "apps: [NAME, ...] (folders of apps/)", d))
		return 0;
	if (n->len == 0) {
		ynode_error(d, n, "the list of applications is empty");
		return 0;
	}
	int ok = 1;
	s->apps = xcalloc((size_t)n->len, sizeof *s->apps);
	for (int i = 0; i < n->len; i++) {
		const YNode *a = n->items[i];
		if (!ynode_expect(a, YN_SCALAR, "an application's name", d)) {
			ok = 0;
			continue;
		}
		char *hl = xasprintf("apps/%s/%s.hl", a->value, a->value);
		if (!util_is_identifier(a->value) || dse_file_problem(hl, SIZE_MAX)) {
			ynode_error(d, a, "no application '%s' (%s)", a->value, hl);
			ok = 0;
		}
		free(hl);
		for (int j = 0; j < s->napps; j++)
			if (strcmp(s->apps[j], a->value) == 0) {
				ynode_error(d, a, "application '%s' is listed twice", a->value);
				ok = 0;
			}
		s->apps[s->napps++] = a->value;
	}
	return ok;
}

/* The options of bin/cgrac a sweep may give every point: those of the
 * compilation itself, each with the knob that sets it per point. The
 * others place files or choose another mode, which dse_point.sh decides. */
static const struct {
	const char *name;
	long lo, hi;        /* its number's range; hi < 0: no number */
	KnobKind knob;
} cgrac_table[] = {
	{ "--hop-limit", 0, 1000, KNOB_HOP_LIMIT },
	{ "--place-seed", 0, 2147483647L, KNOB_PLACE_SEED },
	{ "--no-pipeline", 0, -1, KNOB_PIPELINE },
	{ "--no-register-packing", 0, -1, KNOB_PACKING },
};
#define NCGRAC ((int)(sizeof cgrac_table / sizeof cgrac_table[0]))

/* The entry of cgrac_table for option o, or -1 with an error at o. */
static int cgrac_option(const YNode *o, Diags *d)
{
	static const char *const placing[] = { "-o", "--design", "--golden", "--streams", "--emit", NULL };
	for (int i = 0; i < NCGRAC; i++)
		if (strcmp(o->value, cgrac_table[i].name) == 0)
			return i;
	for (int i = 0; placing[i]; i++)
		if (strcmp(o->value, placing[i]) == 0) {
			ynode_error(d, o, "cgrac option '%s' places a point's files or chooses its chip, which "
				    "scripts/dse_point.sh does (options: --hop-limit N, --place-seed N, --no-pipeline, "
				    "--no-register-packing)", o->value);
			return -1;
		}
	ynode_error(d, o, "'%s' is not a cgrac option a sweep may give (options: --hop-limit N, --place-seed N, "
		    "--no-pipeline, --no-register-packing)", o->value);
	return -1;
}

/* cgrac: [OPTION, ...]: options of cgrac for every point, checked against
 * cgrac_table, each at most once, none also set by a knob of the sweep
 * (s->knobs are known). Numbers are kept as cgrac reads them. */
static int read_opts(Sweep *s, const YNode *n, Diags *d)
{
	if (!n)
		return 1;
	if (!ynode_expect(n, YN_SEQ, "cgrac: [OPTION, ...] (options of bin/cgrac)", d))
		return 0;
	int seen[NCGRAC] = { 0 };
	s->cgrac_opts = xcalloc((size_t)n->len + 1, sizeof *s->cgrac_opts);
	for (int i = 0; i < n->len; i++) {
		const YNode *o = n->items[i];
		if (!ynode_expect(o, YN_SCALAR, "an option of bin/cgrac", d))
			return 0;
		int k = cgrac_option(o, d);
		if (k < 0)
			return 0;
		if (seen[k]) {
			ynode_error(d, o, "cgrac option '%s' is given twice", o->value);
			return 0;
		}
		seen[k] = 1;
		for (int j = 0; j < s->nknobs; j++)
			if (s->knobs[j].kind == cgrac_table[k].knob) {
				ynode_error(d, o, "cgrac option '%s' and the knob '%s' set the same: give one",
					    o->value, s->knobs[j].name);
				return 0;
			}
		s->cgrac_opts[s->nopts++] = o->value;
		if (cgrac_table[k].hi < 0)
			continue;
		int x;
		if (i + 1 == n->len) {
			ynode_error(d, o, "cgrac option '%s' needs a number (%ld to %ld) after it", o->value,
				    cgrac_table[k].lo, cgrac_table[k].hi);
			return 0;
		}
		const YNode *v = n->items[++i];
		if (!yread_int(d, v, o->value, cgrac_table[k].lo, cgrac_table[k].hi, 0, &x))
			return 0;
		s->cgrac_opts[s->nopts++] = arena_printf(s->arena, "%d", x);
	}
	return 1;
}

/* base: a design of canal/specs/ or a path to an interconnect spec. */
static int read_base(Sweep *s, const YNode *n, Diags *d)
{
	if (!n) {
		ynode_error(d, s->doc->root, "missing 'base:', the interconnect spec the points change");
		return 0;
	}
	if (!ynode_expect(n, YN_SCALAR, "base: a design of canal/specs/ or a path to an interconnect spec", d))
		return 0;
	s->base_path = core_path(s, n->value, "canal/specs");
	if (s->base_text && *n->value) {
		s->base = ydoc_load_string(s->base_path, s->base_text, d);
	} else if (!*n->value || access(s->base_path, F_OK) != 0) {
		ynode_error(d, n, "no interconnect spec '%s' (a design of canal/specs/ or a path)", s->base_path);
		return 0;
	} else {
		const char *why = dse_file_problem(s->base_path, YAML_READ_MAX);
		if (why) {
			ynode_error(d, n, "the base '%s': %s", s->base_path, why);
			return 0;
		}
		s->base = dse_load_yaml(s->base_path, d);
	}
	if (s->base && (!s->base->root || s->base->root->kind != YN_MAP)) {
		ynode_error(d, n, "the base '%s' is not an interconnect spec (a YAML mapping)", s->base_path);
		return 0;
	}
	return s->base != NULL;
}

static const char *kind_words(const YNode *n)
{
	return n->kind == YN_SEQ ? "a list" : n->kind == YN_MAP ? "a mapping" : "a single value";
}

/* Where the points set path (keys joined by '.') in the base, every node
 * on the way must be a mapping and the node at path, if there is one, a
 * single value: else the point's value would be lost or would replace a
 * structure. 1 if so, else an error at the base's node naming who sets it. */
static int check_base_path(const Sweep *s, const char *path, const char *who, Diags *d)
{
	const YNode *n = s->base->root;
	size_t at = 0;
	while (n && at < strlen(path)) {
		if (n->kind != YN_MAP) {
			ynode_error(d, n, "'%.*s' of the base is %s, not a mapping: %s sets '%s' in it",
				    (int)(at ? at - 1 : 0), path, kind_words(n), who, path);
			return 0;
		}
		size_t len = strcspn(path + at, ".");
		char *key = xasprintf("%.*s", (int)len, path + at);
		n = ymap_get(n, key);
		free(key);
		at += len + 1;
	}
	if (n && n->kind != YN_SCALAR) {
		ynode_error(d, n, "'%s' of the base is %s, not a single value: %s sets it", path, kind_words(n), who);
		return 0;
	}
	return 1;
}

/* The paths of the base a knob of kind k sets (NULL-terminated). */
static void knob_paths(const Sweep *s, const Knob *k, const char **paths)
{
	paths[0] = paths[1] = paths[2] = NULL;
	switch (k->kind) {
	case KNOB_TRACKS: paths[0] = arena_printf(s->arena, "tracks.%d", k->width); break;
	case KNOB_SWITCHBOX: paths[0] = "switchbox"; break;
	case KNOB_SB_REGISTERS: paths[0] = "registers.switchbox_outputs"; break;
	case KNOB_MEM_EVERY: paths[0] = "cores.mem.columns.every"; break;
	case KNOB_MEM_FIRST: paths[0] = "cores.mem.columns.first"; break;
	case KNOB_ARRAY: paths[0] = "array.cols", paths[1] = "array.rows"; break;
	case KNOB_COLS: paths[0] = "array.cols"; break;
	case KNOB_ROWS: paths[0] = "array.rows"; break;
	default: break;
	}
}

/* The base's PE or MEM (node n of cores, NULL if absent), which point p
 * keeps: a mapping whose spec names a readable file; 1 if so. */
static int check_base_core(const Sweep *s, const YNode *n, int pe, const Point *p, Diags *d)
{
	const char *what = pe ? "pe" : "mem";
	const YNode *cores = ymap_get(s->base->root, "cores");
	if (!n || n->kind != YN_MAP || !ymap_get(n, "spec")) {
		ynode_error(d, n ? n : cores ? cores : s->base->root,
			    "the base has no cores.%s { spec: PATH }, and point '%s' sets no %s knob", what, p->label, what);
		return 0;
	}
	const YNode *spec = ymap_get(n, "spec");
	if (spec->kind != YN_SCALAR) {
		ynode_error(d, spec, "the base's cores.%s.spec is %s, not a path", what, kind_words(spec));
		return 0;
	}
	return check_core_file(spec, beside(s, s->base_path, spec->value), pe, d);
}

/* Knobs of point p that set the same thing (array and cols or rows); 1 if
 * none do. */
static int check_conflicts(const Sweep *s, const Point *p, Diags *d)
{
	const YNode *array = dse_point_value(s, p, KNOB_ARRAY);
	for (int i = 0; array && i < s->nknobs; i++)
		if ((s->knobs[i].kind == KNOB_COLS || s->knobs[i].kind == KNOB_ROWS) && p->values[i]) {
			ynode_error(d, p->values[i], "knobs 'array' and '%s' both set the array's %s of point '%s': "
				    "give one", s->knobs[i].name, s->knobs[i].kind == KNOB_COLS ? "columns" : "rows",
				    p->label);
			return 0;
		}
	return 1;
}

/* The value of the knob of kind k in point p, or NULL. */
const YNode *dse_point_value(const Sweep *s, const Point *p, KnobKind k)
{
	for (int i = 0; i < s->nknobs; i++)
		if (s->knobs[i].kind == k && p->values[i])
			return p->values[i];
	return NULL;
}

const char *dse_point_spec_file(const Sweep *s, const Point *p, KnobKind k)
{
	const YNode *v = dse_point_value(s, p, k);
	if (v)
		return strcmp(v->value, "none") == 0 ? NULL
			: core_path(s, v->value, k == KNOB_PE ? "peak/specs" : "lake/specs");
	const YNode *n = ymap_get(ymap_get(ymap_get(s->base->root, "cores"), k == KNOB_PE ? "pe" : "mem"), "spec");
	if (!n || n->kind != YN_SCALAR)
		return NULL;
	return beside(s, s->base_path, n->value);
}

/* A MEM spec needs its columns, and the columns a MEM spec: the first
 * point that breaks either gets an error at its value. */
static int check_mem(const Sweep *s, const Point *p, int i, Diags *d)
{
	const YNode *cores = ymap_get(s->base->root, "cores");
	int base_mem = ymap_get(cores, "mem") != NULL;
	const YNode *mem = dse_point_value(s, p, KNOB_MEM);
	const YNode *every = dse_point_value(s, p, KNOB_MEM_EVERY), *first = dse_point_value(s, p, KNOB_MEM_FIRST);
	int has_mem = mem ? strcmp(mem->value, "none") != 0 : base_mem;
	if (mem && has_mem && !base_mem && !every) {
		ynode_error(d, mem, "the base '%s' has no MEM columns: give mem_every (and mem_first) with mem",
			    s->base_path);
		return 0;
	}
	if (!has_mem && (every || first)) {
		ynode_error(d, every ? every : first, "'%s' places MEM columns, and point %d (%s) has no MEM",
			    every ? "mem_every" : "mem_first", i + 1, p->label);
		return 0;
	}
	return 1;
}

/* What the points set in the base and keep of it: each point's knobs
 * agree, the base holds what they set where a value can go (mappings on
 * the way), and the cores a point keeps are there. The first problem of
 * each kind is reported. */
static int check_points(Sweep *s, Diags *d)
{
	const YNode *cores = ymap_get(s->base->root, "cores");
	const Point *keep_pe = NULL, *keep_mem = NULL;
	int any_mem = ymap_get(cores, "mem") != NULL, ok = 1;
	for (int i = 0; i < s->npoints && ok; i++) {
		const Point *p = &s->points[i];
		const YNode *mem = dse_point_value(s, p, KNOB_MEM);
		ok = check_mem(s, p, i, d) && check_conflicts(s, p, d);
		keep_pe = keep_pe || dse_point_value(s, p, KNOB_PE) ? keep_pe : p;
		keep_mem = keep_mem || mem ? keep_mem : p;
		any_mem |= mem && strcmp(mem->value, "none") != 0;
	}
	if (!ok)
		return 0;
	ok = check_base_path(s, "interconnect", "every point", d) && check_base_path(s, "cores.pe.spec", "every point", d);
	if (ok && any_mem)
		ok = check_base_path(s, "cores.mem.spec", "every point with a MEM", d);
	for (int k = 0; k < s->nknobs && ok; k++) {
		const char *paths[3];
		knob_paths(s, &s->knobs[k], paths);
		const char *who = arena_printf(s->arena, "knob '%s'", s->knobs[k].name);
		for (int j = 0; paths[j] && ok; j++)
			ok = check_base_path(s, paths[j], who, d);
	}
	if (ok && keep_pe)
		ok = check_base_core(s, ymap_get(cores, "pe"), 1, keep_pe, d);
	if (ok && keep_mem && ymap_get(cores, "mem"))
		ok = check_base_core(s, ymap_get(cores, "mem"), 0, keep_mem, d);
	return ok;
}

static void read_root(void *ctx, const YNode *root)
{
	(void)ctx;
	(void)root;
}

Sweep *dse_sweep_load(const char *path, Diags *d)
{
	size_t len;
	char *text = dse_read_text(path, YAML_READ_MAX, &len, d);
	if (!text)
		return NULL;
	Sweep *s = dse_sweep_load_string(path, text, NULL, d);
	free(text);
	return s;
}

Sweep *dse_sweep_load_string(const char *path, const char *text, const char *base_text, Diags *d)
{
	static const char *const keys[] = { "base", "apps", "cgrac", "points", "cross", NULL };
	Sweep *s = xcalloc(1, sizeof *s);
	s->arena = arena_new();
	s->base_text = base_text ? arena_strdup(s->arena, base_text) : NULL;
	s->file = arena_strdup(s->arena, path);
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	s->name = arena_strndup(s->arena, base, stem_len(base));
	int ok = ydoc_read(path, text, NULL, "a sweep: a mapping with base, points or cross", read_root, s, &s->doc, d);
	if (ok && !util_is_identifier(s->name)) {
		diag_error(d, path, 1, 1, "the sweep's name '%s' (its file name) must be an identifier", s->name);
		ok = 0;
	}
	if (ok) {
		const YNode *r = s->doc->root;
		ok = ymap_check_keys(r, keys, "a sweep", d) == 0;
		ok &= read_base(s, ymap_get(r, "base"), d);
		ok &= read_apps(s, ymap_get(r, "apps"), d);
		ok &= read_points(s, ymap_get(r, "points"), ymap_get(r, "cross"), d);
		ok = ok && read_opts(s, ymap_get(r, "cgrac"), d);
		ok = ok && check_points(s, d);
	}
	if (!ok) {
		dse_sweep_free(s);
		return NULL;
	}
	return s;
}

void dse_sweep_free(Sweep *s)
{
	if (!s)
		return;
	ydoc_free(s->doc);
	ydoc_free(s->base);
	free(s->apps);
	free(s->cgrac_opts);
	free(s->knobs);
	free(s->points);
	arena_free(s->arena);
	free(s);
}
