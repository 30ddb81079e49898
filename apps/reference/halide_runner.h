/* halide_runner.h - what an application file (apps/<app>/<app>.hl) needs to
 * compile unchanged against the real Halide library, and the registry of the
 * applications compiled into bin/halide_run.
 *
 * An application file is the body of a Halide program. halide_apps.cpp includes
 * it into a function body (with `using namespace Halide` and
 * `Halide::ConciseCasts`) and registers that function under the app's name.
 * The accelerator directives of Halide-to-Hardware schedule nothing here: they
 * record the accelerator's output Func. The application's Funcs and
 * ImageParams are HwFunc and HwImageParam (halide_apps.cpp defines Func and
 * ImageParam as these names before the application files): Halide's classes
 * with the methods of Halide-to-Hardware's fork (hw_accelerate,
 * stream_to_accelerator, accelerator_input, linebuffer, fifo_depth(n) and
 * fifo_depth(consumer, n), store_in)
 * as no-ops and every schedule call returning the derived class so that chains
 * reach them. They record the Funcs and ImageParams in declaration order: the
 * inputs are the ImageParams the pipeline reads, in that order, and the
 * pipeline's output is the Func after the accelerator's output that no other
 * Func reads (the accelerator's output when none reads it). MemoryType::GLB,
 * the fork's global buffer, is spelled MemoryType::Auto (a macro GLB). */
#ifndef APPS_REFERENCE_HALIDE_RUNNER_H
#define APPS_REFERENCE_HALIDE_RUNNER_H

#include <set>
#include <string>
#include <vector>

#include "Halide.h"

/* The accelerator directives. hw_accelerate names the output Func (inner and
 * outer, the accelerator's loop levels, are not used); stream_to_accelerator
 * names an input, in the order the inputs are given on the command line. */
void hw_accelerate(Halide::Func f, Halide::Var inner, Halide::Var outer);
void hw_accelerate(Halide::Func f);
void stream_to_accelerator(Halide::ImageParam p);
void stream_to_accelerator(Halide::Func f);
/* 1 if Func f was given stream_to_accelerator() or accelerator_input(). */
bool halide_app_streamed(const Halide::Func &f);
/* Called by the constructors of HwFunc and HwImageParam. */
void halide_app_declared(const Halide::Func &f);
void halide_app_declared(const Halide::ImageParam &p);

class HwFunc : public Halide::Func {
public:
	HwFunc() { halide_app_declared(*this); }
	explicit HwFunc(const std::string &name) : Halide::Func(name) { halide_app_declared(*this); }
	HwFunc(const Halide::Func &f) : Halide::Func(f) {}
#define HW_FORWARD(m) \
	template <typename... A> HwFunc &m(A &&...a) \
	{ \
		Halide::Func::m(std::forward<A>(a)...); \
		return *this; \
	}
	HW_FORWARD(bound)
	HW_FORWARD(bound_extent)
	HW_FORWARD(tile)
	HW_FORWARD(split)
	HW_FORWARD(reorder)
	HW_FORWARD(reorder_storage)
	HW_FORWARD(unroll)
	HW_FORWARD(compute_at)
	HW_FORWARD(store_at)
	HW_FORWARD(compute_root)
	HW_FORWARD(store_root)
	HW_FORWARD(compute_inline)
#undef HW_FORWARD
	/* In Halide-to-Hardware, the wrapper of a streamed Func is the
	 * accelerator's copy of the stream, never inline (so f.in().unroll(x, 2)
	 * is legal there): here it is computed at the root, which gives the same
	 * values, unless the program places it. */
	HwFunc in()
	{
		HwFunc w(Halide::Func::in());
		if (halide_app_streamed(*this))
			w.compute_root();
		return w;
	}
	HwFunc in(const Halide::Func &g) { return HwFunc(Halide::Func::in(g)); }
	HwFunc &hw_accelerate(Halide::Var inner, Halide::Var outer)
	{
		::hw_accelerate(*this, inner, outer);
		return *this;
	}
	HwFunc &hw_accelerate()
	{
		::hw_accelerate(*this);
		return *this;
	}
	HwFunc &stream_to_accelerator()
	{
		::stream_to_accelerator(*this);
		return *this;
	}
	HwFunc &accelerator_input()
	{
		::stream_to_accelerator(*this);
		return *this;
	}
	HwFunc &linebuffer() { return *this; }
	HwFunc &fifo_depth(int) { return *this; }
	HwFunc &fifo_depth(const Halide::Func &, int) { return *this; }
	HwFunc &store_in(Halide::MemoryType) { return *this; }
};

class HwImageParam : public Halide::ImageParam {
public:
	HwImageParam(Halide::Type t, int dims, const std::string &name) : Halide::ImageParam(t, dims, name)
	{
		halide_app_declared(*this);
	}
	HwImageParam(Halide::Type t, int dims) : Halide::ImageParam(t, dims) { halide_app_declared(*this); }
	HwFunc in() { return HwFunc(Halide::ImageParam::in()); }
	HwFunc in(const Halide::Func &g) { return HwFunc(Halide::ImageParam::in(g)); }
};

/* An application as its file defines it. */
struct HalideApp {
	std::vector<Halide::Func> outputs;        /* from hw_accelerate */
	std::vector<Halide::Func> funcs;          /* declared, in order */
	std::vector<Halide::ImageParam> images;   /* declared, in order */
	std::set<std::string> streamed;           /* the Funcs streamed into the accelerator */
};

/* The function that runs an application file's text. */
typedef void (*HalideAppDefine)();

/* Registers an application (by halide_apps.cpp, at start-up);
 * returns true so that it can initialise a static. */
bool halide_app_register(const char *name, HalideAppDefine define);
/* The registered names, sorted. */
std::vector<std::string> halide_app_names();
/* Runs the application file of name, recording its directives. Throws
 * Halide::Error when its text does (and std::runtime_error for an unknown
 * name). */
HalideApp halide_app_define(const std::string &name);

/* Checks, on target, Halide's arithmetic rules that the C references and cgrac's
 * interpreter assume (halide_semantics.cpp); prints PASS/FAIL per rule and a
 * closing count; returns 0 when all pass, else 1. */
int halide_semantics_check(const Halide::Target &target);

#endif
