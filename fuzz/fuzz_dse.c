/* fuzz_dse.c - libFuzzer harness of the sweep reader of bin/dse (dse/dse.h):
 * the input is a sweep file, optionally followed by the separator byte of
 * fuzz.h and the text of its base interconnect spec (instead of the file
 * `base:` names), read and checked by dse_sweep_load_string as `dse check`
 * reads one. The sweep is named dse/fuzz.yaml, so names of canal/specs/,
 * peak/specs/, lake/specs/ and apps/ resolve when the fuzzer runs from the
 * repository's root (fuzz/run.sh). When it loads, every point must have a
 * unique folder name points.mk can hold, and each of the first points'
 * files must be made: its point.env, and its spec.yaml, which must read
 * back as YAML holding each of the point's knobs at its place (a knob the
 * writer lost would be a silently altered chip). Diagnostics go to a sink
 * (fuzz.h). */
#include "fuzz.h"

#include "../common/strmap.h"
#include "../common/yamlr.h"
#include "../dse/dse.h"

#define SWEEP_NAME "dse/fuzz.yaml"
/* The points whose files are made per input. */
#define FILES_CHECKED 8

/* The node at path (keys joined by '.') of map m, or NULL. */
static const YNode *at(const YNode *m, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;
	for (char *key = strtok_r(copy, ".", &save); key && m; key = strtok_r(NULL, ".", &save))
		m = ymap_get(m, key);
	free(copy);
	return m;
}

/* The scalar at path of the spec's root, or "" when there is none. */
static const char *scalar_at(const YNode *root, const char *path)
{
	const YNode *n = at(root, path);
	return n && n->kind == YN_SCALAR ? n->value : "";
}

/* The point's value of knob k as the spec must hold it: integers in
 * decimal, the rest as written; NULL for knobs that are not in the spec. */
static const char *want(const Knob *k, const YNode *v, char *buf, size_t n)
{
	long long x;
	switch (k->kind) {
	case KNOB_TRACKS:
	case KNOB_MEM_EVERY:
	case KNOB_MEM_FIRST:
	case KNOB_COLS:
	case KNOB_ROWS:
		FUZZ_CHECK(yscalar_int(v, &x) == 0, "knob %s accepted '%s'", k->name, v->value);
		snprintf(buf, n, "%lld", x);
		return buf;
	case KNOB_SWITCHBOX:
	case KNOB_SB_REGISTERS: return v->value;
	default: return NULL;
	}
}

static const char *knob_path(const Knob *k, char *buf, size_t n)
{
	switch (k->kind) {
	case KNOB_TRACKS: snprintf(buf, n, "tracks.%d", k->width); return buf;
	case KNOB_SWITCHBOX: return "switchbox";
	case KNOB_SB_REGISTERS: return "registers.switchbox_outputs";
	case KNOB_MEM_EVERY: return "cores.mem.columns.every";
	case KNOB_MEM_FIRST: return "cores.mem.columns.first";
	case KNOB_COLS: return "array.cols";
	case KNOB_ROWS: return "array.rows";
	default: return NULL;
	}
}

/* Point k's spec.yaml holds its knobs. */
static void check_spec(const Sweep *s, int k, const char *text)
{
	Diags *d = fuzz_diags();
	YDoc *doc = ydoc_load_string("spec.yaml", text, d);
	if (!doc || !doc->root || doc->root->kind != YN_MAP)
		fuzz_show(d);
	FUZZ_CHECK(doc && doc->root && doc->root->kind == YN_MAP, "point %d's spec does not read back:\n%s", k + 1,
		   text);
	const YNode *root = doc->root;
	const Point *p = &s->points[k];
	char name[64], buf[64], pbuf[32];
	snprintf(name, sizeof name, "%s_%d", s->name, k + 1);
	FUZZ_CHECK(strcmp(scalar_at(root, "interconnect"), name) == 0, "point %d's name is not %s", k + 1, name);
	FUZZ_CHECK(*scalar_at(root, "cores.pe.spec"), "point %d has no PE spec", k + 1);
	for (int i = 0; i < s->nknobs; i++) {
		const YNode *v = p->values[i];
		const char *path = knob_path(&s->knobs[i], pbuf, sizeof pbuf);
		const char *w = v ? want(&s->knobs[i], v, buf, sizeof buf) : NULL;
		if (w && path)
			FUZZ_CHECK(strcmp(scalar_at(root, path), w) == 0, "point %d: knob %s=%s is '%s' in the spec:\n%s",
				   k + 1, s->knobs[i].name, w, scalar_at(root, path), text);
		if (v && s->knobs[i].kind == KNOB_ARRAY) {
			int c = atoi(v->value), r = atoi(strchr(v->value, 'x') + 1);
			FUZZ_CHECK(atoi(scalar_at(root, "array.cols")) == c && atoi(scalar_at(root, "array.rows")) == r,
				   "point %d: array %s not applied", k + 1, v->value);
		}
		if (v && s->knobs[i].kind == KNOB_MEM)
			FUZZ_CHECK((strcmp(v->value, "none") == 0) == !at(root, "cores.mem"),
				   "point %d: mem %s not applied", k + 1, v->value);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void check_points(const Sweep *s)
{
	FUZZ_CHECK(s->npoints >= 1 && s->npoints <= DSE_MAX_POINTS, "%d points", s->npoints);
	StrMap names;
	strmap_init(&names);
	for (int k = 0; k < s->npoints; k++) {
		const char *name = s->points[k].name;
		FUZZ_CHECK(dse_path_safe(name) && strlen(name) <= DSE_MAX_NAME + 16 && !strchr(name, '/'),
			   "point %d's folder name '%s'", k + 1, name);
		FUZZ_CHECK(strmap_put(&names, name, k), "two points named '%s'", name);
	}
	strmap_free(&names);
	for (int k = 0; k < s->npoints && k < FILES_CHECKED; k++) {
		char *env = dse_point_env(s, k), *spec = dse_point_spec(s, k, ".");
		FUZZ_CHECK(env && spec, "point %d's files were not made", k + 1);
		check_spec(s, k, spec);
		free(env);
		free(spec);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, SWEEP_NAME, data, size);
	char *base = text ? fuzz_split(text) : NULL;
	Sweep *s = text ? dse_sweep_load_string(SWEEP_NAME, text, base, d) : NULL;
	if (s)
		check_points(s);
	dse_sweep_free(s);
	diags_free(d);
	free(text);
	return 0;
}
