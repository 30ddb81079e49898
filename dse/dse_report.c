/* dse_report.c - a sweep's results: each point's result.txt (written by
 * scripts/dse_point.sh, with the fast simulator's cycles and PE utilization
 * of each bit-exact application), each application's <app>.report.yaml
 * (cgrac) and the point's area.yaml (scripts/area.sh) gathered into
 * results.csv (one row per point and application) and results.md (a table
 * per metric, the points as columns); the charts (dse_charts.c) are drawn
 * from the CSV's text, as `dse charts` draws them from the file. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "dse.h"

/* The numbers of one application at one point, NAN where there is none:
 * cgrac's report, the compile time, then the fast simulator's run of a
 * bit-exact row (cycles, PEs used of the array's, their busy percentage),
 * the last three in one table ("PE utilization"). */
enum {
	M_PES, M_MEMS, M_IOS, M_REGS, M_PACKED, M_CRIT, M_CLOCK, M_LATENCY, M_RUNTIME, M_COMPILE,
	M_CYCLES, M_PES_USED, M_PES_TOTAL, M_BUSY, NMETRIC
};
static const struct {
	const char *key;    /* in cgrac's report, or NULL */
	const char *column, *title; /* title NULL: in the table of another */
} metrics[NMETRIC] = {
	{ "pes", "pes", "PE tiles" },
	{ "mems", "mems", "MEM tiles" },
	{ "ios", "ios", "IO tiles" },
	{ "registers", "registers", "Registers (switch boxes and packed into PEs)" },
	{ "packed_registers", "packed_registers", "Registers packed into PE inputs" },
	{ "critical_path_ns", "critical_path_ns", "Critical path (ns)" },
	{ "clock_mhz", "clock_mhz", "Clock (MHz)" },
	{ "latency_cycles", "latency_cycles", "Latency (cycles)" },
	{ NULL, "runtime_us", "Runtime (µs: latency / clock)" },
	{ NULL, "compile_s", "Compile time (s)" },
	{ NULL, "sim_cycles", "Cycles (fast simulator)" },
	{ NULL, "sim_pes_used", "PE utilization (fast simulator: PEs used of the array's; busy: the share of "
	  "their cycles in which an output changed)" },
	{ NULL, "sim_pes_total", NULL },
	{ NULL, "sim_pe_busy_pct", NULL },
};

typedef struct Row {
	const char *status, *reason;
	double m[NMETRIC];
	double tracks[DSE_MAX_WIDTHS];
} Row;

/* Area of a point, NAN where unknown: per tile kind core, switch box,
 * connection boxes and the whole tile; the array. */
static const char *const kinds[] = { "pe", "mem", "io" };
static const char *const parts[] = { "core", "switch_box", "connection_boxes", "config", "total" };
static const char *const part_cols[] = { "core", "sb", "cb", "config", "tile" };
#define NPART 5
typedef struct Area {
	double v[3][NPART];
	double array;
	const char *unit;
} Area;

typedef struct Report {
	const Sweep *s;
	const char *dir;
	Arena *a;
	Row *rows;          /* point-major */
	Area *area;         /* per point */
	int widths[DSE_MAX_WIDTHS], nwidths;
	const char *unit;   /* the area's, the same at every point */
	int ok, failed;
} Report;

/* The statuses of an application in result.txt. */
static const char *const statuses[] = { "bit-exact", "different", "not-mapped", "not-run", NULL };

/* The number at key of map m, in [lo, hi] (an integer when integer), into
 * *out; 0 with an error at the value, or at m when key is missing. */
