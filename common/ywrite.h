/* ywrite.h - a small YAML writer for collateral files: block mappings and
 * sequences with two-space indentation, flow mappings on one line, and scalars
 * quoted only where a YAML reader could misread them. Output is deterministic. */
#ifndef COMMON_YWRITE_H
#define COMMON_YWRITE_H

#include <stdint.h>
#include <stdio.h>

#define YW_MAX_DEPTH 32

typedef struct YWriter {
	FILE *f;
	int depth;
	int dash_pending;       /* the next key follows "- " on the current line */
	char flow[YW_MAX_DEPTH];
	int flow_count[YW_MAX_DEPTH];
	int flow_depth;
} YWriter;

void yw_init(YWriter *w, FILE *f);
void yw_comment(YWriter *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Block structure. */
void yw_map(YWriter *w, const char *key);   /* "key:" then an indented mapping */
void yw_seq(YWriter *w, const char *key);   /* "key:" then an indented sequence */
void yw_end(YWriter *w);                    /* closes the innermost yw_map/yw_seq/yw_item */
void yw_item(YWriter *w);                   /* "- " starting a mapping item of a sequence */
void yw_item_str(YWriter *w, const char *value);

/* key: scalar */
void yw_str(YWriter *w, const char *key, const char *value);
void yw_int(YWriter *w, const char *key, long long value);
void yw_hex(YWriter *w, const char *key, const char *hexdigits); /* writes 0x<digits> */
void yw_double(YWriter *w, const char *key, double value);
void yw_bool(YWriter *w, const char *key, int value);

/* Flow mappings on one line: yw_flow_begin(w, key) {yw_fstr...} yw_flow_end(w). With
 * key NULL inside a sequence, the flow mapping is an item. */
void yw_flow_begin(YWriter *w, const char *key);
void yw_fstr(YWriter *w, const char *key, const char *value);
void yw_fint(YWriter *w, const char *key, long long value);
void yw_fuint(YWriter *w, const char *key, uint64_t value);
void yw_fbool(YWriter *w, const char *key, int value);
void yw_fdouble(YWriter *w, const char *key, double value);
void yw_flow_end(YWriter *w);

/* Writes s as a YAML scalar (quoted if needed) into f. */
void yw_scalar(FILE *f, const char *s);

#endif
