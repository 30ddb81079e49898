// halide_semantics.cpp - `halide_run semantics`: Halide's arithmetic rules that
// the C references (ref.h) and cgrac's interpreter rely on, each checked against
// the real library. A rule is an expression of typed operands with the type and
// value Halide must give; it is evaluated twice, once on operands loaded at run
// time (the code generator's arithmetic) and once on constants (the
// simplifier's constant folding). A refusal is an expression Halide must reject,
// with a piece of its message.
#include <cstdio>
#include <functional>
#include <string>

#include "halide_runner.h"

namespace {

using namespace Halide;

struct Operand {
	Type type;
	int64_t value;
};

typedef std::function<Expr(const std::vector<Expr> &)> Build;

struct Rule {
	const char *what;
	std::vector<Operand> ops;
	Build build;
	Type type;
	int64_t value;
};

struct Refusal {
	const char *what;
	std::vector<Operand> ops;
	Build build;
	const char *message;
};

Operand u8(int64_t v) { return { UInt(8), v }; }
Operand i8(int64_t v) { return { Int(8), v }; }
Operand u16(int64_t v) { return { UInt(16), v }; }
Operand i16(int64_t v) { return { Int(16), v }; }
Operand i32(int64_t v) { return { Int(32), v }; }

// The expression of a rule, over its operands a and b.
#define EXPR(...) \
	[](const std::vector<Expr> &o) -> Expr { \
		const Expr &a = o[0]; \
		const Expr &b = o.size() > 1 ? o[1] : o[0]; \
		(void)a, (void)b; \
		return __VA_ARGS__; \
	}

Expr sum_plus_0_to_3(const Expr &a)
{
	RDom r(0, 4);
	return sum(a + cast(a.type(), r));
}

const std::vector<Rule> &rules()
{
	static const std::vector<Rule> list = {
		{ "uint16 + wraps", { u16(65535), u16(1) }, EXPR(a + b), UInt(16), 0 },
		{ "uint16 - wraps", { u16(3), u16(5) }, EXPR(a - b), UInt(16), 65534 },
		{ "uint16 * wraps", { u16(40000), u16(40000) }, EXPR(a * b), UInt(16), 4096 },
		{ "uint16 negation wraps", { u16(40000) }, EXPR(-a), UInt(16), 25536 },
		{ "uint16 ~", { u16(40000) }, EXPR(~a), UInt(16), 25535 },
		{ "uint16 / 4 is >> 2", { u16(40003) }, EXPR(a / 4), UInt(16), 10000 },
		{ "uint16 / 3 rounds down", { u16(40000) }, EXPR(a / 3), UInt(16), 13333 },
		{ "uint16 << wraps", { u16(40000) }, EXPR(a << 5), UInt(16), 34816 },
		{ "uint16 / 0 is 0", { u16(5), u16(0) }, EXPR(a / b), UInt(16), 0 },
		{ "uint16 % 0 is 0", { u16(5), u16(0) }, EXPR(a % b), UInt(16), 0 },
		{ "int16 + wraps", { i16(30000), i16(10000) }, EXPR(a + b), Int(16), -25536 },
		{ "int16 - wraps", { i16(-30000), i16(10000) }, EXPR(a - b), Int(16), 25536 },
		{ "int16 * wraps", { i16(30000), i16(10000) }, EXPR(a * b), Int(16), -23808 },
		{ "int16 negation wraps", { i16(-32768) }, EXPR(-a), Int(16), -32768 },
		{ "a literal takes the int16 type: 2 * int16 wraps", { i16(30000) }, EXPR(2 * a),
		  Int(16), -5536 },
		{ "int16 >> is arithmetic", { i16(-7) }, EXPR(a >> 1), Int(16), -4 },
		{ "int16 -1 >> 6 is -1", { i16(-1) }, EXPR(a >> 6), Int(16), -1 },
		{ "int16 / 4 rounds down", { i16(-7) }, EXPR(a / 4), Int(16), -2 },
		{ "int16 % 4 is not negative", { i16(-7) }, EXPR(a % 4), Int(16), 1 },
		{ "int16 / a negative divisor is Euclidean (rounds up)", { i16(-7), i16(-2) },
		  EXPR(a / b), Int(16), 4 },
		{ "int16 % a negative divisor is not negative", { i16(-7), i16(-2) }, EXPR(a % b),
		  Int(16), 1 },
		{ "int16 / 0 is 0", { i16(-7), i16(0) }, EXPR(a / b), Int(16), 0 },
		{ "int16 >> a negative amount shifts left (and wraps)", { i16(30000), i16(-2) },
		  EXPR(a >> b), Int(16), -11072 },
		{ "int16 comparisons see the wrapped sum", { i16(30000), i16(10000) },
		  EXPR(select(a + b > a, 1, 0)), Int(32), 0 },
		{ "abs(int16) is uint16", { i16(-32768) }, EXPR(abs(a)), UInt(16), 32768 },
		{ "absd(int16, int16) is uint16", { i16(-32768), i16(30000) }, EXPR(absd(a, b)),
		  UInt(16), 62768 },
		{ "uint16 + int16 is int16", { u16(40000), i16(0) }, EXPR(a + b), Int(16), -25536 },
		{ "int8 + uint16 is int16", { i8(-3), u16(5) }, EXPR(a + b), Int(16), 2 },
		{ "uint8 + uint16 is uint16", { u8(200), u16(65500) }, EXPR(a + b), UInt(16), 164 },
		{ "uint16 + int32 is int32", { u16(65535), i32(1) }, EXPR(a + b), Int(32), 65536 },
		{ "cast<int16_t>(uint16) keeps the bits", { u16(40000) }, EXPR(cast<int16_t>(a)),
		  Int(16), -25536 },
		{ "cast<uint16_t>(int16) keeps the bits", { i16(-1) }, EXPR(cast<uint16_t>(a)),
		  UInt(16), 65535 },
		{ "cast<uint8_t>(uint16) truncates", { u16(40000) }, EXPR(cast<uint8_t>(a)), UInt(8),
		  64 },
		{ "cast<int32_t>(int16) sign-extends", { i16(-5) }, EXPR(cast<int32_t>(a)), Int(32),
		  -5 },
		{ "cast<uint32_t>(int16) sign-extends", { i16(-1) }, EXPR(cast<uint32_t>(a)),
		  UInt(32), 4294967295LL },
		{ "cast<uint32_t>(uint16) zero-extends", { u16(65535) }, EXPR(cast<uint32_t>(a)),
		  UInt(32), 65535 },
		{ "clamp(int16, -180, 180) is int16", { i16(30000) }, EXPR(clamp(a, -180, 180)),
		  Int(16), 180 },
		{ "max(uint16, 1) is uint16", { u16(0) }, EXPR(max(a, 1)), UInt(16), 1 },
		{ "select(c, uint16, -1) wraps the literal silently", { u16(0) },
		  EXPR(select(a > 5, a, -1)), UInt(16), 65535 },
		{ "sum() over an RDom of int16 is int16 and wraps", { i16(30000) },
		  EXPR(sum_plus_0_to_3(a)), Int(16), -11066 },
		{ "int32 / 2 rounds down", { i32(-7) }, EXPR(a / 2), Int(32), -4 },
		{ "a float literal makes a float", { u16(40000) }, EXPR(a * 2.0f), Float(32), 80000 },
	};
	return list;
}

const std::vector<Refusal> &refusals()
{
	static const std::vector<Refusal> list = {
		{ "uint16 + 70000 (the literal does not fit)", { u16(1) }, EXPR(a + 70000),
		  "Integer constant 70000 will be implicitly coerced to type uint16" },
		{ "min(uint16, -1)", { u16(1) }, EXPR(min(a, -1)),
		  "Integer constant -1 will be implicitly coerced to type uint16" },
		{ "int16 + 40000", { i16(1) }, EXPR(a + 40000),
		  "Integer constant 40000 will be implicitly coerced to type int16" },
		{ "clamp(uint16, -5, 300)", { u16(1) }, EXPR(clamp(a, -5, 300)),
		  "Type mismatch in call to clamp" },
		{ "select(c, uint16, int16)", { u16(1), i16(1) }, EXPR(select(a > 0, a, b)),
		  "do not have a matching type" },
		{ "uint16 & int16", { u16(1), i16(1) }, EXPR(a & b),
		  "must be both be signed or both be unsigned" },
		{ "uint16 >> 16 (a shift by the width)", { u16(1) }, EXPR(a >> 16),
		  "Signed integer overflow occurred during constant-folding" },
	};
	return list;
}

// The operands of a rule as run-time loads from data (from index first on) or
// as constants.
std::vector<Expr> operands(const std::vector<Operand> &ops, const Buffer<int64_t> &data,
			   int first, bool constant)
{
	std::vector<Expr> e;
	for (size_t i = 0; i < ops.size(); i++)
		e.push_back(constant ? Internal::make_const(ops[i].type, ops[i].value)
				     : cast(ops[i].type, data(Expr((int)(first + i)))));
	return e;
}

// Evaluates every rule in one pipeline; fills got and types.
void evaluate(bool constant, const Target &target, std::vector<int64_t> &got,
	      std::vector<Type> &types)
{
	const auto &list = rules();
	size_t n = 0;
	for (const Rule &r : list)
		n += r.ops.size();
	Buffer<int64_t> data((int)n);
	std::vector<Expr> values;
	int first = 0;
	for (const Rule &r : list) {
		for (size_t i = 0; i < r.ops.size(); i++)
			data(first + (int)i) = r.ops[i].value;
		Expr e = r.build(operands(r.ops, data, first, constant));
		types.push_back(e.type());
		values.push_back(cast<int64_t>(e));
		first += (int)r.ops.size();
	}
	Func f("semantics");
	f() = Tuple(values);
	Realization out = f.realize(std::vector<int>{}, target);
	for (size_t i = 0; i < list.size(); i++)
		got.push_back(Buffer<int64_t>(out[i])());
}

std::string describe(Type t, int64_t v)
{
	return "(" + type_to_c_type(t, false) + ")" + std::to_string(v);
}

int check_rules(const Target &target)
{
	std::vector<int64_t> run_value, const_value;
	std::vector<Type> run_type, const_type;
	evaluate(false, target, run_value, run_type);
	evaluate(true, target, const_value, const_type);
	int failed = 0;
	for (size_t i = 0; i < rules().size(); i++) {
		const Rule &r = rules()[i];
		bool ok = run_type[i] == r.type && const_type[i] == r.type &&
			  run_value[i] == r.value && const_value[i] == r.value;
		printf("%s semantics: %s: %s", ok ? "PASS" : "FAIL", r.what,
		       describe(r.type, r.value).c_str());
		if (!ok)
			printf(" expected; run time gives %s, constant folding %s",
			       describe(run_type[i], run_value[i]).c_str(),
			       describe(const_type[i], const_value[i]).c_str());
		printf("\n");
		failed += !ok;
	}
	return failed;
}

int check_refusals(const Target &target)
{
	int failed = 0;
	for (const Refusal &r : refusals()) {
		Buffer<int64_t> data((int)r.ops.size());
		for (size_t i = 0; i < r.ops.size(); i++)
			data((int)i) = r.ops[i].value;
		std::string message = "no error";
		try {
			Func f;
			f() = cast<int64_t>(r.build(operands(r.ops, data, 0, false)));
			f.realize(std::vector<int>{}, target);
		} catch (const Halide::Error &e) {
			message = e.what();
		}
		bool ok = message.find(r.message) != std::string::npos;
		printf("%s semantics: refused: %s", ok ? "PASS" : "FAIL", r.what);
		if (!ok)
			printf(": expected an error with \"%s\", got: %s", r.message, message.c_str());
		printf("\n");
		failed += !ok;
	}
	return failed;
}

} // namespace

int halide_semantics_check(const Target &target)
{
	int failed = check_rules(target) + check_refusals(target);
	int total = (int)(rules().size() + refusals().size());
	printf("semantics: %d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