static int num_at(const YNode *m, const char *key, double lo, double hi, int integer, const char *what, double *out,
		  Diags *d)
{
	const YNode *n = ymap_get(m, key);
	double v;
	if (!n) {
		ynode_error(d, m, "no '%s' in %s (cut short? run the point again)", key, what);
		return 0;
	}
	if (n->kind != YN_SCALAR || yscalar_double(n, &v) != 0 || !isfinite(v) || v < lo || v > hi ||
	    (integer && v != floor(v))) {
		char range[64] = "";
		if (hi < DBL_MAX)
			snprintf(range, sizeof range, " from %g to %g", lo, hi);
		ynode_error(d, n, "'%s' must be %s%s, not %s%s", key,
			    integer ? "an integer" : hi < DBL_MAX ? "a number" : "a finite number from 0", range,
			    n->kind == YN_SCALAR ? "" : "a ", n->kind == YN_SCALAR ? n->value : "list or mapping");
		return 0;
	}
	*out = v;
	return 1;
}

/* A YAML file a point's result names: a mapping, else an error. */
static YDoc *load_map(const char *path, const char *what, Diags *d)
{
	YDoc *doc = dse_load_yaml(path, d);
	if (doc && (!doc->root || doc->root->kind != YN_MAP)) {
		diag_error(d, path, 1, 1, "expected %s (a mapping)", what);
		ydoc_free(doc);
		return NULL;
	}
	return doc;
}

/* cgrac's report of an application (bit-exact or different): its figures
 * into row; 0 with errors if it is missing, cut short or out of range. */
static int read_app_report(Report *r, Row *row, const char *path, Diags *d)
{
	static const int counts[] = { M_PES, M_MEMS, M_IOS, M_REGS, M_PACKED };
	YDoc *doc = load_map(path, "cgrac's report of an application", d);
	if (!doc)
		return 0;
	const YNode *root = doc->root;
	int ok = 1;
	for (int i = 0; i < 5; i++)
		ok &= num_at(root, metrics[counts[i]].key, 0, 1e9, 1, "cgrac's report", &row->m[counts[i]], d);
	ok &= num_at(root, "critical_path_ns", 0, 1e9, 0, "cgrac's report", &row->m[M_CRIT], d);
	ok &= num_at(root, "clock_mhz", 0, 1e9, 0, "cgrac's report", &row->m[M_CLOCK], d);
	ok &= num_at(root, "latency_cycles", 0, 9007199254740992.0, 1, "cgrac's report", &row->m[M_LATENCY], d);
	if (ok && row->m[M_CLOCK] > 0 && row->m[M_CLOCK] < 1e-6) {
		ynode_error(d, ymap_get(root, "clock_mhz"), "'clock_mhz' must be 0 (no clock) or from 1e-06 to 1e+09");
		ok = 0;
	}
	const YNode *t = ymap_get(root, "tracks");
	if (!t || t->kind != YN_MAP) {
		ynode_error(d, t ? t : root, "%s in cgrac's report: expected tracks: { WIDTH: USED, ... }",
			    t ? "a wrong 'tracks'" : "no 'tracks'");
		ok = 0;
	}
	for (int i = 0; ok && i < t->len; i++) {
		double w, used;
		ok = num_at(t, t->keys[i]->value, 0, 1e9, 1, "tracks", &used, d);
		if (!ok || yscalar_double(t->keys[i], &w) != 0 || !(w >= 1 && w <= 64) || w != floor(w)) {
			if (ok)
				ynode_error(d, t->keys[i], "a network width must be 1 to 64, not %s", t->keys[i]->value);
			ok = 0;
			break;
		}
		int k = 0;
		while (k < r->nwidths && r->widths[k] != (int)w)
			k++;
		if (k == DSE_MAX_WIDTHS) {
			ynode_error(d, t->keys[i], "the %d-bit network: the sweep's reports name more than %d widths", (int)w,
				    DSE_MAX_WIDTHS);
			ok = 0;
			break;
		}
		if (k == r->nwidths)
			r->widths[r->nwidths++] = (int)w;
		row->tracks[k] = used;
	}
	if (ok && row->m[M_CLOCK] > 0)
		row->m[M_RUNTIME] = row->m[M_LATENCY] / row->m[M_CLOCK];
	ydoc_free(doc);
	return ok;
}

