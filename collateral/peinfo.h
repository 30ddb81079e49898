/* peinfo.h - a PE as the compiler sees it: the instruction layout and ports
 * of `<pe>.info.yaml` and the rewrite rules of `<pe>.rules.yaml`
 * (peak/COLLATERAL.md), read with source positions and checked against each
 * other (every field of a rule's instruction, the packed word, the ports and
 * fields its bindings name); and the instruction word of a rule with its
 * constants in their fields. The compiler's mapper and the interconnect bench
 * read PEs through this and never see a PE spec. */
#ifndef COMMON_PEINFO_H
#define COMMON_PEINFO_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/util.h"

#define PE_MAX_INST_WIDTH 8192
#define PE_MAX_COST 100.0       /* ns, a rule's delay (messages say 100) */

typedef struct PeEnumMember {
	const char *name;
	uint64_t code;
} PeEnumMember;

typedef struct PeEnum {
	const char *name;
	int width;
	PeEnumMember *members;
	int nmembers;
} PeEnum;

/* A field of the instruction word, packed LSB-first in declaration order. */
typedef struct PeInstField {
	const char *name;
	int width;              /* 1..64 */
	int offset;
	int type;               /* index into PeInfo.enums, or -1 for a number */
} PeInstField;

typedef struct PePort {
	const char *name;
	int width;
} PePort;

/* One binding of a rule: an IR name to a PE input or output (index into
 * PeInfo.inputs / outputs) or an IR param to an instruction field (index
 * into PeInfo.fields). */
typedef struct PeBinding {
	const char *ir;
	int index;
} PeBinding;

/* An instruction field set to a value. */
typedef struct PeSetting {
	int field;              /* index into PeInfo.fields */
	uint64_t value;
} PeSetting;

/* How a rule reads one of its inputs through the PE's input register (one
 * cycle late): the fields to change in its instruction (nsets 0: it cannot).
 * peak proves every combination of a rule's registered inputs. */
typedef struct PeRegistered {
	PeSetting *sets;
	int nsets;
} PeRegistered;

typedef struct PeRule {
	const char *ir;         /* the IR operation */
	const char *pattern;
	int size;
	double cost;
	uint64_t *word;         /* BITS_WORDS(inst_width) words; param fields 0 */
	PeBinding *inputs, *params, *outputs;
	int ninputs, nparams, noutputs;
	PeRegistered *registered;       /* per input (parallel to inputs) */
	int proved;             /* proof: { status: proved } */
	int line, col;          /* of the rule in the rules file */
} PeRule;

typedef struct PeInfo {
	Arena *arena;
	const char *name;
	int inst_width;
	PeInstField *fields;
	int nfields;
	PeEnum *enums;
	int nenums;
	PePort *inputs, *outputs;
	int ninputs, noutputs;
	PeRule *rules;          /* in the order the mapper should try them */
	int nrules;
	const char **unsupported;       /* IR operations the PE cannot implement */
	int nunsupported;
} PeInfo;

/* Reads a PE's info file and, unless rules_path is NULL, its rules file;
 * NULL (errors in d, every one found) if either is malformed or they
 * disagree. */
__give PeInfo *peinfo_load(const char *info_path, const char *rules_path, __keep Diags *d);
/* The same from texts in memory (rules_text may be NULL). */
__give PeInfo *peinfo_load_string(const char *info_name, const char *info_text, const char *rules_name,
				  const char *rules_text, __keep Diags *d);
/* The info part alone, from a PE info file already read as YAML (for the
 * readers of a core's collateral, collateral/coreinfo.h): NULL with every
 * error in d. */
struct YDoc;
__give PeInfo *peinfo_read_info(const struct YDoc *info, __keep Diags *d);
void peinfo_free(__take PeInfo *p);

/* Indices by name, or -1. */
int peinfo_field(const PeInfo *p, const char *name);
int peinfo_input(const PeInfo *p, const char *name);
int peinfo_output(const PeInfo *p, const char *name);
/* The first rule (in mapper order) for IR operation ir, or NULL. */
const PeRule *peinfo_rule(const PeInfo *p, const char *ir);

/* The instruction of rule r with params[i] in the field of r->params[i]:
 * BITS_WORDS(p->inst_width) words into word. 0 if a value does not fit its
 * field. */
int peinfo_encode(const PeInfo *p, const PeRule *r, const uint64_t *params, uint64_t *word);
/* Changes word (an instruction of rule r) so that the PE reads rule input k
 * through its input register, one cycle late; 0 if the rule cannot. */
int peinfo_register_input(const PeInfo *p, const PeRule *r, int k, uint64_t *word);

#endif
