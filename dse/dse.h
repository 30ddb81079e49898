/* dse.h - design-space exploration (dse/README.md): a sweep file names a
 * base chip, the knobs to vary and the applications; `dse plan` expands it
 * into points (each a folder with its interconnect spec and its settings,
 * and a make file that runs them), scripts/dse_point.sh runs one point,
 * `dse report` gathers the points' results into a CSV file, Markdown tables
 * and SVG charts (`dse charts` draws them again from the CSV). `dse random` writes the random chip of a seed for the
 * property test (scripts/property.sh). */
#ifndef DSE_DSE_H
#define DSE_DSE_H

#include <stdint.h>
#include <stdio.h>

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
	const char *base_text; /* the base's text instead of its file's (the fuzzer), or NULL */
	const char **apps;
	int napps;
	const char **cgrac_opts; /* options for every point */
	int nopts;
	Knob *knobs;
	int nknobs;
	Point *points;
	int npoints;
} Sweep;

/* The most points a sweep may have, counted before any is made. */
#define DSE_MAX_POINTS 10000
/* The longest folder name of a point; a longer one is cut and gets the
 * point's number. */
#define DSE_MAX_NAME 120
/* The largest result.txt of a point read by dse report. YAML files (the
 * sweep, its base, cgrac's reports, area.yaml) are bounded by yamlr's
 * YAML_READ_MAX. */
#define DSE_RESULT_MAX ((size_t)1 << 20)
/* The most bytes the files of a plan may take together (spec.yaml and
 * point.env of every point, points.mk), checked before anything is
 * written. */
#define DSE_PLAN_MAX ((size_t)256 << 20)

/* Reads and checks a sweep file and expands its points; NULL with errors in
 * d (at their positions in the sweep file). */
__give Sweep *dse_sweep_load(const char *path, __keep Diags *d);
/* The same for the sweep's text, named path; when base_text is not NULL it
 * is the base spec's text, whatever file the sweep names (fuzz/fuzz_dse.c). */
__give Sweep *dse_sweep_load_string(const char *path, const char *text, const char *base_text, __keep Diags *d);
void dse_sweep_free(__take Sweep *s);
/* The value of the knob of kind k in point p, or NULL. */
const YNode *dse_point_value(const Sweep *s, const Point *p, KnobKind k);
/* The PE (k KNOB_PE) or MEM (KNOB_MEM) spec file of point p, from the
 * working folder: the knob's, or the base's; NULL for no MEM. */
const char *dse_point_spec_file(const Sweep *s, const Point *p, KnobKind k);

/* What is wrong with path as a file dse or a tool after it reads: NULL for a
 * readable regular file of at most max bytes, else the reason in words
 * ("No such file or directory", "a folder, not a file", "not a regular
 * file (a device, a pipe or a socket)", "file too large: ..."); valid until
 * the next call. */
const char *dse_file_problem(const char *path, size_t max);
/* Reads a regular file of at most max bytes without a NUL byte; NULL with
 * "PATH: error: why" in d. */
__give char *dse_read_text(const char *path, size_t max, size_t *len, __keep Diags *d);
/* A YAML file read through dse_read_text (at most YAML_READ_MAX bytes). */
__give YDoc *dse_load_yaml(const char *path, __keep Diags *d);
/* 1 if path can be written in a make file as it is: letters, digits, bytes
 * above 127 and / . _ - + , @ only. */
int dse_path_safe(const char *path);

/* path (relative to the working folder, or absolute) as seen from folder
 * dir, which exists; NULL if either cannot be resolved. */
const char *dse_relative(__keep Arena *a, const char *dir, const char *path);

/* Writes every point's folder under dir (spec.yaml, point.env) and
 * dir/points.mk, each only where its text changed (so make redoes only the
 * points that changed); 0 with a message on stderr if a file cannot be
 * written. Every text is made before anything is written, and the files go
 * through OutSets (common/util.h) with points.mk the marker: a failed plan
 * leaves no file of its own and no folder it made, only (when the files did
 * not fit one set) fewer, complete points and no points.mk. */
int dse_plan(const Sweep *s, const char *dir);
/* The text of point.env, and of spec.yaml in the point's folder pdir
 * (which exists), of point k (0-based); spec.yaml's is NULL with a message
 * if a core spec cannot be resolved from pdir. */
__give char *dse_point_env(const Sweep *s, int k);
__give char *dse_point_spec(const Sweep *s, int k, const char *pdir);

/* Reads the points' results under dir and writes dir/results.csv,
 * results.md, summary.svg, runtime_area.svg and resources.svg (the charts
 * drawn from the CSV's text, as dse charts draws them); prints a summary
 * line.
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

/* ---- results and charts (dse_results.c, dse_charts.c) ---- */

/* The most network widths a sweep's results name (tracksW_used columns). */
#define DSE_MAX_WIDTHS 8
/* The largest results.csv dse charts reads. */
#define DSE_CSV_MAX ((size_t)256 << 20)

/* One application at one point, as results.csv gives it. */
typedef struct DseRow {
	const char *status;   /* bit-exact, different, not-mapped or not-run */
	double runtime, pes, mems, regs; /* NAN where there is none */
	double tracks[DSE_MAX_WIDTHS];   /* per width of DseResults */
} DseRow;

/* A sweep's results read back from results.csv: the points and the
 * applications in the order of their first rows, a row for each pair. */
typedef struct DseResults {
	Arena *arena;         /* everything below */
	const char *sweep;
	const char **labels;  /* per point: its knobs ("tracks16=3 switchbox=wilton", "base") */
	double *area;         /* per point: area_array, NAN without */
	int npoints;
	const char **apps;
	int napps;
	int widths[DSE_MAX_WIDTHS], nwidths;
	const char *unit;     /* area_unit, NULL when not measured */
	DseRow *rows;         /* rows[point * napps + app] */
} DseResults;

/* Reads text, results.csv as dse report writes it, named path in
 * messages; NULL with errors in d (path:line:col: a cell that is not a
 * number or a status, a row missing or repeated, a quote not closed). */
__give DseResults *dse_results_read(const char *path, const char *text, __keep Diags *d);
void dse_results_free(__take DseResults *r);

/* Writes the charts of r: summary.svg (per point the geometric mean over
 * the applications of the runtime relative to the base point, the first,
 * against the array's area, the Pareto-optimal points joined),
 * runtime_area.svg (a panel per application) and resources.svg (a chart
 * per resource, a series per application). The same r gives the same
 * bytes. */
void dse_charts_write(const DseResults *r, FILE *summary, FILE *runtime, FILE *resources);
/* `dse charts DIR`: the charts of DIR/results.csv written again into DIR
 * (through one OutSet: all three or none); 0 with messages on stderr. */
int dse_charts(const char *dir);

#endif
