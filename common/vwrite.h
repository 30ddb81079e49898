/* vwrite.h - helpers for emitting Verilog: indented lines, sized literals, and
 * identifiers checked against the language's reserved words. */
#ifndef COMMON_VWRITE_H
#define COMMON_VWRITE_H

#include <stdint.h>
#include <stdio.h>

typedef struct VWriter {
	FILE *f;
	int indent;
} VWriter;

void vw_init(VWriter *w, FILE *f);
/* One line at the current indentation (fmt has no trailing newline). */
void vw_line(VWriter *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void vw_indent(VWriter *w) { w->indent++; }
static inline void vw_dedent(VWriter *w) { w->indent--; }

/* A sized literal such as 16'h0011 or 1'b1 into buf (at least 32 bytes). */
char *vw_literal(char *buf, uint64_t value, int width);
/* A range such as "[15:0] " for width 16, "" for width 1. */
char *vw_range(char *buf, int width);
/* 1 if name is a Verilog or SystemVerilog reserved word. */
int vw_is_keyword(const char *name);

/* A configuration register on the bus of docs/architecture.md: `width` bits
 * (1..32) written from config_data when config_wr is high and
 * config_addr[31:16] equals `key`, cleared by rst. */
typedef struct VwCfgReg {
	const char *name;
	int width;
	uint32_t key;
} VwCfgReg;

/* The always block that resets and writes the registers. */
void vw_config_writes(VWriter *w, const VwCfgReg *regs, int n);

#endif
