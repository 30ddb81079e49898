/* dse.h - design-space exploration (dse/README.md): a sweep file names a
 * base chip, the knobs to vary and the applications; `dse plan` expands it
 * into points (each a folder with its interconnect spec and its settings,
 * and a make file that runs them), scripts/dse_point.sh runs one point,
 * `dse report` gathers the points' results into a CSV file, Markdown tables
 * and SVG charts. `dse random` writes the random chip of a seed for the
 * property test (scripts/property.sh). */
#ifndef DSE_DSE_H
#define DSE_DSE_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/yamlr.h"

/* What a knob changes. */
typedef enum {
	KNOB_PE,            /* cores.pe.spec */
	KNOB_MEM,           /* cores.mem.spec, or none */
	KNOB_TRACKS,        /* tracks.<width> */
	KNOB_SWITCHBOX,     /* switchbox */
	KNOB_SB_REGISTERS,  /* registers.switchbox_outputs */
	KNOB_MEM_EVERY,     /* cores.mem.columns.every */
	KNOB_MEM_FIRST,     /* cores.mem.columns.first */
	KNOB_ARRAY,         /* array.cols and array.rows, as COLSxROWS */
	KNOB_COLS,          /* array.cols */
	KNOB_ROWS,          /* array.rows */
	KNOB_HOP_LIMIT,     /* cgrac --hop-limit */
	KNOB_PACKING,       /* cgrac --no-register-packing when false */
	KNOB_PIPELINE,      /* cgrac --no-pipeline when false */
	KNOB_PLACE_SEED,    /* cgrac --place-seed */
} KnobKind;

/* A knob of the sweep: a column of the results. */
typedef struct Knob {
	const char *name;   /* as written: "tracks16", "pe", ... */
	KnobKind kind;
	int width;          /* KNOB_TRACKS: the network's width */
} Knob;

/* One point: a value (the scalar as written, checked) for some knobs. */
typedef struct Point {
	const char *name;   /* folder name: knob_value pairs joined by '-' */
	const char *label;  /* "tracks16=3 switchbox=wilton" */
	const YNode **values; /* per knob of the sweep; NULL where the point leaves it */
} Point;

typedef struct Sweep {
	Arena *arena;
	YDoc *doc;          /* the sweep file */
	YDoc *base;         /* the base interconnect spec */
	const char *file;   /* the sweep file's path */
	const char *name;   /* its base name without .yaml */
	const char *base_path;
	const char **apps;
	int napps;
	const char **cgrac_opts; /* options for every point */
	int nopts;
	Knob *knobs;
	int nknobs;
	Point *points;
	int npoints;
} Sweep;

/* Reads and checks a sweep file and expands its points; NULL with errors in
 * d (at their positions in the sweep file). */
__give Sweep *dse_sweep_load(const char *path, __keep Diags *d);
void dse_sweep_free(__take Sweep *s);
/* The value of the knob of kind k in point p, or NULL. */
const YNode *dse_point_value(const Sweep *s, const Point *p, KnobKind k);
/* The PE (k KNOB_PE) or MEM (KNOB_MEM) spec file of point p, from the
 * working folder: the knob's, or the base's; NULL for no MEM. */
const char *dse_point_spec_file(const Sweep *s, const Point *p, KnobKind k);

/* path (relative to the working folder, or absolute) as seen from folder
 * dir, which exists; NULL if either cannot be resolved. */
const char *dse_relative(__keep Arena *a, const char *dir, const char *path);

/* Writes every point's folder under dir (spec.yaml, point.env) and
 * dir/points.mk, each only where its text changed (so make redoes only the
 * points that changed); 0 with a message on stderr if a file cannot be
 * written. */
int dse_plan(const Sweep *s, const char *dir);

/* Reads the points' results under dir and writes dir/results.csv,
 * results.md, runtime_area.svg and resources.svg; prints a summary line.
 * 0 if a file cannot be written or a result is missing or malformed. */
int dse_report(const Sweep *s, const char *dir, double seconds);

/* ---- random chips (dse_random.c) ---- */

/* What `dse random` may vary besides the seed. */
typedef struct RandomOpts {
	uint64_t seed;
	const char *mem_spec;   /* the MEM spec a chip with memory tiles names */
	int reg_pattern;        /* switch-box registers on some columns or rows only */
} RandomOpts;

/* Writes dir/pe.yaml, dir/spec.yaml and dir/seed.txt, the random chip of
 * o->seed (the same bytes for the same options and folder), and prints
 * seed.txt's line; 0 with a message on stderr if a file cannot be written. */
int dse_random(const RandomOpts *o, const char *dir);

/* ---- charts (dse_svg.c) ---- */

typedef struct ChartSeries {
	const char *name;
	const double *x, *y; /* y NAN: no value at that point */
	const char **labels; /* per value, or NULL */
	int n;
} ChartSeries;

typedef struct Chart {
	const char *title, *xlabel, *ylabel;
	const char **xticks; /* categorical x axis (x = 0..n-1), or NULL: numeric */
	int nxticks;
	const ChartSeries *series;
	int nseries;
	int lines;          /* join each series' points */
} Chart;

/* Writes charts as one SVG document, the charts stacked vertically. */
void dse_svg_write(FILE *f, const Chart *charts, int ncharts);

#endif
