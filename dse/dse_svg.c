/* dse_svg.c - the sweep's charts as SVG: each chart a plot of series of
 * points on a numeric or categorical x axis, with axes, ticks, a legend and
 * optional labels; several charts stacked in one document. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dse.h"

enum { W = 760, H = 340, LEFT = 70, RIGHT = 170, TOP = 40, BOTTOM = 70 };

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
					"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

static void text(FILE *f, double x, double y, const char *anchor, int size, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor, size);
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		default: fputc(*s, f);
		}
	fputs("</text>\n", f);
}

/* An axis: from lo to hi (finite, lo < hi), ticks every step from the first
 * multiple of step at or above lo. Spans are computed from halves so that
 * no difference of finite values overflows. */
typedef struct Axis {
	double lo, hi, step;
} Axis;

/* At most this many ticks are drawn on an axis, whatever its numbers. */
#define MAX_TICKS 40

/* A tick step of 1, 2 or 5 times a power of ten giving about 5 ticks over
 * half-span half. */
static double tick_step(double half)
{
	double raw = half / 2.5, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* A tick's text: 64.4M, 12.5k, 0.25, 1e+20. */
static void tick_text(char *buf, size_t n, double v)
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

static int drawn(const ChartSeries *cs, int i)
{
	return isfinite(cs->x[i]) && isfinite(cs->y[i]);
}

/* The axis (x: axis 0, y: 1) over the points with both values finite, the
 * y axis from zero; a span too small for the values' magnitude (where ticks
 * would fall between two doubles) is widened to a tenth of it. */
static Axis range(const Chart *c, int axis)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int s = 0; s < c->nseries; s++)
		for (int i = 0; i < c->series[s].n; i++)
			if (drawn(&c->series[s], i)) {
				double v = axis ? c->series[s].y[i] : c->series[s].x[i];
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
	if (lo > hi) {
		lo = 0;
		hi = 1;
	}
	if (axis && lo > 0)
		lo = 0;         /* values from zero */
	double mag = fmax(fabs(lo), fabs(hi));
	if (hi / 2 - lo / 2 < mag * 1e-7 + 1e-9) {
		double pad = mag * 0.1 + 1;
		if (hi <= DBL_MAX - pad)
			hi += pad;
		else
			lo -= pad;
		if (!axis && lo >= -DBL_MAX + pad)
			lo -= pad;
	}
	Axis a = { lo, hi, tick_step(hi / 2 - lo / 2) };
	/* round outwards to ticks, within the doubles */
	a.lo = fmax(floor(lo / a.step) * a.step, -DBL_MAX);
	a.hi = fmin(ceil(hi / a.step) * a.step, DBL_MAX);
	return a;
}

/* Where v falls between a's ends, 0 to 1. */
static double frac(const Axis *a, double v)
{
	return (v / 2 - a->lo / 2) / (a->hi / 2 - a->lo / 2);
}

/* The ticks of a: at most MAX_TICKS multiples of its step. */
static int ticks(const Axis *a, double *v)
{
	double first = ceil(a->lo / a->step - 1e-9) * a->step;
	int n = 0;
	for (int i = 0; i < MAX_TICKS; i++) {
		double t = first + i * a->step;
		if (!isfinite(t) || t / 2 - a->hi / 2 > a->step * 5e-7)
			break;
		v[n++] = t;
	}
	return n;
}

static void chart(FILE *f, const Chart *c, double oy)
{
	Axis xa = { -0.5, c->nxticks - 0.5, 1 }, ya = range(c, 1);
	if (!c->xticks)
		xa = range(c, 0);
	double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM, tv[MAX_TICKS];
#define PX(v) (LEFT + frac(&xa, v) * pw)
#define PY(v) (oy + TOP + ph - frac(&ya, v) * ph)
	text(f, W / 2.0, oy + 22, "middle", 15, c->title);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n", LEFT,
		oy + TOP, pw, ph);
	char buf[64];
	for (int i = 0, n = ticks(&ya, tv); i < n; i++) {
		double v = tv[i];
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT, PY(v),
			LEFT + pw, PY(v));
		tick_text(buf, sizeof buf, v);
		text(f, LEFT - 6, PY(v) + 4, "end", 11, buf);
	}
	if (c->xticks) {
		for (int i = 0; i < c->nxticks; i++) {
			fprintf(f, "<g transform=\"translate(%.1f,%.1f) rotate(-20)\">", PX(i), oy + TOP + ph + 14);
			text(f, 0, 0, "end", 10, c->xticks[i]);
			fputs("</g>\n", f);
		}
	} else {
		for (int i = 0, n = ticks(&xa, tv); i < n; i++) {
			double v = tv[i];
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", PX(v),
				oy + TOP, PX(v), oy + TOP + ph);
			tick_text(buf, sizeof buf, v);
			text(f, PX(v), oy + TOP + ph + 16, "middle", 11, buf);
		}
	}
	text(f, LEFT + pw / 2, oy + H - 8, "middle", 12, c->xlabel);
	fprintf(f, "<g transform=\"translate(16,%.1f) rotate(-90)\">", oy + TOP + ph / 2);
	text(f, 0, 0, "middle", 12, c->ylabel);
	fputs("</g>\n", f);
	for (int s = 0; s < c->nseries; s++) {
		const ChartSeries *cs = &c->series[s];
		const char *col = palette[s % 10];
		for (int i = 0; c->lines && i < cs->n; i++) {
			/* one polyline per run of points with values */
			if (!drawn(cs, i))
				continue;
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col);
			for (; i < cs->n && drawn(cs, i); i++)
				fprintf(f, "%.1f,%.1f ", PX(cs->x[i]), PY(cs->y[i]));
			fputs("\"/>\n", f);
		}
		for (int i = 0; i < cs->n; i++) {
			if (!drawn(cs, i))
				continue;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", PX(cs->x[i]), PY(cs->y[i]),
				col);
			if (cs->labels && cs->labels[i])
				text(f, PX(cs->x[i]) + 5, PY(cs->y[i]) - 5, "start", 9, cs->labels[i]);
		}
		double ly = oy + TOP + 10 + 18 * s;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", LEFT + pw + 14,
			ly - 10, col);
		text(f, LEFT + pw + 32, ly, "start", 12, cs->name);
	}
#undef PX
#undef PY
}

void dse_svg_write(FILE *f, const Chart *charts, int ncharts)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">\n",
		W, H * ncharts);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H * ncharts);
	for (int i = 0; i < ncharts; i++)
		chart(f, &charts[i], (double)H * i);
	fputs("</svg>\n", f);
}
