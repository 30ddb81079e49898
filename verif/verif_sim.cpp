// verif_sim.cpp - the Verilator harness of a whole array: drives the model
// of a design (its top module, verilated with the class name Vverif_top) from
// a command file and compares its outputs and probed nodes with expectations,
// reporting each mismatch with the command's line (the format is in
// verif/README.md).
//
// Built per design by verif/build.sh, which compiles this file with the
// design's port table verif_ports.h (bin/verif harness). The harness knows no
// design: ports and probes are found by name in that table, probes in the
// model's scope table.
//
//   usage: vsim COMMANDS [--max-report N] [-q]
//   exit status: 0 no mismatch, 1 mismatches, 2 error in the command file
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vverif_top.h"
#include "verilated.h"
#include "verilated_syms.h"

namespace {

// The probed nodes (as data: a design has thousands) and VERIF_DESIGN, the
// name of the design's top module.
struct ProbeDef {
	const char *node, *tile, *name;
	int width;
};

const ProbeDef probe_defs[] = {
#define VERIF_INPUT(n, w)
#define VERIF_OUTPUT(n, w)
#define VERIF_PROBE(node, tile, name, w) {node, tile, name, w},
#include "verif_ports.h"
#undef VERIF_INPUT
#undef VERIF_OUTPUT
#undef VERIF_PROBE
	{nullptr, nullptr, nullptr, 0}};

enum PortKind { PORT_INPUT, PORT_OUTPUT, PORT_PROBE };

struct Port {
	const char *name;
	int width;
	PortKind kind;
	void *data;             // the model's CData / SData / IData / QData
};

struct Expectation {
	bool care = false;
	uint64_t value = 0;
};

uint64_t mask(int w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

uint64_t get(const Port &p)
{
	if (p.width <= 8)
		return *static_cast<const CData *>(p.data);
	if (p.width <= 16)
		return *static_cast<const SData *>(p.data);
	if (p.width <= 32)
		return *static_cast<const IData *>(p.data);
	return *static_cast<const QData *>(p.data);
}

void put(const Port &p, uint64_t v)
{
	if (p.width <= 8)
		*static_cast<CData *>(p.data) = static_cast<CData>(v);
	else if (p.width <= 16)
		*static_cast<SData *>(p.data) = static_cast<SData>(v);
	else if (p.width <= 32)
		*static_cast<IData *>(p.data) = static_cast<IData>(v);
	else
		*static_cast<QData *>(p.data) = v;
}

struct Location {
	std::string file;
	int line = 0;
};

// A word of a command line and its column.
struct Token {
	std::string s;
	int col;
};

std::vector<Token> tokenize(const std::string &line)
{
	std::vector<Token> t;
	size_t i = 0;
	while (i < line.size()) {
		while (i < line.size() && isspace(static_cast<unsigned char>(line[i])))
			i++;
		size_t start = i;
		while (i < line.size() && !isspace(static_cast<unsigned char>(line[i])))
			i++;
		if (i > start)
			t.push_back(Token{line.substr(start, i - start), static_cast<int>(start) + 1});
	}
	return t;
}

class Harness {
public:
	Harness(int max_report, bool quiet) : max_report_(max_report), quiet_(quiet)
	{
		ctx_ = std::make_unique<VerilatedContext>();
		top_ = std::make_unique<Vverif_top>(ctx_.get());
		bind();
		top_->clk = 0;
		top_->rst = 0;
		top_->flush = 0;
		top_->config_wr = 0;
		top_->eval();
	}

	~Harness() { top_->final(); }

	int run(const std::string &path);
	void summary(double seconds) const;
	long mismatches() const { return mismatches_; }

private:
	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<Vverif_top> top_;
	std::vector<Port> ports_;
	std::vector<Expectation> expect_;
	std::unordered_map<std::string, size_t> index_;
	int max_report_;
	bool quiet_;
	long cycles_ = 0, checks_ = 0, compared_ = 0, mismatches_ = 0, writes_ = 0, reads_ = 0;
	Location at_;
	std::string label_;

	void bind();
	void *signal(const char *tile, const char *name, int width) const;
	void edge();
	void step(long n);
	void write(uint32_t addr, uint32_t data);
	void read(uint32_t addr, uint32_t data);
	void check();
	void mismatch(const std::string &what, uint64_t got, uint64_t want, int width);
	bool bitstream(const std::string &file);
	void command(const std::vector<Token> &t, const std::string &dir);
	void operands(const std::vector<Token> &t, size_t n) const;
	[[noreturn]] void error(int col, const std::string &msg) const;
	const Port &port(const std::string &name, int col) const;
	uint64_t number(const std::string &s, int col, int width) const;
	uint64_t hex(const Token &t) const;
};

// The storage of signal `name` of tile instance `tile`, found in Verilator's
// scope table (the tile modules' signals are public, hier.vlt).
void *Harness::signal(const char *tile, const char *name, int width) const
{
	std::string scope = std::string("TOP." VERIF_DESIGN ".") + tile;
	const VerilatedScope *s = ctx_->scopeFind(scope.c_str());
	VerilatedVar *v = s ? s->varFind(name) : nullptr;
	int bytes = width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
	if (!v || v->entSize() != static_cast<uint32_t>(bytes)) {
		fprintf(stderr, "vsim: the model has no %d-bit signal %s.%s (built without probes?)\n", width,
			scope.c_str(), name);
		exit(2);
	}
	return v->datap();
}

void Harness::bind()
{
	Vverif_top *top = top_.get();
#define VERIF_INPUT(n, w) ports_.push_back(Port{#n, w, PORT_INPUT, &top->n});
#define VERIF_OUTPUT(n, w) ports_.push_back(Port{#n, w, PORT_OUTPUT, &top->n});
#define VERIF_PROBE(node, tile, name, w)
#include "verif_ports.h"
#undef VERIF_INPUT
#undef VERIF_OUTPUT
#undef VERIF_PROBE
	(void)top;
	for (const ProbeDef *p = probe_defs; p->node; p++)
		ports_.push_back(Port{p->node, p->width, PORT_PROBE, signal(p->tile, p->name, p->width)});
	expect_.resize(ports_.size());
	for (size_t i = 0; i < ports_.size(); i++)
		index_[ports_[i].name] = i;
}

void Harness::edge()
{
	top_->clk = 1;
	ctx_->timeInc(1);
	top_->eval();
	top_->clk = 0;
	ctx_->timeInc(1);
	top_->eval();
	cycles_++;
}

void Harness::step(long n)
{
	for (long i = 0; i < n; i++)
		edge();
}

void Harness::write(uint32_t addr, uint32_t data)
{
	top_->config_addr = addr;
	top_->config_data = data;
	top_->config_wr = 1;
	top_->eval();
	edge();
	top_->config_wr = 0;
	top_->eval();
	writes_++;
}

void Harness::read(uint32_t addr, uint32_t data)
{
	top_->config_addr = addr;
	top_->eval();
	reads_++;
	compared_++;
	if (top_->config_rdata != data) {
		char what[64];
		snprintf(what, sizeof what, "config_rdata at %08" PRIx32, addr);
		mismatch(what, top_->config_rdata, data, 32);
	}
}

void Harness::mismatch(const std::string &what, uint64_t got, uint64_t want, int width)
{
	if (++mismatches_ <= max_report_ || max_report_ < 0) {
		int digits = (width + 3) / 4;
		printf("%s:%d: mismatch: %s is %0*" PRIx64 ", expected %0*" PRIx64 " (cycle %ld%s%s)\n", at_.file.c_str(),
		       at_.line, what.c_str(), digits, got, digits, want, cycles_, label_.empty() ? "" : ", ",
		       label_.c_str());
	}
}

void Harness::check()
{
	checks_++;
	for (size_t i = 0; i < ports_.size(); i++) {
		if (!expect_[i].care)
			continue;
		compared_++;
		uint64_t v = get(ports_[i]);
		if (v != expect_[i].value)
			mismatch(ports_[i].name, v, expect_[i].value, ports_[i].width);
	}
}

void Harness::error(int col, const std::string &msg) const
{
	fprintf(stderr, "%s:%d:%d: error: %s\n", at_.file.c_str(), at_.line, col, msg.c_str());
	exit(2);
}

const Port &Harness::port(const std::string &name, int col) const
{
	auto it = index_.find(name);
	if (it == index_.end())
		error(col, "no port or probe named '" + name + "' (build with probes to see nodes)");
	return ports_[it->second];
}

uint64_t Harness::number(const std::string &s, int col, int width) const
{
	char *end = nullptr;
	errno = 0;
	bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	uint64_t v = strtoull(hex ? s.c_str() + 2 : s.c_str(), &end, hex ? 16 : 10);
	if (s.empty() || *end || errno || s[0] == '-' || (v & ~mask(width)))
		error(col, "'" + s + "' is not a number of " + std::to_string(width) + " bits");
	return v;
}

// A 32-bit word in hex, with or without 0x (addresses and data of the bus).
uint64_t Harness::hex(const Token &t) const
{
	bool prefixed = t.s.size() > 2 && t.s[0] == '0' && (t.s[1] == 'x' || t.s[1] == 'X');
	if (t.s.empty() || t.s.size() > (prefixed ? 10u : 8u) ||
	    t.s.find_first_not_of("0123456789abcdefABCDEF", prefixed ? 2 : 0) != std::string::npos)
		error(t.col, "'" + t.s + "' is not a 32-bit word in hex");
	return strtoull(t.s.c_str(), nullptr, 16);
}

// A file of "AAAAAAAA DDDDDDDD" lines, written in order.
bool Harness::bitstream(const std::string &file)
{
	std::ifstream in(file);
	if (!in)
		return false;
	std::string line;
	Location outer = at_;
	at_ = Location{file, 0};
	while (std::getline(in, line)) {
		at_.line++;
		std::vector<Token> t = tokenize(line);
		if (t.empty())
			continue;
		if (t.size() != 2 || t[0].s.size() != 8 || t[1].s.size() != 8)
			error(1, "expected 'AAAAAAAA DDDDDDDD'");
		write(static_cast<uint32_t>(hex(t[0])), static_cast<uint32_t>(hex(t[1])));
	}
	at_ = outer;
	return true;
}

// Exactly n operands after the command word.
void Harness::operands(const std::vector<Token> &t, size_t n) const
{
	if (t.size() < n + 1)
		error(t.back().col + static_cast<int>(t.back().s.size()),
		      "'" + t[0].s + "' needs " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") + " (verif/README.md)");
	if (t.size() > n + 1)
		error(t[n + 1].col, "unexpected '" + t[n + 1].s + "'");
}

void Harness::command(const std::vector<Token> &t, const std::string &dir)
{
	const std::string &cmd = t[0].s;
	if (cmd == "reset") {
		operands(t, t.size() > 1 ? 1 : 0);
		top_->rst = 1;
		step(t.size() > 1 ? static_cast<long>(number(t[1].s, t[1].col, 16)) : 2);
		top_->rst = 0;
		top_->eval();
	} else if (cmd == "write" || cmd == "read") {
		operands(t, 2);
		uint32_t addr = static_cast<uint32_t>(hex(t[1]));
		uint32_t data = static_cast<uint32_t>(hex(t[2]));
		cmd == "write" ? write(addr, data) : read(addr, data);
	} else if (cmd == "bitstream") {
		operands(t, 1);
		std::string file = t[1].s[0] == '/' ? t[1].s : dir + t[1].s;
		if (!bitstream(file))
			error(t[1].col, "cannot read bitstream '" + file + "'");
	} else if (cmd == "set") {
		operands(t, 2);
		const Port &p = port(t[1].s, t[1].col);
		if (p.kind != PORT_INPUT)
			error(t[1].col, "'" + t[1].s + "' is not an input of the array");
		put(p, number(t[2].s, t[2].col, p.width));
		top_->eval();
	} else if (cmd == "step") {
		operands(t, t.size() > 1 ? 1 : 0);
		step(t.size() > 1 ? static_cast<long>(number(t[1].s, t[1].col, 32)) : 1);
	} else if (cmd == "expect") {
		operands(t, 2);
		const Port &p = port(t[1].s, t[1].col);
		if (p.kind == PORT_INPUT)
			error(t[1].col, "'" + t[1].s + "' is an input");
		Expectation &e = expect_[&p - &ports_[0]];
		e.care = t[2].s != "x";
		e.value = e.care ? number(t[2].s, t[2].col, p.width) : 0;
	} else if (cmd == "expect-all") {
		operands(t, 1);
		if (t[1].s != "0" && t[1].s != "x")
			error(t[1].col, "expect-all takes 0 or x");
		for (size_t i = 0; i < ports_.size(); i++)
			if (ports_[i].kind != PORT_INPUT)
				expect_[i] = Expectation{t[1].s == "0", 0};
	} else if (cmd == "check") {
		label_.clear();
		for (size_t i = 1; i < t.size(); i++)
			label_ += (i > 1 ? " " : "") + t[i].s;
		check();
	} else if (cmd == "print") {
		operands(t, 1);
		const Port &p = port(t[1].s, t[1].col);
		printf("%s:%d: %s = %" PRIx64 " (cycle %ld)\n", at_.file.c_str(), at_.line, p.name, get(p), cycles_);
	} else {
		error(t[0].col, "unknown command '" + cmd + "' (reset, write, bitstream, read, set, step, expect, "
				 "expect-all, check, print)");
	}
}

int Harness::run(const std::string &path)
{
	std::ifstream in(path);
	if (!in) {
		fprintf(stderr, "vsim: cannot read '%s'\n", path.c_str());
		return 2;
	}
	size_t slash = path.rfind('/');
	std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1), line;
	at_ = Location{path, 0};
	while (std::getline(in, line)) {
		at_.line++;
		size_t hash = line.find('#');
		if (hash != std::string::npos)
			line.erase(hash);
		std::vector<Token> t = tokenize(line);
		if (!t.empty())
			command(t, dir);
	}
	return 0;
}

void Harness::summary(double seconds) const
{
	if (quiet_)
		return;
	printf("vsim: %ld checks, %ld values compared, %ld mismatch%s; %ld configuration writes, %ld reads; "
	       "%ld cycles in %.2f s (%.0f cycles/s)\n",
	       checks_, compared_, mismatches_, mismatches_ == 1 ? "" : "es", writes_, reads_, cycles_, seconds,
	       seconds > 0 ? cycles_ / seconds : 0.0);
}

} // namespace

int main(int argc, char **argv)
{
	const char *file = nullptr;
	int max_report = 20;
	bool quiet = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: vsim COMMANDS [--max-report N] [-q]\n"
			       "Runs the command file COMMANDS (verif/README.md) on the Verilator model of a design\n"
			       "and reports every mismatch (the first N in full, 20 by default, -1 for all);\n"
			       "exit status 0 without mismatch, 1 with, 2 on an error in the commands.\n");
			return 0;
		} else if (!strcmp(argv[i], "--max-report") && i + 1 < argc) {
			max_report = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-q")) {
			quiet = true;
		} else if (!file && argv[i][0] != '-') {
			file = argv[i];
		} else {
			fprintf(stderr, "vsim: unknown argument '%s' (vsim --help)\n", argv[i]);
			return 2;
		}
	}
	if (!file) {
		fprintf(stderr, "usage: vsim COMMANDS [--max-report N] [-q]\n");
		return 2;
	}
	Harness h(max_report, quiet);
	auto t0 = std::chrono::steady_clock::now();
	int status = h.run(file);
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	if (status)
		return status;
	h.summary(s);
	return h.mismatches() ? 1 : 0;
}
