/* halide_runner.h - what an application file (apps/<app>/<app>.hl) needs to
 * compile unchanged against the real Halide library, and the registry of the
 * applications compiled into bin/halide_run.
 *
 * An application file is the body of a Halide program. halide_apps.cpp includes
 * it into a function body (with `using namespace Halide` and
 * `Halide::ConciseCasts`) and registers that function under the app's name.
 * The accelerator directives of Halide-to-Hardware are free functions here that
 * schedule nothing: they record the output Func and the input ImageParams of
 * the application being defined, which is all the runner needs. */
#ifndef APPS_REFERENCE_HALIDE_RUNNER_H
#define APPS_REFERENCE_HALIDE_RUNNER_H

#include <string>
#include <vector>

#include "Halide.h"

/* The accelerator directives. hw_accelerate names the output Func (inner and
 * outer, the accelerator's loop levels, are not used); stream_to_accelerator
 * names an input, in the order the inputs are given on the command line. */
void hw_accelerate(Halide::Func f, Halide::Var inner, Halide::Var outer);
void hw_accelerate(Halide::Func f);
void stream_to_accelerator(Halide::ImageParam p);

/* An application as its file defines it. */
struct HalideApp {
	std::vector<Halide::Func> outputs;        /* from hw_accelerate */
	std::vector<Halide::ImageParam> inputs;   /* from stream_to_accelerator */
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
