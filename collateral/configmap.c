/* configmap.c - the reader of config.map (configmap.h). */
#include "configmap.h"

#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vec.h"
#include "lines.h"

typedef VEC(CfgField) FieldVec;

static int read_field(Lines *l, ConfigMap *m, CfgField *f)
{
	long addr, lo, hi;
	if (l->ntok != 6 || strcmp(l->tok[0], "field") != 0) {
		diag_error(l->d, l->file, l->line, 1, "expected 'field ADDRESS LO HI KIND TARGET'");
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
			 arena_strdup(m->arena, l->tok[5]) };
	if (!strmap_put(m->index, f->target, 0)) {
		diag_error(l->d, l->file, l->line, l->col[5], "a second field for '%s'", f->target);
		return 0;
	}
	return 1;
}

typedef struct Reading {
	ConfigMap *m;
	FieldVec v;
} Reading;

static void record(Lines *l, void *ctx)
{
	Reading *r = ctx;
	CfgField f;
	if (read_field(l, r->m, &f)) {
		strmap_put(r->m->index, f.target, r->v.len);
		vec_push(&r->v, f);
	}
}

ConfigMap *configmap_load_string(const char *name, const char *text, Diags *d)
{
	Reading r = { xcalloc(1, sizeof(ConfigMap)), { 0 } };
	r.m->arena = arena_new();
	r.m->index = xcalloc(1, sizeof(StrMap));
	strmap_init(r.m->index);
	int ok = lines_read(name, text, d, 0, record, &r);
	r.m->fields = r.v.data;
	r.m->nfields = r.v.len;
	if (!ok) {
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
	strmap_free(m->index);
	free(m->index);
	arena_free(m->arena);
	free(m);
}

int configmap_find(const ConfigMap *m, const char *target)
{
	intptr_t i;
	return strmap_get(m->index, target, &i) ? (int)i : -1;
}
