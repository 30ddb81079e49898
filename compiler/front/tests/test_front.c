/* test_front.c - unit tests of the compiler's front end: Halide's arithmetic
 * and type rules, the lexer, interval analysis, the simplifier and the
 * interpreter's update order. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/tests/check.h"
#include "../front.h"
#include "../hl_lex.h"

static HProgram *parse(const char *text)
{
	Diags *d = diags_new(NULL);
	HProgram *p = hl_parse("t.hl", text, d);
	diags_free(d);
	return p;
}

/* The message of the first error of text, or "" */
static char msg[512];
static const char *first_error(const char *text)
{
	Diags *d = diags_new(NULL);
	HProgram *p = hl_parse("t.hl", text, d);
	msg[0] = 0;
	if (diags_count(d))
		snprintf(msg, sizeof msg, "%d:%d: %s", diags_get(d, 0)->line, diags_get(d, 0)->col,
			 diags_get(d, 0)->msg);
	hl_free(p);
	diags_free(d);
	return msg;
}

/* ---- arithmetic ---- */

static void test_eval(void)
{
	static const struct {
		HBinOp op;
		HType t;
		int64_t x, y, want;
	} cases[] = {
		{ HB_ADD, { 0, 16 }, 65535, 1, 0 },
		{ HB_SUB, { 0, 16 }, 0, 1, 65535 },
		{ HB_ADD, { 1, 16 }, 32767, 1, -32768 },
		{ HB_MUL, { 0, 16 }, 300, 300, 90000 % 65536 },
		{ HB_DIV, { 1, 16 }, -7, 2, -4 },   /* rounds to negative infinity */
		{ HB_DIV, { 1, 16 }, -7, -2, 4 },   /* Euclidean: remainder 1 */
		{ HB_DIV, { 1, 16 }, 7, -2, -3 },
		{ HB_MOD, { 1, 16 }, -7, 3, 2 },    /* never negative */
		{ HB_MOD, { 1, 16 }, -7, -3, 2 },
		{ HB_DIV, { 0, 16 }, 9, 0, 0 },     /* division by zero gives zero */
		{ HB_MOD, { 0, 16 }, 9, 0, 0 },
		{ HB_SHR, { 1, 16 }, -16, 2, -4 },  /* arithmetic */
		{ HB_SHR, { 0, 16 }, 0xfff0, 2, 0x3ffc },
		{ HB_SHL, { 0, 16 }, 0x8001, 1, 2 },
		{ HB_SHL, { 0, 16 }, 1, 16, 0 },
		{ HB_ABSD, { 1, 16 }, -30000, 30000, 60000 },   /* uint16 result */
		{ HB_MIN, { 1, 16 }, -3, 2, -3 },
		{ HB_LT, { 1, 16 }, -3, 2, 1 },
		{ HB_LT, { 0, 16 }, 65533, 2, 0 },
		{ HB_AND, { 1, 16 }, -1, 0x00ff, 0xff },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		int64_t got = hb_eval(cases[i].op, cases[i].t, cases[i].x, cases[i].y);
		CHECK(got == cases[i].want, "%s %lld %s %lld = %lld, expected %lld", ht_name(cases[i].t),
		      (long long)cases[i].x, hb_name(cases[i].op), (long long)cases[i].y, (long long)got,
		      (long long)cases[i].want);
	}
	CHECK(hu_eval(HU_ABS, HT_U16, -32768) == 32768, "abs(int16 -32768) is 32768 as uint16");
	CHECK(hu_eval(HU_NEG, HT_U16, 1) == 65535, "-(uint16)1 wraps");
	CHECK(ht_wrap(HT_BOOL, 5) == 1, "a cast to bool is != 0");
	CHECK(ht_wrap(HT_I16, 40000) == 40000 - 65536, "int16 wraps");
}

/* ---- types ---- */

#define PROLOGUE "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc f(\"f\");\n"
#define EPILOGUE "f.bound(x, 0, 4).bound(y, 0, 4);\nhw_accelerate(f);\nstream_to_accelerator(in);\n"

