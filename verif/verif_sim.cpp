// verif_sim.cpp - the Verilator harness of a whole array: drives the model
// of a design (its top module, verilated with the class name Vverif_top) from
// a command file and compares its outputs and probed nodes with expectations,
// reporting each mismatch with the command's line (the format is in
// verif/README.md).
//
// Built per design by verif/build.sh, which compiles this file with the
// design's port table verif_ports.h (bin/verif harness). The harness knows no
// design: ports and probes are found by name in that table, probes in the
// model's scope table. Applications stream through it: `drive` and `record`
// bind ports to files of one value per cycle, `run` clocks the array with
// them (verif/README.md, "Applications").
//
//   usage: vsim COMMANDS [--max-report N] [-q] [--progress] [--trace FILE]
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
#ifdef VERIF_TRACE
#include "verilated_vcd_c.h"
#endif

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

// Thrown after an error in the command file has been reported: main removes
// what it had started to write and exits with status 2.
struct CommandError {};

// A port driven by `drive`: its values, one per cycle of the `run`s that
// follow, and the next one to take.
struct Drive {
	size_t port;
	std::vector<uint64_t> values;
	size_t next = 0;
};

// A signal sampled by `record` at the end of every cycle of the `run`s.
struct Record {
	size_t port;
	std::string file;
	std::vector<uint64_t> values;
};

double seconds_since(std::chrono::steady_clock::time_point t0)
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

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
	Harness(int max_report, bool quiet, bool progress, const std::string &trace)
		: max_report_(max_report), quiet_(quiet), progress_(progress), trace_file_(trace)
	{
		ctx_ = std::make_unique<VerilatedContext>();
		if (!trace_file_.empty())
			ctx_->traceEverOn(true);
		top_ = std::make_unique<Vverif_top>(ctx_.get());
		bind();
		top_->clk = 0;
		top_->rst = 0;
		top_->flush = 0;
		top_->config_wr = 0;
		top_->eval();
	}

	~Harness()
	{
		top_->final();
		abandon();
	}

	// 0, or 2 (message printed) if the waveform cannot be opened.
	int open_trace();
	int run(const std::string &path);
	// Writes the recorded files and closes the waveform; 0, or 2 (message
	// printed) if a file cannot be written.
	int finish();
	// Removes what finish would have written.
	void abandon();
	void summary(double seconds) const;
	long mismatches() const { return mismatches_; }

private:
	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<Vverif_top> top_;
	std::vector<Port> ports_;
	std::vector<Expectation> expect_;
	std::unordered_map<std::string, size_t> index_;
	std::vector<Drive> drives_;
	std::vector<Record> records_;
	int max_report_;
	bool quiet_, progress_;
	long cycles_ = 0, checks_ = 0, compared_ = 0, mismatches_ = 0, writes_ = 0, reads_ = 0;
	Location at_;
	std::string label_;
	std::string trace_file_;
#ifdef VERIF_TRACE
	std::unique_ptr<VerilatedVcdC> vcd_;
#endif

	void bind();
	void *signal(const char *tile, const char *name, int width) const;
	void dump();
	void edge();
	void step(long n);
	void run_cycles(long n);
	void drive(const Port &p, const std::string &file, int col);
	void record(const Port &p, const std::string &file, int col);
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

// The waveform has two points per clock cycle: the low phase (time 2k: the
// state after the falling edge with the cycle's inputs) and the high phase
// (2k + 1, after the rising edge).
void Harness::dump()
{
#ifdef VERIF_TRACE
	if (vcd_)
		vcd_->dump(ctx_->time());
#endif
}

void Harness::edge()
{
	dump();
	ctx_->timeInc(1);
	top_->clk = 1;
	top_->eval();
	dump();
	ctx_->timeInc(1);
	top_->clk = 0;
	top_->eval();
	cycles_++;
}

