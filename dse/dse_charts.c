/* dse_charts.c - the sweep's charts, drawn from its results (dse_results.c)
 * with the SVG writer of dse_svg.c, laid out so that nothing is cut off or
 * drawn over anything else whatever the number of points and applications:
 *
 *   summary.svg       per point, the geometric mean over the applications of
 *                     the runtime relative to the base point (the first),
 *                     against the array's area; the Pareto-optimal points
 *                     marked, joined and named by their knobs; a point where
 *                     an application is not bit-exact hollow, with the
 *                     number of applications its mean covers; a key of
 *                     every point below;
 *   runtime_area.svg  a small panel per application: its runtime relative to
 *                     the base against the area, a style per point, the
 *                     points where it is not bit-exact in a band on top;
 *   resources.svg     a chart per resource (PE and MEM tiles, registers,
 *                     tracks per network) over the points, a series per
 *                     application side by side, the legend below each.
 *
 * Points without an area figure stand in a strip of their own at the right
 * of a plot, in point order (the whole plot when no point has one). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/vec.h"
#include "dse.h"
#include "dse_svg.h"

enum { MARGIN = 20 };

typedef struct Box {
	double x, y, w, h;
} Box;
typedef VEC(Box) Boxes;

static int overlaps(const Box *a, const Box *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static int inside(const Box *a, const Box *outer)
{
	return a->x >= outer->x && a->y >= outer->y && a->x + a->w <= outer->x + outer->w &&
	       a->y + a->h <= outer->y + outer->h;
}

/* The box of a text of width w and size size at (x, y) with anchor. */
static Box text_box(double x, double y, const char *anchor, double w, double size)
{
	double x0 = anchor[0] == 's' ? x : anchor[0] == 'e' ? x - w : x - w / 2;
	return (Box){ x0, y - size * 0.8, w, size * 1.05 };
}

/* A figure with four digits: 64.41M, 12.5k, 0.8731. */
static void short_number(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "—");
	else if (fabs(v) >= 1e15 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, n, "%.4g", v);
	else if (fabs(v) >= 1e6)
		snprintf(buf, n, "%.4gM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(buf, n, "%.4gk", v / 1e3);
	else
		snprintf(buf, n, "%.4g", v);
}

static int usable(const DseRow *row)
{
	return strcmp(row->status, "bit-exact") == 0 && isfinite(row->runtime) && row->runtime > 0;
}

/* ---- where the points go across a plot ---- */

/* The area axis of a plot and the strip of points without an area. */
typedef struct XPlace {
	int has_area;       /* some point has an area */
	int nstrip;         /* the points without */
	int *slot;          /* per point: its place in the strip, -1 on the area axis */
	SvgAxis axis;       /* over the points' areas */
} XPlace;

static XPlace xplace(const DseResults *r, int nticks)
{
	XPlace xp = { 0, 0, xcalloc((size_t)r->npoints, sizeof(int)), { 0, 1, 1 } };
	double lo = INFINITY, hi = -INFINITY;
	for (int p = 0; p < r->npoints; p++)
		if (isfinite(r->area[p])) {
			xp.has_area = 1;
			xp.slot[p] = -1;
			lo = fmin(lo, r->area[p]);
			hi = fmax(hi, r->area[p]);
		} else {
			xp.slot[p] = xp.nstrip++;
		}
	if (xp.has_area)
		xp.axis = dse_svg_axis(lo, hi, SVG_PAD, nticks);
	return xp;
}

/* A plotting area: the area axis and the strip side by side, the values'
 * axis from bottom to top (below a band for what has no value, if any). */
typedef struct Frame {
	Box box;
	double ax0, ax1;    /* the area axis's extent */
	double sx0, sx1;    /* the strip's (sx0 == sx1: none) */
	double top;         /* the values' top */
	SvgAxis ya;
	const XPlace *xp;
	double font;        /* the ticks' size */
} Frame;

/* fr's box split between the area axis and a strip of slotw per point
 * (a third of the box at most), a band of band pixels on top. */
static void frame_split(Frame *fr, const XPlace *xp, Box box, double slotw, double band)
{
	fr->box = box;
	fr->xp = xp;
	fr->top = box.y + band;
	fr->ax0 = box.x;
	fr->ax1 = fr->sx0 = fr->sx1 = box.x + box.w;
	if (!xp->has_area) {
		fr->ax1 = fr->sx0 = box.x;
	} else if (xp->nstrip) {
		double w = fmin(fmax(xp->nstrip * slotw, 2 * slotw), box.w / 3);
		fr->sx0 = box.x + box.w - w;
		fr->ax1 = fr->sx0 - 10;
	}
}

static double frame_x(const Frame *fr, const DseResults *r, int p)
{
	const XPlace *xp = fr->xp;
	if (xp->slot[p] >= 0)
		return fr->sx0 + (xp->slot[p] + 0.5) * (fr->sx1 - fr->sx0) / xp->nstrip;
	return fr->ax0 + dse_svg_frac(&xp->axis, r->area[p]) * (fr->ax1 - fr->ax0);
}

static double frame_y(const Frame *fr, double v)
{
	double bottom = fr->box.y + fr->box.h;
	return bottom - dse_svg_frac(&fr->ya, v) * (bottom - fr->top);
}

static void plot_rect(FILE *f, double x0, double x1, const Frame *fr)
{
	fprintf(f, "<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#444\"/>\n", x0, fr->box.y, x1 - x0, fr->box.h);
}

/* A tick's text under the plot at x, unless it would touch the one before
 * (whose right end is *last). */