/* The type and printed value of f(x, y) = expr. */
static void type_of(const char *expr, HType *t, char *text, size_t n)
{
	char src[1024];
	snprintf(src, sizeof src, PROLOGUE "f(x, y) = %s;\n" EPILOGUE, expr);
	HProgram *p = parse(src);
	t->bits = 0;
	text[0] = 0;
	if (!p)
		return;
	const HFunc *f = &p->funcs.data[0];
	*t = f->type;
	char *s = he_str(p, f->defs.data[0].value);
	snprintf(text, n, "%s", s);
	free(s);
	hl_free(p);
}

static void test_types(void)
{
	static const struct {
		const char *expr, *type, *text;
	} cases[] = {
		{ "in(x, y) * 2", "uint16", "in(x, y) * (uint16)2" },
		{ "2 * in(x, y)", "uint16", "(uint16)2 * in(x, y)" },
		{ "cast<int16_t>(in(x, y)) + in(x, y)", "int16", "int16(in(x, y)) + int16(in(x, y))" },
		{ "cast<uint32_t>(in(x, y)) + cast<int16_t>(in(x, y))", "int32", NULL },
		{ "x + 1", "int32", "x + 1" },
		{ "Expr(5) + in(x, y)", "int32", NULL },
		{ "select(in(x, y) > 3, 1, in(x, y))", "uint16", "select(in(x, y) > (uint16)3, (uint16)1, in(x, y))" },
		{ "select(in(x, y) > 3, 1, 0)", "int32", NULL },
		{ "abs(cast<int16_t>(in(x, y)))", "uint16", NULL },
		{ "absd(cast<int16_t>(in(x, y)), cast<int16_t>(in(x + 1, y)))", "uint16", NULL },
		{ "clamp(cast<int16_t>(in(x, y)), -180, 180)", "int16", "max(min(int16(in(x, y)), (int16)180), (int16)-180)" },
		{ "in(x, y) > 3 && in(x, y) < 9", "bool", NULL },
		{ "max(in(x, y), 1)", "uint16", "max(in(x, y), (uint16)1)" },
		{ "u32(in(x, y)) * u32(in(x, y)) >> 8", "uint32", NULL },
		{ "3 * 4 + in(x, y)", "uint16", "(uint16)12 + in(x, y)" },
		{ "in(x, y) / 4", "uint16", "in(x, y) / (uint16)4" },
		{ "-in(x, y)", "uint16", "-in(x, y)" },
		{ "cast<uint16_t>(7)", "uint16", "(uint16)7" },
		{ "select(in(x, y) > 3, in(x, y), -1)", "uint16", "select(in(x, y) > (uint16)3, in(x, y), (uint16)65535)" },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		HType t;
		char text[512];
		type_of(cases[i].expr, &t, text, sizeof text);
		CHECK(t.bits && !strcmp(ht_name(t), cases[i].type), "%s: type %s, expected %s", cases[i].expr,
		      t.bits ? ht_name(t) : "(error)", cases[i].type);
		if (cases[i].text)
			CHECK(!strcmp(text, cases[i].text), "%s: printed '%s', expected '%s'", cases[i].expr, text,
			      cases[i].text);
	}
}

