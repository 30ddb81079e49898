/* configmap.c - the reader of config.map (configmap.h): each field checked
 * on its own, then the fields of each register against each other; the end
 * line proves the file whole. */
#include "configmap.h"

#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vec.h"
#include "lines.h"


typedef VEC(CfgField) FieldVec;

typedef struct Reading {
	ConfigMap *m;
	FieldVec v;
	int records;            /* field records, those in error too */
	int ended;
} Reading;

static int read_field(Lines *l, Reading *r, CfgField *f)
{
	ConfigMap *m = r->m;
	long addr, lo, hi;
	if (l->ntok != 6) {
		diag_error(l->d, l->file, l->line, 1, "expected 'field ADDRESS LO HI KIND TARGET'");
		return 0;
	}
	if (r->v.len >= CONFIGMAP_MAX_FIELDS) {
		diag_error(l->d, l->file, l->line, 1, "more than %d fields", CONFIGMAP_MAX_FIELDS);
		return 0;
	}
	if (!lines_long(l, 1, 16, 0, 0xffffffffL, &addr) || !lines_long(l, 2, 10, 0, 31, &lo) ||
	    !lines_long(l, 3, 10, lo, 31, &hi))
		return 0;
	if (strcmp(l->tok[4], "mux") != 0 && strcmp(l->tok[4], "core") != 0) {
		diag_error(l->d, l->file, l->line, l->col[4], "a field is of kind mux or core, not '%s'", l->tok[4]);
		return 0;
	}
	*f = (CfgField){ (uint32_t)addr, (int)lo, (int)hi, strcmp(l->tok[4], "mux") == 0,
			 arena_strdup(m->arena, l->tok[5]), l->line };
	intptr_t first;
	if (strmap_get(m->index, f->target, &first)) {
		diag_error(l->d, l->file, l->line, l->col[5], "a second field for '%s' (the first is line %d)", f->target,
			   r->v.data[first].line);
		return 0;
	}
	return 1;
}

/* end FIELDS: the count of the whole file. */
static void read_end(Lines *l, Reading *r)
{
	long n;
	r->ended = 1;
	if (l->ntok != 2) {
		diag_error(l->d, l->file, l->line, 1, "expected 'end FIELDS'");
		return;
	}
	if (lines_long(l, 1, 10, 0, CONFIGMAP_MAX_FIELDS, &n) && n != r->records)
		diag_error(l->d, l->file, l->line, 1, "the end line counts %ld fields, the file has %d: lines are missing "
			   "or were added by hand (" LINES_REGENERATE ")", n, r->records);
}

static void record(Lines *l, void *ctx)
{
	Reading *r = ctx;
	CfgField f;
	int end = strcmp(l->tok[0], "end") == 0;
	r->records += !end && !r->ended;
	if (l->bad)
		return;
	if (r->ended)
		diag_error(l->d, l->file, l->line, 1, "a record after the end line");
	else if (end)
		read_end(l, r);
	else if (strcmp(l->tok[0], "field") != 0)
		diag_error(l->d, l->file, l->line, 1, "expected a field or end record, not '%s'", l->tok[0]);
	else if (read_field(l, r, &f)) {
		strmap_put(r->m->index, f.target, r->v.len);
		vec_push(&r->v, f);
	}
}

static int by_address(const void *x, const void *y)
{
	const CfgField *a = *(const CfgField *const *)x, *b = *(const CfgField *const *)y;
	if (a->address != b->address)
		return a->address < b->address ? -1 : 1;
	return a->lo != b->lo ? a->lo - b->lo : a->line - b->line;
}

/* The registers, in address order, with the bits their fields hold; and no
 * two fields of a register share a bit: each pair reported once, at the
 * later line. */
static void index_registers(ConfigMap *m, Diags *d)
{
	const CfgField **s = xcalloc((size_t)m->nfields + 1, sizeof *s);
	for (int i = 0; i < m->nfields; i++)
		s[i] = &m->fields[i];
	qsort(s, (size_t)m->nfields, sizeof *s, by_address);
	m->regs = xcalloc((size_t)m->nfields + 1, sizeof *m->regs);
	for (int i = 0; i < m->nfields; i++) {
		if (!m->nregs || m->regs[m->nregs - 1].address != s[i]->address)
			m->regs[m->nregs++] = (CfgReg){ s[i]->address, 0 };
		int w = s[i]->hi - s[i]->lo + 1;
		m->regs[m->nregs - 1].covered |= (w >= 32 ? 0xffffffffu : (1u << w) - 1) << s[i]->lo;
	}
	for (int i = 1; i < m->nfields; i++) {
		const CfgField *a = s[i - 1], *b = s[i];
		if (a->address != b->address || b->lo > a->hi)
			continue;
		const CfgField *later = a->line > b->line ? a : b, *first = later == a ? b : a;
		diag_error(d, m->file, later->line, 1, "bits %d..%d of register %08x are also bits of the field of '%s' "
			   "(line %d, bits %d..%d): fields of a register do not overlap", later->lo, later->hi,
			   later->address, first->target, first->line, first->lo, first->hi);
	}
	free(s);
}

ConfigMap *configmap_load_string(const char *name, const char *text, Diags *d)
{
	Reading r = { xcalloc(1, sizeof(ConfigMap)), { 0 }, 0, 0 };
	r.m->arena = arena_new();
	r.m->file = arena_strdup(r.m->arena, name);
	r.m->index = xcalloc(1, sizeof(StrMap));
	strmap_init(r.m->index);
	int errors = diags_errors(d);
	int ok = lines_read(name, text, d, 0, record, &r);
	r.m->fields = r.v.data;
	r.m->nfields = r.v.len;
	if (ok && !r.ended)
		diag_error(d, name, 0, 0, "the map ends without its 'end FIELDS' line: the file is cut short, or older "
			   "than its reader (" LINES_REGENERATE ")");
	if (ok)
		index_registers(r.m, d);
	if (!ok || diags_errors(d) != errors) {
		configmap_free(r.m);
		return NULL;
	}
	return r.m;
}

ConfigMap *configmap_load(const char *path, Diags *d)
{
	return configmap_load_string(path, NULL, d);
}

void configmap_free(ConfigMap *m)
{
	if (!m)
		return;
	free(m->fields);
	free(m->regs);
	strmap_free(m->index);
	free(m->index);
	arena_free(m->arena);
	free(m);
}

int configmap_reg(const ConfigMap *m, uint32_t address)
{
	int lo = 0, hi = m->nregs - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (m->regs[mid].address == address)
			return mid;
		if (m->regs[mid].address < address)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int configmap_find(const ConfigMap *m, const char *target)
{
	intptr_t i;
	return strmap_get(m->index, target, &i) ? (int)i : -1;
}