static void x_tick_text(FILE *f, const Frame *fr, double x, const char *s, double *last)
{
	double w = dse_svg_text_width(s, fr->font, 0);
	if (x - w / 2 < *last + 4)
		return;
	dse_svg_text(f, x, fr->box.y + fr->box.h + fr->font + 4, "middle", fr->font, "", s);
	*last = x + w / 2;
}

/* The ticks, grid lines and frames of fr; the strip's ticks are the
 * points' numbers. */
static void frame_draw(FILE *f, const Frame *fr, const DseResults *r)
{
	double tv[SVG_MAX_TICKS], last = -INFINITY;
	char buf[64];
	for (int i = 0, n = dse_svg_ticks(&fr->ya, tv); i < n; i++) {
		double y = frame_y(fr, tv[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", fr->box.x, y,
			fr->box.x + fr->box.w, y);
		dse_svg_number(buf, sizeof buf, tv[i]);
		dse_svg_text(f, fr->box.x - 4, y + fr->font * 0.35, "end", fr->font, "", buf);
	}
	if (fr->xp->has_area) {
		for (int i = 0, n = dse_svg_ticks(&fr->xp->axis, tv); i < n; i++) {
			double x = fr->ax0 + dse_svg_frac(&fr->xp->axis, tv[i]) * (fr->ax1 - fr->ax0);
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", x,
				fr->box.y, x, fr->box.y + fr->box.h);
			dse_svg_number(buf, sizeof buf, tv[i]);
			x_tick_text(f, fr, x, buf, &last);
		}
		plot_rect(f, fr->ax0, fr->ax1, fr);
	}
	if (fr->sx1 > fr->sx0) {
		for (int p = 0; p < r->npoints; p++)
			if (fr->xp->slot[p] >= 0) {
				snprintf(buf, sizeof buf, "%d", p + 1);
				x_tick_text(f, fr, frame_x(fr, r, p), buf, &last);
			}
		plot_rect(f, fr->sx0, fr->sx1, fr);
	}
}

/* A dashed line across fr at value 1, the base's, when the axis has it. */
static void base_line(FILE *f, const Frame *fr)
{
	if (fr->ya.lo > 1 || fr->ya.hi < 1)
		return;
	double y = frame_y(fr, 1);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"5,3\"/>\n",
		fr->box.x, y, fr->box.x + fr->box.w, y);
}

/* Text across the width, from y on: lines of a header. */
static double header(FILE *f, double x, double y, const char *title, const char *const *lines, int n)
{
	dse_svg_text(f, x, y, "start", 16, "font-weight=\"bold\"", title);
	for (int i = 0; i < n; i++)
		dse_svg_text(f, x, y + 20 + 15 * i, "start", 11, "fill=\"#333\"", lines[i]);
	return y + 20 + 15 * n;
}

/* The width a header needs. */
static double header_width(const char *title, const char *const *lines, int n)
{
	double w = dse_svg_text_width(title, 16, 1);
	for (int i = 0; i < n; i++)
		w = fmax(w, dse_svg_text_width(lines[i], 11, 0));
	return w + 2 * MARGIN;
}

/* ---- summary.svg ---- */

/* Per point, the geometric mean of the runtimes relative to the base's
 * over the applications bit-exact at the base, and the Pareto front. */
typedef struct Summary {
	int counted;        /* applications bit-exact at the base (with a runtime) */
	double *mean;       /* per point, NAN when none of them is bit-exact there */
	int *covered;       /* per point: the counted applications bit-exact there */
	char *pareto;       /* per point: on the front */
	int *front, nfront; /* the front's points by area */
} Summary;

static void summary_means(Summary *sm, const DseResults *r)
{
	int np = r->npoints, na = r->napps;
	for (int a = 0; a < na; a++)
		sm->counted += usable(&r->rows[a]);
	for (int p = 0; p < np; p++) {
		double sum = 0;
		for (int a = 0; a < na; a++) {
			const DseRow *row = &r->rows[p * na + a];
			if (usable(&r->rows[a]) && usable(row)) {
				sum += log(row->runtime / r->rows[a].runtime);
				sm->covered[p]++;
			}
		}
		sm->mean[p] = sm->covered[p] ? exp(sum / sm->covered[p]) : NAN;
	}
}

/* A point the front may hold: every counted application bit-exact there,
 * and an area when some point has one. */
static int eligible(const Summary *sm, const DseResults *r, const XPlace *xp, int p)
{
	return sm->counted && sm->covered[p] == sm->counted && isfinite(sm->mean[p]) &&
	       (!xp->has_area || isfinite(r->area[p]));
}

/* The area a point is compared by: none when no point has one. */
static double front_area(const DseResults *r, const XPlace *xp, int p)
{
	return xp->has_area ? r->area[p] : 0;
}

static void summary_front(Summary *sm, const DseResults *r, const XPlace *xp)
{
	int np = r->npoints;
	for (int p = 0; p < np; p++) {
		if (!eligible(sm, r, xp, p))
			continue;
		int dominated = 0;
		double ap = front_area(r, xp, p);
		for (int q = 0; q < np && !dominated; q++) {
			double aq = front_area(r, xp, q);
			dominated = eligible(sm, r, xp, q) && aq <= ap && sm->mean[q] <= sm->mean[p] &&
				    (aq < ap || sm->mean[q] < sm->mean[p]);
		}
		if (!dominated) {
			sm->pareto[p] = 1;
			int k = sm->nfront++;
			/* insertion by area, then mean, then number */
			while (k > 0 && (front_area(r, xp, sm->front[k - 1]) > ap ||
					 (front_area(r, xp, sm->front[k - 1]) == ap && sm->mean[sm->front[k - 1]] > sm->mean[p]))) {
				sm->front[k] = sm->front[k - 1];
				k--;
			}
			sm->front[k] = p;
		}
	}
}

