/* test_lower.c - unit tests of lowering with schedules the applications do
 * not use (split, unroll with a factor, compute_at an inner loop, in(),
 * wide intermediates narrowed, an update stage kept), each checked by
 * running the lowered kernels on hardware words against the interpreter. */
#include <stdlib.h>
#include <string.h>

#include "../../../collateral/coll.h"
#include "../../../common/rng.h"
#include "../../../common/tests/check.h"
#include "../../front/front.h"
#include "../lower.h"

/* ---- lowering, checked by running it ---- */

/* The memory tile the kernels are lowered for: none, or (test_split_tables)
 * one whose look-up port holds a few words. */
static MemInfo *test_mem;

static Collateral all_ops(void)
{
	static const char *const ops[] = {
		"add", "sub", "mul", "mulmid", "smulmid", "umulhi", "smulhi", "and", "or", "xor", "not", "shl",
		"lshr", "ashr", "eq", "neq", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge", "umin", "umax",
		"smin", "smax", "abs", "absd", "mux", "const", "and1", "or1", "xor1", "not1", "mux1", "const1",
	};
	Collateral c;
	memset(&c, 0, sizeof c);
	c.pe = xstrdup("test_pe");
	c.rules_file = xstrdup("test_pe.rules.yaml");
	c.word = 16;
	strmap_init(&c.ops);
	for (int i = 0; i < COUNT(ops); i++)
		strmap_put(&c.ops, ops[i], 1);
	return c;
}

/* Lowers src, runs its kernels and the interpreter on a random input, and
 * compares; 1 if they agree. */
static int lower_and_compare(const char *what, const char *src, const char *must_print)
{
	int same = 0;
	Diags *d = diags_new(stdout);
	HProgram *p = hl_parse(what, src, d), *q = hl_parse(what, src, d);
	if (!CHECK(p && q, "%s: parses", what)) {
		hl_free(p);
		hl_free(q);
		diags_free(d);
		return 0;
	}
	HRegions r;
	hl_bounds(p, &r, d);
	Image in = { p->images.data[0].dims, { 0 }, NULL, 16 };
	for (int i = 0; i < in.dims; i++)
		in.extent[i] = (int)r.image[0][i].hi + 1;
	hl_bounds_free(&r);
	image_alloc(&in);
	Rng g;
	rng_seed(&g, 9);
	for (long i = 0; i < image_size(&in); i++)
		in.px[i] = (uint16_t)rng_bits(&g, 16);
	Image gold, hw = { 0 };
	Collateral c = all_ops();
	c.mem = test_mem;
	LProgram L;
	DGraph dg = { 0 };
	int ok = hli_run(p, &in, &gold, d);
	int low = ok && hl_lower(&L, q, d) && dfg_build(&dg, &L, &c, d);
	if (low)
		hx_run(&L, &dg, &in, &hw);
	CHECK(low, "%s: lowers and runs", what);
	if (low) {
		same = CHECK(image_size(&gold) == image_size(&hw) &&
				     !memcmp(gold.px, hw.px, sizeof *gold.px * (size_t)image_size(&gold)),
			     "%s: the lowered kernels compute the interpreter's output", what);
		FILE *f = tmpfile();
		hl_lower_print(&L, f);
		long len = ftell(f);
		char *buf = xcalloc((size_t)len + 1, 1);
		rewind(f);
		if (fread(buf, 1, (size_t)len, f) != (size_t)len)
			buf[0] = 0;
		fclose(f);
		CHECK(strstr(buf, must_print) != NULL, "%s: the loop nest shows '%s'", what, must_print);
		free(buf);
	}
	if (ok)
		image_free(&gold);
	image_free(&hw);
	image_free(&in);
	dfg_free(&dg);
	if (low || L.p)
		hl_lower_free(&L);
	c.mem = NULL;
	coll_free(&c);
	hl_free(p);
	hl_free(q);
	diags_free(d);
	return same;
}

