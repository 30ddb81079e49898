/* dse_report.c - a sweep's results: each point's result.txt (written by
 * scripts/dse_point.sh), each application's <app>.report.yaml (cgrac) and
 * the point's area.yaml (scripts/area.sh) gathered into results.csv (one
 * row per point and application), results.md (a table per metric, the
 * points as columns) and two charts. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "dse.h"

/* The numbers of one application at one point, NAN where there is none. */
enum { M_PES, M_MEMS, M_IOS, M_REGS, M_PACKED, M_CRIT, M_CLOCK, M_LATENCY, M_RUNTIME, M_COMPILE, NMETRIC };
static const struct {
	const char *key, *column, *title;
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
};

#define MAX_WIDTHS 4
typedef struct Row {
	const char *status, *reason;
	double m[NMETRIC];
	double tracks[MAX_WIDTHS];
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
	int widths[MAX_WIDTHS], nwidths;
	int ok, failed;
} Report;

static double num(const YNode *n)
{
	double v;
	return n && n->kind == YN_SCALAR && yscalar_double(n, &v) == 0 ? v : NAN;
}

static void read_app_report(Report *r, Row *row, const char *path, Diags *d)
{
	YDoc *doc = ydoc_load_file(path, d);
	const YNode *root = doc ? doc->root : NULL;
	for (int m = 0; m < NMETRIC; m++)
		if (metrics[m].key)
			row->m[m] = num(ymap_get(root, metrics[m].key));
	const YNode *t = ymap_get(root, "tracks");
	for (int i = 0; t && t->kind == YN_MAP && i < t->len; i++) {
		int w = atoi(t->keys[i]->value), k = 0;
		while (k < r->nwidths && r->widths[k] != w)
			k++;
		if (k == r->nwidths && k < MAX_WIDTHS)
			r->widths[r->nwidths++] = w;
		if (k < MAX_WIDTHS)
			row->tracks[k] = num(t->vals[i]);
	}
	if (row->m[M_CLOCK] > 0 && !isnan(row->m[M_LATENCY]))
		row->m[M_RUNTIME] = row->m[M_LATENCY] / row->m[M_CLOCK];
	ydoc_free(doc);
}

static void read_area(Area *ar, const char *path, Diags *d)
{
	YDoc *doc = ydoc_load_file(path, d);
	const YNode *root = doc ? doc->root : NULL, *tiles = ymap_get(root, "tiles");
	for (int k = 0; k < 3; k++)
		for (int p = 0; p < NPART; p++)
			ar->v[k][p] = num(ymap_get(ymap_get(tiles, kinds[k]), parts[p]));
	ar->array = num(ymap_get(root, "array"));
	const YNode *u = ymap_get(root, "unit");
	ar->unit = u && u->kind == YN_SCALAR ? xstrdup(u->value) : NULL;
	ydoc_free(doc);
}

/* Splits a line of result.txt at its tabs (in place); the number of fields. */
static int fields(char *line, char **f, int max)
{
	int n = 0;
	line[strcspn(line, "\n")] = 0;
	while (n < max) {
		f[n++] = line;
		char *tab = strchr(line, '\t');
		if (!tab)
			break;
		*tab = 0;
		line = tab + 1;
	}
	return n;
}

/* One point's results; 0 with a message if its result.txt is missing or
 * malformed. */
