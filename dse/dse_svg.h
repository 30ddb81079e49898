/* dse_svg.h - the small SVG writer the sweep's charts (dse_charts.c) are
 * drawn with: axes over any finite values, text with its width estimated
 * (for layouts that nothing overflows), series styles (a colour, a marker
 * shape and a dash pattern) and legends sized to fit every entry. Every
 * coordinate is written with one decimal, so the same calls give the same
 * bytes. */
#ifndef DSE_DSE_SVG_H
#define DSE_DSE_SVG_H

#include <stddef.h>
#include <stdio.h>

/* ---- axes ---- */

/* An axis from lo to hi (finite, lo < hi), ticks every step from the first
 * multiple of step at or above lo. */
typedef struct SvgAxis {
	double lo, hi, step;
} SvgAxis;

/* dse_svg_axis's flags. */
enum {
	SVG_ZERO = 1,    /* the axis reaches zero */
	SVG_PAD = 2,     /* a margin of 5 % of the span beyond the values, not
			  * below zero when they are not */
	SVG_INTEGER = 4, /* ticks on integers only (counts) */
};

/* At most this many ticks on an axis, whatever its numbers. */
#define SVG_MAX_TICKS 40

/* The axis over values from lo to hi (lo > hi: no value, the axis 0 to 1)
 * with about nticks ticks of 1, 2 or 5 times a power of ten, rounded
 * outwards to them. A span too small for the values' magnitude (where ticks
 * would fall between two doubles) is widened to a tenth of it. Spans are
 * computed from halves, so that no difference of finite values overflows. */
SvgAxis dse_svg_axis(double lo, double hi, int flags, int nticks);
/* Where v falls between a's ends, 0 to 1. */
double dse_svg_frac(const SvgAxis *a, double v);
/* The ticks of a into v (SVG_MAX_TICKS at most); their number. */
int dse_svg_ticks(const SvgAxis *a, double *v);
/* A number as a tick shows it: 64.4M, 12.5k, 0.25, 1e+20. */
void dse_svg_number(char *buf, size_t n, double v);

/* ---- text ---- */

/* The width of s in pixels at font size size (DejaVu Sans, the widest of
 * the usual sans-serif fonts, a tenth more when bold): what a layout keeps
 * free for it. */
double dse_svg_text_width(const char *s, double size, int bold);
/* s for XML text or an attribute's value: < > & " escaped, control
 * characters as blanks. */
void dse_svg_escaped(FILE *f, const char *s);
/* A <text> element of s (as dse_svg_escaped writes it): anchor "start",
 * "middle" or "end"; attrs more attributes (font-weight="bold",
 * fill="#555") or "". */
void dse_svg_text(FILE *f, double x, double y, const char *anchor, double size, const char *attrs, const char *s);

/* ---- styles and markers ---- */

typedef enum { SVG_CIRCLE, SVG_SQUARE, SVG_TRIANGLE, SVG_DIAMOND, SVG_TRIANGLE_DOWN, SVG_CROSS, SVG_NMARKER } SvgMarker;

/* How one series is drawn. */
typedef struct SvgStyle {
	const char *colour;
	SvgMarker marker;
	int hollow;         /* the marker white inside */
	const char *dash;   /* stroke-dasharray, "" for a solid line */
} SvgStyle;

/* Series styles: the palette's colours with each marker shape in turn,
 * filled; then the same hollow, each round with its dash pattern. */
#define SVG_NCOLOUR 11
#define SVG_DISTINCT (SVG_NCOLOUR * SVG_NMARKER)
/* The style of series i: of the first 2 * SVG_DISTINCT, no two have the
 * same marker (colour, shape and fill); of the first 4 * SVG_DISTINCT, no
 * two the same marker and dash pattern; after those they repeat. */
SvgStyle dse_svg_style(int i);
/* The name of a marker shape ("circle", ...). */
const char *dse_svg_marker_name(SvgMarker m);
/* A marker of radius r at (x, y) in the style's colour, shape and fill;
 * hollow also when hollow is set. */
void dse_svg_marker(FILE *f, double x, double y, double r, SvgStyle st, int hollow);

/* ---- legends ---- */

/* A legend: one entry per name, entry i drawn in style first + i (a marker,
 * and a stretch of line when lines is set), laid out in columns (down,
 * then across) within a width. */
typedef struct SvgLegend {
	const char *const *names;
	int n, first, lines;
	double colw;        /* the widest entry's width */
	int cols, rows;
	double w, h;        /* the box's, every entry inside */
} SvgLegend;

/* Lays out l (names, n, first and lines set) in as many columns as width
 * holds; one column when a single entry is wider, l->w then more than
 * width. */
void dse_svg_legend_fit(SvgLegend *l, double width);
/* Draws l's box (class "legend") with its top-left corner at (x, y), each
 * entry a group of class "entry" with data-colour, data-marker, data-fill
 * ("solid" or "hollow") and data-dash attributes (what tests read). */
void dse_svg_legend_draw(FILE *f, const SvgLegend *l, double x, double y);

/* ---- the document ---- */

/* <svg> of width w and height h with a white background. */
void dse_svg_begin(FILE *f, double w, double h);
void dse_svg_end(FILE *f);

#endif
