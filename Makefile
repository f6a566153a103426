# dlsim -- build, test and install.
#
#   make demo     install missing Debian packages, build, run a prediction
#   make check    the same set-up, then the whole Check test suite
#   make bench    time a prediction: whole process, and an in-process loop
#   make check-full  check under ASan+UBSan, then under valgrind
#   make install PREFIX=/usr/local DESTDIR=
#
# All library code goes into build/libdlsim.a; build/dlsim is the thin
# command-line dispatcher and build/test_dlsim the test runner.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
BUILD   ?= build
PKGS    := libcyaml check

OPT      ?= -O2 -g
CFLAGS   ?=
WFLAGS   := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -Iinclude -I.
DEPCFLAGS = $(shell pkg-config --cflags libcyaml sqlite3 gsl openblas \
	2>/dev/null)
LIBS      = $(shell pkg-config --libs libcyaml sqlite3 gsl openblas \
	2>/dev/null) -lm
MPICC    ?= mpicc
TESTLIBS  = $(shell pkg-config --libs check 2>/dev/null)

LIB_SRC := $(wildcard core/*.c models/*.c hw/*.c sim/*.c reports/*.c db/*.c \
	calibrate/*.c)
CLI_SRC := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/*.c)
HW_YAML := $(sort $(wildcard configs/hw/*.yaml))
GEN_SRC := $(BUILD)/gen/hw_builtin.c
SEED_CSV := $(sort $(wildcard data/calibration/*.csv data/calibration/*.txt))
SEED_SRC := $(BUILD)/gen/seed_builtin.c
VALID_CSV := $(sort $(wildcard data/validation/*.csv))
VALID_SRC := $(BUILD)/gen/validation_builtin.c
ID_SRC := $(BUILD)/gen/build_id.c

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/hw_builtin.o \
	$(BUILD)/gen/seed_builtin.o $(BUILD)/gen/validation_builtin.o \
	$(BUILD)/gen/build_id.o
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

.PHONY: all deps demo check check-full bench validate install clean FORCE

all: $(BUILD)/dlsim $(BUILD)/dlsim-mpibench

deps:
	@sh tools/deps.sh

# V=1 shows whole command lines.
Q := $(if $(V),,@)

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(DEPCFLAGS) $(WFLAGS) $(OPT) $(CFLAGS) -MMD -MP \
		-c $< -o $@

$(GEN_SRC): $(HW_YAML) tools/embed.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed.sh $@ hw_builtin_files $(HW_YAML)

# The calibration data a fresh database is seeded with (cal_seed.c).
$(SEED_SRC): $(SEED_CSV) tools/embed.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed.sh $@ cal_seed_files $(SEED_CSV)

# The published measurements dlsim validate predicts (cal_validate.c).
$(VALID_SRC): $(VALID_CSV) tools/embed.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed.sh $@ cal_validation_files $(VALID_CSV)

# The version with the commit built (dlsim_version()); checked on every
# make, rewritten only when it changes.
$(ID_SRC): FORCE
	@mkdir -p $(dir $@)
	$(Q)sh tools/build_id.sh $@

FORCE:

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(Q)$(CC) $(CPPFLAGS) $(DEPCFLAGS) $(WFLAGS) $(OPT) $(CFLAGS) -c $< -o $@

$(BUILD)/libdlsim.a: $(LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/dlsim: $(CLI_OBJ) $(BUILD)/libdlsim.a
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/dlsim-mpibench: tools/mpibench.c | deps
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  MPICC   $<")
	$(Q)$(MPICC) $(WFLAGS) $(OPT) $(CFLAGS) -D_POSIX_C_SOURCE=200809L \
		$(LDFLAGS) -o $@ $<

$(BUILD)/test_dlsim: $(TEST_OBJ) $(BUILD)/libdlsim.a
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

# dlsim's accuracy record against the shipped measurements (issue 6).
validate: $(BUILD)/dlsim
	$(BUILD)/dlsim validate

demo: $(BUILD)/dlsim
	$(BUILD)/dlsim predict resnet50 --hw v100x64

check: $(BUILD)/test_dlsim $(BUILD)/dlsim $(BUILD)/dlsim-mpibench
	DLSIM_BIN=$(BUILD)/dlsim $(BUILD)/test_dlsim

# The full tier: sanitizers, then valgrind on a plain build.
check-full:
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fsanitize=address,undefined \
		-fno-omit-frame-pointer -fno-sanitize-recover=all" check
	$(MAKE) BUILD=build/vg OPT="-O1 -g" build/vg/test_dlsim build/vg/dlsim
	CK_FORK=no DLSIM_BIN=build/vg/dlsim valgrind -q --error-exitcode=9 --trace-children=yes \
		--errors-for-leak-kinds=definite --show-possibly-lost=no \
		--trace-children-skip='*gnuplot*' \
		--leak-check=full build/vg/test_dlsim

$(BUILD)/bench_predict: $(BUILD)/bench/bench_predict.o $(BUILD)/libdlsim.a
	$(Q)$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

bench: $(BUILD)/dlsim $(BUILD)/bench_predict
	@sh tools/bench.sh $(BUILD)

install: $(BUILD)/dlsim $(BUILD)/dlsim-mpibench
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/dlsim/hw \
		$(DESTDIR)$(PREFIX)/share/dlsim/models
	install -m 755 $(BUILD)/dlsim $(DESTDIR)$(PREFIX)/bin/dlsim
	install -m 755 $(BUILD)/dlsim-mpibench \
		$(DESTDIR)$(PREFIX)/bin/dlsim-mpibench
	install -m 644 man/dlsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/dlsim.1
	install -m 644 $(HW_YAML) $(DESTDIR)$(PREFIX)/share/dlsim/hw/
	install -m 644 configs/models/*.yaml \
		$(DESTDIR)$(PREFIX)/share/dlsim/models/

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) \
	$(BUILD)/bench/bench_predict.d
