# gfpaudit — top-level Makefile.
#
#   make            build ./gfpaudit
#   make deps       install the Debian packages the project needs (as root)
#   make check      build and run every test (unit + integration, under prove)
#   make check SANITIZE=1   the same, built with ASan+UBSan
#   make demo       run the whole pipeline on examples/minikernel
#   make bench      benchmarks against the peers (bench/)
#   make eval       classifier accuracy on the hand-labelled 6.1 sites
#   make fuzz       libFuzzer targets, each for a bounded time

# Debian 12 packages.  Build: libclang-dev libsqlite3-dev, and
# libtracecmd-dev libtraceevent-dev (libtracefs-dev, which libtracecmd.pc
# requires) with pkg-config, to read trace-cmd's trace.dat.  Tests: the
# rest (sparse and spatch are the peers/validators, linux-source-6.1 is the
# real tree the integration tests scan, flex/bison/bc/libelf-dev/libssl-dev
# let `make defconfig prepare` run on it, chromium renders the HTML report,
# trace-cmd and linux-perf record the kmem traces t4005 replays, qemu,
# busybox-static and cpio boot Debian's 6.1 kernel for tools/kboot, man-db
# renders the installed man pages for t0006).  libmimalloc-dev: the plain
# build's malloc (see MALLOC_LIBS).
DEB_PKGS := build-essential libclang-dev libsqlite3-dev sqlite3 clang llvm \
	libclang-rt-14-dev libcmocka-dev sparse coccinelle perl git parallel \
	linux-source-6.1 flex bison bc libelf-dev libssl-dev xz-utils python3 \
	chromium pkg-config libtracecmd-dev libtraceevent-dev libtracefs-dev \
	trace-cmd linux-perf qemu-system-x86 busybox-static cpio man-db \
	libmimalloc-dev

LLVM_CONFIG ?= llvm-config-14
LLVM_PREFIX := $(shell $(LLVM_CONFIG) --prefix 2>/dev/null || echo /usr/lib/llvm-14)

VERSION := 0.1.0
# make install PREFIX=... DESTDIR=...: the data directory is compiled in
# (lib/datadir.c also finds EXE/../share/gfpaudit, and the source tree's
# data/ for a binary of the build tree).
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/gfpaudit
MANDIR = $(PREFIX)/share/man
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
CC ?= cc
OPT ?= -O2
CFLAGS := -std=c11 -D_GNU_SOURCE -DGFPAUDIT_VERSION=\"$(VERSION)\" -Wall -Wextra -Werror $(OPT) -g \
	-I. -I$(LLVM_PREFIX)/include $(EXTRA_CFLAGS)
# Only the trace.dat reader includes their headers (tracefs.h and
# event-parse.h come along with trace-cmd.h).
TRACE_PKGS := libtracecmd libtraceevent
TRACE_CFLAGS := $(shell pkg-config --cflags $(TRACE_PKGS) 2>/dev/null)
TRACE_LIBS := $(shell pkg-config --libs $(TRACE_PKGS) 2>/dev/null || \
	echo -ltracecmd -ltraceevent)
LDLIBS := -L$(LLVM_PREFIX)/lib -Wl,-rpath,$(LLVM_PREFIX)/lib -lclang \
	-lsqlite3 $(TRACE_LIBS) -lpthread -lm

ifeq ($(FUZZ),1)
# libFuzzer builds: clang, coverage instrumentation on every object, the
# fuzzer runtime linked only into the fuzz/fuzz_*.c drivers.
CC := clang
BUILD := build-fuzz
CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else ifeq ($(SANITIZE),1)
BUILD := build-san
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
BUILD := build
# mimalloc in place of glibc's malloc, for libclang's allocations too:
# a whole 6.1 scan takes 8% less CPU and 10% less wall time.  Only where
# it is installed, and not under ASan, which brings its own allocator.
MALLOC_LIBS := $(if $(filter /%,$(shell $(CC) -print-file-name=libmimalloc.so)),-lmimalloc)
endif
BIN := $(BUILD)/gfpaudit

