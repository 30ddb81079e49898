/* dse_svg.c - the small SVG writer of the sweep's charts (dse_svg.h): axes
 * over any finite values, escaped text and its estimated width, series
 * styles, markers and legends. The charts themselves are dse_charts.c's. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dse_svg.h"

/* ---- axes ---- */

/* A tick step of 1, 2 or 5 times a power of ten giving about nticks ticks
 * over half-span half. */
static double tick_step(double half, int nticks)
{
	double raw = half * 2 / (nticks > 1 ? nticks : 2), p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* hi + d within the doubles (d >= 0), else hi. */
static double add_within(double hi, double d)
{
	return hi <= DBL_MAX - d ? hi + d : DBL_MAX;
}

SvgAxis dse_svg_axis(double lo, double hi, int flags, int nticks)
{
	if (lo > hi) {
		lo = 0;
		hi = 1;
	}
	if (flags & SVG_ZERO) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 0);
	}
	double mag = fmax(fabs(lo), fabs(hi));
	if (hi / 2 - lo / 2 < mag * 1e-7 + 1e-9) {
		double pad = mag * 0.1 + ((flags & SVG_PAD) && mag > 0 ? 0 : 1);
		if (hi <= DBL_MAX - pad)
			hi += pad;
		else
			lo -= pad;
		if (lo >= 0 && (flags & SVG_PAD))
			lo = fmax(lo - pad, 0);
		else if ((!(flags & SVG_ZERO) || lo < 0) && lo >= -DBL_MAX + pad)
			lo -= pad;
	} else if (flags & SVG_PAD) {
		double pad = (hi / 2 - lo / 2) * 0.1;
		if (!(flags & SVG_ZERO) || hi > 0)
			hi = add_within(hi, pad);
		if (lo < 0)
			lo = -add_within(-lo, pad);
		else if (!(flags & SVG_ZERO))
			lo = fmax(lo - pad, 0);
	}
	SvgAxis a = { lo, hi, tick_step(hi / 2 - lo / 2, nticks) };
	if ((flags & SVG_INTEGER) && a.step < 1)
		a.step = 1;
	/* round outwards to ticks, within the doubles */
	a.lo = fmax(floor(lo / a.step) * a.step, -DBL_MAX);
	a.hi = fmin(ceil(hi / a.step) * a.step, DBL_MAX);
	return a;
}

double dse_svg_frac(const SvgAxis *a, double v)
{
	return (v / 2 - a->lo / 2) / (a->hi / 2 - a->lo / 2);
}

int dse_svg_ticks(const SvgAxis *a, double *v)
{
	double first = ceil(a->lo / a->step - 1e-9) * a->step;
	int n = 0;
	for (int i = 0; i < SVG_MAX_TICKS; i++) {
		double t = first + i * a->step;
		if (!isfinite(t) || t / 2 - a->hi / 2 > a->step * 5e-7)
			break;
		v[n++] = t;
	}
	return n;
}

void dse_svg_number(char *buf, size_t n, double v)
{
	if (v == 0)
		v = 0;          /* not -0 */
	if (fabs(v) >= 1e15)
		snprintf(buf, n, "%g", v);
	else if (fabs(v) >= 1e6)
		snprintf(buf, n, "%gM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(buf, n, "%gk", v / 1e3);
	else
		snprintf(buf, n, "%g", v);
}

/* ---- text ---- */

/* DejaVu Sans's advance widths of ' ' to '~', in thousandths of the size. */
static const short advance[95] = {
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, /*  !"#$%&'()*+,-./ */
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, /* 0-9 :;<=>? */
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, /* @A-O */
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,  /* P-Z [\]^_ */
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,  /* `a-o */
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,       /* p-z {|}~ */
};

double dse_svg_text_width(const char *s, double size, int bold)
{
	double w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= ' ' && *p <= '~')
			w += advance[*p - ' '];
		else if (*p < 0x80 || *p >= 0xc0)
			w += 838;   /* a control character's blank, or a character beyond ASCII */
	return w * size / 1000 * (bold ? 1.1 : 1);
}

void dse_svg_escaped(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*p < ' ' || *p == 127 ? ' ' : *p, f);
		}
}

void dse_svg_text(FILE *f, double x, double y, const char *anchor, double size, const char *attrs, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%g\"%s%s>", x, y, anchor, size,
		*attrs ? " " : "", attrs);
	dse_svg_escaped(f, s);
	fputs("</text>\n", f);
}

/* ---- styles and markers ---- */

/* Colours apart from one another also in grey print: Tableau's ten and
 * black. */
static const char *const palette[SVG_NCOLOUR] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
						  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000" };
static const char *const dashes[] = { "", "6,3", "2,2", "8,3,2,3" };
static const char *const marker_names[SVG_NMARKER] = { "circle", "square", "triangle", "diamond", "triangle-down",
							"cross" };

