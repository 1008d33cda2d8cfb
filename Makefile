# The two commands a new user types: `make run` and `make test`. Every target first installs
# missing Debian packages (scripts/install-deps), then configures and builds.

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)

.PHONY: all deps build run test test-asan asan-build fuzz demo screenshots bench live package package-check format clean

all: build

deps:
	@scripts/install-deps $(BUILD)/node $(ASAN_BUILD)/node

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The desktop app when a display is available, else the terminal frontend; on this folder
# (or DIR=...). Without API keys the core uses its offline echo provider.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && [ -x $(BUILD)/rio ]; then \
		exec $(BUILD)/rio $(or $(DIR),.); \
	else \
		exec $(BUILD)/rio-cli $(or $(DIR),.); \
	fi

# Both passes run whatever the first one found, and both verdicts are reported — with the
# names of the tests that failed, since a CI log is often read from its tail only.
FAILED_LOG = Testing/Temporary/LastTestsFailed.log
test: build
	@plain=0; asan=0; \
	rm -f $(BUILD)/$(FAILED_LOG) $(ASAN_BUILD)/$(FAILED_LOG); \
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) || plain=$$?; \
	$(MAKE) --no-print-directory test-asan || asan=$$?; \
	echo "make test: plain build $$( [ $$plain = 0 ] && echo passed || echo FAILED ), ASan+UBSan build $$( [ $$asan = 0 ] && echo passed || echo FAILED )"; \
	for log in $(BUILD)/$(FAILED_LOG) $(ASAN_BUILD)/$(FAILED_LOG); do \
		[ -f $$log ] && sed "s|^|make test: failed in $${log%%/*}: |" $$log; \
	done; \
	[ $$plain = 0 ] && [ $$asan = 0 ]

# The same tests once more under AddressSanitizer + UndefinedBehaviorSanitizer, built by
# Clang (which also keeps the code Clang-clean), with the libFuzzer harnesses (10 s each).
# Line tables are all a sanitizer report needs to name files and lines (decision 0040).
test-asan: asan-build
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

asan-build: deps
	@test -f $(ASAN_BUILD)/build.ninja || CC=clang CXX=clang++ cmake -S . -B $(ASAN_BUILD) \
		-G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -gline-tables-only" \
		-DRIO_SANITIZE=ON -DRIO_FUZZ=ON -DRIO_BUILD_BENCH=OFF -DRIO_BUILD_GUI=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# Every fuzzer for FUZZ_SECONDS (default 60) each, on the sanitizer build.
FUZZ_SECONDS ?= 60
fuzz: asan-build
	cmake -S . -B $(ASAN_BUILD) -DRIO_FUZZ_SECONDS=$(FUZZ_SECONDS)
	ctest --test-dir $(ASAN_BUILD) -R '^fuzz\.' --output-on-failure -j $(JOBS)
	cmake -S . -B $(ASAN_BUILD) -DRIO_FUZZ_SECONDS=10

demo: build
	@scripts/demo --core $(BUILD)/rio-core

# The pictures in docs/screenshots/ (main window, plan view, compare view, manual, plan
# comments, a marked revision, the Plans panel), drawn on the offscreen platform from a copy of examples/demo with the script provider as the model.
# Each picture twice: at the docs' 1440×900 and at a 1366×768 laptop's size (in 1366x768/).
screenshots: build
	QT_QPA_PLATFORM=offscreen $(BUILD)/tests/gui/rio_screenshots docs/screenshots
	mkdir -p docs/screenshots/1366x768
	QT_QPA_PLATFORM=offscreen RIO_SCREENSHOT_SIZE=1366x768 $(BUILD)/tests/gui/rio_screenshots docs/screenshots/1366x768

bench: build
	$(BUILD)/bench/rio_diff_bench
	$(BUILD)/bench/rio_protocol_bench
	$(BUILD)/bench/rio_agent_bench
	$(BUILD)/bench/rio_search_bench
	$(BUILD)/bench/rio_provider_bench
	$(BUILD)/bench/rio_session_bench
	$(BUILD)/bench/rio_lsp_bench
	$(BUILD)/bench/rio_sandbox_bench
	$(BUILD)/bench/rio_gui_editor_bench
	$(BUILD)/bench/rio_gui_plan_bench
	bench/cli_headless_bench.py $(BUILD)
	bench/startup_bench.py $(BUILD)
	bench/acp_startup_bench.py $(BUILD)
	bench/cache_bill_bench.py $(BUILD)
	bench/remote_latency_bench.py $(BUILD)

# build/rio_<version>_amd64.deb: CPack installs and packs what `build` made (nothing is
# compiled again); dpkg-shlibdeps works out its dependencies.
package: build
	cd $(BUILD) && cpack -G DEB

# The .deb installed system-wide, then checked the way a user would meet it (CI runs this
# after `make test`; it needs root or sudo).
package-check: package
	scripts/package-check $(BUILD)

# A real plan-mode turn against Anthropic / OpenAI; skips without ANTHROPIC_API_KEY or
# OPENAI_API_KEY. Not part of `make test`: CI has neither keys nor network.
live: build
	tests/live/live_plan_mode.py $(BUILD)/rio-core

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