static Summary summary_new(const DseResults *r, const XPlace *xp)
{
	int np = r->npoints;
	Summary sm = { 0, xcalloc((size_t)np, sizeof(double)), xcalloc((size_t)np, sizeof(int)),
		       xcalloc((size_t)np, 1), xcalloc((size_t)np, sizeof(int)), 0 };
	summary_means(&sm, r);
	summary_front(&sm, r, xp);
	return sm;
}

static void summary_free(Summary *sm)
{
	free(sm->mean);
	free(sm->covered);
	free(sm->pareto);
	free(sm->front);
}

/* The marks of the summary: Pareto-optimal, complete, incomplete. */
static const SvgStyle mark_front = { "#d62728", SVG_DIAMOND, 0, "" };
static const SvgStyle mark_point = { "#1f77b4", SVG_CIRCLE, 0, "" };
static const SvgStyle mark_partial = { "#7f7f7f", SVG_CIRCLE, 1, "" };

static void summary_mark(FILE *f, const Summary *sm, int p, double x, double y)
{
	if (sm->pareto[p])
		dse_svg_marker(f, x, y, 6, mark_front, 0);
	else if (sm->covered[p] < sm->counted)
		dse_svg_marker(f, x, y, 4.5, mark_partial, 0);
	else
		dse_svg_marker(f, x, y, 4.5, mark_point, 0);
}

/* The tag of point p on the plot: its number, with its knobs on the front
 * and its coverage when partial. */
static char *tag_text(const Summary *sm, const DseResults *r, int p)
{
	if (sm->pareto[p])
		return xasprintf("%d: %s", p + 1, r->labels[p]);
	if (sm->covered[p] < sm->counted)
		return xasprintf("%d (%d/%d)", p + 1, sm->covered[p], sm->counted);
	return xasprintf("%d", p + 1);
}

/* Where a tag of width w goes near a marker of radius rad at (x, y): the
 * first of the places around it, nearer first, that is inside bounds and
 * touches nothing taken; 0 if none is free, else 1 plus how far it is
 * (0 next to the marker). */
static int tag_place(const Boxes *taken, const Box *bounds, double x, double y, double rad, double w, double *tx,
		     double *ty, const char **anchor)
{
	static const struct {
		double dx, dy, vy;
		const char *anchor;
	} around[] = {
		{ 1, 0.35, 0, "start" }, { -1, 0.35, 0, "end" }, { 0, -1, -1, "middle" }, { 0, 1.9, 1, "middle" },
		{ 1, -0.9, -1, "start" }, { 1, 1.6, 1, "start" }, { -1, -0.9, -1, "end" }, { -1, 1.6, 1, "end" },
	};
	for (int level = 0; level < 4; level++)
		for (int i = 0; i < 8; i++) {
			double sx = x + around[i].dx * (rad + 3), sy = y + around[i].dy * (rad + 4);
			if (level && !around[i].vy)
				continue;
			sy += around[i].vy * 12 * level;
			Box b = text_box(sx, sy, around[i].anchor, w, 10);
			int free_ = inside(&b, bounds);
			vec_foreach(taken, k) free_ = free_ && !overlaps(&b, &taken->data[k]);
			if (free_) {
				*tx = sx;
				*ty = sy;
				*anchor = around[i].anchor;
				return 1 + level;
			}
		}
	return 0;
}

/* The points' tags, the front's first, each where it touches no marker and
 * no other tag (the number alone when the tag fits nowhere). */
static void summary_tags(FILE *f, const Summary *sm, const DseResults *r, const Frame *fr, const double *px,
			 const double *py)
{
	int np = r->npoints;
	Boxes taken = { 0 };
	for (int p = 0; p < np; p++)
		if (!isnan(py[p]))
			vec_push(&taken, ((Box){ px[p] - 6, py[p] - 6, 12, 12 }));
	for (int pass = 0; pass < 2; pass++)
		for (int p = 0; p < np; p++) {
			if (isnan(py[p]) || sm->pareto[p] != !pass)
				continue;
			double tx = px[p] + 9, ty = py[p] + 3.5;
			const char *anchor = "start";
			char *s = tag_text(sm, r, p);
			double w = dse_svg_text_width(s, 10, sm->pareto[p]);
			int placed = tag_place(&taken, &fr->box, px[p], py[p], 6, w, &tx, &ty, &anchor);
			if (!placed) {
				free(s);
				s = xasprintf("%d", p + 1);
				w = dse_svg_text_width(s, 10, sm->pareto[p]);
				placed = tag_place(&taken, &fr->box, px[p], py[p], 6, w, &tx, &ty, &anchor);
			}
			Box b = text_box(tx, ty, anchor, w, 10);
			vec_push(&taken, b);
			if (placed > 1)
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
					"stroke-width=\"0.7\"/>\n", px[p], py[p], fmin(fmax(px[p], b.x), b.x + b.w),
					fmin(fmax(py[p], b.y), b.y + b.h));
			dse_svg_text(f, tx, ty, anchor, 10, sm->pareto[p] ? "font-weight=\"bold\" fill=\"#b01e1e\"" : "", s);
			free(s);
		}
	vec_free(&taken);
}