SvgStyle dse_svg_style(int i)
{
	int round = i / SVG_DISTINCT % 4;
	SvgStyle st = { palette[i % SVG_NCOLOUR], (SvgMarker)(i / SVG_NCOLOUR % SVG_NMARKER), round & 1,
			dashes[round] };
	return st;
}

const char *dse_svg_marker_name(SvgMarker m)
{
	return marker_names[m];
}

/* A closed path through n corners given as offsets of r from (x, y). */
static void polygon(FILE *f, double x, double y, double r, const double *xy, int n, const char *paint)
{
	fputs("<path d=\"", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%c%.1f,%.1f", i ? 'L' : 'M', x + xy[2 * i] * r, y + xy[2 * i + 1] * r);
	fprintf(f, "Z\" %s/>\n", paint);
}

void dse_svg_marker(FILE *f, double x, double y, double r, SvgStyle st, int hollow)
{
	static const double square[] = { -0.85, -0.85, 0.85, -0.85, 0.85, 0.85, -0.85, 0.85 };
	static const double up[] = { 0, -1.15, 1, 0.6, -1, 0.6 }, down[] = { 0, 1.15, 1, -0.6, -1, -0.6 };
	static const double diamond[] = { 0, -1.2, 1, 0, 0, 1.2, -1, 0 };
	char paint[96];
	hollow |= st.hollow;
	snprintf(paint, sizeof paint, "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"", hollow ? "white" : st.colour,
		 st.colour, hollow ? "1.5" : "0.5");
	switch (st.marker) {
	case SVG_CIRCLE:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" %s/>\n", x, y, r, paint);
		break;
	case SVG_SQUARE: polygon(f, x, y, r, square, 4, paint); break;
	case SVG_TRIANGLE: polygon(f, x, y, r, up, 3, paint); break;
	case SVG_DIAMOND: polygon(f, x, y, r, diamond, 4, paint); break;
	case SVG_TRIANGLE_DOWN: polygon(f, x, y, r, down, 3, paint); break;
	default:
		fprintf(f, "<path d=\"M%.1f,%.1fL%.1f,%.1fM%.1f,%.1fL%.1f,%.1f\" stroke=\"%s\" stroke-width=\"2.2\"/>\n",
			x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r, st.colour);
	}
}

/* ---- legends ---- */

enum { ENTRY_H = 16, LEGEND_PAD = 6, GAP = 6, COL_GAP = 16 };

/* The width of the sample before an entry's name. */
static double sample_width(const SvgLegend *l)
{
	return l->lines ? 26 : 12;
}

void dse_svg_legend_fit(SvgLegend *l, double width)
{
	double widest = 0;
	for (int i = 0; i < l->n; i++)
		widest = fmax(widest, dse_svg_text_width(l->names[i], 11, 0));
	l->colw = sample_width(l) + GAP + widest;
	double avail = width - 2 * LEGEND_PAD + COL_GAP;
	l->cols = (int)fmax(1, floor(avail / (l->colw + COL_GAP)));
	if (l->cols > l->n)
		l->cols = l->n > 0 ? l->n : 1;
	l->rows = (l->n + l->cols - 1) / l->cols;
	l->w = 2 * LEGEND_PAD + l->cols * l->colw + (l->cols - 1) * COL_GAP;
	l->h = 2 * LEGEND_PAD + l->rows * ENTRY_H;
}

void dse_svg_legend_draw(FILE *f, const SvgLegend *l, double x, double y)
{
	fprintf(f, "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
		"stroke=\"#bbb\"/>\n", x, y, l->w, l->h);
	for (int i = 0; i < l->n; i++) {
		SvgStyle st = dse_svg_style(l->first + i);
		double ex = x + LEGEND_PAD + (i / l->rows) * (l->colw + COL_GAP);
		double cy = y + LEGEND_PAD + (i % l->rows) * ENTRY_H + ENTRY_H / 2.0;
		fprintf(f, "<g class=\"entry\" data-colour=\"%s\" data-marker=\"%s\" data-fill=\"%s\" data-dash=\"%s\">\n",
			st.colour, dse_svg_marker_name(st.marker), st.hollow ? "hollow" : "solid", st.dash);
		if (l->lines)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
				"stroke-dasharray=\"%s\"/>\n", ex, cy, ex + sample_width(l), cy, st.colour,
				*st.dash ? st.dash : "none");
		dse_svg_marker(f, ex + sample_width(l) / 2, cy, 4, st, 0);
		dse_svg_text(f, ex + sample_width(l) + GAP, cy + 4, "start", 11, "", l->names[i]);
		fputs("</g>\n", f);
	}
}

/* ---- the document ---- */

void dse_svg_begin(FILE *f, double w, double h)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n", ceil(w), ceil(h), ceil(w), ceil(h));
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", ceil(w), ceil(h));
}

void dse_svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}
