/* collateral.c - what the front end needs of a chip (collateral.h). */
#include <stdlib.h>
#include <string.h>

#include "../common/yamlr.h"
#include "collateral.h"

static int read_word(const char *path, Collateral *c, Diags *d)
{
	YDoc *doc = ydoc_load_file(path, d);
	if (!doc)
		return 0;
	const YNode *ins = ymap_get(doc->root, "inputs");
	int ok = ins && ins->kind == YN_SEQ;
	for (int i = 0; ok && i < ins->len; i++) {
		int w;
		const YNode *wn = ymap_get(ins->items[i], "width");
		if (!wn || !yread_int(d, wn, "input width", 1, 64, 1, &w))
			ok = 0;
		else if (w > c->word)
			c->word = w;
	}
	if (!ok || c->word == 0) {
		diag_error(d, path, 1, 1, "expected 'inputs:' with the PE's data inputs and their widths");
		ok = 0;
	}
	ydoc_free(doc);
	return ok;
}

static int read_ops(const char *path, Collateral *c, Diags *d)
{
	YDoc *doc = ydoc_load_file(path, d);
	if (!doc)
		return 0;
	static const char *const lists[] = { "rules", "unsupported" };
	int ok = 1;
	for (int k = 0; k < 2; k++) {
		const YNode *l = ymap_get(doc->root, lists[k]);
		for (int i = 0; l && l->kind == YN_SEQ && i < l->len; i++) {
			const YNode *ir = ymap_get(l->items[i], "ir");
			if (!ir || ir->kind != YN_SCALAR) {
				ynode_error(d, l->items[i], "expected 'ir: NAME' in every rule");
				ok = 0;
				continue;
			}
			strmap_put(&c->ops, ir->value, k == 0);
		}
	}
	if (ok && c->ops.len == 0) {
		diag_error(d, path, 1, 1, "no IR operations: expected 'rules:' (and 'unsupported:')");
		ok = 0;
	}
	ydoc_free(doc);
	return ok;
}

int coll_load(const char *dir, Collateral *c, Diags *d)
{
	memset(c, 0, sizeof *c);
	strmap_init(&c->ops);
	char *path = util_path_join(dir, "design.yaml");
	YDoc *doc = ydoc_load_file(path, d);
	int ok = 0;
	if (doc) {
		const YNode *pe = ymap_get(ymap_get(doc->root, "cores"), "pe");
		const YNode *name = ymap_get(pe, "name"), *info = ymap_get(pe, "info");
		if (!name || !info || name->kind != YN_SCALAR || info->kind != YN_SCALAR) {
			diag_error(d, path, 1, 1, "expected 'cores: { pe: { name: ..., info: ... } }'");
		} else {
			c->pe = xstrdup(name->value);
			char *ip = util_path_join(dir, info->value);
			char *rn = xasprintf("%s.rules.yaml", name->value);
			char *rp = util_path_join(dir, rn);
			ok = read_word(ip, c, d) && read_ops(rp, c, d);
			c->rules_file = rn;
			free(ip);
			free(rp);
		}
		ydoc_free(doc);
	} else {
		diag_error(d, path, 0, 0, "no design collateral here (run make rtl DESIGN=...)");
	}
	free(path);
	diags_flush(d);
	return ok;
}

void coll_free(Collateral *c)
{
	strmap_free(&c->ops);
	free(c->pe);
	free(c->rules_file);
	memset(c, 0, sizeof *c);
}

int coll_has_op(const Collateral *c, const char *op)
{
	return strmap_get(&c->ops, op, NULL);
}
