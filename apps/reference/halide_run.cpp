// halide_run.cpp - bin/halide_run: the application files run by the real Halide
// library (JIT), for `make halide-check`.
//
//   halide_run list                  the applications compiled in
//   halide_run bounds APP            the output's region, from its bound() calls
//   halide_run inputs APP            its inputs: name and dimensions, one a line
//   halide_run run APP IN... -o OUT [IN... -o OUT]...
//                                    runs APP on its input image(s), once per
//                                    group (the pipeline is compiled once)
//   halide_run semantics             checks Halide's arithmetic rules that the
//                                    C references and cgrac's interpreter assume
//
// run: the inputs are the ImageParams the output reads, in declaration order
// (PGM for 2 dimensions, PPM for 3 with the channel third), each sample taken
// as a value of the input's type (8 or 16 bits, signed or not); the output
// Func is the pipeline's output (the one hw_accelerate names, or the Func after
// it no other reads: halide_runner.h), realized over the region its bound()
// calls give (every dimension must have one), written as
// PGM (2 dimensions) or PPM (3 dimensions of which the last has extent 3), or
// .raw: maxval 255 for an 8-bit output (the value's two's complement byte),
// 65535 for a 16-bit one.
//
// The JIT target is the host's OS and architecture with no optional CPU features
// (set HL_JIT_TARGET to override): Halide 14 takes some AVX-512 CPUs for
// Sapphire Rapids and emits AVX512-FP16 instructions they lack (SIGILL on AMD
// Zen 4), and a fixed target keeps the code the same on every machine.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "halide_runner.h"
#include "refimg.h"

using Halide::Buffer;
using Halide::Func;
using Halide::ImageParam;

namespace {

std::map<std::string, HalideAppDefine> &registry()
{
	static std::map<std::string, HalideAppDefine> apps;
	return apps;
}

// The application being defined, while halide_app_define runs its file.
HalideApp *recording = nullptr;

HalideApp &current()
{
	if (!recording)
		throw std::runtime_error("an accelerator directive outside an application");
	return *recording;
}

} // namespace

void hw_accelerate(Func f, Halide::Var, Halide::Var)
{
	current().outputs.push_back(f);
}

void hw_accelerate(Func f)
{
	current().outputs.push_back(f);
}

void stream_to_accelerator(ImageParam)
{
}

void stream_to_accelerator(Func f)
{
	current().streamed.insert(f.name());
}

bool halide_app_streamed(const Func &f)
{
	return recording && recording->streamed.count(f.name()) > 0;
}

void halide_app_declared(const Func &f)
{
	if (recording)
		recording->funcs.push_back(f);
}

void halide_app_declared(const ImageParam &p)
{
	if (recording)
		recording->images.push_back(p);
}

bool halide_app_register(const char *name, HalideAppDefine define)
{
	registry()[name] = define;
	return true;
}

std::vector<std::string> halide_app_names()
{
	std::vector<std::string> names;
	for (const auto &app : registry())
		names.push_back(app.first);
	return names;
}

HalideApp halide_app_define(const std::string &name)
{
	auto it = registry().find(name);
	if (it == registry().end())
		throw std::runtime_error("unknown application '" + name + "' (halide_run list)");
	HalideApp app;
	recording = &app;
	try {
		it->second();
	} catch (...) {
		recording = nullptr;
		throw;
	}
	recording = nullptr;
	return app;
}

