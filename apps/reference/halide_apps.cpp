// halide_apps.cpp - every application file (apps/<app>/<app>.hl, and the
// semantics probes apps/reference/semantics/<name>.hl as sem_<name>) compiled
// against the real Halide library, each into the body of its own function,
// registered under the application's name.
//
// The Makefile writes the list build/halide/halide_apps.inc, three lines per
// file:
//     HALIDE_APP_BEGIN(gaussian)
//     #include "apps/gaussian/gaussian.hl"
//     HALIDE_APP_END(gaussian)
// One translation unit holds them all: parsing Halide.h (about 2 s) is most of
// the time an application takes to compile.
#include "halide_runner.h"

/* The application files' Func and ImageParam (halide_runner.h). */
#define Func HwFunc
#define ImageParam HwImageParam
#define GLB Auto

#define HALIDE_APP_BEGIN(name) \
	static void define_##name() \
	{ \
		using namespace Halide; \
		using namespace Halide::ConciseCasts;

#define HALIDE_APP_END(name) \
	} \
	static const bool registered_##name = halide_app_register(#name, define_##name);

#include "halide_apps.inc"