/* The plot of the summary: the means, the front joined, the tags. */
static void summary_plot(FILE *f, const Summary *sm, const DseResults *r, const Frame *fr)
{
	int np = r->npoints;
	double *px = xcalloc((size_t)np, sizeof(double)), *py = xcalloc((size_t)np, sizeof(double));
	frame_draw(f, fr, r);
	base_line(f, fr);
	for (int p = 0; p < np; p++) {
		px[p] = frame_x(fr, r, p);
		py[p] = isfinite(sm->mean[p]) ? frame_y(fr, sm->mean[p]) : NAN;
	}
	if (sm->nfront > 1) {
		fputs("<polyline class=\"front\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\" points=\"", f);
		for (int i = 0; i < sm->nfront; i++)
			fprintf(f, "%.1f,%.1f ", px[sm->front[i]], py[sm->front[i]]);
		fputs("\"/>\n", f);
	}
	for (int p = 0; p < np; p++)
		if (!isnan(py[p])) {
			fprintf(f, "<g class=\"point%s\" data-point=\"%d\">\n", sm->pareto[p] ? " pareto" : "", p + 1);
			summary_mark(f, sm, p, px[p], py[p]);
			fputs("</g>\n", f);
		}
	summary_tags(f, sm, r, fr, px, py);
	if (!sm->counted)
		dse_svg_text(f, fr->box.x + fr->box.w / 2, fr->box.y + fr->box.h / 2, "middle", 13, "fill=\"#b01e1e\"",
			     "No application is bit-exact at the base point: no runtime to compare with.");
	free(px);
	free(py);
}

/* The summary's key: a row per point (the first KEY_MAX and the front's). */
enum { KEY_MAX = 60, KEY_ROW = 15, KEY_COLS = 5 };

typedef struct Key {
	char **cell;        /* [row * KEY_COLS + col] */
	int *point;         /* per row; -1 for the header */
	int rows, more;     /* more: points left out */
	double colx[KEY_COLS + 1];
	double w, h;
} Key;

static Key key_new(const Summary *sm, const DseResults *r)
{
	int np = r->npoints;
	Key k = { xcalloc((size_t)(np + 1) * KEY_COLS, sizeof(char *)), xcalloc((size_t)np + 1, sizeof(int)), 0, 0,
		  { 0 }, 0, 0 };
	static const char *const head[KEY_COLS] = { "point", "knobs", "area", "runtime vs base", "applications" };
	for (int c = 0; c < KEY_COLS; c++)
		k.cell[c] = xstrdup(head[c]);
	k.point[k.rows++] = -1;
	for (int p = 0; p < np; p++) {
		if (p >= KEY_MAX && !sm->pareto[p]) {
			k.more++;
			continue;
		}
		char area[32], mean[32];
		short_number(area, sizeof area, r->area[p]);
		short_number(mean, sizeof mean, sm->mean[p]);
		char **c = k.cell + k.rows * KEY_COLS;
		c[0] = p ? xasprintf("%d", p + 1) : xstrdup("1 (base)");
		c[1] = xstrdup(r->labels[p]);
		c[2] = xstrdup(area);
		c[3] = xstrdup(mean);
		c[4] = sm->covered[p] == sm->counted
			       ? xasprintf("all %d", sm->counted)
			       : xasprintf("%d of %d: %d not bit-exact", sm->covered[p], sm->counted,
					   sm->counted - sm->covered[p]);
		k.point[k.rows++] = p;
	}
	k.colx[0] = 22;
	for (int c = 0; c < KEY_COLS; c++) {
		double w = 0;
		for (int i = 0; i < k.rows; i++)
			w = fmax(w, dse_svg_text_width(k.cell[i * KEY_COLS + c], 11, i == 0));
		k.colx[c + 1] = k.colx[c] + w + 18;
	}
	k.w = k.colx[KEY_COLS];
	k.h = (k.rows + (k.more > 0)) * KEY_ROW + 10;
	return k;
}

static void key_free(Key *k)
{
	for (int i = 0; i < k->rows * KEY_COLS; i++)
		free(k->cell[i]);
	free(k->cell);
	free(k->point);
}

static void key_draw(FILE *f, const Key *k, const Summary *sm, double x, double y)
{
	fprintf(f, "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
		"stroke=\"#bbb\"/>\n", x, y, k->w, k->h);
	for (int i = 0; i < k->rows; i++) {
		double ty = y + 5 + KEY_ROW * (i + 1) - 4;
		int p = k->point[i];
		if (p >= 0)
			summary_mark(f, sm, p, x + 11, ty - 4);
		const char *attrs = p < 0 ? "font-weight=\"bold\"" : sm->pareto[p] ? "fill=\"#b01e1e\"" : "";
		for (int c = 0; c < KEY_COLS; c++)
			dse_svg_text(f, x + k->colx[c], ty, "start", 11, attrs, k->cell[i * KEY_COLS + c]);
	}
	if (k->more) {
		char buf[96];
		snprintf(buf, sizeof buf, "and %d more points (results.csv)", k->more);
		dse_svg_text(f, x + k->colx[0], y + 5 + KEY_ROW * (k->rows + 1) - 4, "start", 11, "fill=\"#555\"", buf);
	}
}

/* The legend of the marks, in one row. */
static const char *const mark_names[] = {
	"Pareto-optimal: no other point has both a lower runtime and a smaller area (joined by area)",
	"every application bit-exact",
	"some application not bit-exact: the mean of the others; not on the front",
};
static const SvgStyle *const marks[] = { &mark_front, &mark_point, &mark_partial };

static double marks_width(void)
{
	double w = 12;
	for (int i = 0; i < 3; i++)
		w += 20 + dse_svg_text_width(mark_names[i], 11, 0) + 18;
	return w;
}