namespace {

struct Region {
	std::vector<int> min, extent;
};

int const_value(const Halide::Expr &e, const std::string &what)
{
	const int64_t *v = e.defined() ? Halide::Internal::as_const_int(e) : nullptr;
	if (!v || *v < INT32_MIN || *v > INT32_MAX)
		throw std::runtime_error(what + " is not a constant");
	return (int)*v;
}

// The region of f's bound() calls, in the order of f's arguments (those of
// the accelerator's output a, for the dimensions f has none of).
Region output_region(const Func &f, const Func &a)
{
	const auto &bounds = f.function().schedule().bounds().empty() ? a.function().schedule().bounds()
								      : f.function().schedule().bounds();
	Region r;
	for (const Halide::Var &arg : f.args()) {
		const Halide::Internal::Bound *found = nullptr;
		for (const auto &b : bounds)
			if (b.var == arg.name())
				found = &b;
		std::string what = "bound of " + f.name() + " in " + arg.name();
		if (!found)
			throw std::runtime_error(f.name() + " has no bound() in " + arg.name());
		r.min.push_back(const_value(found->min, "the min of the " + what));
		r.extent.push_back(const_value(found->extent, "the extent of the " + what));
	}
	return r;
}

// 1 if images hold values of t: an integer type of 8 or 16 bits.
bool image_type(const Halide::Type &t)
{
	return t.is_int_or_uint() && (t.bits() == 8 || t.bits() == 16);
}

// Element pos of buf, of type T.
template <typename T> T &element(const Buffer<> &buf, const int *pos)
{
	Buffer<T> typed = buf.as<T>();
	return (*typed.get())(pos);
}

// Sample v of a file as a value of buf's type, stored into element pos of buf.
void set_sample(Buffer<> &buf, const int *pos, uint16_t v)
{
	const Halide::Type t = buf.type();
	if (t == Halide::UInt(8))
		element<uint8_t>(buf, pos) = (uint8_t)v;
	else if (t == Halide::Int(8))
		element<int8_t>(buf, pos) = (int8_t)(uint8_t)v;
	else if (t == Halide::UInt(16))
		element<uint16_t>(buf, pos) = v;
	else
		element<int16_t>(buf, pos) = (int16_t)v;
}

// Element pos of buf as a file's sample (the value's two's complement bits).
uint16_t get_sample(const Buffer<> &buf, const int *pos)
{
	const Halide::Type t = buf.type();
	if (t == Halide::UInt(8))
		return element<uint8_t>(buf, pos);
	if (t == Halide::Int(8))
		return (uint16_t)element<int8_t>(buf, pos);
	if (t == Halide::UInt(16))
		return element<uint16_t>(buf, pos);
	return (uint16_t)element<int16_t>(buf, pos);
}

// 1 if Func f calls the Function named name, directly or not.
bool calls(const Func &f, const std::string &name)
{
	if (!f.defined() || f.name() == name)
		return false;
	return Halide::Internal::find_transitive_calls(f.function()).count(name) > 0;
}

// The pipeline's output: the accelerator's output (the one hw_accelerate
// names; throws unless the file named exactly one), or the Func after it
// that no other Func after it reads.
Func output_of(const HalideApp &app)
{
	if (app.outputs.size() != 1)
		throw std::runtime_error("expected one hw_accelerate call, found " +
					 std::to_string(app.outputs.size()));
	Func f = app.outputs[0];
	std::vector<Func> after;
	for (const Func &g : app.funcs)
		if (calls(g, f.name()))
			after.push_back(g);
	for (const Func &g : after) {
		bool read = false;
		for (const Func &h : after)
			read |= calls(h, g.name());
		if (!read)
			f = g;
	}
	if (f.outputs() != 1 || !image_type(f.output_types()[0]))
		throw std::runtime_error("the output " + f.name() + " must be an 8- or 16-bit integer Func");
	return f;
}

// The ImageParams the pipeline's output reads, in declaration order.
std::vector<ImageParam> inputs_of(const HalideApp &app, const Func &out)
{
	std::set<std::string> read;
	for (const Halide::Argument &a : Halide::Pipeline(out).infer_arguments())
		if (a.is_buffer())
			read.insert(a.name);
	std::vector<ImageParam> in;
	for (const ImageParam &p : app.images)
		if (read.count(p.name()))
			in.push_back(p);
	return in;
}

Halide::Target jit_target()
{
	if (getenv("HL_JIT_TARGET"))
		return Halide::get_jit_target_from_environment();
	Halide::Target host = Halide::get_host_target();
	return Halide::Target(host.os, host.arch, host.bits);
}

struct ImageDeleter {
	void operator()(RefImage *im) const { refimg_free(im); }
};
typedef std::unique_ptr<RefImage, ImageDeleter> ImagePtr;

// Binds input p to the image file at path.
void bind_input(ImageParam &p, const char *path)
{
	ImagePtr im(refimg_read(path));
	if (!im)
		throw std::runtime_error(std::string("cannot read ") + path);
	if (!image_type(p.type()))
		throw std::runtime_error("input " + p.name() + " must be of an 8- or 16-bit integer type");
	if (p.dimensions() == 2 && (im->c != 1 || im->d != 1))
		throw std::runtime_error(std::string(path) + " has " + std::to_string(im->c * im->d) +
					 " channels; input " + p.name() + " has 2 dimensions");
	if (p.dimensions() == 3 && im->d != 1)
		throw std::runtime_error(std::string(path) + " has 4 dimensions; input " + p.name() + " has 3");
	if (p.dimensions() < 2 || p.dimensions() > 4)
		throw std::runtime_error("input " + p.name() + " must have 2 to 4 dimensions");
	Buffer<> buf = p.dimensions() == 2   ? Buffer<>(p.type(), im->w, im->h)
		       : p.dimensions() == 3 ? Buffer<>(p.type(), im->w, im->h, im->c)
					     : Buffer<>(p.type(), im->w, im->h, im->c, im->d);
	for (int k = 0; k < im->d; k++)
		for (int c = 0; c < im->c; c++)
			for (int y = 0; y < im->h; y++)
				for (int x = 0; x < im->w; x++) {
					int pos[4] = { x, y, c, k };
					set_sample(buf, pos, refimg_get(im.get(), x, y, c + im->c * k));
				}
	p.set(buf);
}

void write_output(const Buffer<> &buf, const char *path)
{
	int dims = buf.dimensions();
	if (dims != 2 && dims != 3)
		throw std::runtime_error("the output must have 2 or 3 dimensions");
	int channels = dims == 3 ? buf.dim(2).extent() : 1;
	ImagePtr im(refimg_new(buf.dim(0).extent(), buf.dim(1).extent(), channels));
	if (!im)
		throw std::runtime_error("output too large");
	for (int c = 0; c < channels; c++)
		for (int y = 0; y < im->h; y++)
			for (int x = 0; x < im->w; x++) {
				int pos[3] = { x + buf.dim(0).min(), y + buf.dim(1).min(),
					       dims == 3 ? c + buf.dim(2).min() : 0 };
				refimg_set(im.get(), x, y, c, get_sample(buf, pos));
			}
	im->bits = buf.type().bits() == 8 ? 8 : 16;
	if (refimg_write(path, im.get()) != 0)
		throw std::runtime_error(std::string("cannot write ") + path);
}

void print_region(const std::string &name, const Func &f, const Region &r)
{
	printf("%s: %s(", name.c_str(), f.name().c_str());
	for (size_t i = 0; i < r.min.size(); i++)
		printf("%s%s: %d..%d", i ? ", " : "", f.args()[i].name().c_str(), r.min[i],
		       r.min[i] + r.extent[i] - 1);
	printf(")\n");
}

// Runs app once per group "IN... -o OUT" of args (compiled once).
int cmd_run(HalideApp &app, const std::vector<std::string> &args)
{
	Func f = output_of(app);
	std::vector<ImageParam> inputs = inputs_of(app, f);
	Region r = output_region(f, app.outputs[0]);
	Func out_func(f);
	size_t i = 0;
	while (i < args.size()) {
		size_t o = i;
		while (o < args.size() && args[o] != "-o")
			o++;
		if (o + 1 >= args.size())
			throw std::invalid_argument("run: IN... -o OUT");
		if (o - i != inputs.size())
			throw std::runtime_error(std::to_string(inputs.size()) +
						 " input(s) expected (the ImageParams the output reads), " +
						 std::to_string(o - i) + " given");
		for (size_t k = i; k < o; k++)
			bind_input(inputs[k - i], args[k].c_str());
		Buffer<> out(f.output_types()[0], r.extent);
		out.set_min(r.min);
		out_func.realize(out, jit_target());
		write_output(out, args[o + 1].c_str());
		i = o + 2;
	}
	return 0;
}

int usage(FILE *out, int status)
{
	fprintf(out, "usage: halide_run list\n"
		     "       halide_run bounds APP\n"
		     "       halide_run inputs APP\n"
		     "       halide_run run APP IN... -o OUT [IN... -o OUT]...\n"
		     "       halide_run semantics\n"
		     "The application files (apps/<app>/<app>.hl) run by the real Halide library.\n");
	return status;
}

int dispatch(int argc, char **argv)
{
	std::string cmd = argv[1];
	if (cmd == "--help" || cmd == "-h")
		return usage(stdout, 0);
	if (cmd == "list" && argc == 2) {
		for (const std::string &name : halide_app_names())
			printf("%s\n", name.c_str());
		return 0;
	}
	if (cmd == "bounds" && argc == 3) {
		HalideApp app = halide_app_define(argv[2]);
		print_region(argv[2], output_of(app), output_region(output_of(app), app.outputs[0]));
		return 0;
	}
	if (cmd == "inputs" && argc == 3) {
		HalideApp app = halide_app_define(argv[2]);
		for (const ImageParam &p : inputs_of(app, output_of(app)))
			printf("%s %d\n", p.name().c_str(), p.dimensions());
		return 0;
	}
	if (cmd == "run" && argc >= 6) {
		HalideApp app = halide_app_define(argv[2]);
		return cmd_run(app, std::vector<std::string>(argv + 3, argv + argc));
	}
	if (cmd == "semantics" && argc == 2)
		return halide_semantics_check(jit_target());
	return usage(stderr, 2);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr, 2);
	try {
		return dispatch(argc, argv);
	} catch (const std::invalid_argument &) {
		return usage(stderr, 2);
	} catch (const Halide::Error &e) {
		fprintf(stderr, "error: %s: Halide: %s\n", argv[argc > 2 ? 2 : 1], e.what());
	} catch (const std::exception &e) {
		fprintf(stderr, "error: %s\n", e.what());
	}
	return 2;
}