static void test_type_errors(void)
{
	static const struct {
		const char *expr, *want;
	} cases[] = {
		{ "in(x, y) + 70000", "will be implicitly coerced to type uint16" },
		{ "in(x, y) + -1", "will be implicitly coerced to type uint16" },
		{ "in(x, y) && in(x, y)", "must be boolean" },
		{ "in(x, y) & cast<int16_t>(in(x, y))", "different types uint16 and int16" },
		{ "clamp(in(x, y), -1, 5)", "will be implicitly coerced" },
		{ "in(u32(x), y)", "implicit cast from uint32 to int" },
		{ "sum(in(x, y))", "no reduction variable" },
		{ "cast<int>(in(x, y)) ? 1 : 2", "conditional operator" },
		{ "in(x, y) + (in(x, y) > 2)", "on a boolean value" },
		{ "in(x, y) >> 16", "the amount must be from 0 to 15" },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		char src[1024];
		snprintf(src, sizeof src, PROLOGUE "f(x, y) = %s;\n" EPILOGUE, cases[i].expr);
		const char *m = first_error(src);
		CHECK(strstr(m, cases[i].want) != NULL, "%s: error '%s', expected one with '%s'", cases[i].expr, m,
		      cases[i].want);
		CHECK(!strncmp(m, "4:", 2), "%s: the error is on line 4 (%s)", cases[i].expr, m);
	}
	const char *m = first_error(PROLOGUE "f(x, y) = in(x, y) +;\nf(x, y) = zz;\n" EPILOGUE);
	CHECK(strstr(m, "expected an expression") != NULL, "syntax error: %s", m);
	Diags *d = diags_new(NULL);
	HProgram *p = hl_parse("t.hl", PROLOGUE "f(x, y) = in(x, y) +;\nFunc g(\"g\");\ng(x) = qq;\n", d);
	CHECK(!p && diags_errors(d) == 2, "both errors of a file are reported (%d)", diags_errors(d));
	for (int i = 0; i < diags_count(d); i++)
		if (diags_errors(d) != 2)
			printf("    %d:%d: %s\n", diags_get(d, i)->line, diags_get(d, i)->col, diags_get(d, i)->msg);
	hl_free(p);
	diags_free(d);
}

/* ---- lexer ---- */

static void test_lexer(void)
{
	HToks t;
	Diags *d = diags_new(NULL);
	hlx_tokenize("t", "f(x) /* c\n */ = 0x1F<<2; // end\n\"s\" >>= ", &t, d);
	static const char *const want[] = { "f", "(", "x", ")", "=", "0x1F", "<<", "2", ";", "s", ">>=", "" };
	CHECK(t.len == COUNT(want), "%d tokens, expected %d", t.len, COUNT(want));
	for (int i = 0; i < t.len && i < COUNT(want); i++)
		if (t.toks[i].kind != TK_INT)
			CHECK(!strcmp(t.toks[i].text, want[i]), "token %d '%s', expected '%s'", i, t.toks[i].text, want[i]);
	CHECK(t.len > 5 && t.toks[5].kind == TK_INT && t.toks[5].value == 31, "0x1F is 31");
	CHECK(t.len > 4 && t.toks[4].line == 2 && t.toks[4].col == 5, "'=' at 2:5 after a block comment (%d:%d)",
	      t.toks[4].line, t.toks[4].col);
	CHECK(diags_errors(d) == 0, "no lexical error");
	hlx_free(&t);
	hlx_tokenize("t", "a @ 1.5 99999999999999999999 2.5x", &t, d);
	CHECK(diags_errors(d) == 3, "an unexpected character, a too large literal and a malformed float (%d)",
	      diags_errors(d));
	CHECK(t.len > 1 && t.toks[1].kind == TK_FLOAT && t.toks[1].fvalue == 1.5 && t.toks[1].value == 0,
	      "1.5 is a double");
	hlx_free(&t);
	hlx_tokenize("t", "1.5f .25 1e-3 2.F", &t, d);
	CHECK(t.len == 5 && t.toks[0].kind == TK_FLOAT && t.toks[0].value == 1 && t.toks[1].fvalue == 0.25 &&
		      t.toks[2].fvalue == 1e-3 && t.toks[3].value == 1 && t.toks[3].fvalue == 2.0,
	      "floats: 1.5f, .25, 1e-3, 2.F");
	hlx_free(&t);
	diags_free(d);
}

/* ---- ranges and simplification ---- */

