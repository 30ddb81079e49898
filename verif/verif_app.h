/* verif_app.h - the co-simulation of an application (verification level 5 of
 * docs/architecture.md): its bitstream loaded into the design's Verilator model,
 * its input images streamed in and its output streams assembled into an
 * image that must equal the golden image bit for bit. The application is
 * described by the compiler's `<app>.io.yaml` (verif/README.md,
 * "Applications"). */
#ifndef VERIF_APP_H
#define VERIF_APP_H

/* What a run found, for a caller that reports it (cgrac --verify). */
typedef struct VerifAppResult {
	long pixels, mismatches;        /* compared, and differing from the golden image */
	long long cycles;               /* after the flush */
	int util;                       /* the fast simulator reported its PEs' utilization: */
	int pes_used, pes_total;        /*   PEs the configuration uses, of the array's */
	int pe_busy;                    /*   percentage of their cycles in which an output changed */
	char summary[512];              /* the summary line, or why there is none (the first error) */
} VerifAppResult;

typedef struct VerifAppOptions {
	const char *io_yaml;    /* build/<design>/<app>/<app>.io.yaml */
	const char *design;     /* the design's folder; NULL: rtl_out/<design of the io.yaml> */
	const char *vsim;       /* the model; NULL: build/verilator/<design>-noprobes/vsim */
	const char *fast;       /* instead of a model, this bin/cgrasim: the fast simulator */
	const char *activity;   /* with fast: per-tile activity to write, or NULL */
	const char *out;        /* NULL: the io.yaml's folder */
	const char *trace;      /* a VCD waveform to write, or NULL */
	const char *note;       /* appended to the summary line (the model's build), or NULL */
	int quiet;              /* no progress, only the summary line and errors */
	int silent;             /* not even the summary line (result has it; sim.log too) */
	VerifAppResult *result; /* filled when not NULL */
} VerifAppOptions;

/* Checks the io.yaml against the design and its images, writes the input
 * streams and the command file into OUT/sim/, runs vsim, assembles the output
 * image(s) OUT/output.<ext> and compares them with the golden image(s);
 * writes OUT/sim.log and prints a one-line summary. 0 when every pixel is
 * bit-exact, 1 otherwise (errors are reported as file:line:col). */
int verif_app_run(const VerifAppOptions *o);

#endif