// n cycles of an application: in each, the driven ports take their next
// value, the model evaluates (the falling edge and the new inputs at once:
// two evaluations per cycle), the recorded signals are sampled, then the
// clock rises.
void Harness::run_cycles(long n)
{
	auto t0 = std::chrono::steady_clock::now();
	auto last = t0;
	for (long k = 0; k < n; k++) {
		top_->clk = 0;
		for (Drive &d : drives_) {
			put(ports_[d.port], d.next < d.values.size() ? d.values[d.next] : 0);
			d.next++;
		}
		top_->eval();
		for (Record &r : records_)
			r.values.push_back(get(ports_[r.port]));
		dump();
		ctx_->timeInc(1);
		top_->clk = 1;
		top_->eval();
		dump();
		ctx_->timeInc(1);
		cycles_++;
		if (progress_ && (k & 255) == 255) {
			auto now = std::chrono::steady_clock::now();
			if (std::chrono::duration<double>(now - last).count() >= 1.0) {
				last = now;
				printf("vsim: run: %ld of %ld cycles (%.0f cycles/s)\n", k + 1, n, (k + 1) / seconds_since(t0));
				fflush(stdout);
			}
		}
	}
	top_->clk = 0;
	top_->eval();
	double s = seconds_since(t0);
	if (!quiet_)
		printf("%s:%d: run: %ld cycles in %.2f s (%.0f cycles/s)\n", at_.file.c_str(), at_.line, n, s,
		       s > 0 ? n / s : 0.0);
}

// One value per line, hexadecimal (as %x prints it, 0x allowed), for each
// cycle of the runs from now on; the port is 0 once they are used up.
void Harness::drive(const Port &p, const std::string &file, int col)
{
	std::ifstream in(file);
	if (!in)
		error(col, "cannot read '" + file + "'");
	Drive d{static_cast<size_t>(&p - &ports_[0]), {}, 0};
	Location outer = at_;
	at_ = Location{file, 0};
	std::string line;
	while (std::getline(in, line)) {
		at_.line++;
		std::vector<Token> t = tokenize(line);
		if (t.size() != 1)
			error(t.empty() ? 1 : t[1].col, "expected one hexadecimal value per line (a cycle)");
		const std::string &s = t[0].s;
		size_t skip = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;
		if (s.size() == skip || s.size() - skip > 16 ||
		    s.find_first_not_of("0123456789abcdefABCDEF", skip) != std::string::npos)
			error(t[0].col, "'" + s + "' is not a hexadecimal number");
		uint64_t v = strtoull(s.c_str() + skip, nullptr, 16);
		if (v & ~mask(p.width))
			error(t[0].col, "'" + s + "' does not fit the " + std::to_string(p.width) + "-bit port " + p.name);
		d.values.push_back(v);
	}
	at_ = outer;
	for (Drive &old : drives_)
		if (old.port == d.port) {
			old = std::move(d);
			return;
		}
	drives_.push_back(std::move(d));
}

void Harness::record(const Port &p, const std::string &file, int col)
{
	for (const Record &r : records_)
		if (r.file == file)
			error(col, "'" + file + "' is already recorded");
	records_.push_back(Record{static_cast<size_t>(&p - &ports_[0]), file, {}});
}

int Harness::open_trace()
{
	if (trace_file_.empty())
		return 0;
#ifdef VERIF_TRACE
	vcd_ = std::make_unique<VerilatedVcdC>();
	top_->trace(vcd_.get(), 99);
	vcd_->open((trace_file_ + ".tmp").c_str());
	if (!vcd_->isOpen()) {
		fprintf(stderr, "vsim: cannot write '%s.tmp'\n", trace_file_.c_str());
		vcd_.reset();
		return 2;
	}
	return 0;
#else
	fprintf(stderr, "vsim: this model was built without waveforms (verif/build.sh --trace)\n");
	return 2;
#endif
}