static void test_ranges(void)
{
	HProgram *p = parse(PROLOGUE "f(x, y) = max((in(x, y) * 3 + in(x, y)) >> 8, 1) + 2;\n" EPILOGUE);
	if (!CHECK(p != NULL, "parses"))
		return;
	RangeCtx c;
	range_init(&c, p);
	const HExpr *e = p->funcs.data[0].defs.data[0].value;
	Interval r = range_of(&c, e);
	CHECK(r.lo == 3 && r.hi == 257, "max(u16 >> 8, 1) + 2 over [3, 257], got [%lld, %lld]", (long long)r.lo,
	      (long long)r.hi);
	r = range_of(&c, e->a->a);
	CHECK(r.lo == 0 && r.hi == 255, "a wrapping uint16 sum >> 8 over [0, 255], got [%lld, %lld]", (long long)r.lo,
	      (long long)r.hi);
	range_free(&c);
	/* in a select's branch its condition holds: a mirror's coordinate stays in the image */
	HProgram *q = parse(PROLOGUE "Expr t = (x - 3) % 30;\nf(x, y) = in(select(t < 16, t, 30 - t) + 100, y);\n"
			    EPILOGUE);
	if (CHECK(q != NULL, "the mirror parses")) {
		range_init(&c, q);
		range_set(&c, q->funcs.data[0].vars[0], (Interval){ -50, 50 });
		const HExpr *arg = q->funcs.data[0].defs.data[0].value->args[0];
		r = range_of(&c, arg);
		CHECK(r.lo == 100 && r.hi == 115, "select(t < 16, t, 30 - t) + 100 over [100, 115], got [%lld, %lld]",
		      (long long)r.lo, (long long)r.hi);
		range_free(&c);
		hl_free(q);
	}
	Arena *a = p->arena;
	HExpr *x = he_var(a, 0);
	HExpr *s = hs_simplify(a, he_bin(a, HB_ADD, HT_I32, hs_simplify(a, he_bin(a, HB_ADD, HT_I32, x, he_const(a, HT_I32, 1))),
					 he_const(a, HT_I32, 2)));
	char *str = he_str(p, s);
	CHECK(!strcmp(str, "x + 3"), "(x + 1) + 2 is x + 3, got %s", str);
	free(str);
	s = hs_simplify(a, he_bin(a, HB_MUL, HT_U16, he_const(a, HT_U16, 0), he_cast(a, HT_U16, x)));
	CHECK(he_is_const(s, NULL) && s->value == 0, "0 * e is 0");
	HExpr *terms[3] = { he_cast(a, HT_U16, x), he_const(a, HT_U16, 3), he_const(a, HT_U16, 65535) };
	s = hs_balance_sum(a, HT_U16, terms, 3);
	str = he_str(p, s);
	CHECK(!strcmp(str, "uint16(x) + (uint16)2"), "constants of a sum are combined modulo 2^16: %s", str);
	free(str);
	hl_free(p);
}

/* ---- the C++ a generator runs ---- */

/* The value of C++ expression cpp as an int k of the program, read back
 * through the interpreter (as an int16); INT64_MIN if the program is refused. */
static int64_t cpp_int(const char *cpp)
{
	char text[512];
	/* statements that declare k, or the value of k */
	snprintf(text, sizeof text, "Var x(\"x\");\n%s%s%s\nFunc f(\"f\");\nf(x) = u16(k + 1000);\n"
		 "f.bound(x, 0, 1);\nhw_accelerate(f);\n", strchr(cpp, ';') ? "" : "int k = ", cpp,
		 strchr(cpp, ';') ? "" : ";");
	HProgram *p = parse(text);
	if (!p)
		return INT64_MIN;
	Image out;
	Diags *d = diags_new(NULL);
	int64_t v = hli_run(p, NULL, &out, d) ? (int64_t)(int16_t)(uint16_t)(out.px[0] - 1000) : INT64_MIN;
	if (v != INT64_MIN)
		image_free(&out);
	diags_free(d);
	hl_free(p);
	return v;
}

