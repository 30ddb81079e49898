/* cs_cmd.h - the command files of verif/README.md ("The harness": reset,
 * flush, write, bitstream, read, set, step, drive, record, run, expect,
 * expect-all, check, print) run on the fast simulator, with the Verilator
 * harness's messages, so that one command file runs on either and their
 * recorded streams can be compared value by value. */
#ifndef CGRASIM_CS_CMD_H
#define CGRASIM_CS_CMD_H

#include <stdio.h>

#include "cs.h"

typedef struct CsCmdOptions {
	int max_report;         /* mismatches printed in full (-1: all) */
	int quiet, progress;
	int strict_loops;       /* a combinational loop in a configuration is an error (applications) */
	long max_cycles;        /* more cycles than this (from the start) are an error; 0: no cap */
	FILE *diag_out;         /* where errors go; NULL: stderr */
	const char *trace;      /* a VCD waveform to write, or NULL */
	const char *activity;   /* per-tile activity to write, or NULL */
	const char *expect_out; /* a transcript to write, or NULL: the same commands with every node's
				 * value expected before every clock edge, for the Verilator harness */
} CsCmdOptions;

/* Runs the command file path on s. 0 without mismatch, 1 with, 2 after an
 * error in the file (reported as file:line:col; nothing recorded is
 * written). */
int cs_cmd_run(Cs *s, const char *path, const CsCmdOptions *o);

#endif
