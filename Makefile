# The CGRA flow: PEak (PE specs), Lake (memory tiles) and Canal (the array and
# its interconnect) generate a chip into rtl_out/<design>/; cgrac compiles
# applications for it; verif runs them under Verilator (docs/architecture.md).
# `make` installs what is missing, builds, generates the default chip, compiles
# and co-simulates the suite; `make test` runs every test.

CC       ?= gcc
WARN     := -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
CFLAGS   ?= -O2 -g
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS   := -lyaml -lz3 -lisl -lpthread -lm
DESIGN   ?= cgra_32x16
APPS     ?= brighten_blur gaussian cascade harris unsharp upsample
APP      ?= gaussian

.PHONY: all app sim deps build rtl test test-build bench clean update-golden summary halide-check dse FORCE
.DEFAULT_GOAL := all

# ---- libraries: every folder's sources but its *_main.c, one archive each
# (the compiler's stages are folders of compiler/) ----
lib_dir  = $(if $(filter front lower ubuf backend,$(1)),compiler/)$(1)
lib_objs = $(patsubst %.c,build/$(1)/%.o,$(sort $(filter-out %_main.c,$(wildcard $(call lib_dir,$(2))/*.c))))

# ---- binaries: $(call bin,NAME,SOURCES,LIBS) declares bin/NAME, made of its
# own sources and the libraries it links (highest layer first) ----
bin = $(eval $(1).main := $(2))$(eval $(1).libs := $(3))$(1)
compiler.libs := backend ubuf lower front verif collateral common
TOOLS := $(call bin,peak,peak/peak_main.c,peak collateral common) \
         $(call bin,lake,lake/lake_main.c,lake collateral common) \
         $(call bin,canal,canal/canal_main.c,canal collateral common) \
         $(call bin,cgrac,compiler/cgrac_main.c compiler/flow.c compiler/verify.c,$(compiler.libs)) \
         $(call bin,verif,verif/verif_main.c,verif collateral common) \
         $(call bin,cgrasim,cgrasim/cgrasim_main.c,cgrasim verif collateral common) \
         $(call bin,dse,dse/dse_main.c,dse common)
APPREF := $(call bin,appref,$(sort $(wildcard apps/reference/*.c)),common)

# Unit tests, per folder: $(call tests,FOLDER,NAMES,LIBS) declares the programs
# FOLDER/tests/test_NAME.c linking LIBS, and gives their binaries' names.
tests = $(foreach t,$(2),$(call bin,test_$(t),$(1)/tests/test_$(t).c,$(3)))
TESTS := $(call tests,common,bv containers diag yaml util image,common) \
         $(call tests,collateral,affine meminfo memmodel bitstream peinfo design coreinfo penf chip,collateral common) \
         $(call tests,peak,peak,peak collateral common) $(call tests,lake,lake,lake collateral common) \
         $(call tests,canal,canal,canal collateral common) $(call tests,compiler/front,front,front common) \
         $(call tests,compiler/lower,lower,lower front collateral common) \
         $(call tests,compiler/ubuf,ub,ubuf lower front collateral common) \
         $(call tests,compiler/ubuf,ubmem,ubuf collateral common) \
         $(call tests,compiler/backend,route,backend collateral common) \
         $(call tests,compiler/backend,place,backend common)
# Every tool and test is also built with AddressSanitizer and UBSan into build/san/bin/.
SAN   := $(TOOLS) $(TESTS)

# ---- the generic rules: compile, archive, link; plain in build/obj, sanitized in build/san ----
build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SANFLAGS) -MMD -MP -c $< -o $@

# Objects, archives, designs and Verilator models are kept (not
# removed as intermediate files).
.PRECIOUS: build/obj/%.o build/san/%.o build/obj/lib/lib%.a build/san/lib/lib%.a \
           rtl_out/%/design.yaml build/verilator/%/vsim
.SECONDEXPANSION:
build/obj/lib/lib%.a: $$(call lib_objs,obj,$$*)
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcD $@ $^

build/san/lib/lib%.a: $$(call lib_objs,san,$$*)
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcD $@ $^

link_deps = $(patsubst %.c,build/$(1)/%.o,$($(2).main)) $(foreach l,$($(2).libs),build/$(1)/lib/lib$(l).a)

bin/%: $$(call link_deps,obj,$$*)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/san/bin/%: $$(call link_deps,san,$$*)
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# The libFuzzer harnesses, compiled by clang into build/fuzz/: make fuzz (fuzz/README.md).
include fuzz/fuzz.mk

# ---- user targets ----
# A design's files (rtl_out/D/design.yaml stands for them); its Verilator
# model with every node probed (verif/build.sh; the connectivity bench), and
# without probes (co-simulation).
design   = $(patsubst %,rtl_out/%/design.yaml,$(1))
model    = $(patsubst %,build/verilator/%/vsim,$(1))
model_np = $(patsubst %,build/verilator/%-noprobes/vsim,$(1))

# `make` twice does nothing the second time but print the tables: every step
# below is a file with its real prerequisites.
all: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory summary
	@$(MAKE) --no-print-directory -s -k $(foreach a,$(APPS),$(call app_out,$(a))/fast.ok $(call app_out,$(a))/sim.ok); \
	bash scripts/app.sh --table --sim $(DESIGN) $(APPS)

deps:
	@bash scripts/deps.sh

build: $(addprefix bin/,$(TOOLS) $(TESTS))

# A whole chip from its three specs (canal/specs/$(DESIGN).yaml names the PE
# and MEM specs), regenerated when a spec or a generator is newer.
rtl: $(call design,$(DESIGN))

summary: $(call design,$(DESIGN))
	@bash scripts/summary.sh rtl_out/$(DESIGN)

# An application through the whole flow into build/$(DESIGN)/$(APP)/
# (scripts/app.sh; its table line in app.txt), and its bitstream co-simulated
# under Verilator, compared with the golden image (verif/README.md; sim.ok
# when bit-exact); each redone only when the design, the compiler, the
# application or the model is newer. TRACE=1 writes a waveform (always runs).
app_out = build/$(DESIGN)/$(1)
define app_rules
$(call app_out,$(1))/app.txt: $(call design,$(DESIGN)) bin/cgrac bin/peak bin/lake bin/canal scripts/app.sh \
                              $(wildcard apps/$(1)/* apps/large/$(1)/*)
	@echo "app: $(1) for $(DESIGN)"
	@mkdir -p $$(@D) && bash scripts/app.sh $(DESIGN) $(1) >$$(@D)/app.log 2>&1 || \
	 { cat $$(@D)/app.log; [ -f $$@ ]; }
$(call app_out,$(1))/sim.ok: $(call app_out,$(1))/app.txt $(call model_np,$(DESIGN)) bin/verif verif/sim.sh
	@echo "sim: $(1) on $(DESIGN) under Verilator"
	@rm -f $$@; bash verif/sim.sh $(DESIGN) $(1) >$$(@D)/sim.out 2>&1 && touch $$@; \
	 st=$$$$?; tail -n 1 $$(@D)/sim.out; exit $$$$st
$(call app_out,$(1))/fast.ok: $(call app_out,$(1))/app.txt bin/cgrasim verif/sim.sh
	@echo "sim: $(1) on $(DESIGN) with the fast simulator"
	@rm -f $$@; SIM=fast bash verif/sim.sh $(DESIGN) $(1) >$$(@D)/fast.out 2>&1 && touch $$@; \
	 st=$$$$?; tail -n 1 $$(@D)/fast.out; exit $$$$st
endef
$(foreach a,$(sort $(APPS) $(APP)),$(eval $(call app_rules,$(a))))

app: $(call app_out,$(APP))/app.txt
	@bash scripts/app.sh --table $(DESIGN) $(APP)

# SIM=fast runs the fast simulator (cgrasim/README.md) instead of Verilator.
trace := $(filter-out 0,$(TRACE))
SIM   ?= verilator
sim_ok = $(if $(filter fast,$(SIM)),fast.ok,sim.ok)
sim: $(if $(trace),$(call app_out,$(APP))/app.txt bin/verif bin/cgrasim,$(call app_out,$(APP))/$(sim_ok))
	@$(if $(trace),SIM=$(SIM) TRACE=1 bash verif/sim.sh $(DESIGN) $(APP),bash scripts/app.sh --table --sim $(DESIGN) $(APP))

# A design-space sweep (dse/README.md): SWEEP names dse/SWEEP.yaml or is a
# path; its points are targets of build/dse/<sweep>/points.mk, each run by
# scripts/dse_point.sh through $(LAUNCH) (e.g. LAUNCH="srun -N1 -n1"), so -j
# runs points side by side and finished points are not redone.
SWEEP      ?= tracks
sweep_file := $(if $(or $(findstring /,$(SWEEP)),$(filter %.yaml,$(SWEEP))),$(SWEEP),dse/$(SWEEP).yaml)
sweep_dir  := build/dse/$(basename $(notdir $(sweep_file)))
dse: deps bin/dse bin/peak bin/lake bin/canal bin/cgrac bin/cgrasim
	@t0=$$(date +%s); bin/dse plan $(sweep_file) -o $(sweep_dir) || exit 1; \
	$(MAKE) --no-print-directory -k -f $(sweep_dir)/points.mk LAUNCH='$(LAUNCH)'; \
	bin/dse report $(sweep_file) -o $(sweep_dir) --seconds $$(($$(date +%s) - t0))

# ---- tests: groups of suites (scripts/run_tests.sh --list), each a target
# test-GROUP that builds what it needs (binaries, designs, Verilator models,
# each made once and shared). `make test` builds the binaries and designs,
# then the models and the groups TEST_JOBS at a time, longest first (logs in
# build/test/), and ends with their table and "total: N passed, M failed".
TEST_GROUPS  := $(shell bash scripts/run_tests.sh --list)
TEST_TARGETS := $(addprefix test-,$(TEST_GROUPS))
TEST_JOBS    ?= 2
.PHONY: $(TEST_TARGETS) print-TESTS

test: deps
	@mkdir -p build/test && rm -f build/test/*.result
	@t0=$$(date +%s); \
	$(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target test-build-tools; \
	echo "test: binaries and designs ready after $$(($$(date +%s) - t0)) s"; \
	$(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target $(TEST_MODELS) $(TEST_TARGETS); status=$$?; \
	bash scripts/run_tests.sh --summary --since $$t0 $(TEST_GROUPS) && [ $$status -eq 0 ]

# The tests' Verilator builds compile through ccache (build/ccache) when
# there is one (scripts/deps.sh installs it).
TEST_ENV := $(if $(shell command -v ccache 2>/dev/null),OBJCACHE=ccache CCACHE_DIR=$(or $(CCACHE_DIR),$(CURDIR)/build/ccache))

$(TEST_TARGETS): test-%:
	@mkdir -p build/test
	@TESTS="$(TESTS)" $(TEST_ENV) bash scripts/run_tests.sh $*

print-TESTS:
	@echo $(TESTS)

# What each group needs: designs and Verilator models (design, model and
# model_np above), each built once and shared.
TEST_DESIGNS := cgra_4x4 cgra_4x4_wilton cgra_4x4_disjoint cgra_8x8 cgra_12x12 cgra_16x8_mac_dp \
                cgra_8x8_mac_dp cgra_6x5_noreg cgra_4x4_nomem
TEST_MODELS  := $(call model_np,cgra_16x8_mac_dp cgra_4x4 cgra_6x5_noreg cgra_4x4_nomem) \
                build/verilator/cgra_4x4-trace/vsim $(call model,cgra_4x4 cgra_4x4_disjoint cgra_4x4_wilton)

test-unit:       $(addprefix bin/,$(TESTS)) $(addprefix build/san/bin/,$(TESTS)) \
                 $(call design,cgra_4x4 cgra_8x8 cgra_8x8_mac_dp)
test-peak:       bin/peak build/san/bin/peak
test-peak-bench: bin/peak
test-lake:       bin/lake build/san/bin/lake
test-lake-bench: bin/lake
test-canal:      bin/peak bin/lake bin/canal build/san/bin/canal $(call design,cgra_4x4_wilton cgra_4x4_disjoint cgra_4x4) \
                 bin/verif $(call model_np,cgra_4x4)
test-verif:      bin/verif build/san/bin/verif $(call model,cgra_4x4_disjoint cgra_4x4_wilton cgra_4x4) \
                 $(call model_np,cgra_4x4) build/verilator/cgra_4x4-trace/vsim
test-compiler:   bin/cgrac build/san/bin/cgrac bin/cgrasim build/san/bin/cgrasim $(call design,cgra_4x4 cgra_8x8_mac_dp cgra_4x4_nomem)
test-cgrasim:    bin/cgrasim build/san/bin/cgrasim bin/cgrac bin/verif $(call design,cgra_4x4 cgra_12x12) \
                 $(call model,cgra_4x4)
test-e2e:        bin/cgrac bin/peak bin/lake bin/canal bin/verif bin/cgrasim \
                 $(call model_np,cgra_16x8_mac_dp cgra_4x4 cgra_6x5_noreg cgra_4x4_nomem)
test-e2e-san:    build/san/bin/cgrac build/san/bin/cgrasim bin/verif bin/cgrasim $(call model_np,cgra_16x8_mac_dp cgra_4x4)
test-halide:     bin/halide_run bin/appref bin/cgrac
test-property:   bin/dse bin/peak bin/lake bin/canal bin/cgrac bin/verif bin/cgrasim
test-fuzz:       $(FUZZ_BINS) $(call design,cgra_4x4)
test-docs:       bin/peak bin/lake bin/canal bin/cgrac bin/dse $(call design,cgra_4x4)
test-dse:        bin/dse bin/peak bin/lake bin/canal bin/cgrac bin/verif bin/cgrasim build/san/bin/dse $(call design,cgra_4x4) \
                 $(call model_np,cgra_4x4)

# Everything the groups need, built without running them: binaries and
# designs (test-build-tools), then the Verilator models.
test-build: test-build-tools $(TEST_MODELS)
test-build-tools: build $(addprefix build/san/bin/,$(SAN)) bin/appref bin/halide_run $(call design,$(TEST_DESIGNS))
.PHONY: test-build-tools

# A design for the tests: scripts/rtl.sh, which keeps peak's and lake's files
# in build/cache/ by a hash of their inputs (rule synthesis takes seconds: once
# per PE, however many designs use it; a lock lets -j wait rather than make
# them twice). Its prerequisites: the interconnect spec, the PE and MEM specs
# it names, the IR and the generators.
IR_SPECS     := $(sort $(wildcard peak/ir/*.yaml))
design_specs  = $(patsubst $(CURDIR)/%,%,$(abspath $(addprefix canal/specs/,$(shell \
                sed -n 's/^ *[a-z]*: *{ *spec: *\([^ ,}]*\).*/\1/p' canal/specs/$(1).yaml 2>/dev/null))))

rtl_out/%/design.yaml: canal/specs/%.yaml $$(call design_specs,$$*) $(IR_SPECS) bin/peak bin/lake bin/canal
	bash scripts/rtl.sh $*

# A design's Verilator models (verif/build.sh, which also keeps a hash of what
# went in and rebuilds nothing when only the dates changed).
VERIF_MODEL_DEPS := bin/verif verif/build.sh verif/verif_sim.cpp
build/verilator/%-noprobes/vsim: rtl_out/%/design.yaml $(VERIF_MODEL_DEPS)
	$(TEST_ENV) bash verif/build.sh rtl_out/$* --probes none -o $(@D) && touch $@
build/verilator/%-trace/vsim: rtl_out/%/design.yaml $(VERIF_MODEL_DEPS)
	$(TEST_ENV) bash verif/build.sh rtl_out/$* --probes all --trace -o $(@D) && touch $@
build/verilator/%/vsim: rtl_out/%/design.yaml $(VERIF_MODEL_DEPS)
	$(TEST_ENV) bash verif/build.sh rtl_out/$* -o $(@D) && touch $@

# The application suite's C references (bin/appref) and the application files
# run by the real Halide library (bin/halide_run, Debian's libhalide14-0-dev):
# see apps/reference/. All the applications share one C++ file, as parsing
# Halide.h is most of their compile time.
HL_FILES := $(sort $(wildcard apps/*/*.hl)) $(sort $(wildcard apps/reference/semantics/*.hl))
hl_name   = $(if $(findstring /semantics/,$(1)),sem_)$(notdir $(basename $(1)))
HALIDE_CXXFLAGS := -std=c++17 -O0 -Wall -Wextra -Wshadow -isystem /usr/include/halide14 \
                   -I. -Iapps/reference -Ibuild/halide
HALIDE_OBJ      := build/halide/halide_run.o build/halide/halide_semantics.o build/halide/halide_apps.o

# The list of application files, and each file as a function body (its C++
# functions as lambdas: apps/reference/functions_as_lambdas.awk), each rewritten
# only when it changes; the list carries each body's checksum, so that a body
# that changes rebuilds halide_apps.o through it.
build/halide/halide_apps.inc: FORCE
	@mkdir -p $(dir $@)/hl
	@$(foreach f,$(HL_FILES),awk -v src=$(f) -f apps/reference/functions_as_lambdas.awk $(f) >$(@D)/hl/$(call hl_name,$(f)).hl.tmp && \
		{ cmp -s $(@D)/hl/$(call hl_name,$(f)).hl.tmp $(@D)/hl/$(call hl_name,$(f)).hl && \
		  rm $(@D)/hl/$(call hl_name,$(f)).hl.tmp || \
		  mv $(@D)/hl/$(call hl_name,$(f)).hl.tmp $(@D)/hl/$(call hl_name,$(f)).hl; } &&) :
	@{ :; $(foreach f,$(HL_FILES),printf 'HALIDE_APP_BEGIN(%s) // %s\n#include "hl/%s.hl"\nHALIDE_APP_END(%s)\n' \
		$(call hl_name,$(f)) "$$(cksum <$(@D)/hl/$(call hl_name,$(f)).hl)" $(call hl_name,$(f)) \
		$(call hl_name,$(f));) } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

build/halide/halide_apps.o: build/halide/halide_apps.inc

build/halide/%.o: apps/reference/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(HALIDE_CXXFLAGS) -MMD -MP -c $< -o $@

bin/halide_run: $(HALIDE_OBJ) build/obj/apps/reference/refimg.o
	@mkdir -p bin
	$(CXX) -o $@ $^ -lHalide14 -lpthread -ldl

halide-check: deps bin/appref bin/halide_run bin/cgrac
	@bash apps/reference/tests/halide_check.sh

bench: build
	@bash scripts/bench.sh

update-golden: bin/peak bin/lake bin/canal bin/cgrac
	@bash peak/tests/golden.sh --update
	@bash lake/tests/golden.sh --update
	@bash canal/tests/golden.sh --update
	@bash compiler/tests/golden.sh --update

clean:
	rm -rf build bin rtl_out/*/

-include $(shell find build -name '*.d' 2>/dev/null)