static int read_point(Report *r, int pi, Diags *d)
{
	const Sweep *s = r->s;
	const char *pdir = arena_printf(r->a, "%s/%s", r->dir, s->points[pi].name);
	const char *path = arena_printf(r->a, "%s/result.txt", pdir);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "dse: no %s: the point has not run (make dse runs it)\n", path);
		return 0;
	}
	char line[4096];
	int ok = 1, lineno = 0;
	while (fgets(line, sizeof line, f)) {
		char *fl[6];
		int n = fields(line, fl, 6);
		lineno++;
		if (strcmp(fl[0], "app") == 0 && n >= 4) {
			int ai = 0;
			while (ai < s->napps && strcmp(s->apps[ai], fl[1]) != 0)
				ai++;
			if (ai == s->napps)
				continue;   /* an application the sweep no longer lists */
			Row *row = &r->rows[pi * s->napps + ai];
			row->status = arena_strdup(r->a, fl[2]);
			row->reason = arena_strdup(r->a, n >= 5 ? fl[4] : "");
			if (strcmp(fl[2], "bit-exact") == 0 || strcmp(fl[2], "different") == 0)
				read_app_report(r, row, arena_printf(r->a, "%s/apps/%s/%s.report.yaml", pdir, fl[1], fl[1]), d);
			if (strcmp(fl[2], "not-run") != 0)
				row->m[M_COMPILE] = atof(fl[3]);
		} else if (strcmp(fl[0], "area") == 0 && n >= 2) {
			if (strcmp(fl[1], "ok") == 0)
				read_area(&r->area[pi], arena_printf(r->a, "%s/area.yaml", pdir), d);
		} else if (strcmp(fl[0], "generate") != 0) {
			fprintf(stderr, "%s:%d: dse: not a line of a point's result\n", path, lineno);
			ok = 0;
		}
	}
	fclose(f);
	for (int ai = 0; ai < s->napps && ok; ai++)
		if (!r->rows[pi * s->napps + ai].status) {
			fprintf(stderr, "dse: %s has no line for application %s: run the point again "
				"(remove the file)\n", path, s->apps[ai]);
			ok = 0;
		}
	return ok;
}

/* ---- writing ---- */

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
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

static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.10g", v);
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
	fputs(",area_array\n", f);
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
			fputc('\n', f);
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

static void md_header(const Report *r, FILE *f, const char *title, const char *first)
{
	const Sweep *s = r->s;
	fprintf(f, "\n## %s\n\n| %s |", title, first);
	for (int pi = 0; pi < s->npoints; pi++)
		fprintf(f, " %s |", s->points[pi].label);
	fprintf(f, "\n|---|");
	for (int pi = 0; pi < s->npoints; pi++)
		fputs("---|", f);
	fputc('\n', f);
}

