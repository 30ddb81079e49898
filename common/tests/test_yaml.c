/* test_yaml.c - unit tests of the YAML reader (yamlr.h) and writer
 * (ywrite.h): positions of nodes and keys, empty collections and documents,
 * malformed input and duplicate keys with their positions, allowed keys,
 * scalar positions inside literal blocks and folded plain scalars, aliases,
 * number parsing, reading a spec's root (ydoc_read); and YAML written by ywrite read back for exact round trips
 * of tricky strings, doubles and nesting.
 *
 * Each test is a function run by main (check.h); the last line is
 * "yaml: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "../diag.h"
#include "../yamlr.h"
#include "../ywrite.h"

/* ---- yamlr ---- */

/* The node at a dotted path of map keys and sequence indices, e.g. "ports.1.y". */
static const YNode *ypath(const YNode *n, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save = NULL, *tok = strtok_r(buf, ".", &save); tok && n;
	     tok = strtok_r(NULL, ".", &save)) {
		if (n->kind == YN_SEQ) {
			int i = atoi(tok);
			n = i >= 0 && i < n->len ? n->items[i] : NULL;
		} else {
			n = ymap_get(n, tok);
		}
	}
	return n;
}

/* The text of the scalar at path, or NULL. */
static const char *yval(const YNode *n, const char *path)
{
	const YNode *v = ypath(n, path);
	return v && v->kind == YN_SCALAR ? v->value : NULL;
}

static const char *shown(const char *s)
{
	return s ? s : "(none)";
}

static int style_at(const YNode *n, const char *path)
{
	const YNode *v = ypath(n, path);
	return v ? (int)v->style : -1;
}

/* The character of doc's text at 1-based line and column (0 if none). */
static char text_at(const YDoc *doc, int line, int col)
{
	const char *p = doc->text;
	for (int l = 1; l < line && p; l++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || col < 1 || (int)strlen(p) < col)
		return 0;
	return p[col - 1];
}

static const char nested_yaml[] =
	"name: pe\n"              /* 1 */
	"ports:\n"                /* 2 */
	"  - a\n"                 /* 3 */
	"  - {x: 1, y: 'two'}\n"  /* 4 */
	"map:\n"                  /* 5 */
	"  k: \"v w\"\n"          /* 6 */
	"  deeper:\n"             /* 7 */
	"    list: [p, q]\n";     /* 8 */