static void marks_draw(FILE *f, double x, double y, double w, int no_area)
{
	fprintf(f, "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"24\" fill=\"white\" "
		"stroke=\"#bbb\"/>\n", x, y, w);
	double ex = x + 12;
	for (int i = 0; i < 3; i++) {
		const char *name = i == 0 && no_area ? "the lowest runtime of the points with every application bit-exact"
						     : mark_names[i];
		fprintf(f, "<g class=\"entry\" data-colour=\"%s\" data-marker=\"%s\" data-fill=\"%s\" data-dash=\"\">\n",
			marks[i]->colour, dse_svg_marker_name(marks[i]->marker), marks[i]->hollow ? "hollow" : "solid");
		dse_svg_marker(f, ex, y + 12, 5, *marks[i], 0);
		dse_svg_text(f, ex + 10, y + 16, "start", 11, "", name);
		fputs("</g>\n", f);
		ex += 20 + dse_svg_text_width(name, 11, 0) + 18;
	}
}

/* The header's lines under the title of summary.svg. */
static int summary_lines(const Summary *sm, const DseResults *r, const XPlace *xp, Arena *a, const char **lines)
{
	int n = 0, left = r->napps - sm->counted;
	lines[n++] = arena_printf(a, "Each application's runtime divided by its runtime at the base point (1: %s); per "
			      "point the geometric mean over the %d application%s bit-exact at the base.", r->labels[0],
			      sm->counted, sm->counted == 1 ? "" : "s");
	lines[n++] = "Lower is faster: 0.8 is 20 % less runtime than the base, the dashed line. The key below gives each "
		     "point's knobs, area, mean and how many applications it covers.";
	if (xp->has_area && xp->nstrip)
		lines[n++] = arena_printf(a, "%d point%s without an area figure stand%s at the right, by number, off the "
				      "front.", xp->nstrip, xp->nstrip == 1 ? "" : "s", xp->nstrip == 1 ? "s" : "");
	if (left) {
		StrBuf b = { 0 };
		for (int x = 0; x < r->napps && b.len < 160; x++)
			if (!usable(&r->rows[x]))
				sb_printf(&b, "%s%s", b.len ? ", " : "", r->apps[x]);
		lines[n++] = arena_printf(a, "Left out, not bit-exact at the base: %d application%s (%s%s).", left,
				      left == 1 ? "" : "s", b.s, b.len >= 160 ? ", ..." : "");
		free(b.s);
	}
	return n;
}

enum { SUM_PLOT_H = 380, SUM_LEFT = 80 };

static void write_summary(FILE *f, const DseResults *r, Arena *a)
{
	XPlace xp = xplace(r, 7);
	Summary sm = summary_new(r, &xp);
	Key key = key_new(&sm, r);
	const char *lines[4];
	const char *apps = r->napps == 1 ? "application" : "applications";
	const char *title = arena_printf(a, "Sweep %s: runtime against area, over %d %s", r->sweep, r->napps, apps);
	if (!xp.has_area)
		title = arena_printf(a, "Sweep %s: runtime per point, over %d %s (no area figures)", r->sweep, r->napps,
				     apps);
	int nl = summary_lines(&sm, r, &xp, a, lines);
	double w = fmax(fmax(900, header_width(title, lines, nl)), fmax(key.w, marks_width()) + 2 * MARGIN);
	double top = 28 + 20 + 15 * nl + 8;
	Frame fr;
	frame_split(&fr, &xp, (Box){ SUM_LEFT, top, w - SUM_LEFT - 30, SUM_PLOT_H }, 30, 0);
	fr.font = 11;
	double lo = 1, hi = 1;
	for (int p = 0; p < r->npoints; p++)
		if (isfinite(sm.mean[p])) {
			lo = fmin(lo, sm.mean[p]);
			hi = fmax(hi, sm.mean[p]);
		}
	fr.ya = dse_svg_axis(lo, hi, SVG_PAD, 7);
	double below = top + SUM_PLOT_H + 44, h = below + 24 + 14 + key.h + MARGIN;
	dse_svg_begin(f, w, h);
	header(f, MARGIN, 28, title, lines, nl);
	summary_plot(f, &sm, r, &fr);
	const char *xlabel = xp.has_area ? arena_printf(a, "array area (%s)", r->unit ? r->unit : "area_array")
					 : "point (by number)";
	double lx0 = xp.has_area ? fr.ax0 : fr.sx0, lx1 = xp.has_area ? fr.ax1 : fr.sx1;
	dse_svg_text(f, (lx0 + lx1) / 2, top + SUM_PLOT_H + 34, "middle", 12, "", xlabel);
	if (xp.has_area && xp.nstrip)
		dse_svg_text(f, fr.sx1, top + SUM_PLOT_H + 34, "end", 12, "", "no area figure");
	fprintf(f, "<g transform=\"translate(22,%.1f) rotate(-90)\">", top + SUM_PLOT_H / 2.0);
	dse_svg_text(f, 0, 0, "middle", 12, "", "runtime relative to the base (geometric mean)");
	fputs("</g>\n", f);
	marks_draw(f, MARGIN, below, marks_width(), !xp.has_area);
	key_draw(f, &key, &sm, MARGIN, below + 38);
	dse_svg_end(f);
	key_free(&key);
	summary_free(&sm);
	free(xp.slot);
}

/* ---- runtime_area.svg: a panel per application ---- */

/* An application's runtimes relative to a reference: the base's, else the
 * first point where it is bit-exact; ref -1 when there is none. */
typedef struct Relative {
	int ref;
	double *v;          /* per point, NAN where not bit-exact */
} Relative;