/* A point's area.yaml (scripts/area.sh), when its result says ok. */
static int read_area(Report *r, Area *ar, const char *path, Diags *d)
{
	YDoc *doc = load_map(path, "the area of a point (scripts/area.sh)", d);
	if (!doc)
		return 0;
	const YNode *root = doc->root, *tiles = ymap_get(root, "tiles"), *u = ymap_get(root, "unit");
	int ok = num_at(root, "array", 0, DBL_MAX, 0, "the area", &ar->array, d);
	if (!u || u->kind != YN_SCALAR || !util_is_identifier(u->value)) {
		ynode_error(d, u ? u : root, "%s in the area: expected unit: a word (transistors)",
			    u ? "a wrong 'unit'" : "no 'unit'");
		ok = 0;
	} else if (r->unit && strcmp(r->unit, u->value) != 0) {
		ynode_error(d, u, "the area's unit '%s' is not the other points' '%s'", u->value, r->unit);
		ok = 0;
	} else {
		r->unit = ar->unit = arena_strdup(r->a, u->value);
	}
	if (!tiles || tiles->kind != YN_MAP) {
		ynode_error(d, tiles ? tiles : root, "%s in the area: expected tiles: { KIND: { core: N, ... }, ... }",
			    tiles ? "a wrong 'tiles'" : "no 'tiles'");
		ok = 0;
	}
	for (int k = 0; ok && k < 3; k++) {
		const YNode *t = ymap_get(tiles, kinds[k]);
		if (t && t->kind != YN_MAP) {
			ynode_error(d, t, "tiles.%s in the area: expected a mapping { core: N, ... }", kinds[k]);
			ok = 0;
		}
		for (int q = 0; t && ok && q < NPART; q++)
			ok = num_at(t, parts[q], 0, DBL_MAX, 0, arena_printf(r->a, "tiles.%s", kinds[k]), &ar->v[k][q], d);
	}
	ydoc_free(doc);
	return ok;
}

/* SECONDS of a line: a decimal number from 0 to 1e9; 1 if so. */
static int seconds_of(const char *s, double *out)
{
	char *end;
	if (!*s || !strchr("0123456789", *s))
		return 0;
	*out = strtod(s, &end);
	return !*end && isfinite(*out) && *out <= 1e9;
}

/* Splits a line of result.txt at its tabs (in place), the last field
 * keeping the rest; the number of fields. */
static int fields(char *line, char **f, int max)
{
	int n = 0;
	while (n < max) {
		f[n++] = line;
		char *tab = n < max ? strchr(line, '\t') : NULL;
		if (!tab)
			break;
		*tab = 0;
		line = tab + 1;
	}
	return n;
}

/* The state of reading one result.txt. */
typedef struct PointRead {
	Report *r;
	int pi;
	const char *pdir, *path;
	Diags *d;
	int generate, area;  /* the line of each, 0 if none yet */
	int gen_ok;
	int *app_line;       /* per application of the sweep */
} PointRead;