static void test_yaml_positions(void)
{
	static const struct {
		const char *path;
		YNodeKind kind;
		int line, col;
		const char *value;
		int len;
	} cases[] = {
		{ "", YN_MAP, 1, 1, "", 3 },
		{ "name", YN_SCALAR, 1, 7, "pe", 0 },
		{ "ports", YN_SEQ, 3, 3, "", 2 },
		{ "ports.0", YN_SCALAR, 3, 5, "a", 0 },
		{ "ports.1", YN_MAP, 4, 5, "", 2 },
		{ "ports.1.x", YN_SCALAR, 4, 9, "1", 0 },
		{ "ports.1.y", YN_SCALAR, 4, 15, "two", 0 },
		{ "map", YN_MAP, 6, 3, "", 2 },
		{ "map.k", YN_SCALAR, 6, 6, "v w", 0 },
		{ "map.deeper.list", YN_SEQ, 8, 11, "", 2 },
		{ "map.deeper.list.1", YN_SCALAR, 8, 15, "q", 0 },
	};
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("n.yaml", nested_yaml, d);
	if (!CHECK(doc && doc->root && diags_count(d) == 0, "nested document did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	for (int i = 0; i < COUNT(cases); i++) {
		const YNode *n = *cases[i].path ? ypath(doc->root, cases[i].path) : doc->root;
		if (!CHECK(n != NULL, "no node at '%s'", cases[i].path))
			continue;
		CHECK(n->kind == cases[i].kind && n->line == cases[i].line && n->col == cases[i].col &&
			      str_eq(n->value, cases[i].value) && n->len == cases[i].len &&
			      str_eq(n->file, "n.yaml"),
		      "'%s': kind %d at %d:%d value \"%s\" len %d, want kind %d at %d:%d \"%s\" len %d",
		      cases[i].path, n->kind, n->line, n->col, n->value, n->len, cases[i].kind,
		      cases[i].line, cases[i].col, cases[i].value, cases[i].len);
	}
	const YNode *key = ymap_key(ypath(doc->root, "map"), "deeper");
	CHECK(key && key->line == 7 && key->col == 3, "key 'deeper' position");
	CHECK(style_at(doc->root, "ports.1.y") == YS_SINGLE &&
		      style_at(doc->root, "map.k") == YS_DOUBLE &&
		      style_at(doc->root, "name") == YS_PLAIN,
	      "scalar styles");
	CHECK(!ymap_get(doc->root, "nope") && !ymap_key(doc->root, "nope") &&
		      !ymap_get(ypath(doc->root, "ports"), "a") && !ymap_get(NULL, "a"),
	      "lookups of missing keys or in non-maps");
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_empty_collections(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("z.yaml", "a: []\nb: {}\nc:\nd: [[], {}]\n", d);
	if (!CHECK(doc && doc->root && diags_count(d) == 0, "empty collections did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	const YNode *a = ypath(doc->root, "a"), *b = ypath(doc->root, "b");
	const YNode *c = ypath(doc->root, "c"), *dd = ypath(doc->root, "d");
	CHECK(a && a->kind == YN_SEQ && a->len == 0 && a->line == 1 && a->col == 4, "[]");
	CHECK(b && b->kind == YN_MAP && b->len == 0 && !ymap_get(b, "x"), "{}");
	CHECK(c && c->kind == YN_SCALAR && str_eq(c->value, ""), "an empty value");
	CHECK(dd && dd->len == 2 && dd->items[0]->kind == YN_SEQ && dd->items[0]->len == 0 &&
		      dd->items[1]->kind == YN_MAP && dd->items[1]->len == 0,
	      "nested empty collections");
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_load_file_and_empty(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("e.yaml", "", d);
	CHECK(doc && doc->root == NULL && diags_count(d) == 0, "empty document");
	ydoc_free(doc);
	doc = ydoc_load_string("c.yaml", "# only a comment\n", d);
	CHECK(doc && doc->root == NULL && diags_count(d) == 0, "comment-only document");
	ydoc_free(doc);
	doc = ydoc_load_file("/nonexistent/dir/x.yaml", d);
	CHECK(doc == NULL && diags_errors(d) == 1 &&
		      strstr(diags_get(d, 0)->msg, "cannot read file") != NULL,
	      "a missing file is reported");
	ydoc_free(doc);
	diags_free(d);
}

/* Loads text expecting failure; checks the first error's position and message. */
static void expect_load_error(const char *text, int line, int col, const char *msg_part)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("bad.yaml", text, d);
	CHECK(doc == NULL, "\"%s\" loaded", text);
	const Diag *g = diags_count(d) ? diags_get(d, 0) : NULL;
	if (CHECK(g && diags_errors(d) >= 1, "\"%s\" gave no error", text)) {
		CHECK(str_eq(g->file, "bad.yaml") && strstr(g->msg, msg_part) &&
			      (line ? g->line == line && g->col == col : g->line > 0 && g->col > 0),
		      "\"%s\": %d:%d %s", text, g->line, g->col, g->msg);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_errors(void)
{
	expect_load_error("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first given at line 1)");
	expect_load_error("top:\n  x: 1\n  x: 2\n", 3, 3, "duplicate key 'x'");
	expect_load_error("m: {p: 1, p: 2}\n", 1, 11, "duplicate key 'p'");
	expect_load_error("a: [1, 2", 0, 0, "malformed YAML");
	expect_load_error("a: 1\n b: 2\n", 0, 0, "malformed YAML");
	expect_load_error("a: \"open\n", 0, 0, "malformed YAML");
	expect_load_error("a: *nowhere\n", 1, 4, "unknown alias 'nowhere'");
	expect_load_error("a: &s [1, *s]\n", 1, 11, "alias 's' inside the node it names");
	expect_load_error("a: &m {x: {y: [*m]}}\n", 1, 16, "alias 'm' inside the node it names");
	expect_load_error("a: 1\n---\nb: 2\n", 2, 1, "second");
	expect_load_error("? [x]\n: 1\n", 1, 3, "mapping keys must be plain names");
}

static void test_yaml_check_keys(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("k.yaml", "name: a\nbogus: 1\nports: []\nextra: 2\n", d);
	static const char *const allowed[] = { "name", "ports", NULL };
	int bad = doc ? ymap_check_keys(doc->root, allowed, "a PE spec", d) : -1;
	CHECK(bad == 2 && diags_errors(d) == 2, "%d unknown keys, %d errors, want 2", bad,
	      diags_errors(d));
	if (diags_count(d) == 2) {
		const Diag *g = diags_get(d, 0);
		CHECK(g->line == 2 && g->col == 1 &&
			      str_eq(g->msg, "unknown key 'bogus' in a PE spec (expected one of: "
					     "name, ports)"),
		      "%d:%d %s", g->line, g->col, g->msg);
		g = diags_get(d, 1);
		CHECK(g->line == 4 && strstr(g->msg, "'extra'"), "%d:%d %s", g->line, g->col, g->msg);
	}
	static const char *const all[] = { "name", "bogus", "ports", "extra", NULL };
	CHECK(doc && ymap_check_keys(doc->root, all, "x", d) == 0, "all keys allowed");
	if (doc) {
		CHECK(!ynode_expect(ymap_get(doc->root, "name"), YN_MAP, "a mapping", d) &&
			      strstr(diags_get(d, diags_count(d) - 1)->msg,
				     "expected a mapping, found a scalar"),
		      "ynode_expect on a scalar");
		CHECK(ynode_expect(ymap_get(doc->root, "ports"), YN_SEQ, "a list", d),
		      "ynode_expect on a sequence");
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_literal_pos(void)
{
	static const char text[] = "ops:\n"               /* 1 */
				   "  add:\n"             /* 2 */
				   "    behavior: |\n"    /* 3 */
				   "      x = a + b\n"    /* 4 */
				   "      y = x * 2\n"    /* 5 */
				   "\n"                   /* 6 */
				   "      z = y\n"        /* 7 */
				   "    other: 1\n";      /* 8 */
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("l.yaml", text, d);
	const YNode *n = doc ? ypath(doc->root, "ops.add.behavior") : NULL;
	if (!CHECK(n && n->style == YS_LITERAL, "literal block did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	CHECK(str_eq(n->value, "x = a + b\ny = x * 2\n\nz = y\n"), "literal value \"%s\"", n->value);
	static const struct {
		int tline, tcol, line, col;
		char c;
	} cases[] = {
		{ 0, 0, 4, 7, 'x' },
		{ 1, 2, 5, 9, '=' },
		{ 1, 8, 5, 15, '2' },
		{ 3, 4, 7, 11, 'y' },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		int line = 0, col = 0;
		yscalar_pos(doc, n, cases[i].tline, cases[i].tcol, &line, &col);
		CHECK(line == cases[i].line && col == cases[i].col && text_at(doc, line, col) == cases[i].c,
		      "literal (%d, %d) -> %d:%d, want %d:%d '%c'", cases[i].tline, cases[i].tcol,
		      line, col, cases[i].line, cases[i].col, cases[i].c);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_plain_pos(void)
{
	static const char text[] = "desc: the quick\n"   /* 1 */
				   "  brown fox\n"       /* 2 */
				   "    jumps\n"         /* 3 */
				   "one: 'ab cd'\n";     /* 4 */
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("p.yaml", text, d);
	const YNode *n = doc ? ymap_get(doc->root, "desc") : NULL;
	if (!CHECK(n && str_eq(n->value, "the quick brown fox jumps"), "folded plain scalar")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	static const struct {
		const char *path;
		int tcol, line, col;
		char c;
	} cases[] = {
		{ "desc", 0, 1, 7, 't' },  { "desc", 4, 1, 11, 'q' },
		{ "desc", 10, 2, 3, 'b' }, { "desc", 16, 2, 9, 'f' },
		{ "desc", 20, 3, 5, 'j' }, { "desc", 24, 3, 9, 's' },
		{ "one", 0, 4, 7, 'a' },   { "one", 3, 4, 10, 'c' },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		int line = 0, col = 0;
		const YNode *s = ymap_get(doc->root, cases[i].path);
		yscalar_pos(doc, s, 0, cases[i].tcol, &line, &col);
		CHECK(line == cases[i].line && col == cases[i].col &&
			      text_at(doc, line, col) == cases[i].c,
		      "%s offset %d -> %d:%d, want %d:%d '%c'", cases[i].path, cases[i].tcol, line, col,
		      cases[i].line, cases[i].col, cases[i].c);
	}
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_aliases(void)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("a.yaml",
				     "base: &b {x: 1, y: [2, 3]}\n"
				     "use: *b\n"
				     "list: [&s hi, *s]\n"
				     "seq: &q [7]\n"
				     "again: *q\n",
				     d);
	if (!CHECK(doc && diags_count(d) == 0, "document with aliases did not load")) {
		ydoc_free(doc);
		diags_free(d);
		return;
	}
	const YNode *base = ymap_get(doc->root, "base"), *use = ymap_get(doc->root, "use");
	CHECK(use == base && str_eq(yval(use, "y.1"), "3"), "*b does not resolve to &b");
	CHECK(str_eq(yval(doc->root, "list.1"), "hi"), "*s does not resolve to the scalar");
	CHECK(ymap_get(doc->root, "again") == ymap_get(doc->root, "seq") &&
		      str_eq(yval(doc->root, "again.0"), "7"),
	      "*q does not resolve to the sequence");
	ydoc_free(doc);
	diags_free(d);
}

static void test_yaml_numbers(void)
{
	static const struct {
		const char *text;
		int rc;
		long long want;
	} ints[] = {
		{ "42", 0, 42 },
		{ "-7", 0, -7 },
		{ "0", 0, 0 },
		{ "0x1f", 0, 31 },
		{ "0X1F", 0, 31 },
		{ "0b101", 0, 5 },
		{ "010", 0, 10 },
		{ "9223372036854775807", 0, LLONG_MAX },
		{ "-9223372036854775808", 0, LLONG_MIN },
		{ "9223372036854775808", -1, 0 },
		{ "''", -1, 0 },
		{ "abc", -1, 0 },
		{ "1.5", -1, 0 },
		{ "12x", -1, 0 },
		{ "0x", -1, 0 },
		{ "0b", -1, 0 },
		{ "0b12", -1, 0 },
		{ "0b-1", -1, 0 },
		{ "' 5'", -1, 0 },
		{ "[1]", -1, 0 },
	};
	Diags *d = diags_new(NULL);
	for (int i = 0; i < COUNT(ints); i++) {
		YDoc *doc = ydoc_load_string("i.yaml", ints[i].text, d);
		long long v = 12345;
		int rc = doc && doc->root ? yscalar_int(doc->root, &v) : -99;
		CHECK(rc == ints[i].rc && (rc || v == ints[i].want),
		      "yscalar_int(%s) = %d, %lld; want %d, %lld", ints[i].text, rc, v, ints[i].rc,
		      ints[i].want);
		ydoc_free(doc);
	}
	static const struct {
		const char *text;
		int rc;
		double want;
	} dbls[] = {
		{ "1.5", 0, 1.5 },  { "-2", 0, -2.0 }, { "1e-9", 0, 1e-9 }, { "0.1", 0, 0.1 },
		{ "abc", -1, 0 },   { "''", -1, 0 },   { "1.5x", -1, 0 },   { "1e999", -1, 0 },
		{ "-1e999", -1, 0 }, { "5e-324", 0, 5e-324 }, { "1e-400", 0, 0.0 }, { "0x10", 0, 16.0 },
	};
	for (int i = 0; i < COUNT(dbls); i++) {
		YDoc *doc = ydoc_load_string("d.yaml", dbls[i].text, d);
		double v = -1;
		int rc = doc && doc->root ? yscalar_double(doc->root, &v) : -99;
		CHECK(rc == dbls[i].rc && (rc || v == dbls[i].want), "yscalar_double(%s) = %d, %g",
		      dbls[i].text, rc, v);
		ydoc_free(doc);
	}
	CHECK(diags_count(d) == 0, "number documents gave %d diagnostics", diags_count(d));
	diags_free(d);
	/* yread_int: a number too large for 64 bits is out of range, not "not a
	 * number"; anything else not a number is still that */
	static const struct {
		const char *text, *msg;
	} reads[] = {
		{ "9223372036854775808", "cols 9223372036854775808 is out of range (1 to 255)" },
		{ "-99999999999999999999", "cols -99999999999999999999 is out of range (1 to 255)" },
		{ "0x10000000000000000", "cols 0x10000000000000000 is out of range (1 to 255)" },
		{ "256", "cols 256 is out of range (1 to 255)" },
		{ "12x", "expected a number for cols" },
		{ "'-'", "expected a number for cols" },
	};
	for (int i = 0; i < COUNT(reads); i++) {
		d = diags_new(NULL);
		YDoc *doc = ydoc_load_string("r.yaml", reads[i].text, d);
		int v = -1;
		int ok = doc && doc->root ? yread_int(d, doc->root, "cols", 1, 255, 0, &v) : -99;
		const Diag *g = diags_count(d) ? diags_get(d, 0) : NULL;
		CHECK(ok == 0 && v == -1 && diags_count(d) == 1 && g && strcmp(g->msg, reads[i].msg) == 0,
		      "yread_int(%s): %d, '%s'; want '%s'", reads[i].text, ok, g ? g->msg : "", reads[i].msg);
		ydoc_free(doc);
		diags_free(d);
	}
}

/* ---- ydoc_read ---- */

/* What read_spec saw: its calls, the root's first key, the document then. */
typedef struct Seen {
	int calls;
	const char *first;
	YDoc **doc;
	int doc_set;
	Diags *d;
} Seen;

/* Reports an error when the root has "bad". */
static void read_spec(void *ctx, const YNode *root)
{
	Seen *s = ctx;
	s->calls++;
	s->first = root->keys[0]->value;
	s->doc_set = *s->doc && (*s->doc)->root == root;
	if (ymap_get(root, "bad"))
		ynode_error(s->d, ymap_get(root, "bad"), "bad");
}

/* ydoc_read of text with key; 1 if it returns ok, the first message is msg
 * at line:col (msg NULL: no message) and read_spec ran calls times. */
static int spec_case(const char *text, const char *key, int ok, const char *msg, int line, int col, int calls)
{
	Diags *d = diags_new(NULL);
	YDoc *doc = NULL;
	Seen s = { 0, NULL, &doc, 0, d };
	int got = ydoc_read("s.yaml", text, key, "a spec (test)", read_spec, &s, &doc, d);
	const Diag *g = diags_count(d) ? diags_get(d, 0) : NULL;
	int same = got == ok && s.calls == calls && (!calls || s.doc_set) &&
		   (msg ? g && str_eq(g->msg, msg) && g->line == line && g->col == col : !g);
	ydoc_free(doc);
	diags_free(d);
	return same;
}

static void test_ydoc_read(void)
{
	CHECK(spec_case("a: 1\nb: 2\n", NULL, 1, NULL, 0, 0, 1), "a mapping is read");
	CHECK(spec_case("a: 1\nbad: 2\n", NULL, 0, "bad", 2, 6, 1), "the reader's errors make it fail");
	CHECK(spec_case("# x\n- 1\n", NULL, 0, "expected a spec (test)", 2, 1, 0), "a list is not a spec");
	CHECK(spec_case("", NULL, 0, "expected a spec (test)", 1, 1, 0), "an empty document is not a spec");
	CHECK(spec_case("a: 1\n", "mem", 0, "expected a spec (test)", 1, 1, 0), "a mapping without the key");
	CHECK(spec_case("x: 0\nmem: m\n", "mem", 1, NULL, 0, 0, 1), "a mapping with the key");
	const char *unread[][2] = { { "s.yaml", "a: [\n" }, { "/nonexistent/dir/s.yaml", NULL } };
	for (int i = 0; i < 2; i++) {
		Diags *d = diags_new(NULL);
		YDoc *doc = NULL;
		Seen s = { 0, NULL, &doc, 0, d };
		CHECK(!ydoc_read(unread[i][0], unread[i][1], NULL, "a spec", read_spec, &s, &doc, d) && !doc &&
			      s.calls == 0 && diags_errors(d) == 1 && !strstr(diags_get(d, 0)->msg, "expected a spec"),
		      "%s: a document that does not load", unread[i][1] ? "malformed YAML" : "a missing file");
		diags_free(d);
	}
}

/* ---- ywrite ---- */

static const char *const tricky_strings[] = {
	"a: b", "yes", "Yes", "NO", "on", "null", "~", "true", "y", "-1x", "-", "- x", "",
	"say \"hi\"\nbye", "back\\slash", "tab\there", "cr\rhere", " lead", "trail ", "#c",
	"a #b", "a#b", "x:", "a:b", "[1]", "{a}", "a,b", "&anchor", "*alias", "!tag", "|", ">",
	"%", "@", "`", "'q'", "?", "plain", "with space", "1.5", "0x10", "h\xc3\xa9llo",
	"del\x7f", "...", "---",
};

static const double tricky_doubles[] = { 0.1, 1.0, 1e-9, -2.5, 1e300, 123456789.123, 5e-324,
					 -0.0, 1e21, 3.0e10 };

/* Writes the round-trip document; the caller frees the returned text. */
static char *write_roundtrip_doc(void)
{
	char *buf = NULL, key[16];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	YWriter w;
	yw_init(&w, f);
	yw_comment(&w, "generated by %s", "test_yaml");
	yw_str(&w, "name", "pe");
	yw_map(&w, "outer");
	yw_map(&w, "inner");
	yw_int(&w, "neg", -5);
	yw_int(&w, "min", LLONG_MIN);
	yw_str(&w, "a: b", "key needs quotes");
	yw_end(&w);
	yw_bool(&w, "on", 1);
	yw_bool(&w, "off", 0);
	yw_hex(&w, "mask", "00ff");
	yw_end(&w);
	yw_map(&w, "strings");
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		snprintf(key, sizeof key, "s%d", i);
		yw_str(&w, key, tricky_strings[i]);
	}
	yw_end(&w);
	yw_seq(&w, "flows");
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		yw_flow_begin(&w, NULL);
		yw_fstr(&w, "s", tricky_strings[i]);
		yw_fint(&w, "i", i);
		yw_fdouble(&w, "d", tricky_doubles[i % COUNT(tricky_doubles)]);
		yw_flow_end(&w);
	}
	yw_end(&w);
	yw_seq(&w, "items");
	for (int i = 0; i < COUNT(tricky_strings); i++)
		yw_item_str(&w, tricky_strings[i]);
	yw_item(&w);
	yw_str(&w, "k", "v");
	yw_map(&w, "sub");
	yw_int(&w, "z", 26);
	yw_end(&w);
	yw_flow_begin(&w, "fm");
	yw_fstr(&w, "a", "x, y");
	yw_fdouble(&w, "one", 1.0);
	yw_flow_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_map(&w, "doubles");
	for (int i = 0; i < COUNT(tricky_doubles); i++) {
		snprintf(key, sizeof key, "d%d", i);
		yw_double(&w, key, tricky_doubles[i]);
	}
	yw_end(&w);
	fclose(f);
	return buf;
}

static int same_double(double a, double b)
{
	return a == b && signbit(a) == signbit(b);
}

static void check_roundtrip_strings(const YNode *root)
{
	char path[32];
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		snprintf(path, sizeof path, "strings.s%d", i);
		const YNode *a = ypath(root, path);
		snprintf(path, sizeof path, "flows.%d.s", i);
		const YNode *b = ypath(root, path);
		snprintf(path, sizeof path, "items.%d", i);
		const YNode *c = ypath(root, path);
		CHECK(a && str_eq(a->value, tricky_strings[i]) && a->kind == YN_SCALAR,
		      "block value %d (\"%s\") read back as \"%s\"", i, tricky_strings[i],
		      a ? a->value : "(none)");
		CHECK(b && str_eq(b->value, tricky_strings[i]), "flow value %d (\"%s\") read back as \"%s\"",
		      i, tricky_strings[i], b ? b->value : "(none)");
		CHECK(c && str_eq(c->value, tricky_strings[i]), "item %d (\"%s\") read back as \"%s\"", i,
		      tricky_strings[i], c ? c->value : "(none)");
	}
}

static void check_roundtrip_numbers(const YNode *root)
{
	char path[32];
	for (int i = 0; i < COUNT(tricky_doubles); i++) {
		double v = -1;
		snprintf(path, sizeof path, "doubles.d%d", i);
		const YNode *n = ypath(root, path);
		CHECK(n && yscalar_double(n, &v) == 0 && same_double(v, tricky_doubles[i]),
		      "double %.17g read back as %s", tricky_doubles[i], n ? n->value : "(none)");
	}
	int flows_ok = 1;
	for (int i = 0; i < COUNT(tricky_strings); i++) {
		long long k = -1;
		double v = -1;
		snprintf(path, sizeof path, "flows.%d.i", i);
		flows_ok &= ypath(root, path) && yscalar_int(ypath(root, path), &k) == 0 && k == i;
		snprintf(path, sizeof path, "flows.%d.d", i);
		flows_ok &= ypath(root, path) && yscalar_double(ypath(root, path), &v) == 0 &&
			    same_double(v, tricky_doubles[i % COUNT(tricky_doubles)]);
	}
	CHECK(flows_ok, "a number in a flow mapping does not read back");
	long long k = 0;
	CHECK(yscalar_int(ypath(root, "outer.inner.neg"), &k) == 0 && k == -5, "int -5");
	CHECK(yscalar_int(ypath(root, "outer.inner.min"), &k) == 0 && k == LLONG_MIN, "LLONG_MIN");
	CHECK(yscalar_int(ypath(root, "outer.mask"), &k) == 0 && k == 0xff, "hex 0x00ff");
	CHECK(str_eq(yval(root, "doubles.d1"), "1.0") &&
		      str_eq(yval(root, "doubles.d0"), "0.1"),
	      "1.0 and 0.1 written as \"%s\" and \"%s\"", shown(yval(root, "doubles.d1")),
	      shown(yval(root, "doubles.d0")));
}

static void check_roundtrip_structure(const YNode *root)
{
	CHECK(str_eq(yval(root, "name"), "pe"), "name");
	CHECK(str_eq(yval(root, "outer.inner.a: b"), "key needs quotes"),
	      "a quoted key");
	CHECK(str_eq(yval(root, "outer.on"), "true") &&
		      str_eq(yval(root, "outer.off"), "false"),
	      "booleans");
	const YNode *items = ypath(root, "items");
	int n = COUNT(tricky_strings);
	CHECK(items && items->kind == YN_SEQ && items->len == n + 1, "items length %d",
	      items ? items->len : -1);
	const YNode *last = items && items->len == n + 1 ? items->items[n] : NULL;
	CHECK(last && str_eq(yval(last, "k"), "v") && str_eq(yval(last, "sub.z"), "26") &&
		      str_eq(yval(last, "fm.a"), "x, y") &&
		      str_eq(yval(last, "fm.one"), "1.0"),
	      "the mapping item of the sequence");
	CHECK(ypath(root, "flows") && ypath(root, "flows")->len == n, "flows length");
}

static void test_ywrite_roundtrip(void)
{
	char *text = write_roundtrip_doc();
	if (!CHECK(text != NULL, "open_memstream failed"))
		return;
	Diags *d = diags_new(NULL);
	YDoc *doc = ydoc_load_string("w.yaml", text, d);
	if (!CHECK(doc && doc->root && diags_count(d) == 0, "written YAML does not read back: %s",
		   diags_count(d) ? diags_get(d, 0)->msg : "")) {
		printf("%s", text);
	} else {
		check_roundtrip_structure(doc->root);
		check_roundtrip_strings(doc->root);
		check_roundtrip_numbers(doc->root);
	}
	static const char head[] = "# generated by test_yaml\nname: pe\nouter:\n  inner:\n    neg: -5\n";
	CHECK(strncmp(text, head, strlen(head)) == 0, "layout of the first lines");
	ydoc_free(doc);
	diags_free(d);
	free(text);
}

static const TestCase tests[] = {
	{ "yaml_positions", test_yaml_positions },
	{ "yaml_empty_collections", test_yaml_empty_collections },
	{ "yaml_load_file_and_empty", test_yaml_load_file_and_empty },
	{ "yaml_errors", test_yaml_errors },
	{ "yaml_check_keys", test_yaml_check_keys },
	{ "yaml_literal_pos", test_yaml_literal_pos },
	{ "yaml_plain_pos", test_yaml_plain_pos },
	{ "yaml_aliases", test_yaml_aliases },
	{ "yaml_numbers", test_yaml_numbers },
	{ "ydoc_read", test_ydoc_read },
	{ "ywrite_roundtrip", test_ywrite_roundtrip },
};

int main(void)
{
	return check_run("yaml", tests, COUNT(tests));
}