static Relative relative(const DseResults *r, int a)
{
	Relative rel = { -1, xcalloc((size_t)r->npoints, sizeof(double)) };
	for (int p = 0; p < r->npoints && rel.ref < 0; p++)
		if (usable(&r->rows[p * r->napps + a]))
			rel.ref = p;
	for (int p = 0; p < r->npoints; p++) {
		const DseRow *row = &r->rows[p * r->napps + a];
		rel.v[p] = rel.ref >= 0 && usable(row) ? row->runtime / r->rows[rel.ref * r->napps + a].runtime : NAN;
	}
	return rel;
}

/* The note at a panel's top right: what 1 stands for. */
static char *panel_note(const DseResults *r, int a, const Relative *rel)
{
	if (rel->ref < 0)
		return xstrdup("no runtime");
	char num[32];
	short_number(num, sizeof num, r->rows[rel->ref * r->napps + a].runtime);
	if (rel->ref == 0)
		return xasprintf("1 = %s µs", num);
	return xasprintf("1 = %s µs at point %d", num, rel->ref + 1);
}

enum { PANEL_W = 190, PANEL_H = 170, PANEL_LEFT = 42, PANEL_RIGHT = 10, PANEL_TOP = 24, PANEL_BOTTOM = 30,
       PANEL_COLS = 6, BAND = 12 };

typedef struct Panels {
	const DseResults *r;
	XPlace xp;
	Relative *rel;      /* per application */
	double pw;          /* a panel's width */
	int cols, rows;
} Panels;

static Panels panels_new(const DseResults *r)
{
	Panels ps = { r, xplace(r, 4), xcalloc((size_t)r->napps, sizeof(Relative)), PANEL_W, 0, 0 };
	for (int a = 0; a < r->napps; a++) {
		ps.rel[a] = relative(r, a);
		char *note = panel_note(r, a, &ps.rel[a]);
		ps.pw = fmax(ps.pw, 8 + dse_svg_text_width(r->apps[a], 11, 1) + 12 + dse_svg_text_width(note, 9, 0) + 8);
		free(note);
	}
	ps.cols = r->napps < PANEL_COLS ? r->napps : PANEL_COLS;
	ps.rows = (r->napps + ps.cols - 1) / ps.cols;
	return ps;
}

static void panels_free(Panels *ps)
{
	for (int a = 0; a < ps->r->napps; a++)
		free(ps->rel[a].v);
	free(ps->rel);
	free(ps->xp.slot);
}

/* The values' axis of a row of panels: their relative runtimes and 1. */
static SvgAxis row_axis(const Panels *ps, int row)
{
	double lo = 1, hi = 1;
	for (int a = row * ps->cols; a < (row + 1) * ps->cols && a < ps->r->napps; a++)
		for (int p = 0; p < ps->r->npoints; p++)
			if (!isnan(ps->rel[a].v[p])) {
				lo = fmin(lo, ps->rel[a].v[p]);
				hi = fmax(hi, ps->rel[a].v[p]);
			}
	return dse_svg_axis(lo, hi, SVG_PAD, 4);
}

/* The markers of a panel: each point's value in its style, joined in
 * point order when there is no area; hollow in the band on top where the
 * application is not bit-exact. */
static void panel_points(FILE *f, const Panels *ps, int a, const Frame *fr)
{
	const DseResults *r = ps->r;
	const Relative *rel = &ps->rel[a];
	if (!ps->xp.has_area) {
		for (int p = 0; p < r->npoints; p++) {
			if (isnan(rel->v[p]))
				continue;
			fputs("<polyline fill=\"none\" stroke=\"#999\" stroke-width=\"1\" points=\"", f);
			for (; p < r->npoints && !isnan(rel->v[p]); p++)
				fprintf(f, "%.1f,%.1f ", frame_x(fr, r, p), frame_y(fr, rel->v[p]));
			fputs("\"/>\n", f);
		}
	}
	for (int p = 0; p < r->npoints; p++) {
		const DseRow *row = &r->rows[p * r->napps + a];
		if (!isnan(rel->v[p]))
			dse_svg_marker(f, frame_x(fr, r, p), frame_y(fr, rel->v[p]), 3.5, dse_svg_style(p), 0);
		else if (strcmp(row->status, "bit-exact") != 0)
			dse_svg_marker(f, frame_x(fr, r, p), fr->box.y + BAND / 2.0, 3.5, dse_svg_style(p), 1);
	}
}

static void panel(FILE *f, const Panels *ps, int a, double x, double y, const SvgAxis *ya)
{
	const DseResults *r = ps->r;
	Frame fr;
	frame_split(&fr, &ps->xp, (Box){ x + PANEL_LEFT, y + PANEL_TOP, ps->pw - PANEL_LEFT - PANEL_RIGHT,
					 PANEL_H - PANEL_TOP - PANEL_BOTTOM }, 14, BAND);
	fr.ya = *ya;
	fr.font = 9;
	fputs("<g class=\"panel\" data-app=\"", f);
	dse_svg_escaped(f, r->apps[a]);
	fputs("\">\n", f);
	dse_svg_text(f, x + 8, y + 14, "start", 11, "font-weight=\"bold\"", r->apps[a]);
	char *note = panel_note(r, a, &ps->rel[a]);
	dse_svg_text(f, x + ps->pw - 8, y + 14, "end", 9, "fill=\"#555\"", note);
	free(note);
	frame_draw(f, &fr, r);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-dasharray=\"1,2\"/>\n",
		fr.box.x, fr.top, fr.box.x + fr.box.w, fr.top);
	base_line(f, &fr);
	panel_points(f, ps, a, &fr);
	if (ps->rel[a].ref < 0)
		dse_svg_text(f, fr.box.x + fr.box.w / 2, fr.top + (fr.box.h - BAND) / 2, "middle", 9, "fill=\"#b01e1e\"",
			     "not bit-exact anywhere");
	fputs("</g>\n", f);
}