/* An error at column col of line of the result; 0. */
static int error_at(PointRead *pr, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int error_at(PointRead *pr, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(pr->d, DIAG_ERROR, pr->path, line, col, fmt, ap);
	va_end(ap);
	return 0;
}
#define line_error(pr, line, ...) error_at(pr, line, 1, __VA_ARGS__)

/* s as a whole number of decimal digits (no sign, no blank) up to max, into
 * *out; 1 if so. */
static int digits_of(const char *s, double max, double *out)
{
	if (!*s || s[strspn(s, "0123456789")])
		return 0;
	*out = strtod(s, NULL);
	return *out <= max;
}

/* s as DIGITS[.DIGITS] up to max, into *out; 1 if so. */
static int decimal_of(const char *s, double max, double *out)
{
	size_t i = strspn(s, "0123456789");
	if (!i || (s[i] && (s[i] != '.' || !s[i + 1] || s[i + 1 + strspn(s + i + 1, "0123456789")])))
		return 0;
	*out = strtod(s, NULL);
	return *out <= max;
}

/* The fast simulator's figures after the seconds of a bit-exact row. */
#define SIM_FORM "cycles=N<TAB>pe_used=USED/TOTAL<TAB>pe_busy=PERCENT"
#define MAX_CYCLES 9007199254740992.0   /* 2^53: every count a double holds exactly */
#define MAX_PES 1e9

/* v as USED/TOTAL into row; 1 if both are integers to MAX_PES, USED at
 * most TOTAL. */
static int pes_of(const char *v, Row *row)
{
	const char *slash = strchr(v, '/');
	char used[16];
	size_t len = slash ? (size_t)(slash - v) : sizeof used;
	if (len >= sizeof used)
		return 0;
	memcpy(used, v, len);
	used[len] = 0;
	return digits_of(used, MAX_PES, &row->m[M_PES_USED]) && digits_of(slash + 1, MAX_PES, &row->m[M_PES_TOTAL]) &&
	       row->m[M_PES_USED] <= row->m[M_PES_TOTAL];
}

/* The value v of field k (cycles, pe_used, pe_busy) at column col into
 * row; 0 with an error at it. */
static int sim_value(PointRead *pr, int line, int col, int k, const char *v, Row *row)
{
	if (k == 0 && !digits_of(v, MAX_CYCLES, &row->m[M_CYCLES]))
		return error_at(pr, line, col, "'cycles' must be an integer from 0 to %.0f (the fast simulator's run), "
				"not '%s'", MAX_CYCLES, v);
	if (k == 1 && !pes_of(v, row))
		return error_at(pr, line, col, "'pe_used' must be USED/TOTAL, the PEs used of the array's (integers "
				"to %.0e, USED at most TOTAL), not '%s'", MAX_PES, v);
	if (k == 2 && !decimal_of(v, 100, &row->m[M_BUSY]))
		return error_at(pr, line, col, "'pe_busy' must be a percentage from 0 to 100 (DIGITS[.DIGITS]), not '%s'",
				v);
	if (k == 2 && row->m[M_PES_USED] == 0 && row->m[M_BUSY] != 0)
		return error_at(pr, line, col, "'pe_busy' is %s with no PE used: expected 0", v);
	return 1;
}

/* The fields s of a bit-exact row after its seconds, s at column col:
 * SIM_FORM, in this order, into row; 0 with an error at the field. */
static int read_sim_fields(PointRead *pr, int line, char *s, int col, Row *row)
{
	static const char *const keys[] = { "cycles", "pe_used", "pe_busy" };
	char *f[4];
	int n = fields(s, f, 4);
	for (int i = 0; i < n; i++) {
		int c = col + (int)(f[i] - s);
		size_t k = i < 3 ? strlen(keys[i]) : 0;
		if (i == 3)
			return error_at(pr, line, c, "'%s' after pe_busy: a bit-exact row ends with " SIM_FORM, f[i]);
		if (strncmp(f[i], keys[i], k) != 0 || f[i][k] != '=')
			return error_at(pr, line, c, "expected %s= (a bit-exact row: app<TAB>NAME<TAB>bit-exact<TAB>SECONDS"
					"[<TAB>" SIM_FORM "]), not '%s'", keys[i], f[i]);
		if (!sim_value(pr, line, c + (int)k + 1, i, f[i] + k + 1, row))
			return 0;
	}
	if (n < 3)
		return error_at(pr, line, col + (int)(f[n - 1] - s) + (int)strlen(f[n - 1]),
				"the row ends before %s= (a bit-exact row: app<TAB>NAME<TAB>bit-exact<TAB>SECONDS[<TAB>"
				SIM_FORM "])", keys[n]);
	return 1;
}

/* One line of result.txt (its fields f); 1 if it is well-formed. */
static int read_line(PointRead *pr, int line, char **f, int n)
{
	const Sweep *s = pr->r->s;
	double secs;
	if (strcmp(f[0], "generate") == 0) {
		if (pr->generate)
			return line_error(pr, line, "a second 'generate' line (the first is line %d)", pr->generate);
		pr->generate = line;
		if (n < 3 || (strcmp(f[1], "ok") != 0 && strcmp(f[1], "failed") != 0) || !seconds_of(f[2], &secs))
			return line_error(pr, line, "expected generate<TAB>ok|failed<TAB>SECONDS[<TAB>MESSAGE]");
		pr->gen_ok = strcmp(f[1], "ok") == 0;
		return 1;
	}
	if (strcmp(f[0], "area") == 0) {
		if (pr->area)
			return line_error(pr, line, "a second 'area' line (the first is line %d)", pr->area);
		pr->area = line;
		if (n < 2 || (strcmp(f[1], "ok") != 0 && strcmp(f[1], "failed") != 0 && strcmp(f[1], "skipped") != 0))
			return line_error(pr, line, "expected area<TAB>ok|failed|skipped[<TAB>MESSAGE]");
		if (strcmp(f[1], "ok") == 0)
			return read_area(pr->r, &pr->r->area[pr->pi], arena_printf(pr->r->a, "%s/area.yaml", pr->pdir),
					 pr->d);
		return 1;
	}
	if (strcmp(f[0], "app") != 0)
		return line_error(pr, line, "'%s' does not start a line of a point's result (generate, area, app)", f[0]);
	int st = -1;
	for (int i = 0; n >= 3 && statuses[i]; i++)
		if (strcmp(f[2], statuses[i]) == 0)
			st = i;
	if (n < 4 || !util_is_identifier(f[1]) || st < 0 || !seconds_of(f[3], &secs))
		return line_error(pr, line, "expected app<TAB>NAME<TAB>STATUS<TAB>SECONDS[<TAB>MESSAGE], STATUS one of "
				  "bit-exact, different, not-mapped, not-run");
	int ai = 0;
	while (ai < s->napps && strcmp(s->apps[ai], f[1]) != 0)
		ai++;
	if (ai == s->napps)
		return 1;   /* an application the sweep no longer lists */
	if (pr->app_line[ai])
		return line_error(pr, line, "a second line for application %s", f[1]);
	pr->app_line[ai] = line;
	if (pr->generate && (strcmp(f[2], "not-run") == 0) == pr->gen_ok)
		return line_error(pr, line, pr->gen_ok ? "application %s did not run on a chip that was generated"
						       : "application %s ran on a chip that was not generated", f[1]);
	Row *row = &pr->r->rows[pr->pi * s->napps + ai];
	row->status = statuses[st];
	row->reason = arena_strdup(pr->r->a, n >= 5 && st != 0 ? f[4] : "");
	if (st != 3)
		row->m[M_COMPILE] = secs;
	if (st == 0 && n >= 5 && !read_sim_fields(pr, line, f[4], (int)(f[4] - f[0]) + 1, row))
		return 0;
	if (st <= 1)
		return read_app_report(pr->r, row,
				       arena_printf(pr->r->a, "%s/apps/%s/%s.report.yaml", pr->pdir, f[1], f[1]), pr->d);
	return 1;
}

/* One point's results; 0 with messages (file:line) if its result.txt or a
 * file it names is missing, cut short or malformed. */
static int read_point(Report *r, int pi, Diags *d)
{
	const Sweep *s = r->s;
	const char *pdir = arena_printf(r->a, "%s/%s", r->dir, s->points[pi].name);
	const char *path = arena_printf(r->a, "%s/result.txt", pdir);
	if (access(path, F_OK) != 0) {
		fprintf(stderr, "dse: error: %s: no such file: the point has not run (make dse runs it)\n", path);
		return 0;
	}
	size_t len;
	char *text = dse_read_text(path, DSE_RESULT_MAX, &len, d);
	if (!text)
		return 0;
	diags_add_source(d, path, text);
	PointRead pr = { r, pi, pdir, path, d, 0, 0, 0, xcalloc((size_t)s->napps + 1, sizeof(int)) };
	int ok = 1, line = 0;
	for (char *p = text; *p && ok; line++) {
		char *nl = strchr(p, '\n');
		if (!nl) {
			ok = line_error(&pr, line + 1, "the last line has no newline: the file was cut short");
			break;
		}
		*nl = 0;
		char *f[5];
		int n = fields(p, f, 5);
		ok = read_line(&pr, line + 1, f, n);
		p = nl + 1;
	}
	if (ok && !pr.generate)
		ok = line_error(&pr, line ? line : 1, "no 'generate' line: the file was cut short (remove it to run the "
				"point again)");
	if (ok && !pr.area)
		ok = line_error(&pr, line ? line : 1, "no 'area' line: the file was cut short (remove it to run the "
				"point again)");
	for (int ai = 0; ai < s->napps && ok; ai++)
		if (!pr.app_line[ai])
			ok = line_error(&pr, line ? line : 1, "no line for application %s: run the point again (remove "
					"the file)", s->apps[ai]);
	free(pr.app_line);
	free(text);
	diags_flush(d);
	return ok;
}

/* ---- writing ---- */

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A figure with ten digits, or as many as read back to the same double
 * (the charts are drawn from the CSV's text). */
static void csv_num(FILE *f, double v)
{
	char buf[32];
	if (isnan(v))
		return;
	snprintf(buf, sizeof buf, "%.10g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	fputs(buf, f);
}

static void write_csv(const Report *r, FILE *f)
{
	const Sweep *s = r->s;
	fputs("sweep,point", f);
	for (int k = 0; k < s->nknobs; k++)
		fprintf(f, ",%s", s->knobs[k].name);
	fputs(",app,status,reason", f);
	for (int m = 0; m < NMETRIC; m++) {
		fprintf(f, ",%s", metrics[m].column);
		if (m == M_PACKED)
			for (int w = 0; w < r->nwidths; w++)
				fprintf(f, ",tracks%d_used", r->widths[w]);
	}
	for (int k = 0; k < 3; k++)
		for (int p = 0; p < NPART; p++)
			fprintf(f, ",area_%s_%s", kinds[k], part_cols[p]);
	fputs(",area_array,area_unit\n", f);
	for (int pi = 0; pi < s->npoints; pi++)
		for (int ai = 0; ai < s->napps; ai++) {
			const Point *p = &s->points[pi];
			const Row *row = &r->rows[pi * s->napps + ai];
			fprintf(f, "%s,%s", s->name, p->name);
			for (int k = 0; k < s->nknobs; k++) {
				fputc(',', f);
				csv_field(f, p->values[k] ? p->values[k]->value : "");
			}
			fprintf(f, ",%s,%s,", s->apps[ai], row->status);
			csv_field(f, row->reason);
			for (int m = 0; m < NMETRIC; m++) {
				fputc(',', f);
				csv_num(f, row->m[m]);
				if (m == M_PACKED)
					for (int w = 0; w < r->nwidths; w++) {
						fputc(',', f);
						csv_num(f, row->tracks[w]);
					}
			}
			const Area *ar = &r->area[pi];
			for (int k = 0; k < 3; k++)
				for (int q = 0; q < NPART; q++) {
					fputc(',', f);
					csv_num(f, ar->v[k][q]);
				}
			fputc(',', f);
			csv_num(f, ar->array);
			fprintf(f, ",%s\n", ar->unit ? ar->unit : "");
		}
}

static void md_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" — |", f);
	else if ((v == floor(v) && fabs(v) < 1e15) || fabs(v) >= 1000)
		fprintf(f, " %.0f |", v);
	else if (fabs(v) >= 10)
		fprintf(f, " %.1f |", v);
	else
		fprintf(f, " %.3g |", v);
}

/* The PE utilization of a row in a cell: "78 of 108 (72%), busy 60%". */
static void md_utilization(FILE *f, const Row *row)
{
	double used = row->m[M_PES_USED], total = row->m[M_PES_TOTAL];
	if (isnan(used)) {
		fputs(" — |", f);
		return;
	}
	fprintf(f, " %.0f of %.0f", used, total);
	if (total > 0)
		fprintf(f, " (%.0f%%)", 100 * used / total);
	fprintf(f, ", busy %g%% |", row->m[M_BUSY]);
}

/* Text in a cell of a Markdown table: '|' escaped, line breaks as blanks. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void md_header(const Report *r, FILE *f, const char *title, const char *first)
{
	const Sweep *s = r->s;
	fprintf(f, "\n## %s\n\n| %s |", title, first);
	for (int pi = 0; pi < s->npoints; pi++) {
		fputc(' ', f);
		md_text(f, s->points[pi].label);
		fputs(" |", f);
	}
	fprintf(f, "\n|---|");
	for (int pi = 0; pi < s->npoints; pi++)
		fputs("---|", f);
	fputc('\n', f);
}

static void write_md(const Report *r, FILE *f, double seconds)
{
	const Sweep *s = r->s;
	fprintf(f, "# Sweep %s\n\nFrom `%s`: %d points over the base `%s`, %d applications, each compiled "
		"and checked against its golden image at the buffer level and at cycle level on the fast simulator; "
		"%d bit-exact, %d failed",
		s->name, s->file, s->npoints, s->base_path, s->napps, r->ok, r->failed);
	if (seconds > 0)
		fprintf(f, " (%.0f s)", seconds);
	fputs(". `results.csv` has the same figures, one row per point and application.\n", f);
	md_header(r, f, "Result", "app");
	for (int ai = 0; ai < s->napps; ai++) {
		fprintf(f, "| %s |", s->apps[ai]);
		for (int pi = 0; pi < s->npoints; pi++) {
			const Row *row = &r->rows[pi * s->napps + ai];
			fprintf(f, " %s%s", row->status, *row->reason ? ": " : "");
			md_text(f, row->reason);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	for (int m = 0; m < NMETRIC; m++) {
		if (!metrics[m].title)
			continue;
		md_header(r, f, metrics[m].title, "app");
		for (int ai = 0; ai < s->napps; ai++) {
			fprintf(f, "| %s |", s->apps[ai]);
			for (int pi = 0; pi < s->npoints; pi++)
				if (m == M_PES_USED)
					md_utilization(f, &r->rows[pi * s->napps + ai]);
				else
					md_num(f, r->rows[pi * s->napps + ai].m[m]);
			fputc('\n', f);
		}
		if (m != M_PACKED)
			continue;
		for (int w = 0; w < r->nwidths; w++) {
			char title[64];
			snprintf(title, sizeof title, "Routing tracks used, %d-bit network", r->widths[w]);
			md_header(r, f, title, "app");
			for (int ai = 0; ai < s->napps; ai++) {
				fprintf(f, "| %s |", s->apps[ai]);
				for (int pi = 0; pi < s->npoints; pi++)
					md_num(f, r->rows[pi * s->napps + ai].tracks[w]);
				fputc('\n', f);
			}
		}
	}
	const char *unit = r->unit;
	char title[128];
	snprintf(title, sizeof title, "Area (%s; scripts/area.sh)", unit ? unit : "not measured");
	md_header(r, f, title, "tile: part");
	for (int k = 0; k < 3; k++)
		for (int q = 0; q < NPART; q++) {
			fprintf(f, "| %s: %s |", kinds[k], parts[q]);
			for (int pi = 0; pi < s->npoints; pi++)
				md_num(f, r->area[pi].v[k][q]);
			fputc('\n', f);
		}
	fputs("| array |", f);
	for (int pi = 0; pi < s->npoints; pi++)
		md_num(f, r->area[pi].array);
	fputs("\n\nCharts: `summary.svg` (per point the geometric mean over the applications of the runtime "
	      "relative to the base point, against the array's area; the Pareto-optimal points joined), "
	      "`runtime_area.svg` (a panel per application) and `resources.svg` (PEs, MEMs, registers and tracks per "
	      "point).\n", f);
}

/* results.csv's text; NULL (a message on stderr) if it cannot be made. */
static char *csv_text(const Report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		perror("dse: error: results.csv");
		return NULL;
	}
	write_csv(r, f);
	if (fclose(f) != 0) {
		perror("dse: error: results.csv");
		free(text);
		return NULL;
	}
	return text;
}