STAGES := lib db analyzer rules patches allocator reports
LIB_SRCS := $(foreach d,$(STAGES),$(wildcard $(d)/*.c)) \
	$(filter-out cli/gfpaudit.c,$(wildcard cli/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/cli/gfpaudit.o
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
FUZZ_SRCS := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:fuzz/%.c=build-fuzz/fuzz/%)
FUZZ_TIME ?= 60
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:%.c=$(BUILD)/%)

.PHONY: all gfpaudit deps check unit demo man install uninstall bench eval fuzz fuzz-bins \
	fuzz-smoke clean format
all: gfpaudit

gfpaudit: $(BIN)
ifneq ($(SANITIZE),1)
	@ln -sf $(BIN) gfpaudit
endif

# Objects are linked directly, not through an archive: classifiers and
# rules register themselves from constructors (smatch-style), and an
# archive would drop the objects nothing references by name.
$(BIN): $(MAIN_OBJ) $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(MALLOC_LIBS) $(LDLIBS)

$(BUILD)/allocator/trace_dat.o: CFLAGS += $(TRACE_CFLAGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/lib/datadir.o: CFLAGS += -DGFPAUDIT_DATADIR=\"$(DATADIR)\" \
	-DGFPAUDIT_SRC_DATADIR=\"$(CURDIR)/data\"

$(BUILD)/tests/unit/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) -lcmocka $(LDLIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Install what is missing when root; otherwise print the exact command.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
			grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "deps: installing$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing; \
	else \
		echo "deps: missing packages; run as root:"; \
		echo "  apt-get install -y$$missing"; exit 1; \
	fi

unit: $(UNIT_BINS) $(TOOL_BINS)

# Every test runs under prove: unit tests (cmocka, TAP output) and the
# numbered shell tests in tests/.  prove prints the summary line last.
check: deps gfpaudit unit
	GFPAUDIT=$(CURDIR)/$(BIN) CMOCKA_MESSAGE_OUTPUT=TAP \
	GFPAUDIT_SANITIZED=$(if $(filter 1,$(SANITIZE)),1,0) \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		prove -j$(or $(JOBS),2) --timer --exec '' \
		$(UNIT_BINS) $(sort $(wildcard tests/t[0-9]*.sh))

# Man pages and bash completion come from the binary's own help text.
man: gfpaudit
	sh tools/mkman $(BIN) $(BUILD)/man
	sh tools/mkcompletion $(BIN) $(BUILD)/gfpaudit.bash

install: gfpaudit man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/cocci \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/gfpaudit
	install -m 644 data/*.txt data/*.rule $(DESTDIR)$(DATADIR)/
	install -m 644 data/cocci/*.cocci $(DESTDIR)$(DATADIR)/cocci/
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/gfpaudit.bash $(DESTDIR)$(COMPLETIONDIR)/gfpaudit

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gfpaudit $(DESTDIR)$(COMPLETIONDIR)/gfpaudit \
		$(DESTDIR)$(MANDIR)/man1/gfpaudit.1 \
		$(DESTDIR)$(MANDIR)/man1/gfpaudit-*.1
	rm -rf $(DESTDIR)$(DATADIR)

demo: deps gfpaudit
	GFPAUDIT=$(CURDIR)/$(BIN) sh examples/demo.sh

bench: gfpaudit
	GFPAUDIT=$(CURDIR)/$(BIN) sh bench/run.sh

# The classifiers against the hand labels of the 6.1 tree (bench/eval/).
eval: deps gfpaudit
	GFPAUDIT=$(CURDIR)/$(BIN) sh bench/60-classify-labels.sh

build-fuzz/fuzz/%: fuzz/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJS) $(LDLIBS)

fuzz-bins: $(FUZZ_BINS)

# make fuzz: every target for FUZZ_TIME seconds from its committed seed
# corpus (fuzz/corpus/NAME/); new inputs go to build-fuzz/corpus/NAME/.
# make fuzz-smoke: the same, 10 s each (CI).
fuzz:
	$(MAKE) FUZZ=1 fuzz-bins
	FUZZ_TIME=$(FUZZ_TIME) sh fuzz/run.sh $(FUZZ_BINS)

fuzz-smoke:
	$(MAKE) FUZZ=1 fuzz-bins
	FUZZ_TIME=10 sh fuzz/run.sh $(FUZZ_BINS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-san build-fuzz gfpaudit
