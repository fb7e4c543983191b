# dnstrust — front door. Every target installs what it needs (make deps).
#
#   make deps    install the Debian 12 packages the rest needs (as root)
#   make         build (build/)
#   make check   deps + build + every test, then the unit and fuzz-replay
#                tests again under ASan+UBSan (build-asan/); prints
#                "N passed, N failed"
#   make demo    the lab and dnstrustd against it: what applications get
#   make fuzz    each libFuzzer target for FUZZ_TIME seconds (build-fuzz/)
#   make check-load  the load and fault suite and the mutating-proxy run
#                (tests/load, over 10 minutes)
#   make bench   benchmarks against ldns, BIND and openssl speed, and the
#                time per attack question (results in bench/results/)
#   make bench-cold  cold answers through a delay proxy: dnstrustd, Unbound
#                and Knot Resolver on the lab (bench/cold.sh, about 15 min)
#   make bench-cold-cpu  CPU per cold P-256 answer, dnstrustd against
#                Unbound on the lab (bench/cold_cpu.sh, about 2 min)
#   make install install into PREFIX (default /usr/local), under DESTDIR
#   make deb     Debian packages into build/deb/ (debhelper), lintian
#   make check-deb  the packaging test: make deb, lintian, the contents

PREFIX    ?= /usr/local
FUZZ_TIME ?= 60
BUILD     := build
ASAN      := build-asan
FUZZB     := build-fuzz
FUZZERS   := msg zone validator resolvconf config autotrust nsswitch render \
	     stream iterate capab netif

.PHONY: all deps build check check-deb check-load test test-asan demo fuzz \
	bench bench-cold bench-cold-cpu install deb clean

all: build

deps:
	@./scripts/deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) --prefix=$(PREFIX)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(ASAN)/build.ninja:
	meson setup $(ASAN) --buildtype=debug -Db_sanitize=address,undefined \
		-Db_lundef=false -Dc_args=-fno-sanitize-recover=all

test: build
	-meson test -C $(BUILD) --print-errorlogs --num-processes 2 \
		--no-suite load

# The load and fault suite (tests/load/load.sh): over ten minutes, not
# part of check. LOAD_ONLY and LOAD_FLOOD_SECONDS narrow it.
check-load: deps build
	meson test -C $(BUILD) --print-errorlogs --suite load --verbose

test-asan: $(ASAN)/build.ninja
	ninja -C $(ASAN)
	-ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	meson test -C $(ASAN) --print-errorlogs --num-processes 2 \
		--suite unit --suite fuzz-replay --suite replay --suite lab-asan

check: deps
	$(MAKE) test
	$(MAKE) test-asan
	@./scripts/test-summary.py $(BUILD) $(ASAN) | tee $(BUILD)/test-summary.txt

demo: deps build
	./scripts/demo.sh $(BUILD)

$(FUZZB)/build.ninja:
	CC=clang meson setup $(FUZZB) --buildtype=debugoptimized -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all

fuzz: deps $(FUZZB)/build.ninja
	ninja -C $(FUZZB) $(addprefix tests/fuzz/fuzz_,$(FUZZERS))
	./scripts/fuzz.sh $(FUZZB) $(FUZZ_TIME) $(FUZZERS)

bench: deps build
	./bench/run.sh $(BUILD)

bench-cold: deps build
	./bench/cold.sh $(BUILD)

bench-cold-cpu: deps build
	./bench/cold_cpu.sh $(BUILD)

# PREFIX is compared with the build's on every run (meson reads it only
# at setup otherwise).
install: build
	@[ "$$(meson introspect $(BUILD) --buildoptions | \
		sed -n 's/.*"name": "prefix", "value": "\([^"]*\)".*/\1/p')" = \
		"$(PREFIX)" ] || meson configure $(BUILD) -Dprefix=$(PREFIX)
	meson install -C $(BUILD) $(if $(DESTDIR),--destdir $(DESTDIR))

deb: deps
	./scripts/deb.sh $(BUILD)/deb

check-deb: deps build
	meson test -C $(BUILD) --suite packaging --print-errorlogs

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZB)