/* Writes the files of r into dir through one OutSet: the CSV's text, the
 * Markdown, the charts drawn from the CSV's text; 0 if one cannot be
 * written. */
static int write_files(const Report *r, const char *csv, char *const *paths, double seconds)
{
	Diags *d = diags_new(stderr);
	DseResults *res = dse_results_read(paths[0], csv, d);
	diags_free(d);
	if (!ALWAYS(res))
		return 0;
	OutSet *set = outset_new();
	FILE *f[5];
	int ok = 1;
	for (int i = 0; i < 5 && ok; i++)
		ok = (f[i] = outset_open(set, paths[i])) != NULL;
	if (!ok) {
		outset_abort(set);
	} else {
		fputs(csv, f[0]);
		write_md(r, f[1], seconds);
		dse_charts_write(res, f[2], f[3], f[4]);
		ok = outset_commit(set) == 0;
	}
	dse_results_free(res);
	return ok;
}

int dse_report(const Sweep *s, const char *dir, double seconds)
{
	Report r = { s, dir, arena_new(), NULL, NULL, { 0 }, 0, NULL, 0, 0 };
	r.rows = xcalloc((size_t)(s->npoints * s->napps), sizeof *r.rows);
	r.area = xcalloc((size_t)s->npoints, sizeof *r.area);
	for (int i = 0; i < s->npoints * s->napps; i++) {
		for (int m = 0; m < NMETRIC; m++)
			r.rows[i].m[m] = NAN;
		for (int w = 0; w < DSE_MAX_WIDTHS; w++)
			r.rows[i].tracks[w] = NAN;
	}
	for (int pi = 0; pi < s->npoints; pi++) {
		for (int k = 0; k < 3; k++)
			for (int q = 0; q < NPART; q++)
				r.area[pi].v[k][q] = NAN;
		r.area[pi].array = NAN;
	}
	Diags *d = diags_new(stderr);
	int ok = 1;
	for (int pi = 0; pi < s->npoints; pi++)
		ok &= read_point(&r, pi, d);
	diags_free(d);
	for (int i = 0; ok && i < s->npoints * s->napps; i++)
		if (strcmp(r.rows[i].status, "bit-exact") == 0)
			r.ok++;
		else
			r.failed++;
	static const char *const files[5] = { "results.csv", "results.md", "summary.svg", "runtime_area.svg",
					      "resources.svg" };
	char *paths[5], *csv = ok ? csv_text(&r) : NULL;
	for (int i = 0; i < 5; i++)
		paths[i] = util_path_join(dir, files[i]);
	ok = csv && write_files(&r, csv, paths, seconds);
	if (ok) {
		printf("dse: %s: %d points x %d applications: %d bit-exact, %d failed -> %s, %s, %s, %s, %s", s->name,
		       s->npoints, s->napps, r.ok, r.failed, paths[0], paths[1], paths[2], paths[3], paths[4]);
		if (seconds > 0)
			printf(" in %.0f s", seconds);
		putchar('\n');
	}
	for (int i = 0; i < 5; i++)
		free(paths[i]);
	free(csv);
	free(r.rows);
	free(r.area);
	arena_free(r.a);
	return ok;
}
