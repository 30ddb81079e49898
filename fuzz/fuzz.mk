# fuzz/fuzz.mk - the libFuzzer harnesses of fuzz/ (fuzz/README.md), included
# by the Makefile after its generic rules. Each harness is fuzz/fuzz_NAME.c,
# linked with the project's libraries compiled again by clang, with libFuzzer,
# AddressSanitizer and UBSan, into build/fuzz/ (build/obj and build/san, the
# gcc builds, are not touched). `make fuzz` runs every harness FUZZ_S seconds
# one after another (fuzz/run.sh: a fresh working corpus under
# build/fuzz/corpus/ seeded from fuzz/corpus/, crashes in
# build/fuzz/crashes/NAME/), then a table; `make fuzz FUZZ=NAME` runs one.

FUZZ_CC    ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# (lake's readers use '|' on purpose, to report both sides' errors)
FUZZ_WARN  := $(WARN) -Wno-bitwise-instead-of-logical
FUZZ_S     ?= 60

# $(call fuzz_harness,NAME,LIBS): build/fuzz/bin/fuzz_NAME from fuzz/fuzz_NAME.c
fuzz_harness = $(call bin,fuzz_$(1),fuzz/fuzz_$(1).c,$(2))
FUZZ_BINS := $(addprefix build/fuzz/bin/, \
	$(call fuzz_harness,peak,peak collateral common) \
	$(call fuzz_harness,lake,lake collateral common) \
	$(call fuzz_harness,canal,canal collateral common) \
	$(call fuzz_harness,front,lower front collateral common) \
	$(call fuzz_harness,cpp,front collateral common) \
	$(call fuzz_harness,dse,dse common) \
	$(call fuzz_harness,cgrasim,cgrasim verif collateral common) \
	$(foreach h,rgraph configmap bitstream peinfo penf meminfo design,$(call fuzz_harness,$(h),collateral common)) \
	$(call fuzz_harness,image,common))
FUZZ_ALL  := $(patsubst build/fuzz/bin/fuzz_%,%,$(FUZZ_BINS))
FUZZ      ?= $(FUZZ_ALL)

.PHONY: fuzz fuzz-build
.PRECIOUS: build/fuzz/%.o build/fuzz/lib/lib%.a

build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_WARN) $(FUZZ_FLAGS) -MMD -MP -c $< -o $@

build/fuzz/lib/lib%.a: $$(call lib_objs,fuzz,$$*)
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcD $@ $^

build/fuzz/bin/%: $$(call link_deps,fuzz,$$*)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

# Each harness's run is a target of its own, so `make -j2 fuzz` runs two at a
# time (their corpora, logs and crashes are apart).
fuzz: $(addprefix fuzz-run-,$(FUZZ))
	@bash fuzz/run.sh summary $(FUZZ)

fuzz-run-%: build/fuzz/bin/fuzz_%
	@bash fuzz/run.sh run $* $(FUZZ_S)