static void test_generator_cpp(void)
{
	static const struct { const char *cpp; int64_t want; } cases[] = {
		{ "(int) 2.9", 2 }, { "(int) -2.9", -2 }, { "int(7.99)", 7 }, { "uint8_t(300)", 44 },
		{ "(uint8_t) 300", 44 }, { "floor((116 - 3) / 1) + 1", 114 }, { "(int) (float) pow(2.0f, 8)", 256 },
		{ "(bool) 5", 1 }, { "int(1.5f * 3)", 4 }, { "(int16_t) 40000", 40000 - 65536 }, { "2.5", 2 },
		/* C++ integer types, auto, ?:, std::min, arrays of arrays, shadowing */
		{ "uint8_t k = 300;", 44 }, { "bool b = 5; int k = b;", 1 }, { "int16_t k = 40000;", 40000 - 65536 },
		{ "const int8_t k = 200;", -56 }, { "auto k = 7 / 2;", 3 }, { "bool b = true; int k = b ? 4 : 5;", 4 },
		{ "int a[2] = {1, 2}; int k = 0 ? a[5] : a[1];", 2 }, { "int k = std::min(3, 2.5);", 2 },
		{ "int m[2][3] = {{1, 2, 3}, {4, 5, 6}}; int k = m[1][2];", 6 },
		{ "int m[2][2] = {{1}}; int k = m[1][1] + m[0][0];", 1 },
		{ "int k = 1; { int k = 2; k++; } k += 10;", 11 }, { "unsigned int k = 5;", 5 },
		/* C++ functions: recursion, arrays passed as C++ passes them, strings */
		{ "int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\nint k = fact(6);", 720 },
		{ "void inc(int a[2]) { a[1] += 5; }\nint a[2] = {1, 2}; inc(a); int k = a[1];", 7 },
		{ "int first(int n) { for (int i = 0; i < 10; i++) if (i * i >= n) return i; return -1; }\n"
		  "int k = first(50);", 8 },
		{ "std::string s = \"ab\"; int len(std::string t) { return 2; }\nint k = len(s + \"c\");", 2 },
		/* a function sees the names of its definition, not its caller's; references; scopes */
		{ "int g = 1; int getg() { return g; }\nint k = 0; { int g = 2; k = getg(); }", 1 },
		{ "int s = 3; int scaled(int a) { return a * s; }\nint apply(int s) { return scaled(s); }\nint k = apply(5);", 15 },
		{ "void inc(int &n) { n += 1; }\nint k = 1; inc(k); inc(k);", 3 },
		{ "void set(int &n) { n = 7; }\nint k; set(k);", 7 },
		{ "int a = 1; int k = 0; { int a = 2; { int b = 3; } k = a; }", 2 },
		{ "int a = 1; int k = 0; { int a = 2; { int a = 3; k = a; } }", 3 },
		{ "int q = 100; int fq(int q) { if (q > 0) { } return q; }\nint k = fq(3);", 3 },
		{ "int k = true ? 3 : 2;", 3 },
		/* C's math functions of C++ numbers return double; std:: (or using namespace std) float */
		{ "int k = sqrt(2.0f) * 1000000000 > 1414213562;", 1 },
		{ "int k = std::sqrt(2.0f) * 1000000000 > 1414213562;", 0 },
		{ "using namespace std;\nint k = sqrt(2.0f) * 1000000000 > 1414213562;", 0 },
		{ "const int k = (int) std::sqrt(1600.0f);", 40 },
		/* a C++ bool (or an int constant's low bit, as Halide folds it) as a select condition */
		{ "bool b = 3 > 2; Expr e = select(b, 5, 6); int k = 0;", 0 },
		{ "int j = 0; int k = 7; { const int j = 2; k = j + 1; }", 3 },
		/* C++'s integer types: literals typed by value and suffix, the usual arithmetic
		 * conversions (unsigned wraps, a long holds 64 bits), shifts of the left type */
		{ "unsigned u = 3; int k = (u - 4) / 1000000;", 4294 }, { "unsigned u = 5; int k = -u / 1000000;", 4294 },
		{ "int k = -1 < 0u;", 0 }, { "int k = ~0u / 1000000;", 4294 }, { "int k = (0xFFFFFFFF + 1) / 65536;", 0 },
		{ "size_t n = 0; n--; int k = n > 0;", 1 }, { "size_t n = 0; n--; int k = n / 10000000000000000;", 1844 },
		{ "long b = 3000000000; int k = b / 1000000;", 3000 }, { "int k = 10000000000 / 10000000;", 1000 },
		{ "int k = 1u << 31 >> 30;", 2 }, { "int8_t c = 127; c++; int k = c;", -128 },
		{ "unsigned u = 4294967295; int k = u % 1000;", 295 }, { "int k = 5LL + 2UL + 3lu;", 10 },
		{ "uint64_t v = 1; v = v << 63; int k = v / 1000000000000000000;", 9 },
		{ "unsigned u = 7; int k = u - 8 > 0;", 1 }, { "long a = -5; unsigned b = 3; int k = a < b;", 1 },
		{ "int k = 2147483647 + 1;", INT64_MIN }, { "long L = 9223372036854775807; L += 1; int k = 0;", INT64_MIN },
		{ "int k = 1 << 31;", INT64_MIN }, { "int k = 1u << 32;", INT64_MIN }, { "int k = 5lL;", INT64_MIN },
	};
	for (size_t i = 0; i < COUNT(cases); i++) {
		int64_t got = cpp_int(cases[i].cpp);
		CHECK(got == cases[i].want, "k of %s: %lld, expected %lld", cases[i].cpp, (long long)got,
		      (long long)cases[i].want);
	}
	/* arrays of Funcs named in a loop, a Func declared then assigned */
	HProgram *p = parse("ImageParam in(UInt(8), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc b[2];\nFunc q;\n"
			    "for (int i = 0; i < 2; i++) b[i] = Func(\"blur\" + std::to_string(i));\n"
			    "b[0](x, y) = u16(in(x, y));\nb[1](x, y) = b[0](x, y) + 1;\nq = b[1];\n"
			    "q.bound(x, 0, 4).bound(y, 0, 4);\nhw_accelerate(q);\n");
	if (CHECK(p != NULL, "a Func array parses")) {
		CHECK(!strcmp(p->funcs.data[p->output].name, "blur1"), "the output is blur1, not %s",
		      p->funcs.data[p->output].name);
		hl_free(p);
	}
	/* a schedule of a Func never defined: a warning, not an error */
	Diags *d = diags_new(NULL);
	p = hl_parse("t.hl", "ImageParam in(UInt(8), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc g, f(\"f\");\n"
		     "g.compute_root().linebuffer();\nf(x, y) = in(x, y);\nf.bound(x, 0, 4).bound(y, 0, 4);\n"
		     "hw_accelerate(f);\n", d);
	CHECK(p && diags_errors(d) == 0 && diags_count(d) == 1 && diags_get(d, 0)->line == 4,
	      "one warning at line 4 (%d diagnostics)", diags_count(d));
	hl_free(p);
	diags_free(d);
	/* sum(r, e, f): f is defined by it, and scheduled */
	p = parse("ImageParam in(UInt(8), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nRDom r(0, 3);\nFunc s(\"s\"), f(\"f\");\n"
		  "f(x, y) = sum(r, u16(in(x + r, y)), s);\ns.compute_root().update().unroll(r);\n"
		  "f.bound(x, 0, 4).bound(y, 0, 4);\nhw_accelerate(f);\n");
	if (CHECK(p != NULL, "sum(r, e, f) parses")) {
		const HFunc *s = &p->funcs.data[0];
		CHECK(s->defined && s->defs.len == 2 && s->dims == 2 && s->compute.kind == LEVEL_ROOT,
		      "s(x, y) = 0; s(x, y) += ...: %d definitions over %d variables", s->defs.len, s->dims);
		hl_free(p);
	}
	CHECK(strstr(first_error("RVar a;\nVar x(\"x\");\nFunc f(\"f\");\nf(x) = x + a;\n"), "belongs to no RDom") != NULL,
	      "an RVar of no RDom in a definition: %s", msg);
	/* compute_at(f, Var::outermost()): f's outermost loop */
	p = parse("ImageParam in(UInt(8), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc g(\"g\"), f(\"f\");\n"
		  "g(x, y) = in(x, y);\nf(x, y) = g(x, y);\ng.compute_at(f, Var::outermost());\n"
		  "f.bound(x, 0, 4).bound(y, 0, 4);\nhw_accelerate(f);\n");
	if (CHECK(p != NULL, "Var::outermost() parses")) {
		const HFunc *g = &p->funcs.data[0], *f = &p->funcs.data[1];
		CHECK(g->compute.kind == LEVEL_AT && g->compute.var == f->vars[1], "g is computed at f's y loop");
		hl_free(p);
	}
	/* select(C++ int, ...): Halide casts a constant condition to Bool by its lowest bit */
	int64_t sel[3] = { 0 };
	for (int i = 0; i < 3; i++) {
		char text[256];
		snprintf(text, sizeof text, "int c = %d; int k; k = 0; Expr e = select(c, 1, 2);", i + 1);
		sel[i] = cpp_int(text);
	}
	CHECK(sel[0] == 0 && sel[1] == 0 && sel[2] == 0, "select of an int condition compiles (%lld %lld %lld)",
	      (long long)sel[0], (long long)sel[1], (long long)sel[2]);
	p = parse("Var x(\"x\");\nFunc f(\"f\");\nint c = 2;\nf(x) = u16(select(c, x, 7) + select(c + 1, x, 7));\n"
		  "f.bound(x, 0, 4);\nhw_accelerate(f);\n");
	if (CHECK(p != NULL, "select on int conditions parses")) {
		Image out;
		Diags *dd = diags_new(NULL);
		if (CHECK(hli_run(p, NULL, &out, dd), "select on int conditions runs")) {
			CHECK(out.px[3] == 7 + 3, "select(2, x, 7) + select(3, x, 7) at 3 is 10, got %d", out.px[3]);
			image_free(&out);
		}
		diags_free(dd);
		hl_free(p);
	}
	/* statements nest at most HL_MAX_STATEMENT_NESTING deep, however deep the file goes */
	static const char *const openers[] = { "{", "if (1) ", "if (0) ", "if (1) {" };
	for (size_t i = 0; i < COUNT(openers); i++) {
		size_t n = 100000, len = strlen(openers[i]);
		char *text = malloc(n * len + 64);
		strcpy(text, "int k = 0;\n");
		for (size_t j = 0; j < n; j++)
			memcpy(text + 11 + j * len, openers[i], len);
		text[11 + n * len] = 0;
		CHECK(strstr(first_error(text), "statements nested deeper than 200 levels") != NULL,
		      "100000 times '%s': %s", openers[i], msg);
		free(text);
	}
	/* a Func the caller declares, defined by a function through a reference */
	p = parse("Var x(\"x\");\nvoid define(Func &f, int k) { f(x) = x * k; }\nFunc g(\"g\");\ndefine(g, 3);\n"
		  "g.bound(x, 0, 4);\nhw_accelerate(g);\n");
	if (CHECK(p != NULL, "a Func defined through a reference parameter")) {
		CHECK(p->funcs.data[p->output].defined, "g is defined by the call");
		hl_free(p);
	}
}

