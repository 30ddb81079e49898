/* dse_results.c - a sweep's results.csv read back into the table the charts
 * are drawn from: dse report reads the text it has just written, dse charts
 * the file, so both draw the same charts. The header names the columns
 * (the knobs between `point` and `app`); each row must have a known status
 * and numbers or nothing in the figures' cells, and each point a row per
 * application. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vec.h"
#include "dse.h"

/* One cell of a record: its text and where it starts. */
typedef struct Cell {
	const char *s;
	int line, col;
} Cell;
typedef VEC(Cell) Cells;

typedef struct CsvReader {
	const char *path, *p;
	int line, col;
	Arena *a;
	Diags *d;
} CsvReader;

static void advance(CsvReader *r)
{
	if (*r->p == '\n') {
		r->line++;
		r->col = 1;
	} else {
		r->col++;
	}
	r->p++;
}

static int at_line_end(const CsvReader *r)
{
	return *r->p == '\n' || (r->p[0] == '\r' && r->p[1] == '\n');
}

/* A quoted cell from its opening quote: the text with "" as ", into
 * c->s; 0 with an error if the quote is not closed. */
static int quoted_cell(CsvReader *r, Cell *c)
{
	const char *q = r->p + 1;
	while (*q && (*q != '"' || q[1] == '"'))
		q += *q == '"' ? 2 : 1;
	if (!*q) {
		diag_error(r->d, r->path, c->line, c->col, "a quoted cell is not closed");
		return 0;
	}
	char *out = arena_alloc(r->a, (size_t)(q - r->p)), *o = out;
	advance(r);
	while (r->p < q) {
		if (*r->p == '"')
			advance(r);
		*o++ = *r->p;
		advance(r);
	}
	advance(r);
	*o = 0;
	c->s = out;
	if (*r->p != ',' && *r->p && !at_line_end(r)) {
		diag_error(r->d, r->path, r->line, r->col, "expected ',' or the end of the line after a quoted cell");
		return 0;
	}
	return 1;
}

/* The record at r->p into cells; 1 with r->p past its line's end, 0 at
 * the end of the text, -1 after an error (reading stops there). */
static int read_record(CsvReader *r, Cells *cells)
{
	cells->len = 0;
	if (!*r->p)
		return 0;
	for (;;) {
		Cell c = { NULL, r->line, r->col };
		if (*r->p == '"') {
			if (!quoted_cell(r, &c))
				return -1;
		} else {
			size_t n = strcspn(r->p, ",\r\n");
			while (r->p[n] == '\r' && r->p[n + 1] != '\n')
				n += 1 + strcspn(r->p + n + 1, ",\r\n");
			c.s = arena_strndup(r->a, r->p, n);
			r->p += n;
			r->col += (int)n;
		}
		vec_push(cells, c);
		if (*r->p == ',') {
			advance(r);
			continue;
		}
		if (!*r->p) {
			diag_error(r->d, r->path, r->line, r->col, "the last line has no newline: the file was cut short");
			return -1;
		}
		if (*r->p == '\r')
			advance(r);
		advance(r);
		return 1;
	}
}

/* The columns the charts read, by their names in the header. */
enum { C_SWEEP, C_POINT, C_APP, C_STATUS, C_RUNTIME, C_PES, C_MEMS, C_REGS, C_AREA, C_UNIT, NCOL };
static const char *const col_names[NCOL] = { "sweep", "point", "app", "status", "runtime_us", "pes",
					     "mems", "registers", "area_array", "area_unit" };

typedef struct Header {
	int col[NCOL];                /* the index of each, -1 if absent */
	int track_col[DSE_MAX_WIDTHS];
	int ncells;
} Header;

/* The header's columns into h and the widths of tracksW_used into res; 0
 * with an error if one the charts need is missing. */