static void test_lowering(void)
{
	lower_and_compare("split+unroll",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\"), xo(\"xo\"), xi(\"xi\");\n"
			  "Func g(\"g\"), f(\"f\");\ng(x, y) = in(x, y) + in(x, y + 1);\n"
			  "f(x, y) = g(x, y) - g(x + 2, y);\nf.bound(x, 0, 12).bound(y, 0, 5);\n"
			  "f.split(x, xo, xi, 4).unroll(xi, 2);\ng.compute_at(f, y);\nhw_accelerate(f);\n"
			  "stream_to_accelerator(in);\n",
			  "for f.s0.x.xi in [0, 2):");
	lower_and_compare("compute_at inner tile loop",
			  "ImageParam in(UInt(16), 2, \"in\");\n"
			  "Var x(\"x\"), y(\"y\"), xo(\"xo\"), yo(\"yo\"), xi(\"xi\"), yi(\"yi\");\n"
			  "Func g(\"g\"), f(\"f\");\ng(x, y) = in(x, y) * 3;\n"
			  "f(x, y) = g(x, y) + g(x + 1, y + 1);\nf.bound(x, 0, 8).bound(y, 0, 8);\n"
			  "f.tile(x, y, xo, yo, xi, yi, 4, 4);\ng.compute_at(f, xo);\nhw_accelerate(f);\n"
			  "stream_to_accelerator(in);\n",
			  "for g.s0.x in [f.s0.x.xo * 4, +5):");
	lower_and_compare("in() and a signed pipeline",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc a(\"a\"), f(\"f\");\n"
			  "a(x, y) = cast<int16_t>(in(x, y)) - cast<int16_t>(in(x + 1, y));\n"
			  "f(x, y) = cast<uint16_t>(abs(a(x, y)) + absd(a(x, y), a(x, y + 1)) / 2);\n"
			  "f.bound(x, 0, 6).bound(y, 0, 6);\na.compute_root();\nin.in().compute_root();\n"
			  "hw_accelerate(f);\nstream_to_accelerator(in);\n",
			  "produce in_in:");
	lower_and_compare("wide intermediates narrowed",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc f(\"f\");\n"
			  "f(x, y) = cast<uint16_t>((i32(cast<int16_t>(in(x, y))) * i32(cast<int16_t>(in(x, y + 1)))) >> 16)"
			  " + cast<uint16_t>(max(u32(in(x, y) >> 8) * u32(in(x + 1, y) >> 8), 9) >> 4)"
			  " + cast<uint16_t>(u32(in(x, y)) * 5 + u32(in(x, y + 1)));\n"
			  "f.bound(x, 0, 5).bound(y, 0, 5);\nhw_accelerate(f);\nstream_to_accelerator(in);\n",
			  "produce f:");
	lower_and_compare("multiply-high by a constant",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc f(\"f\");\n"
			  "f(x, y) = cast<uint16_t>((u32(in(x, y)) * 43691) >> 16)"
			  " + cast<uint16_t>((i32(cast<int16_t>(in(x + 1, y))) * -1000) >> 16)"
			  " + cast<uint16_t>((u32(in(x, y + 1)) * 200) >> 8);\n"
			  "f.bound(x, 0, 5).bound(y, 0, 5);\nhw_accelerate(f);\nstream_to_accelerator(in);\n",
			  "produce f:");
	lower_and_compare("an int32 sum divided by 256 and cast to 8 bits: its low 16 bits are enough",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc f(\"f\");\n"
			  "f(x, y) = cast<uint8_t>((i32(in(x, y)) * 200 + i32(in(x + 1, y)) * 37 + i32(in(x, y + 1))) / 256)"
			  " + cast<uint8_t>((u32(in(x, y)) + u32(in(x + 1, y))) >> 3);\n"
			  "f.bound(x, 0, 5).bound(y, 0, 5);\nhw_accelerate(f);\nstream_to_accelerator(in);\n",
			  "produce f:");
	lower_and_compare("RoundUp: a split by 4 of a region of 13 computes 16 points",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\"), xo(\"xo\"), xi(\"xi\");\n"
			  "Func g(\"g\"), f(\"f\");\ng(x, y) = in(x, y) * 3 + in(x + 1, y);\n"
			  "f(x, y) = g(x, y) + g(x + 2, y);\nf.bound(x, 0, 11).bound(y, 0, 4);\n"
			  "g.compute_root().split(x, xo, xi, 4, TailStrategy::RoundUp);\nhw_accelerate(f);\n"
			  "stream_to_accelerator(in);\n",
			  "for g.s0.x.xo in [0, 4):");
	lower_and_compare("update stage kept, reduction over a row",
			  "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc s(\"s\"), f(\"f\");\n"
			  "RDom r(0, 4);\ns(x, y) = cast<uint16_t>(1);\ns(x, y) = s(x, y) * 3 + in(x + r, y);\n"
			  "f(x, y) = s(x, y);\nf.bound(x, 0, 5).bound(y, 0, 3);\ns.compute_root();\n"
			  "hw_accelerate(f);\nstream_to_accelerator(in);\n",
			  "for s.s1.r.x in [0, 4):");
}

/* ---- index streams: values of the loop variables ---- */

/* The index streams of src lowered: how many, and the first one's type,
 * dimensions and first values (into t, dims, v[0..3]); -1 if it does not
 * lower. */
static int index_streams(const char *src, HType *t, int *dims, int *v)
{
	Diags *d = diags_new(stdout);
	HProgram *p = hl_parse("index", src, d);
	LProgram L;
	int n = -1;
	if (p && hl_lower(&L, p, d)) {
		const HPrep *P = &L.prep;
		n = P->index.len;
		if (n) {
			const Image *im = &P->index.data[0].values;
			*t = p->images.data[P->index.data[0].image].type;
			*dims = im->dims;
			for (int i = 0; i < 4 && i < image_size(im); i++)
				v[i] = im->px[i];
		}
	}
	if (p && L.p)
		hl_lower_free(&L);
	hl_free(p);
	diags_free(d);
	return n;
}

static void test_index_streams(void)
{
	const char *head = "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\"), c(\"c\"), t(\"t\");\n"
			   "Func f(\"f\"), g(\"g\"), tab(\"tab\");\n";
	const char *tail = "f.bound(x, 0, 8).bound(y, 0, 6);\nhw_accelerate(f);\nstream_to_accelerator(in);\n";
	char src[1024];
	HType ty = { 0 };
	int dims = 0, v[4] = { 0 };
	snprintf(src, sizeof src, "%sf(x, y) = select(x %% 2 == 0, in(x, y), in(x, y) / 2) + "
		 "select(x %% 2 == 0, in(x, y + 1), u16(0));\n%s", head, tail);
	lower_and_compare("a parity, streamed", src, "stream f_index0 in:");
	CHECK(index_streams(src, &ty, &dims, v) == 1 && ty.bits == 8 && !ty.is_signed && dims == 1 && v[0] == 1 &&
		      v[1] == 0 && v[2] == 1,
	      "x %% 2 == 0 twice: one stream of x, uint8, 1 0 1 ...");
	snprintf(src, sizeof src, "%stab(t) = (t * 3) %% 4;\ng(x, y, c) = in(x, y) * u16(c + 1);\n"
		 "f(x, y) = g(x, y, tab(y)) + u16(x) * 3;\ng.compute_root();\n%s", head, tail);
	lower_and_compare("a table of a loop variable as an index, a loop variable as a value", src,
			  "select(int32(f_index");
	CHECK(index_streams(src, &ty, &dims, v) == 3, "the table's index, g's c and f's x: three streams");
	snprintf(src, sizeof src, "%sf(x, y) = in(x, y) * u16(y + 1);\nf.unroll(y);\n%s", head, tail);
	lower_and_compare("an unrolled loop variable is a constant", src, "produce f:");
	CHECK(index_streams(src, &ty, &dims, v) == 0, "an unrolled loop variable: no stream");
	snprintf(src, sizeof src, "%stab(t) = t - 3;\nf(x, y) = u16(i16(in(x, y)) * i16(tab(y)));\n%s", head, tail);
	lower_and_compare("a signed table of a loop variable as a value", src, "stream f_index0 in:");
	CHECK(index_streams(src, &ty, &dims, v) == 1 && ty.bits == 8 && ty.is_signed && (int16_t)v[0] == -3,
	      "tab(y) over [-3, 2]: int8, -3 first (%d bits, signed %d)", ty.bits, ty.is_signed);
}

/* ---- look-up tables larger than the look-up port ---- */

static void test_split_tables(void)
{
	MemInfo mi;
	memset(&mi, 0, sizeof mi);
	mi.word = 16;
	mi.lookup.port.unit = 0;
	mi.lookup.words = 16;
	test_mem = &mi;
	static const char *const sizes[] = { "16", "17", "32", "100", "256" };
	for (int k = 0; k < COUNT(sizes); k++) {
		char src[512], what[64];
		snprintf(src, sizeof src,
			 "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc lut(\"lut\"), f(\"f\");\n"
			 "lut(x) = cast<uint16_t>(x * 7 + 3);\nf(x, y) = lut(cast<int32_t>(in(x, y) %% %s));\n"
			 "f.bound(x, 0, 16).bound(y, 0, 8);\nlut.compute_root();\nhw_accelerate(f);\n"
			 "stream_to_accelerator(in);\n", sizes[k]);
		snprintf(what, sizeof what, "a %s-entry table on a 16-word look-up port", sizes[k]);
		lower_and_compare(what, src, "produce f:");
	}
	test_mem = NULL;
}

/* ---- 8-bit data on 16-bit words, checked on random expressions ---- */

static const char *const narrow_types[] = { "uint8_t", "int8_t", "uint16_t", "int16_t" };

/* A random expression of depth at most depth over in(x + k, y), in Halide's
 * syntax: every operator, cast and saturating cast on 8- and 16-bit types,
 * mixed as Halide's type rules allow. */
static void random_expr(Rng *g, StrBuf *b, int depth)
{
	static const char *const binops[] = { "+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%" };
	static const char *const fns[] = { "min", "max", "absd" };
	static const char *const sats[] = { "u8_sat", "i8_sat", "u16_sat", "i16_sat" };
	const char *t = narrow_types[rng_below(g, 4)];
	switch (depth <= 0 ? 0 : (int)rng_below(g, 9)) {
	case 0:
		sb_printf(b, "cast<%s>(in(x + %d, y))", t, (int)rng_below(g, 3));
		return;
	case 1: case 2: case 3: {
		/* both operands of one type (Halide refuses bitwise operations and shifts of mixed types) */
		int k = (int)rng_below(g, COUNT(binops));
		sb_printf(b, "(cast<%s>(", t);
		random_expr(g, b, depth - 1);
		static const int divisors[] = { 1, 2, 3, 5, 6, 7, 8, 9, 10, 12, 25, 100, 255, 1000, -1, -3, -7, -16, 0 };
		if (k >= 6 && k < 8 && rng_below(g, 3) == 0)   /* a shift by data, maybe negative */
			sb_printf(b, ") %s cast<%s>(cast<int16_t>(in(x + 1, y)) %% 13 - 4))", binops[k], t);
		else if (k >= 6)        /* shifts, division and modulo by constants */
			sb_printf(b, ") %s cast<%s>(%d))", binops[k], t, k < 8 ? (int)rng_below(g, 8) :
				  divisors[rng_below(g, COUNT(divisors))]);
		else {
			sb_printf(b, ") %s cast<%s>(", binops[k], t);
			random_expr(g, b, depth - 1);
			sb_printf(b, "))");
		}
		return;
	}
	case 4:
		sb_printf(b, "%s(", fns[rng_below(g, COUNT(fns))]);
		random_expr(g, b, depth - 1);
		sb_printf(b, ", ");
		random_expr(g, b, depth - 1);
		sb_printf(b, ")");
		return;
	case 5:
		sb_printf(b, "select(");
		random_expr(g, b, depth - 1);
		sb_printf(b, " < ");
		random_expr(g, b, depth - 1);
		sb_printf(b, ", cast<%s>(", t);
		random_expr(g, b, depth - 1);
		sb_printf(b, "), cast<%s>(", t);
		random_expr(g, b, depth - 1);
		sb_printf(b, "))");
		return;
	case 6:
		sb_printf(b, "%s(", rng_below(g, 2) ? "~" : "-");
		random_expr(g, b, depth - 1);
		sb_printf(b, ")");
		return;
	case 7:
		sb_printf(b, "%s(", sats[rng_below(g, COUNT(sats))]);
		random_expr(g, b, depth - 1);
		sb_printf(b, ")");
		return;
	default:
		sb_printf(b, "cast<%s>(", t);
		random_expr(g, b, depth - 1);
		sb_printf(b, ")");
		return;
	}
}

static void test_narrow_types(void)
{
	Rng g;
	rng_seed(&g, 2026);
	for (int k = 0; k < 600; k++) {
		StrBuf e = { 0 }, src = { 0 };
		random_expr(&g, &e, 1 + k % 4);
		const char *in_type = k % 3 == 0 ? "UInt(8)" : k % 3 == 1 ? "Int(8)" : "UInt(16)";
		const char *out_type = narrow_types[k % 4];
		sb_printf(&src, "ImageParam in(%s, 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc f(\"f\");\n"
			  "f(x, y) = cast<%s>(%s);\nf.bound(x, 0, 16).bound(y, 0, 4);\nhw_accelerate(f);\n"
			  "stream_to_accelerator(in);\n", in_type, out_type, e.s);
		char what[64];
		snprintf(what, sizeof what, "8-bit expression %d", k);
		if (!lower_and_compare(what, src.s, "produce f:"))
			printf("  the program:\n%s", src.s);
		free(e.s);
		free(src.s);
	}
}

int main(void)
{
	static const TestCase tests[] = {
		{ "lowering", test_lowering },
		{ "8-bit data", test_narrow_types },
		{ "index streams", test_index_streams },
		{ "tables split over tiles", test_split_tables },
	};
	return check_run("lower", tests, COUNT(tests));
}