/* The header's lines of runtime_area.svg. */
static int panels_lines(const Panels *ps, Arena *a, const char **lines)
{
	int n = 0;
	lines[n++] = arena_printf(a, "One panel per application: its runtime divided by its runtime at the base point "
			      "(dashed line; the panel's top right says how long that is), %s.",
			      ps->xp.has_area ? "against the array's area" : "per point");
	lines[n++] = "A point where the application is not bit-exact (not mapped, not run or a wrong output): hollow, in "
		     "the band at the top of the panel.";
	lines[n++] = arena_printf(a, "The panels of a row share the vertical scale, all panels the horizontal one%s. "
			      "Each point has its own marker, as below.",
			      ps->xp.has_area && ps->xp.nstrip ? "; points without area stand at the right, by number"
							       : "");
	return n;
}

static void write_panels(FILE *f, const DseResults *r, Arena *a)
{
	Panels ps = panels_new(r);
	const char *lines[3];
	int nl = panels_lines(&ps, a, lines);
	const char *title = arena_printf(a, "Sweep %s: runtime of each application against %s", r->sweep,
					 ps.xp.has_area ? "the array's area" : "the points");
	const char **names = arena_alloc(a, sizeof(char *) * (size_t)r->npoints);
	for (int p = 0; p < r->npoints; p++)
		names[p] = arena_printf(a, "%d%s %s", p + 1, p ? "" : " (base)", r->labels[p]);
	double w = fmax(2 * MARGIN + ps.cols * ps.pw, header_width(title, lines, nl));
	SvgLegend leg = { names, r->npoints, 0, 0, 0, 0, 0, 0, 0 };
	dse_svg_legend_fit(&leg, w - 2 * MARGIN);
	w = fmax(w, leg.w + 2 * MARGIN);
	double top = 28 + 20 + 15 * nl + 4, y0 = top + leg.h + 14;
	dse_svg_begin(f, w, y0 + ps.rows * PANEL_H + MARGIN);
	header(f, MARGIN, 28, title, lines, nl);
	dse_svg_legend_draw(f, &leg, MARGIN, top);
	for (int row = 0; row < ps.rows; row++) {
		SvgAxis ya = row_axis(&ps, row);
		for (int c = 0; c < ps.cols && row * ps.cols + c < r->napps; c++)
			panel(f, &ps, row * ps.cols + c, MARGIN + c * ps.pw, y0 + row * PANEL_H, &ya);
	}
	dse_svg_end(f);
	panels_free(&ps);
}

/* ---- resources.svg: a chart per resource ---- */

enum { RES_PLOT_H = 230, RES_LEFT = 64, RES_MIN_W = 900 };

/* A resource: its title and its figure of a row. */
typedef struct Resource {
	const char *title;
	int what;           /* 0 PEs, 1 MEMs, 2 registers, 3 + w: tracks of width w */
} Resource;

static double figure(const DseRow *row, int what)
{
	return what == 0 ? row->pes : what == 1 ? row->mems : what == 2 ? row->regs : row->tracks[what - 3];
}

/* The points by number: a key of text in columns. */
typedef struct PointKey {
	const char **names;
	int n, cols, rows;
	double colw, w, h;
} PointKey;

static PointKey point_key(const char **names, int n, double width)
{
	PointKey k = { names, n, 1, n, 0, 0, 0 };
	for (int i = 0; i < n; i++)
		k.colw = fmax(k.colw, dse_svg_text_width(names[i], 11, 0));
	k.cols = (int)fmax(1, floor((width - 12 + 20) / (k.colw + 20)));
	if (k.cols > n)
		k.cols = n;
	k.rows = (n + k.cols - 1) / k.cols;
	k.w = 12 + k.cols * k.colw + (k.cols - 1) * 20;
	k.h = 10 + 15 * k.rows;
	return k;
}

static void point_key_draw(FILE *f, const PointKey *k, double x, double y)
{
	fprintf(f, "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
		"stroke=\"#bbb\"/>\n", x, y, k->w, k->h);
	for (int i = 0; i < k->n; i++)
		dse_svg_text(f, x + 6 + (i / k->rows) * (k->colw + 20), y + 5 + 15 * (i % k->rows) + 11, "start", 11, "",
			     k->names[i]);
}

/* Application a's figures of a resource: its runs of points with a figure
 * joined, a marker at each, off by off from the point's place. */
static void resource_series(FILE *f, const DseResults *r, const Resource *res, const Frame *fr, int a, double off)
{
	int np = r->npoints, na = r->napps;
	SvgStyle st = dse_svg_style(a);
	fputs("<g class=\"series\" data-app=\"", f);
	dse_svg_escaped(f, r->apps[a]);
	fputs("\">\n", f);
	for (int p = 0; p < np; p++) {
		if (!isfinite(figure(&r->rows[p * na + a], res->what)))
			continue;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\"%s%s%s points=\"", st.colour,
			*st.dash ? " stroke-dasharray=\"" : "", st.dash, *st.dash ? "\"" : "");
		for (; p < np && isfinite(figure(&r->rows[p * na + a], res->what)); p++)
			fprintf(f, "%.1f,%.1f ", frame_x(fr, r, p) + off, frame_y(fr, figure(&r->rows[p * na + a], res->what)));
		fputs("\"/>\n", f);
	}
	for (int p = 0; p < np; p++) {
		double v = figure(&r->rows[p * na + a], res->what);
		if (isfinite(v))
			dse_svg_marker(f, frame_x(fr, r, p) + off, frame_y(fr, v), 3, st, 0);
	}
	fputs("</g>\n", f);
}