static int read_header(CsvReader *r, const Cells *cells, Header *h, DseResults *res)
{
	int ok = 1;
	h->ncells = cells->len;
	for (int k = 0; k < NCOL; k++) {
		h->col[k] = -1;
		for (int i = 0; i < cells->len && h->col[k] < 0; i++)
			if (strcmp(cells->data[i].s, col_names[k]) == 0)
				h->col[k] = i;
		if (h->col[k] < 0 && k != C_UNIT) {
			diag_error(r->d, r->path, 1, 1, "no column '%s' in the header (results.csv as dse report writes it)",
				   col_names[k]);
			ok = 0;
		}
	}
	if (ok && h->col[C_APP] < h->col[C_POINT]) {
		diag_error(r->d, r->path, 1, cells->data[h->col[C_APP]].col,
			   "column 'app' must follow 'point' (the knobs' columns are between them)");
		ok = 0;
	}
	for (int i = 0; ok && i < cells->len; i++) {
		int w, n = 0;
		if (sscanf(cells->data[i].s, "tracks%d_used%n", &w, &n) != 1 || cells->data[i].s[n] || w < 1 || w > 64)
			continue;
		if (res->nwidths == DSE_MAX_WIDTHS) {
			diag_error(r->d, r->path, 1, cells->data[i].col, "more than %d columns tracksW_used", DSE_MAX_WIDTHS);
			return 0;
		}
		h->track_col[res->nwidths] = i;
		res->widths[res->nwidths++] = w;
	}
	return ok;
}

/* A figure's cell: NAN when empty, else a finite number; 0 with an error
 * at the cell otherwise. */
static int number_cell(CsvReader *r, const Cell *c, const char *column, double *out)
{
	char *end;
	if (!*c->s) {
		*out = NAN;
		return 1;
	}
	*out = strtod(c->s, &end);
	if (*end || end == c->s || !isfinite(*out)) {
		diag_error(r->d, r->path, c->line, c->col, "'%s' in column %s: expected a finite number or nothing", c->s,
			   column);
		return 0;
	}
	return 1;
}

/* A row read, before the table has its shape. */
typedef struct ReadRow {
	int point, app, line;
	DseRow row;
	double area;
} ReadRow;

/* The status and figures of one record into rr; 0 with errors. */
static int read_figures(CsvReader *r, const Header *h, const Cells *cells, const DseResults *res, ReadRow *rr)
{
	static const char *const statuses[] = { "bit-exact", "different", "not-mapped", "not-run" };
	const Cell *st = &cells->data[h->col[C_STATUS]];
	int ok = 0;
	for (int i = 0; i < 4; i++)
		if (strcmp(st->s, statuses[i]) == 0) {
			rr->row.status = statuses[i];
			ok = 1;
		}
	if (!ok)
		diag_error(r->d, r->path, st->line, st->col,
			   "status '%s': expected bit-exact, different, not-mapped or not-run", st->s);
	static const int figs[] = { C_RUNTIME, C_PES, C_MEMS, C_REGS, C_AREA };
	double *dst[] = { &rr->row.runtime, &rr->row.pes, &rr->row.mems, &rr->row.regs, &rr->area };
	for (int i = 0; i < 5; i++)
		ok &= number_cell(r, &cells->data[h->col[figs[i]]], col_names[figs[i]], dst[i]);
	for (int w = 0; w < res->nwidths; w++)
		ok &= number_cell(r, &cells->data[h->track_col[w]], "tracks_used", &rr->row.tracks[w]);
	return ok;
}

/* The label of a point from the knobs' cells of its first row, as the
 * sweep labels it: knob=value for each knob it sets, or "base". */
static const char *point_label(Arena *a, const Header *h, const Cells *header, const Cells *cells)
{
	StrBuf b = { 0 };
	for (int k = h->col[C_POINT] + 1; k < h->col[C_APP]; k++)
		if (*cells->data[k].s)
			sb_printf(&b, "%s%s=%s", b.len ? " " : "", header->data[k].s, cells->data[k].s);
	const char *label = arena_strdup(a, b.len ? b.s : "base");
	free(b.s);
	return label;
}

/* The index of key in m; a new key gets the next one, and *is_new set. */
static int index_of(StrMap *m, const char *key, int *is_new)
{
	intptr_t v;
	*is_new = !strmap_get(m, key, &v);
	if (*is_new) {
		v = m->len;
		strmap_put(m, key, v);
	}
	return (int)v;
}

typedef VEC(ReadRow) ReadRows;
typedef VEC(const char *) Names;

/* The table of res from the rows read: each point's label, area and row
 * per application; 0 with errors for a pair with no row or two. */
