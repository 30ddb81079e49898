/* bitstream.c - a bitstream from config.map's fields and routed edges
 * (bitstream.h). */
#include "bitstream.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "lines.h"
#include "../common/vec.h"

/* A write after the registers, in the order asked (bitstream_append). */
typedef struct RawWrite {
	uint32_t address, data;
} RawWrite;

struct Bitstream {
	const ConfigMap *m;
	uint32_t *value;
	char *set;
	VEC(RawWrite) tail;
};

Bitstream *bitstream_new(const ConfigMap *m)
{
	Bitstream *b = xcalloc(1, sizeof *b);
	b->m = m;
	b->value = xcalloc((size_t)m->nfields + 1, sizeof(uint32_t));
	b->set = xcalloc((size_t)m->nfields + 1, 1);
	return b;
}

void bitstream_free(Bitstream *b)
{
	if (!b)
		return;
	free(b->value);
	free(b->set);
	vec_free(&b->tail);
	free(b);
}

/* The field of target if value fits it, or -1. */
static int field_for(const Bitstream *b, const char *target, uint32_t value)
{
	int i = configmap_find(b->m, target);
	if (i < 0)
		return -1;
	const CfgField *f = &b->m->fields[i];
	int bits = f->hi - f->lo + 1;
	return bits < 32 && value >> bits ? -1 : i;
}

int bitstream_set(Bitstream *b, const char *target, uint32_t value)
{
	int i = field_for(b, target, value);
	if (i < 0)
		return 0;
	b->value[i] = value;
	b->set[i] = 1;
	return 1;
}

int bitstream_append(Bitstream *b, const char *target, uint32_t value)
{
	int i = field_for(b, target, value);
	if (i < 0)
		return 0;
	const CfgField *f = &b->m->fields[i];
	RawWrite w = { f->address, value << f->lo };
	vec_push(&b->tail, w);
	return 1;
}

int bitstream_route(Bitstream *b, const RGraph *g, int from, int to)
{
	int sel = rgraph_select(g, from, to);
	if (sel < 0)
		return 0;
	return g->nodes[to].nin == 1 || bitstream_set(b, g->nodes[to].name, (uint32_t)sel);
}

static int by_address(const void *x, const void *y)
{
	const CfgField *a = *(const CfgField *const *)x, *c = *(const CfgField *const *)y;
	return (a->address > c->address) - (a->address < c->address);
}

void bitstream_write(const Bitstream *b, FILE *f)
{
	const ConfigMap *m = b->m;
	const CfgField **set = xcalloc((size_t)m->nfields + 1, sizeof *set);
	int n = 0;
	for (int i = 0; i < m->nfields; i++)
		if (b->set[i])
			set[n++] = &m->fields[i];
	qsort(set, (size_t)n, sizeof *set, by_address);
	for (int i = 0; i < n;) {
		uint32_t addr = set[i]->address, data = 0;
		for (; i < n && set[i]->address == addr; i++)
			data |= b->value[set[i] - m->fields] << set[i]->lo;
		fprintf(f, "%08" PRIx32 " %08" PRIx32 "\n", addr, data);
	}
	free(set);
	vec_foreach(&b->tail, i) fprintf(f, "%08" PRIx32 " %08" PRIx32 "\n", b->tail.data[i].address, b->tail.data[i].data);
}

/* ---- reading a bitstream against the map ---- */

typedef struct ReadCtx {
	const ConfigMap *m;
	VEC(uint32_t) a, v;
} ReadCtx;

static int hex_word(Lines *l, int k, uint32_t *out)
{
	const char *t = l->tok[k];
	if (strlen(t) != 8 || strspn(t, "0123456789abcdefABCDEF") != 8) {
		diag_error(l->d, l->file, l->line, l->col[k], "'%s' is not a 32-bit word of 8 hexadecimal digits", t);
		return 0;
	}
	*out = (uint32_t)strtoul(t, NULL, 16);
	return 1;
}

static void read_write(Lines *l, void *ctx)
{
	ReadCtx *c = ctx;
	if (l->bad)
		return;
	if (l->ntok != 2) {
		diag_error(l->d, l->file, l->line, l->ntok > 2 ? l->col[2] : 1,
			   "expected a configuration write 'AAAAAAAA DDDDDDDD' (address and data in hex)");
		return;
	}
	uint32_t a, v;
	if (!hex_word(l, 0, &a) | !hex_word(l, 1, &v))
		return;
	int reg = configmap_reg(c->m, a);
	if (reg < 0) {
		diag_error(l->d, l->file, l->line, l->col[0],
			   "address %08" PRIx32 " is no configuration register of this design (%s): a bitstream "
			   "for another design?", a, c->m->file);
		return;
	}
	uint32_t cov = c->m->regs[reg].covered;
	if (v & ~cov) {
		diag_error(l->d, l->file, l->line, l->col[1],
			   "data %08" PRIx32 " sets bits %08" PRIx32 " that no field of register %08" PRIx32 " holds (%s)",
			   v, v & ~cov, a, c->m->file);
		return;
	}
	if (c->a.len >= BITSTREAM_MAX_WRITES) {
		diag_error(l->d, l->file, l->line, 1, "more than %d configuration writes", BITSTREAM_MAX_WRITES);
		return;
	}
	vec_push(&c->a, a);
	vec_push(&c->v, v);
}

long bitstream_read(const char *path, const ConfigMap *m, uint32_t **addr, uint32_t **data, Diags *d)
{
	return bitstream_read_string(path, NULL, m, addr, data, d);
}

long bitstream_read_string(const char *name, const char *text, const ConfigMap *m, uint32_t **addr,
			   uint32_t **data, Diags *d)
{
	ReadCtx c = { .m = m };
	int ok = lines_read(name, text, d, 0, read_write, &c);
	if (!ok) {
		vec_free(&c.a);
		vec_free(&c.v);
		return -1;
	}
	*addr = c.a.data;
	*data = c.v.data;
	return c.a.len;
}