/* The height of a resource's chart with legend leg. */
static double resource_height(const SvgLegend *leg)
{
	return 30 + RES_PLOT_H + 44 + leg->h + 24;
}

/* One resource's chart from y on: the points along x in shaded bands, the
 * applications side by side within each, the legend below. */
static void resource_chart(FILE *f, const DseResults *r, const Resource *res, const SvgLegend *leg, double w,
			   double y)
{
	int np = r->npoints, na = r->napps;
	double hi = 0;
	for (int i = 0; i < np * na; i++)
		if (isfinite(figure(&r->rows[i], res->what)))
			hi = fmax(hi, figure(&r->rows[i], res->what));
	Box box = { RES_LEFT, y + 30, w - RES_LEFT - MARGIN, RES_PLOT_H };
	double cw = box.w / np, dodge = fmin(cw * 0.5 / na, 8);
	XPlace xp = { 0, np, xcalloc((size_t)np, sizeof(int)), { 0, 1, 1 } };
	for (int p = 0; p < np; p++)
		xp.slot[p] = p;
	Frame fr;
	frame_split(&fr, &xp, box, 0, 0);
	fr.ya = dse_svg_axis(0, hi, SVG_ZERO | SVG_PAD | SVG_INTEGER, 5);
	fr.font = 11;
	dse_svg_text(f, MARGIN, y + 18, "start", 13, "font-weight=\"bold\"", res->title);
	for (int p = 0; p < np; p += 2)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f2f2f2\"/>\n", box.x + p * cw,
			box.y, cw, box.h);
	frame_draw(f, &fr, r);
	for (int a = 0; a < na; a++)
		resource_series(f, r, res, &fr, a, (a - (na - 1) / 2.0) * dodge);
	dse_svg_text(f, box.x + box.w / 2, box.y + box.h + 32, "middle", 12, "", "point (by number, key at the top)");
	dse_svg_legend_draw(f, leg, MARGIN, box.y + box.h + 44);
	free(xp.slot);
}

static void write_resources(FILE *f, const DseResults *r, Arena *a)
{
	Resource res[3 + DSE_MAX_WIDTHS] = { { "PE tiles", 0 }, { "MEM tiles", 1 },
					      { "Registers (switch boxes and packed into PEs)", 2 } };
	int nres = 3;
	for (int w = 0; w < r->nwidths; w++)
		res[nres++] = (Resource){ arena_printf(a, "Routing tracks used, %d-bit network", r->widths[w]), 3 + w };
	const char *lines[] = { "A chart per resource: each point's figure per application, the applications side by "
				"side within a point in the legend's order, joined from point to point.",
				"Points by number:" };
	const char *title = arena_printf(a, "Sweep %s: resources used per point and application", r->sweep);
	const char **names = arena_alloc(a, sizeof(char *) * (size_t)r->npoints);
	for (int p = 0; p < r->npoints; p++)
		names[p] = arena_printf(a, "%d%s: %s", p + 1, p ? "" : " (base)", r->labels[p]);
	double w = fmax(RES_MIN_W, header_width(title, lines, 2));
	SvgLegend leg = { r->apps, r->napps, 0, 1, 0, 0, 0, 0, 0 };
	dse_svg_legend_fit(&leg, w - 2 * MARGIN);
	PointKey key = point_key(names, r->npoints, w - 2 * MARGIN);
	w = fmax(w, fmax(leg.w, key.w) + 2 * MARGIN);
	double top = 28 + 20 + 15 * 2 + 2, y = top + key.h + 10;
	dse_svg_begin(f, w, y + nres * resource_height(&leg) + MARGIN);
	header(f, MARGIN, 28, title, lines, 2);
	point_key_draw(f, &key, MARGIN, top);
	for (int i = 0; i < nres; i++, y += resource_height(&leg))
		resource_chart(f, r, &res[i], &leg, w, y);
	dse_svg_end(f);
}

void dse_charts_write(const DseResults *r, FILE *summary, FILE *runtime, FILE *resources)
{
	Arena *a = arena_new();
	write_summary(summary, r, a);
	write_panels(runtime, r, a);
	write_resources(resources, r, a);
	arena_free(a);
}

int dse_charts(const char *dir)
{
	char *path = util_path_join(dir, "results.csv");
	Diags *d = diags_new(stderr);
	char *text = dse_read_text(path, DSE_CSV_MAX, NULL, d);
	if (text)
		diags_add_source(d, path, text);
	DseResults *r = text ? dse_results_read(path, text, d) : NULL;
	diags_free(d);
	free(text);
	int ok = r != NULL;
	static const char *const files[] = { "summary.svg", "runtime_area.svg", "resources.svg" };
	char *out[3];
	for (int i = 0; i < 3; i++)
		out[i] = util_path_join(dir, files[i]);
	if (ok) {
		OutSet *set = outset_new();
		FILE *fs = outset_open(set, out[0]), *fr = fs ? outset_open(set, out[1]) : NULL;
		FILE *fo = fr ? outset_open(set, out[2]) : NULL;
		if (!fo) {
			outset_abort(set);
			ok = 0;
		} else {
			dse_charts_write(r, fs, fr, fo);
			ok = outset_commit(set) == 0;
		}
	}
	if (ok)
		printf("dse: charts of %s: %d points x %d applications -> %s, %s, %s\n", path, r->npoints, r->napps, out[0],
		       out[1], out[2]);
	for (int i = 0; i < 3; i++)
		free(out[i]);
	free(path);
	dse_results_free(r);
	return ok;
}