int Harness::finish()
{
	int status = 0;
	for (const Record &r : records_) {
		std::string tmp = r.file + ".tmp";
		FILE *f = fopen(tmp.c_str(), "w");
		int digits = (ports_[r.port].width + 3) / 4;
		for (size_t i = 0; f && i < r.values.size(); i++)
			fprintf(f, "%0*" PRIx64 "\n", digits, r.values[i]);
		if (!f || ferror(f) | fclose(f) || rename(tmp.c_str(), r.file.c_str())) {
			fprintf(stderr, "vsim: cannot write '%s'\n", r.file.c_str());
			remove(tmp.c_str());
			status = 2;
		}
	}
	records_.clear();
#ifdef VERIF_TRACE
	if (vcd_) {
		dump();
		vcd_->close();
		vcd_.reset();
		if (rename((trace_file_ + ".tmp").c_str(), trace_file_.c_str())) {
			fprintf(stderr, "vsim: cannot write '%s'\n", trace_file_.c_str());
			status = 2;
		}
	}
#endif
	return status;
}

void Harness::abandon()
{
	records_.clear();
#ifdef VERIF_TRACE
	if (vcd_) {
		vcd_->close();
		vcd_.reset();
		remove((trace_file_ + ".tmp").c_str());
	}
#endif
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
	throw CommandError{};
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
	if (cmd == "reset" || cmd == "flush") {
		operands(t, t.size() > 1 ? 1 : 0);
		CData &pin = cmd == "reset" ? top_->rst : top_->flush;
		pin = 1;
		top_->eval();
		step(t.size() > 1 ? static_cast<long>(number(t[1].s, t[1].col, 16)) : cmd == "reset" ? 2 : 1);
		pin = 0;
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
	} else if (cmd == "drive" || cmd == "record") {
		operands(t, 2);
		const Port &p = port(t[1].s, t[1].col);
		std::string file = t[2].s[0] == '/' ? t[2].s : dir + t[2].s;
		if (cmd == "record")
			record(p, file, t[2].col);
		else if (p.kind != PORT_INPUT)
			error(t[1].col, "'" + t[1].s + "' is not an input of the array");
		else
			drive(p, file, t[2].col);
	} else if (cmd == "run") {
		operands(t, 1);
		run_cycles(static_cast<long>(number(t[1].s, t[1].col, 32)));
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
		error(t[0].col, "unknown command '" + cmd + "' (reset, flush, write, bitstream, read, set, step, drive, "
				 "record, run, expect, expect-all, check, print)");
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
	try {
		while (std::getline(in, line)) {
			at_.line++;
			size_t hash = line.find('#');
			if (hash != std::string::npos)
				line.erase(hash);
			std::vector<Token> t = tokenize(line);
			if (!t.empty())
				command(t, dir);
		}
	} catch (const CommandError &) {
		abandon();
		return 2;
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
	bool quiet = false, progress = false;
	std::string trace;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: vsim COMMANDS [--max-report N] [-q] [--progress] [--trace FILE]\n"
			       "Runs the command file COMMANDS (verif/README.md) on the Verilator model of a design\n"
			       "and reports every mismatch (the first N in full, 20 by default, -1 for all);\n"
			       "exit status 0 without mismatch, 1 with, 2 on an error in the commands.\n"
			       "  -q          no summary line, no line per run\n"
			       "  --progress  a line about every second of a long run\n"
			       "  --trace F   write a VCD waveform to F (a model built with verif/build.sh --trace)\n");
			return 0;
		} else if (!strcmp(argv[i], "--max-report") && i + 1 < argc) {
			max_report = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-q")) {
			quiet = true;
		} else if (!strcmp(argv[i], "--progress")) {
			progress = true;
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace = argv[++i];
		} else if (!file && argv[i][0] != '-') {
			file = argv[i];
		} else {
			fprintf(stderr, "vsim: unknown argument '%s' (vsim --help)\n", argv[i]);
			return 2;
		}
	}
	if (!file) {
		fprintf(stderr, "usage: vsim COMMANDS [--max-report N] [-q] [--progress] [--trace FILE]\n");
		return 2;
	}
	Harness h(max_report, quiet, progress, trace);
	if (int status = h.open_trace())
		return status;
	auto t0 = std::chrono::steady_clock::now();
	int status = h.run(file);
	double s = seconds_since(t0);
	if (status || (status = h.finish()) != 0)
		return status;
	h.summary(s);
	return h.mismatches() ? 1 : 0;
}
