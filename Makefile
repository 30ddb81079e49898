# The CGRA flow: PEak (PE specs), Lake (memory tiles), Canal (the array and its
# interconnect), and soon the cgrac compiler.
# `make` installs what is missing, builds the tools, generates the default
# collateral and prints a summary; `make test` runs every test.

CC       ?= gcc
WARN     := -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
CFLAGS   ?= -O2 -g
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS   := -lyaml -lz3 -lisl -lpthread -lm
DESIGN   ?= cgra_32x16
IR       := $(sort $(wildcard peak/ir/*.yaml))

COMMON_SRC := $(sort $(wildcard common/*.c))
PEAK_SRC   := $(filter-out peak/peak_main.c,$(sort $(wildcard peak/*.c)))
LAKE_SRC   := $(filter-out lake/lake_main.c,$(sort $(wildcard lake/*.c)))
CANAL_SRC  := $(filter-out canal/canal_main.c,$(sort $(wildcard canal/*.c)))
CGRAC_SRC  := $(filter-out compiler/cgrac_main.c,$(sort $(wildcard compiler/*.c)))
REF_SRC    := $(sort $(wildcard apps/reference/*.c))
# Application files for bin/halide_run: the suite's, and the semantics probes
# (registered as sem_<name>).
HL_FILES   := $(sort $(wildcard apps/*/*.hl)) $(sort $(wildcard apps/reference/semantics/*.hl))
hl_name     = $(if $(findstring /semantics/,$(1)),sem_)$(notdir $(basename $(1)))
LIB_SRC    := $(COMMON_SRC) $(PEAK_SRC)

OBJ     = $(patsubst %.c,build/obj/%.o,$(1))
SANOBJ  = $(patsubst %.c,build/san/%.o,$(1))

TOOLS     := bin/peak bin/lake bin/canal bin/cgrac
TESTS     := bin/test_common bin/test_peak bin/test_lake bin/test_canal bin/test_cgrac bin/test_ub \
             bin/test_ubmem bin/test_route bin/test_place
SAN_TESTS := build/san/bin/test_common build/san/bin/test_peak build/san/bin/peak build/san/bin/lake \
             build/san/bin/test_lake build/san/bin/canal build/san/bin/test_canal \
             build/san/bin/cgrac build/san/bin/test_cgrac build/san/bin/test_ub build/san/bin/test_ubmem \
             build/san/bin/test_route build/san/bin/test_place

.PHONY: all app sim deps build rtl test test-unit test-san bench clean update-golden summary halide-check FORCE
.DEFAULT_GOAL := all

APPS     ?= brighten_blur gaussian cascade harris unsharp upsample
APP      ?= gaussian

all: deps
	$(MAKE) build
	$(MAKE) rtl
	$(MAKE) summary
	@SIM=1 bash scripts/app.sh $(DESIGN) $(APPS)

deps:
	@bash scripts/deps.sh

build: $(TOOLS) $(TESTS)

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SANFLAGS) -MMD -MP -c $< -o $@

bin/peak: $(call OBJ,peak/peak_main.c $(LIB_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/lake: $(call OBJ,lake/lake_main.c $(LAKE_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/lake: $(call SANOBJ,lake/lake_main.c $(LAKE_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/canal: $(call OBJ,canal/canal_main.c $(CANAL_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/canal: $(call SANOBJ,canal/canal_main.c $(CANAL_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/cgrac: $(call OBJ,compiler/cgrac_main.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/cgrac: $(call SANOBJ,compiler/cgrac_main.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_cgrac: $(call OBJ,compiler/tests/test_cgrac.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_cgrac: $(call SANOBJ,compiler/tests/test_cgrac.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_ub: $(call OBJ,compiler/tests/test_ub.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_ub: $(call SANOBJ,compiler/tests/test_ub.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_ubmem: $(call OBJ,compiler/tests/test_ubmem.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_ubmem: $(call SANOBJ,compiler/tests/test_ubmem.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_route: $(call OBJ,compiler/tests/test_route.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_route: $(call SANOBJ,compiler/tests/test_route.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_place: $(call OBJ,compiler/tests/test_place.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_place: $(call SANOBJ,compiler/tests/test_place.c $(CGRAC_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# verif: the Verilator benches of the whole array (verif/README.md)
VERIF_SRC := $(filter-out verif/verif_main.c,$(sort $(wildcard verif/*.c)))

bin/verif: $(call OBJ,verif/verif_main.c $(VERIF_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/verif: $(call SANOBJ,verif/verif_main.c $(VERIF_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

build: bin/verif
test: build/san/bin/verif

bin/test_canal: $(call OBJ,canal/tests/test_canal.c $(CANAL_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_canal: $(call SANOBJ,canal/tests/test_canal.c $(CANAL_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_lake: $(call OBJ,lake/tests/test_lake.c $(LAKE_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_lake: $(call SANOBJ,lake/tests/test_lake.c $(LAKE_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

bin/test_common: $(call OBJ,common/tests/test_common.c $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/test_peak: $(call OBJ,peak/tests/test_peak.c $(LIB_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/peak: $(call SANOBJ,peak/peak_main.c $(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_common: $(call SANOBJ,common/tests/test_common.c $(COMMON_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/test_peak: $(call SANOBJ,peak/tests/test_peak.c $(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# A whole chip from its three specs (canal/specs/$(DESIGN).yaml names the PE
# and MEM specs).
rtl: bin/peak bin/lake bin/canal
	@bash scripts/rtl.sh $(DESIGN)

summary:
	@bash scripts/summary.sh rtl_out/$(DESIGN)

# An application through the compiler as far as it goes today:
# build/$(DESIGN)/$(APP)/ (scripts/app.sh).
app: bin/cgrac bin/peak bin/lake bin/canal
	@bash scripts/app.sh $(DESIGN) $(APP)

# Verilator co-simulation of an application's bitstream on its design
# (verif/README.md): build/$(DESIGN)/$(APP)/output.* and sim.log, pass or fail
# against the golden image; TRACE=1 also writes a waveform.
sim: bin/verif
	@TRACE=$(TRACE) bash verif/sim.sh $(DESIGN) $(APP)

test: deps build $(SAN_TESTS) bin/appref bin/halide_run
	@bash scripts/run_tests.sh

# The application suite's C references (bin/appref) and the application files
# run by the real Halide library (bin/halide_run, Debian's libhalide14-0-dev):
# see apps/reference/. All the applications share one C++ file, as parsing
# Halide.h is most of their compile time.
HALIDE_CXXFLAGS := -std=c++17 -O0 -Wall -Wextra -Wshadow -isystem /usr/include/halide14 \
                   -I. -Iapps/reference -Ibuild/halide
HALIDE_OBJ      := build/halide/halide_run.o build/halide/halide_semantics.o build/halide/halide_apps.o

bin/appref: $(call OBJ,$(REF_SRC) $(COMMON_SRC))
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The list of application files, rewritten only when it changes.
build/halide/halide_apps.inc: FORCE
	@mkdir -p $(dir $@)
	@{ :; $(foreach f,$(HL_FILES),printf 'HALIDE_APP_BEGIN(%s)\n#include "%s"\nHALIDE_APP_END(%s)\n' \
		$(call hl_name,$(f)) $(f) $(call hl_name,$(f));) } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

build/halide/halide_apps.o: build/halide/halide_apps.inc

build/halide/%.o: apps/reference/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(HALIDE_CXXFLAGS) -MMD -MP -c $< -o $@

bin/halide_run: $(HALIDE_OBJ) $(call OBJ,apps/reference/refimg.c)
	@mkdir -p bin
	$(CXX) -o $@ $^ -lHalide14 -lpthread -ldl

halide-check: deps bin/appref bin/halide_run bin/cgrac
	@bash apps/reference/tests/halide_check.sh

bench: build
	@bash scripts/bench.sh

update-golden: bin/peak bin/lake bin/canal
	@bash peak/tests/golden.sh --update
	@bash lake/tests/golden.sh --update
	@bash canal/tests/golden.sh --update
	@bash compiler/tests/golden.sh --update

clean:
	rm -rf build bin rtl_out/*/

-include $(shell find build -name '*.d' 2>/dev/null)