/* ---- interpreter ---- */

static void test_interpreter_updates(void)
{
	/* a scan: every update point reads the point before it, in RDom order */
	HProgram *p = parse("ImageParam in(UInt(16), 1, \"in\");\nVar x(\"x\");\nFunc f(\"f\"), g(\"g\");\n"
			    "RDom r(1, 7);\nf(x) = in(x);\nf(r) = f(r - 1) + f(r);\n"
			    "g(x) = f(x);\ng(2) = cast<uint16_t>(100);\ng.bound(x, 0, 8);\nf.compute_root();\n"
			    "hw_accelerate(g);\nstream_to_accelerator(in);\n");
	if (!CHECK(p != NULL, "parses"))
		return;
	Image in = { 1, { 8 }, NULL, 16 };
	image_alloc(&in);
	for (int i = 0; i < 8; i++)
		in.px[i] = (uint16_t)(i + 1);
	Image out;
	Diags *d = diags_new(NULL);
	int ok = hli_run(p, &in, &out, d);
	CHECK(ok, "runs");
	int want[8] = { 1, 3, 100, 10, 15, 21, 28, 36 };
	for (int i = 0; ok && i < 8; i++)
		CHECK(out.px[i] == want[i], "g(%d) = %d, expected %d", i, out.px[i], want[i]);
	image_free(&in);
	image_free(&out);
	diags_free(d);
	hl_free(p);
}

int main(void)
{
	static const TestCase tests[] = {
		{ "eval", test_eval },
		{ "types", test_types },
		{ "type errors", test_type_errors },
		{ "lexer", test_lexer },
		{ "ranges", test_ranges },
		{ "interpreter updates", test_interpreter_updates },
		{ "generator C++", test_generator_cpp },
	};
	return check_run("front", tests, COUNT(tests));
}