static int fill_table(CsvReader *r, DseResults *res, const ReadRows *rows)
{
	int np = res->npoints, na = res->napps, ok = 1;
	int *line = arena_alloc(res->arena, sizeof(int) * (size_t)np * (size_t)na);
	res->rows = arena_alloc(res->arena, sizeof(DseRow) * (size_t)np * (size_t)na);
	vec_foreach(rows, i) {
		const ReadRow *rr = &rows->data[i];
		int k = rr->point * na + rr->app;
		if (line[k]) {
			diag_error(r->d, r->path, rr->line, 1, "a second row for point %s and application %s (the first is "
				   "line %d)", res->labels[rr->point], res->apps[rr->app], line[k]);
			ok = 0;
		}
		line[k] = rr->line;
		res->rows[k] = rr->row;
		if (!(isnan(rr->area) && isnan(res->area[rr->point])) && rr->area != res->area[rr->point]) {
			diag_error(r->d, r->path, rr->line, 1, "area_array of point %s differs from its first row's",
				   res->labels[rr->point]);
			ok = 0;
		}
	}
	for (int k = 0; ok && k < np * na; k++)
		if (!line[k]) {
			diag_error(r->d, r->path, 0, 0, "no row for point %s and application %s", res->labels[k / na],
				   res->apps[k % na]);
			ok = 0;
		}
	return ok;
}

/* The records after the header into rows, the points' labels and areas
 * and the applications' names into res; 0 with errors. */
static int read_rows(CsvReader *r, const Header *h, const Cells *header, DseResults *res, ReadRows *rows)
{
	StrMap points, apps;
	Names labels = { 0 }, names = { 0 };
	VEC(double) area = { 0 };
	strmap_init(&points);
	strmap_init(&apps);
	Cells cells = { 0 };
	int ok = 1, st;
	while ((st = read_record(r, &cells)) > 0) {
		int line = cells.data[0].line, is_new;
		if (cells.len != h->ncells) {
			diag_error(r->d, r->path, line, 1, "%d cells; the header has %d", cells.len, h->ncells);
			ok = 0;
			continue;
		}
		ReadRow rr = { 0, 0, line, { 0 }, 0 };
		ok &= read_figures(r, h, &cells, res, &rr);
		rr.point = index_of(&points, cells.data[h->col[C_POINT]].s, &is_new);
		if (is_new) {
			vec_push(&labels, point_label(r->a, h, header, &cells));
			vec_push(&area, rr.area);
		}
		rr.app = index_of(&apps, cells.data[h->col[C_APP]].s, &is_new);
		if (is_new)
			vec_push(&names, cells.data[h->col[C_APP]].s);
		if (!res->sweep)
			res->sweep = cells.data[h->col[C_SWEEP]].s;
		if (!res->unit && h->col[C_UNIT] >= 0 && *cells.data[h->col[C_UNIT]].s)
			res->unit = cells.data[h->col[C_UNIT]].s;
		vec_push(rows, rr);
	}
	ok &= st == 0;
	if (ok && !rows->len) {
		diag_error(r->d, r->path, 1, 1, "no rows after the header");
		ok = 0;
	}
	res->npoints = labels.len;
	res->napps = names.len;
	res->labels = arena_alloc(r->a, sizeof(char *) * (size_t)(labels.len + 1));
	res->apps = arena_alloc(r->a, sizeof(char *) * (size_t)(names.len + 1));
	res->area = arena_alloc(r->a, sizeof(double) * (size_t)(area.len + 1));
	for (int i = 0; i < labels.len; i++) {
		res->labels[i] = labels.data[i];
		res->area[i] = area.data[i];
	}
	for (int i = 0; i < names.len; i++)
		res->apps[i] = names.data[i];
	vec_free(&labels);
	vec_free(&names);
	vec_free(&area);
	vec_free(&cells);
	strmap_free(&points);
	strmap_free(&apps);
	return ok;
}

DseResults *dse_results_read(const char *path, const char *text, Diags *d)
{
	Arena *a = arena_new();
	DseResults *res = arena_alloc(a, sizeof *res);
	res->arena = a;
	CsvReader r = { path, text, 1, 1, a, d };
	Cells header = { 0 };
	ReadRows rows = { 0 };
	Header h;
	int ok = read_record(&r, &header) > 0;
	if (!ok && !*text)
		diag_error(d, path, 1, 1, "an empty file: no header");
	ok = ok && read_header(&r, &header, &h, res);
	ok = ok && read_rows(&r, &h, &header, res, &rows);
	ok = ok && fill_table(&r, res, &rows);
	vec_free(&header);
	vec_free(&rows);
	if (!ok) {
		arena_free(a);
		return NULL;
	}
	return res;
}

void dse_results_free(DseResults *r)
{
	if (r)
		arena_free(r->arena);
}