static void write_md(const Report *r, FILE *f, double seconds)
{
	const Sweep *s = r->s;
	fprintf(f, "# Sweep %s\n\nFrom `%s`: %d points over the base `%s`, %d applications, each compiled "
		"and checked at the buffer level against its golden image; %d bit-exact, %d failed",
		s->name, s->file, s->npoints, s->base_path, s->napps, r->ok, r->failed);
	if (seconds > 0)
		fprintf(f, " (%.0f s)", seconds);
	fputs(". `results.csv` has the same figures, one row per point and application.\n", f);
	md_header(r, f, "Result", "app");
	for (int ai = 0; ai < s->napps; ai++) {
		fprintf(f, "| %s |", s->apps[ai]);
		for (int pi = 0; pi < s->npoints; pi++) {
			const Row *row = &r->rows[pi * s->napps + ai];
			fprintf(f, " %s%s%s |", row->status, *row->reason ? ": " : "", row->reason);
		}
		fputc('\n', f);
	}
	for (int m = 0; m < NMETRIC; m++) {
		md_header(r, f, metrics[m].title, "app");
		for (int ai = 0; ai < s->napps; ai++) {
			fprintf(f, "| %s |", s->apps[ai]);
			for (int pi = 0; pi < s->npoints; pi++)
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
	const char *unit = NULL;
	for (int pi = 0; pi < s->npoints; pi++)
		unit = unit ? unit : r->area[pi].unit;
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
	fputs("\n\nCharts: `runtime_area.svg` (runtime against the array's area, per application) and "
	      "`resources.svg` (PEs, MEMs, registers and tracks per point).\n", f);
}

/* The charts: runtime against area (or per point, without area) and the
 * resources per point. */
static void write_svg(const Report *r, FILE *rt, FILE *res)
{
	const Sweep *s = r->s;
	int np = s->npoints, na = s->napps, have_area = 0;
	for (int pi = 0; pi < np; pi++)
		have_area |= !isnan(r->area[pi].array);
	double *xs = xcalloc((size_t)np, sizeof *xs), *ys = xcalloc((size_t)(np * na * 5), sizeof *ys);
	const char **labels = xcalloc((size_t)np, sizeof *labels), **ticks = xcalloc((size_t)np, sizeof *ticks);
	ChartSeries *ser = xcalloc((size_t)(na * 5), sizeof *ser);
	for (int pi = 0; pi < np; pi++) {
		xs[pi] = pi;
		ticks[pi] = s->points[pi].label;
		labels[pi] = arena_printf(r->a, "%d", pi + 1);
	}
	double *area_x = xcalloc((size_t)np, sizeof *area_x);
	for (int pi = 0; pi < np; pi++)
		area_x[pi] = have_area ? r->area[pi].array : pi;
	Chart charts[5];
	const int what[5] = { M_RUNTIME, M_PES, M_MEMS, M_REGS, -1 };
	for (int c = 0; c < 5; c++) {
		for (int ai = 0; ai < na; ai++) {
			double *y = ys + (size_t)(c * na + ai) * np;
			for (int pi = 0; pi < np; pi++) {
				const Row *row = &r->rows[pi * na + ai];
				y[pi] = what[c] >= 0 ? row->m[what[c]] : r->nwidths ? row->tracks[0] : NAN;
			}
			ser[c * na + ai] = (ChartSeries){ s->apps[ai], c == 0 ? area_x : xs, y, c == 0 ? labels : NULL, np };
		}
		charts[c] = (Chart){ metrics[what[c] >= 0 ? what[c] : 0].title, "point", "", ticks, np,
				     ser + c * na, na, 1 };
	}
	charts[4].title = r->nwidths ? arena_printf(r->a, "Routing tracks used, %d-bit network", r->widths[0])
				     : "Routing tracks used";
	charts[0].ylabel = "runtime (µs)";
	if (have_area) {
		charts[0].title = "Runtime against the array's area (labels: point numbers)";
		charts[0].xlabel = arena_printf(r->a, "array area (%s)", r->area[0].unit ? r->area[0].unit : "");
		charts[0].xticks = NULL;
		charts[0].lines = 0;
	}
	dse_svg_write(rt, charts, 1);
	dse_svg_write(res, charts + 1, 4);
	free(xs);
	free(ys);
	free(labels);
	free(ticks);
	free(ser);
	free(area_x);
}

int dse_report(const Sweep *s, const char *dir, double seconds)
{
	Report r = { s, dir, arena_new(), NULL, NULL, { 0 }, 0, 0, 0 };
	r.rows = xcalloc((size_t)(s->npoints * s->napps), sizeof *r.rows);
	r.area = xcalloc((size_t)s->npoints, sizeof *r.area);
	for (int i = 0; i < s->npoints * s->napps; i++) {
		for (int m = 0; m < NMETRIC; m++)
			r.rows[i].m[m] = NAN;
		for (int w = 0; w < MAX_WIDTHS; w++)
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
	if (ok) {
		char *p_csv = util_path_join(dir, "results.csv"), *p_md = util_path_join(dir, "results.md");
		char *p_rt = util_path_join(dir, "runtime_area.svg"), *p_res = util_path_join(dir, "resources.svg");
		OutSet *set = outset_new();
		FILE *fc = outset_open(set, p_csv), *fm = fc ? outset_open(set, p_md) : NULL;
		FILE *fr = fm ? outset_open(set, p_rt) : NULL, *fs = fr ? outset_open(set, p_res) : NULL;
		if (!fs) {
			outset_abort(set);
			ok = 0;
		} else {
			write_csv(&r, fc);
			write_md(&r, fm, seconds);
			write_svg(&r, fr, fs);
			ok = outset_commit(set) == 0;
		}
		if (ok) {
			printf("dse: %s: %d points x %d applications: %d bit-exact, %d failed -> %s, %s, %s, %s",
			       s->name, s->npoints, s->napps, r.ok, r.failed, p_csv, p_md, p_rt, p_res);
			if (seconds > 0)
				printf(" in %.0f s", seconds);
			putchar('\n');
		}
		free(p_csv);
		free(p_md);
		free(p_rt);
		free(p_res);
	}
	for (int pi = 0; pi < s->npoints; pi++)
		free((char *)r.area[pi].unit);
	free(r.rows);
	free(r.area);
	arena_free(r.a);
	return ok;
}
