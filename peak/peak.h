/* peak.h - PEak specifications: a PE (instruction set, ports, state, one
 * cycle of behaviour) or a list of IR operations, read from YAML, checked, and
 * lowered to the normal form of peak_nf.h. Everything else in peak/ (functional
 * model, Verilog, SMT, rule synthesis, collateral) starts from a PeakSpec. */
#ifndef PEAK_H
#define PEAK_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/yamlr.h"
#include "peak_nf.h"

typedef struct PeakEnum {
	const char *name;
	int width;
	int n;
	const char **members;
	uint64_t *codes;
} PeakEnum;

typedef struct PeakType {
	int width;
	int enum_id;        /* index into PeakSpec.enums, or -1 for plain bits */
} PeakType;

/* An input, output, state variable, instruction field or param. */
typedef struct PeakPort {
	const char *name;
	PeakType type;
	int offset;         /* instruction fields: bit offset in the packed word */
	uint64_t reset;     /* state: value after reset */
	int line, col;
} PeakPort;

/* Port classes; the first four equal the normal form's leaf kinds. */
enum { PEAK_INPUT = NF_INPUT, PEAK_STATE = NF_STATE, PEAK_FIELD = NF_FIELD,
       PEAK_PARAM = NF_PARAM, PEAK_OUTPUT, PEAK_NUM_CLASSES };

typedef struct PeakDelay {
	const char *name;   /* enum member */
	int enum_id;
	uint64_t code;
	double ns;
} PeakDelay;

typedef enum { PEAK_PE, PEAK_IR } PeakSpecKind;

typedef struct PeakSpec {
	PeakSpecKind kind;
	const char *name;
	const char *file;
	int line, col;
	PeakEnum *enums;
	int nenums;
	const char **type_names;  /* every type alias visible to the behaviour */
	int ntypes;
	PeakPort *ports[PEAK_NUM_CLASSES];
	int nports[PEAK_NUM_CLASSES];
	int inst_width;     /* sum of field widths */
	PeakDelay *delays;
	int ndelays;
	NfGraph g;          /* the normal form */
	int *out_nodes;     /* per output */
	int *next_nodes;    /* per state variable */
} PeakSpec;

/* A loaded file: one PE spec, or the IR operations of an `ir:` file. Specs,
 * names and ports live in the file's arena; each spec's normal form g is on
 * the heap; peak_file_free releases both. */
typedef struct PeakFile {
	Arena *arena;
	YDoc *doc;
	PeakSpec **specs;
	int nspecs;
} PeakFile;

/* Reads, checks and lowers a spec file. NULL if it has errors (all reported). */
__give PeakFile *peak_load(const char *path, __keep Diags *d);
/* The same for text in memory, named name in messages. */
__give PeakFile *peak_load_string(const char *name, const char *text, __keep Diags *d);
void peak_file_free(__take PeakFile *f);

/* Index of a port by name in a class, or -1. */
int peak_port_index(const PeakSpec *s, int cls, const char *name);
/* Index of a member in an enum, or -1. */
int peak_enum_member(const PeakEnum *e, const char *name);
/* Type as written in messages and collateral: "bits(16)", "bit" or the enum name. */
const char *peak_type_name(const PeakSpec *s, PeakType t, char *buf, int n);

#endif
