# Lucid: build the kernel, its GRUB ISO and its tests.
#
#   make / make iso    build build/lucid.iso
#   make run           boot it in QEMU, serial console on this terminal (SMP=4 MEM=256 CMDLINE=...
#                      SHARE=DIR: the host folder at /mnt/host, ./share by default, SHARE= none)
#   make test          every test: host unit tests, then QEMU integration tests
#   make debug         boot, and wait for gdb
#   make modules       build modules/*.c into build/modules/*.ko (the ISO carries them)
#   make bench         figures measured in guest instructions (qemu -icount shift=0)
#   make DEBUG=1       the kernel with every invariant check on (kernel/locking/lockdep.h), in build-debug/
#   make profile EVENT=function|graph|printk|fork|getpid|write|read|open|pipe_write|pipe_read|marker
#                      where one event's (or one lbench system call's) instructions go (gdb)
#   make record        trace a command in the guest into trace.dat (CMD='...' ARGS='-p function')
#   make clean

CROSS_COMPILE ?=
CC      := $(CROSS_COMPILE)gcc
LD      := $(CROSS_COMPILE)ld
NM      := $(CROSS_COMPILE)nm
OBJDUMP := $(CROSS_COMPILE)objdump
OBJCOPY := $(CROSS_COMPILE)objcopy
READELF := $(CROSS_COMPILE)readelf
NASM    ?= nasm
HOSTCC  ?= cc
PYTHON  ?= /usr/bin/python3
QEMU    ?= qemu-system-x86_64
export QEMU # tools/qemu-cmd runs it, for make run, the tests and the tools alike

# CPUs and MiB of the guest: tools/qemu-cmd's defaults (4 and 256) unless set.
SMP     ?=
MEM     ?=
CMDLINE ?=
FTRACE  ?= 1
GDBPORT ?= $(shell expr `id -u` % 5000 + 25000)

B := build

# --- sanitizer builds: `make UBSAN=1` builds in build-ubsan/, so that its objects and
# the normal build's never mix and both can exist at once (B=... on the command line still wins).
UBSAN ?= 0
ifeq ($(UBSAN),1)
B := build-ubsan
endif
# `make DEBUG=1` builds in build-debug/ with the checks of kernel/locking/lockdep.h that cost on hot
# paths (CONFIG_DEBUG_ASSERT); UBSAN=1 turns them on too, as it is a debugging build already.
DEBUG ?= 0
ifeq ($(UBSAN)$(DEBUG),01)
B := build-debug
endif

# Freestanding 64-bit kernel code: no libc, no red zone (interrupts push onto our stack), no SSE
# (we never save its registers), linked in the top 2 GiB, frame pointers everywhere for
# backtraces.
KCFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-pic -fno-pie -mcmodel=kernel -mno-red-zone \
	-mno-sse -mno-mmx -mgeneral-regs-only -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-common \
	-fno-delete-null-pointer-checks -fno-isolate-erroneous-paths-dereference \
	-Wall -Wextra -Werror -I.
KASFLAGS := -I. -D__ASSEMBLY__
KLDFLAGS := -nostdlib -static -no-pie -z max-page-size=4096 -z noexecstack -T linker.ld

# What is built: each source folder lists its files in its own Makefile.inc (KSRCS += ...), so a
# reader sees every file that goes into the kernel, folder by folder, and adding a file is one
# line beside it. No wildcards choose sources; the check below only compares.
SRC_DIRS := boot arch/x86_64 arch/x86_64/kprobes arch/x86_64/entry/vdso kernel kernel/sched \
	kernel/time kernel/locking kernel/futex kernel/mm kernel/fs kernel/fs/proc kernel/fs/9p \
	kernel/net kernel/net/unix kernel/events \
	kernel/drivers kernel/drivers/virtio kernel/debug kernel/shell kernel/shell/cmd kernel/module lib trace
KSRCS :=
include $(addsuffix /Makefile.inc,$(SRC_DIRS))
KOBJS := $(patsubst %,$(B)/%.o,$(basename $(KSRCS)))
KHDRS := $(wildcard $(addsuffix /*.h,$(SRC_DIRS)) trace/events/*.h)

# A folder's list and its files must agree: a source file nobody listed would silently not be
# built, and a listed file that is gone would fail later with a less helpful message.
SRC_ON_DISK := $(shell find boot arch kernel lib trace -name '*.c' -o -name '*.S' -o -name '*.asm')
SRC_UNLISTED := $(filter-out $(KSRCS) $(VDSO_SRCS) $(VDSO_LDS_SRC),$(SRC_ON_DISK))
SRC_MISSING := $(filter-out $(SRC_ON_DISK),$(KSRCS))
ifneq ($(SRC_UNLISTED)$(SRC_MISSING),)
$(error Makefile.inc lists and files disagree:$(if $(SRC_UNLISTED), not listed: \
	$(SRC_UNLISTED))$(if $(SRC_MISSING), listed but missing: $(SRC_MISSING)))
endif

# lib/ is a leaf: built for the host tests as for the kernel, it may include nothing of the
# kernel, the tracer or the architecture, and allocates nothing.
LIB_NOT_LEAF := $(shell grep -l '^\#include "\(kernel\|trace\|arch\)/' lib/*.c lib/*.h)
ifneq ($(LIB_NOT_LEAF),)
$(error lib/ must include nothing from kernel/, trace/ or arch/: $(LIB_NOT_LEAF))
endif

# Dynamic ftrace: every function of kernel/ and arch/ starts with "call __fentry__", listed in
# __mcount_loc. Not instrumented, ever: the tracer itself (trace/), lib/ (the tracer formats
# with it), and the code that patches call sites. Other exceptions are marked notrace in the code.
# CC_USING_FENTRY tells a header that its file is traced: spin_lock() is then the traceable
# _raw_spin_lock(), elsewhere the inline body (kernel/locking/spinlock.h says why).
FTRACE_CFLAGS := -pg -mfentry -mrecord-mcount -DCC_USING_FENTRY
NOTRACE_SRCS := arch/x86_64/ftrace.c arch/x86_64/text_poke.c kernel/kprobes.c \
	arch/x86_64/kprobes/core.c arch/x86_64/kprobes/ftrace.c \
	arch/x86_64/jump_label.c kernel/jump_label.c
ifeq ($(FTRACE),1)
TRACED_OBJS := $(patsubst %,$(B)/%.o,$(basename $(filter-out $(NOTRACE_SRCS), \
	$(filter kernel/%.c arch/x86_64/%.c,$(KSRCS)))))
$(TRACED_OBJS): KCFLAGS += $(FTRACE_CFLAGS)
endif

# The kprobe blacklist's whole files (kernel/kprobes.c explains): the probe machinery,
# text_poke, ftrace's patching and trampolines, the ring buffer. Their code is moved to
# .kprobes.text (linker.ld), as Linux's __kprobes functions are. None is built with -pg: a
# traced file here would put its call sites out of address order in __mcount_loc (ftrace_init
# would have to sort them); traced files blacklist functions one by one (NOKPROBE_SYMBOL).
NOKPROBE_SRCS := kernel/kprobes.c arch/x86_64/kprobes/core.c arch/x86_64/kprobes/ftrace.c \
	arch/x86_64/text_poke.c arch/x86_64/ftrace.c arch/x86_64/ftrace_64.S trace/ring_buffer.c \
	arch/x86_64/jump_label.c kernel/jump_label.c
NOKPROBE_OBJS := $(patsubst %,$(B)/%.o,$(basename $(NOKPROBE_SRCS)))
$(NOKPROBE_OBJS): KPROBES_TEXT = && $(OBJCOPY) --rename-section .text=.kprobes.text \
	--rename-section .text.unlikely=.kprobes.text.unlikely \
	--rename-section .text.hot=.kprobes.text.hot $@

all: iso
iso: $(B)/lucid.iso
.PHONY: all iso run debug test check unit qemu-test bench profile stress soak clean deps print-gdbport record
# A recipe that fails (a check after the link, say) takes its half-made target with it, so the
# next make runs it again instead of taking the file for done.
.DELETE_ON_ERROR:

deps:
	@tools/deps.sh

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"; $(CC) $(KCFLAGS) -MMD -MP -c $< -o $@ $(KPROBES_TEXT)

$(B)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KASFLAGS) -MMD -MP -c $< -o $@ $(KPROBES_TEXT)

# The vDSO (arch/x86_64/entry/vdso/): user code built into a shared object at kernel build
# time, as Linux's: position-independent, no libc, no -pg, no stack protector; linked by its
# own script into one PT_LOAD with the LINUX_2.6 symbols, checked to need no relocation (it is
# mapped as it is, at any address), with unwind tables (.eh_frame, for debuggers), stripped (vdso64.so, Linux's name), and embedded in the
# kernel by vdso-image.S. vdso64.so.dbg keeps the symbols, for gdb and objdump.
VDSO_DIR := $(B)/arch/x86_64/entry/vdso
VDSO_CFLAGS := -std=gnu11 -O2 -fPIC -fno-plt -ffreestanding -fno-stack-protector -fno-common \
	-fasynchronous-unwind-tables -mno-red-zone -mgeneral-regs-only -DVDSO_BUILD \
	-Wall -Wextra -Werror -I.
VDSO_OBJS := $(patsubst %.c,$(B)/%.o,$(VDSO_SRCS))
$(VDSO_OBJS): $(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  VDSOCC  $<"; $(CC) $(VDSO_CFLAGS) -MMD -MP -c $< -o $@
$(VDSO_DIR)/vdso.lds: $(VDSO_LDS_SRC) arch/x86_64/vdso.h
	@mkdir -p $(dir $@)
	$(CC) -E -P -x c -D__ASSEMBLY__ -I. $< -o $@
$(VDSO_DIR)/vdso64.so.dbg: $(VDSO_OBJS) $(VDSO_DIR)/vdso.lds
	$(LD) -shared -T $(VDSO_DIR)/vdso.lds -soname=linux-vdso.so.1 --hash-style=both \
		--build-id=sha1 -Bsymbolic -z max-page-size=4096 -z noexecstack --no-undefined \
		-o $@ $(VDSO_OBJS)
	@if $(READELF) -r $@ | grep -q 'Relocation section'; then \
		echo "vdso: $@ has relocations: it must map as it is" >&2; exit 1; fi
$(VDSO_DIR)/vdso64.so: $(VDSO_DIR)/vdso64.so.dbg
	$(OBJCOPY) -S $< $@
$(VDSO_DIR)/vdso-image.o: $(VDSO_DIR)/vdso64.so
$(VDSO_DIR)/vdso-image.o: KASFLAGS += -DVDSO_IMAGE='"$(VDSO_DIR)/vdso64.so"'
-include $(VDSO_OBJS:.o=.d)

$(B)/boot/%.o: boot/%.asm boot/long_mode.inc
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 -g -o $@ $<

# Two links (kernel/kallsyms.c explains): the first with an empty symbol table, the second
# with the table made from the first. scripts/check_kallsyms.sh proves no code moved.
$(B)/kallsyms0.o: scripts/gen_kallsyms.py
	@mkdir -p $(B)
	$(PYTHON) scripts/gen_kallsyms.py < /dev/null > $(B)/kallsyms0.S
	$(CC) -c $(B)/kallsyms0.S -o $@

# The table of functions' parameters (func-args, trace/func_args.h) comes the same way: empty
# in the first link, then made from the first link's DWARF (scripts/gen_func_args.py).
$(B)/func_args0.o: scripts/gen_func_args.py trace/func_args.h
	@mkdir -p $(B)
	$(PYTHON) scripts/gen_func_args.py < /dev/null > $(B)/func_args0.c
	$(CC) $(KCFLAGS) -c $(B)/func_args0.c -o $@

$(B)/lucid.pass1.elf: $(KOBJS) $(B)/kallsyms0.o $(B)/func_args0.o linker.ld
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms0.o $(B)/func_args0.o

$(B)/kallsyms.o: $(B)/lucid.pass1.elf scripts/gen_kallsyms.py
	$(NM) -n $< | $(PYTHON) scripts/gen_kallsyms.py > $(B)/kallsyms.S
	$(CC) -c $(B)/kallsyms.S -o $@

$(B)/func_args.o: $(B)/lucid.pass1.elf scripts/gen_func_args.py trace/func_args.h
	$(NM) $< > $(B)/func_args.syms
	$(READELF) --debug-dump=info $< 2>/dev/null | \
		$(PYTHON) scripts/gen_func_args.py $(B)/func_args.syms > $(B)/func_args.c
	$(CC) $(KCFLAGS) -c $(B)/func_args.c -o $@

$(B)/lucid.elf: $(B)/kallsyms.o $(B)/func_args.o
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms.o $(B)/func_args.o
	@scripts/check_kallsyms.sh $(NM) $(B)/lucid.pass1.elf $@
	$(NM) -n $@ > $(B)/kernel.sym
	$(OBJDUMP) -d --no-show-raw-insn -l $@ > $(B)/kernel.asm
	@$(PYTHON) scripts/check_notrace_locks.py $(B)/kernel.asm

$(B)/lucid.iso: $(B)/lucid.elf $(B)/initramfs.cpio.lz4 scripts/mkiso.sh FORCE
	@scripts/mkiso.sh $(B)/lucid.elf $@ "$(CMDLINE)" $(B)/initramfs.cpio.lz4

# --- user space: user/NAME.c is a C program built against musl (Debian's musl-gcc),
# static, packed at /bin/NAME into the newc cpio archive GRUB loads beside the kernel; the kernel
# unpacks it into / at boot, as Linux's initramfs.
USER_CC ?= musl-gcc
USER_CFLAGS := -static -O2 -Wall -Wextra -Werror
USER_PROGS :=
TEST_USER_PROGS :=
USER_FILES :=
include user/Makefile.inc
include tests/user/Makefile.inc
USER_ON_DISK := $(patsubst user/%.c,%,$(wildcard user/*.c))
TEST_USER_ON_DISK := $(patsubst tests/user/%.c,%,$(wildcard tests/user/*.c))
ifneq ($(sort $(USER_PROGS)),$(sort $(USER_ON_DISK)))
$(error user/Makefile.inc and user/*.c disagree: listed $(sort $(USER_PROGS)), on disk \
	$(sort $(USER_ON_DISK)))
endif
ifneq ($(sort $(TEST_USER_PROGS)),$(sort $(TEST_USER_ON_DISK)))
$(error tests/user/Makefile.inc and tests/user/*.c disagree: listed $(sort $(TEST_USER_PROGS)), \
	on disk $(sort $(TEST_USER_ON_DISK)))
endif
# From here on both kinds are alike: built the same way, packed at /bin/NAME.
USER_PROGS += $(TEST_USER_PROGS)
USER_BINS := $(patsubst %,$(B)/user/%,$(USER_PROGS))

$(B)/user/%: user/%.c $(wildcard user/*.h)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $<"; $(USER_CC) $(USER_CFLAGS) $< -o $@
$(B)/user/%: tests/user/%.c $(wildcard tests/user/*.h user/*.h)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $<"; $(USER_CC) $(USER_CFLAGS) $< -o $@

# lbench, the project's system-call benchmark (tools/bench.py, `make bench`), is built from its one
# home beside the repository, ../shared/bench/lbench.c (CI clones shared/ there too), not copied.
# Its README's command line exactly, so that Lucid runs the same code the Linux figures came from.
LBENCH_SRC := ../shared/bench/lbench.c
LBENCH_CFLAGS := -static -O2
ifneq ($(wildcard $(LBENCH_SRC)),)
USER_PROGS += lbench
USER_BINS += $(B)/user/lbench
$(B)/user/lbench: $(LBENCH_SRC)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $<"; $(USER_CC) $(LBENCH_CFLAGS) $< -o $@
endif
# uprobetest, the uprobe bench and test target (its three functions start with a lea, a push
# %rbp and a nop), from the same place and with its README's command line.
UPROBETEST_SRC := ../shared/bench/uprobetest.c
ifneq ($(wildcard $(UPROBETEST_SRC)),)
USER_PROGS += uprobetest
USER_BINS += $(B)/user/uprobetest
$(B)/user/uprobetest: $(UPROBETEST_SRC)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $<"; $(USER_CC) -static -O2 -Wall $< -o $@
endif

# Debian 12's busybox-static and bash-static, exactly as the packages ship them (tools/deps.sh
# installs both): /bin/busybox with a symbolic link in /bin for each of its applets (what
# `busybox --list` names, as `busybox --install -s` would make, all in /bin), except the names
# Lucid's own programs and bash have (init, ...), which stay theirs; /bin/bash, /bin/sh -> busybox,
# and rootfs/'s /etc/passwd, /etc/group and /etc/profile (the login shell's PATH and prompt).
BUSYBOX ?= /bin/busybox
BASH_STATIC ?= /bin/bash-static
BUSYBOX_APPLETS = $(filter-out busybox linuxrc bash $(USER_PROGS) $(USER_SHELL_COMMANDS) \
	$(notdir $(USER_FILES)) $(notdir $(filter bin/%,$(subst =, ,$(DYN_FILES)))), \
	$(shell $(BUSYBOX) --list))
ROOTFS_FILES := etc/passwd etc/group etc/profile

# --- dynamic programs (docs/design/exec.md, "Dynamic programs"): Debian's own trace-cmd at
# /usr/bin/trace-cmd (and /bin/trace-cmd, a link, so the shell finds it by name), and
# tests/dyn/*.c built by the host's plain gcc (glibc, PIE unless -no-pie) into /opt/dyn, with
# their test libraries in /opt/dyn/lib (their rpath). The loader and exactly the libraries `ldd`
# lists for them come from the host's Debian packages (scripts/ldd-libs.sh), copied as they are.
# The bad-input cases of tests/qemu/trace/test_dynamic.py: nointerp names a loader that is not there,
# badinterp one that is not ELF (notelf, also run itself), needmissing a library never packed,
# needshort and needcut libraries packed cut short (inside the ELF header; after the first page).
TRACE_CMD ?= /usr/bin/trace-cmd
# Debian's rtla (the osnoise and timerlat tracers' front end): on libtracefs, as trace-cmd.
RTLA ?= /usr/bin/rtla
DYN_CC ?= gcc
DYN_CFLAGS := -O2 -Wall -Wextra -Werror
DYN := $(B)/dyn
DYN_RPATH := /opt/dyn/lib
DYN_PROGS := hello hello-nopie usedyn nointerp badinterp needmissing needshort needcut \
	spawn2-glibc threads-glibc pthreads-glibc posixtimers-glibc vdso-glibc vdso-glibc-dyn \
	pshared-glibc
DYN_PROGS += sigqueueinfo-glibc
# libdynshort is cut inside the ELF header (ld.so says "file too short"); libdyncut after its
# first page, so its data segment is past the end, and ld.so's first touch of it is SIGBUS.
DYN_SHORT_BYTES := 40
DYN_CUT_BYTES := 4096
DYN_FILES := $(foreach p,$(DYN_PROGS) notelf,opt/dyn/$(p)=$(DYN)/$(p)) \
	opt/dyn/lib/libdyn.so=$(DYN)/libdyn.so opt/dyn/lib/libdynshort.so=$(DYN)/cut/libdynshort.so \
	opt/dyn/lib/libdyncut.so=$(DYN)/cut/libdyncut.so usr/bin/trace-cmd=$(TRACE_CMD) \
	link:bin/trace-cmd=/usr/bin/trace-cmd usr/bin/rtla=$(RTLA) link:bin/rtla=/usr/bin/rtla

$(DYN)/hello: tests/dyn/hello.c
	@mkdir -p $(dir $@)
	@echo "  GCC     $<"; $(DYN_CC) $(DYN_CFLAGS) $< -o $@
$(DYN)/hello-nopie: tests/dyn/hello.c
	@mkdir -p $(dir $@)
	@echo "  GCC     $< (-no-pie)"; $(DYN_CC) $(DYN_CFLAGS) -no-pie $< -o $@
$(DYN)/nointerp: tests/dyn/hello.c
	@mkdir -p $(dir $@)
	$(DYN_CC) $(DYN_CFLAGS) -Wl,--dynamic-linker=/lib64/ld-missing.so.2 $< -o $@
$(DYN)/badinterp: tests/dyn/hello.c
	@mkdir -p $(dir $@)
	$(DYN_CC) $(DYN_CFLAGS) -Wl,--dynamic-linker=/opt/dyn/notelf $< -o $@
# The vDSO's test program (tests/user/vdso.c) with glibc's dynamic loader too, which finds the
# vDSO as a library of its own (docs/design/vdso.md).
$(DYN)/vdso-glibc-dyn: tests/user/vdso.c
	@mkdir -p $(dir $@)
	@echo "  GCC     $< (glibc, dynamic)"; $(DYN_CC) $(DYN_CFLAGS) $< -o $@
# A tests/user/ program built static against glibc too: glibc's own way into the kernel.
$(DYN)/%-glibc: tests/user/%.c
	@mkdir -p $(dir $@)
	@echo "  GCC     $< (-static, glibc)"; $(DYN_CC) $(DYN_CFLAGS) -static $< -o $@
$(DYN)/notelf:
	@mkdir -p $(dir $@)
	printf 'NOTELF\0\1\2\3\n' > $@ && chmod 755 $@
$(patsubst %,$(DYN)/%.so,libdyn libdynmissing libdynshort libdyncut): $(DYN)/%.so: tests/dyn/libdyn.c
	@mkdir -p $(dir $@)
	$(DYN_CC) $(DYN_CFLAGS) -shared -fPIC -Wl,-soname,$*.so $< -o $@
$(DYN)/cut/libdynshort.so: $(DYN)/libdynshort.so
	@mkdir -p $(dir $@)
	head -c $(DYN_SHORT_BYTES) $< > $@ && chmod 755 $@
$(DYN)/cut/libdyncut.so: $(DYN)/libdyncut.so
	@mkdir -p $(dir $@)
	head -c $(DYN_CUT_BYTES) $< > $@ && chmod 755 $@
$(DYN)/usedyn: tests/dyn/usedyn.c $(DYN)/libdyn.so
	$(DYN_CC) $(DYN_CFLAGS) $< -L$(DYN) -ldyn -Wl,-rpath,$(DYN_RPATH) -o $@
$(DYN)/needmissing $(DYN)/needshort $(DYN)/needcut: $(DYN)/need%: tests/dyn/usedyn.c $(DYN)/libdyn%.so
	$(DYN_CC) $(DYN_CFLAGS) $< -L$(DYN) -ldyn$* -Wl,-rpath,$(DYN_RPATH) -o $@
$(DYN)/libs.list: $(patsubst %,$(DYN)/%,$(DYN_PROGS)) $(TRACE_CMD) $(RTLA) scripts/ldd-libs.sh
	@echo "  LDD     $@"; scripts/ldd-libs.sh $(DYN)/hello $(DYN)/hello-nopie $(DYN)/usedyn \
		$(TRACE_CMD) $(RTLA) > $@.tmp && mv $@.tmp $@

# --- modules: modules/NAME.c is a loadable module (kernel/module/module.h), compiled with the
# kernel's own flags (-mcmodel=kernel, and -pg -mfentry -mrecord-mcount when the kernel has them,
# so each carries its __mcount_loc), linked with a generated NAME.mod.c that defines its struct
# module (as Linux's modpost writes one) into build/modules/NAME.ko, a relocatable object
# (ld -r). The initramfs carries them where Linux's modprobe looks, /lib/modules/$(uname -r)/,
# laid out as Linux's in-tree modules are (kernel/ and the source's path: kernel/modules/foo.ko,
# kernel/tests/modules/undef.ko), with the modules.dep (and .alias, .symbols) that busybox's own
# depmod writes for them at build time: `modprobe foo`, `modprobe -r foo`, `insmod PATH`.
MODULES :=
include modules/Makefile.inc
TEST_MODULES :=
include tests/modules/Makefile.inc
MODULE_KOS := $(patsubst %,$(B)/modules/%.ko,$(MODULES) $(TEST_MODULES))
MODULES_ON_DISK := $(patsubst modules/%.c,%,$(wildcard modules/*.c))
ifneq ($(sort $(MODULES)),$(sort $(MODULES_ON_DISK)))
$(error modules/Makefile.inc and modules/*.c disagree: listed $(sort $(MODULES)), on disk \
	$(sort $(MODULES_ON_DISK)))
endif
TEST_MODULES_ON_DISK := $(patsubst tests/modules/%.c,%,$(wildcard tests/modules/*.c))
ifneq ($(sort $(TEST_MODULES)),$(sort $(TEST_MODULES_ON_DISK)))
$(error tests/modules/Makefile.inc and tests/modules/*.c disagree)
endif
MOD_CFLAGS = $(KCFLAGS) $(if $(filter 1,$(FTRACE)),$(FTRACE_CFLAGS)) -DKBUILD_MODNAME='"$*"'

$(B)/modules/%.o: modules/%.c $(B)/kcflags
	@mkdir -p $(dir $@)
	@echo "  CC [M]  $<"; $(CC) $(MOD_CFLAGS) -MMD -MP -c $< -o $@

$(B)/modules/%.o: tests/modules/%.c $(B)/kcflags
	@mkdir -p $(dir $@)
	@echo "  CC [M]  $<"; $(CC) $(MOD_CFLAGS) -MMD -MP -c $< -o $@

# As modpost's NAME.mod.c, with its name= and depends= for modinfo and depmod (none of Lucid's
# modules uses another's exports: depends is empty).
$(B)/modules/%.mod.c: $(B)/kcflags
	@mkdir -p $(dir $@)
	@printf '#include "kernel/module/module.h"\nMODULE_THIS_MODULE("%s");\n%s\n%s\n' $* \
		'MODULE_INFO(depends, "");' 'MODULE_INFO(name, KBUILD_MODNAME);' > $@

# No -pg here: __this_module is data.
$(B)/modules/%.mod.o: $(B)/modules/%.mod.c
	@$(CC) $(KCFLAGS) -DKBUILD_MODNAME='"$*"' -MMD -MP -c $< -o $@

$(B)/modules/%.ko: $(B)/modules/%.o $(B)/modules/%.mod.o
	@echo "  LD [M]  $@"; $(LD) -r -o $@ $^

# The release is kernel/version.h's UTS_RELEASE, what uname -r says.
KERNELRELEASE := $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' kernel/version.h)
MODDIR := lib/modules/$(KERNELRELEASE)
MOD_PATHS := $(foreach m,$(MODULES),kernel/modules/$(m).ko=$(B)/modules/$(m).ko) \
	$(foreach m,$(TEST_MODULES),kernel/tests/modules/$(m).ko=$(B)/modules/$(m).ko)
MODTREE := $(B)/modtree
$(MODTREE)/stamp: $(MODULE_KOS) kernel/version.h Makefile
	@echo "  DEPMOD  $(MODDIR)"; rm -rf $(MODTREE) && \
	for p in $(MOD_PATHS); do \
		mkdir -p $(MODTREE)/$(MODDIR)/$$(dirname $${p%%=*}) && \
		cp $${p#*=} $(MODTREE)/$(MODDIR)/$${p%%=*} || exit 1; \
	done && $(BUSYBOX) depmod -b $(MODTREE) $(KERNELRELEASE) && touch $@

modules: $(MODULE_KOS)
.PHONY: modules
.PRECIOUS: $(B)/modules/%.o $(B)/modules/%.mod.c $(B)/modules/%.mod.o
-include $(MODULE_KOS:.ko=.d) $(MODULE_KOS:.ko=.mod.d)

# The initramfs as the ISO carries it: LZ4's legacy frame, as Linux's `lz4 -l -9` makes it
# (kernel/fs/initramfs.c decompresses it; lib/decompress_unlz4.c says why LZ4 and not gzip).
LZ4 ?= lz4
$(B)/initramfs.cpio.lz4: $(B)/initramfs.cpio
	@echo "  LZ4     $@"; $(LZ4) -l -9 -q -f $< $@

$(B)/initramfs.cpio: $(USER_BINS) $(USER_FILES) $(MODTREE)/stamp $(addprefix rootfs/,$(ROOTFS_FILES)) \
		$(BUSYBOX) $(BASH_STATIC) scripts/mkcpio.py Makefile user/Makefile.inc tests/user/Makefile.inc $(DYN)/libs.list \
		$(patsubst %,$(DYN)/%,$(DYN_PROGS) notelf) $(DYN)/libdyn.so $(DYN)/cut/libdynshort.so \
		$(DYN)/cut/libdyncut.so
	@echo "  CPIO    $@"; $(PYTHON) scripts/mkcpio.py $@ \
		$$(cat $(DYN)/libs.list) $(DYN_FILES) \
		$(foreach p,$(filter-out $(USER_SBIN_PROGS),$(USER_PROGS)),bin/$(p)=$(B)/user/$(p)) \
		$(foreach p,$(USER_SBIN_PROGS),sbin/$(p)=$(B)/user/$(p)) \
		$(foreach f,$(USER_FILES),bin/$(notdir $(f))=$(f)) \
		bin/busybox=$(BUSYBOX) bin/bash=$(BASH_STATIC) \
		$(foreach a,$(BUSYBOX_APPLETS),'link:bin/$(a)=busybox') \
		$(foreach c,$(USER_DEBUGFS_COMMANDS),'link:bin/$(c)=debugfs_cmd') \
		$(foreach f,$(ROOTFS_FILES),$(f)=rootfs/$(f)) \
		$$(cd $(MODTREE) && find $(MODDIR) -type f | sort | sed 's|.*|&=$(MODTREE)/&|')

FORCE:

# QEMU's command line is tools/qemu-cmd's, shared with the tests and tools/lucid-record. Here
# the console is a person's terminal: Ctrl-C goes to Lucid, Ctrl-A X quits, Ctrl-A C is
# QEMU's monitor (tools/qemu-cmd explains).
QEMU_SIZE = $(if $(SMP),--smp $(SMP)) $(if $(MEM),--mem $(MEM))
# SHARE: a host folder Lucid mounts at /mnt/host (virtio-9p), ./share by default and made if
# missing; SHARE= (empty) shares nothing.
SHARE ?= ./share
QEMU_RUN = tools/run-qemu.sh $(QEMU_SIZE) --iso $(B)/lucid.iso --console interactive \
	$(if $(SHARE),--share '$(subst ','\'',$(SHARE))')

SHARE_MKDIR = $(if $(SHARE),mkdir -p '$(subst ','\'',$(SHARE))' &&)

run: deps iso
	@$(SHARE_MKDIR) $(QEMU_RUN)

debug: deps iso
	@sed "s/@GDBPORT@/$(GDBPORT)/" scripts/gdbinit.tmpl > .gdbinit
	@echo "*** Now run 'gdb -x .gdbinit' in another window, then: hbreak kmain, continue"
	@echo "*** (Ctrl-A X here quits QEMU)"
	@$(SHARE_MKDIR) $(QEMU_RUN) -- -S -gdb tcp::$(GDBPORT)

print-gdbport:
	@echo $(GDBPORT)

# tools/lucid-record: boots the ISO, runs Debian's trace-cmd record in Lucid around CMD (one line
# for Lucid's shell) with what ARGS asks (trace-cmd record's options: -p function_graph
# -l 'ftest*' -e sched --json trace.json ...), and copies its trace.dat out through the shared
# folder for `trace-cmd report` and KernelShark. CMD is quoted for the host shell.
CMD ?=
ARGS ?=
record: deps iso
	@$(PYTHON) tools/lucid-record --iso $(B)/lucid.iso $(QEMU_SIZE) $(ARGS) \
		-- '$(subst ','\'',$(CMD))'

# --- tests -----------------------------------------------------------------------------------
UNIT_TESTS :=
include $(wildcard tests/unit/*.mk)
HOSTCFLAGS := -std=gnu11 -g -O1 -I. -DLUCID_HOST -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -Wall -Wextra -Werror
UNIT_BINS := $(patsubst %,$(B)/host/test_%,$(UNIT_TESTS))

define unit_rule
$(B)/host/test_$(1): $$($(1)_SRCS) $$(KHDRS) $$(wildcard tests/unit/*.h)
	@mkdir -p $(B)/host
	$(HOSTCC) $(HOSTCFLAGS) $$($(1)_CFLAGS) $$($(1)_SRCS) -o $$@ -lcmocka -lpthread
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

unit: $(UNIT_BINS)

# Runs every suite and ends with one "N passed, N failed" line over all of them. QEMU_JOBS test
# files boot their kernels at once (tests/run_tests.py): one a host core, CI has two.
QEMU_JOBS ?= 2
# The build before it runs nproc jobs at once unless make was given -j.
NPROC := $(shell nproc 2>/dev/null || echo 1)
test: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) iso unit \
		fuzz-build ubsan-iso
	@$(PYTHON) scripts/check_tree.py
	@$(PYTHON) tests/run_tests.py --unit $(UNIT_BINS) --qemu tests/qemu --jobs $(QEMU_JOBS) \
		--fuzz $(FUZZ_BINS) --fuzz-seconds $(FUZZ_TEST_SECONDS) \
		--ubsan-build $(UBSAN_B) --ubsan-qemu $(UBSAN_QEMU_TESTS)

# The quick tier, before a commit: everything that needs no QEMU, in about two minutes on two
# cores. The kernel is built (its own checks run as it links: kallsyms, the notrace locks, the
# folder lists), then the host unit tests, each fuzzer replaying its seeds for a second, the
# tree's maps and the paths comments name (scripts/check_tree.py), and the Python that the
# tests and tools are.
CHECK_FUZZ_SECONDS ?= 1
check: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) $(B)/lucid.elf \
		unit fuzz-build
	@$(PYTHON) scripts/check_tree.py
	@$(PYTHON) -m py_compile $(wildcard tests/*.py tests/qemu/*.py tests/qemu/*/*.py tools/*.py \
		scripts/*.py)
	@$(PYTHON) tests/run_tests.py --unit $(UNIT_BINS) --fuzz $(FUZZ_BINS) \
		--fuzz-seconds $(CHECK_FUZZ_SECONDS)

bench: deps iso
	@$(PYTHON) tools/bench.py

EVENT ?= function
profile: deps iso
	@$(PYTHON) tools/insn_profile.py $(EVENT)

# Tracer switching, filters, resizes and trace_pipe under run_test on 4 CPUs (tests/stress.py).
STRESS_MINUTES ?= 10
MINUTES ?= 60
stress: deps iso
	@$(PYTHON) tests/stress.py --minutes $(STRESS_MINUTES)

soak: deps iso
	@$(PYTHON) tests/stress.py --minutes $(MINUTES)

clean:
	rm -rf $(B) .gdbinit

-include $(KOBJS:.o=.d)

# --- fuzzing ---------------------------------------------------------------------------------
# libFuzzer targets, built with clang from the kernel's own sources as the unit tests are
# (-DLUCID_HOST, never a copy). Each tests/fuzz/NAME.mk says:
#     FUZZ_TARGETS += NAME
#     fuzz_NAME_SRCS := tests/fuzz/fuzz_NAME.c lib/foo.c ...
# and the seeds are in tests/fuzz/corpus/NAME/. `make fuzz` runs each target FUZZ_SECONDS, then
# merges the new inputs that reach new code into tests/fuzz/corpus/NAME (libFuzzer -merge=1:
# only what adds coverage, so the corpus stays small): commit them, and the next run, anyone's,
# starts where this one ended instead of from the seeds again (FUZZ_MERGE=0: keep the tree as
# it is). Run it before each stop: 30 s a target from the kept corpus finds what 45 s from the
# seeds found (about 8 minutes for 16 targets). `make test` replays the corpus and
# fuzzes each FUZZ_TEST_SECONDS (tests/run_tests.py --fuzz), merging nothing. New inputs go to
# $(B)/fuzz/work/NAME, crashes to $(B)/fuzz/crash-NAME-*: copy a crash into the corpus once fixed.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30
FUZZ_MERGE ?= 1
FUZZ_TEST_SECONDS ?= 2
FUZZ_TARGETS :=
include $(wildcard tests/fuzz/*.mk)
FUZZCFLAGS := -std=gnu11 -g -O1 -I. -DLUCID_HOST -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -Wall -Wextra -Werror
FUZZ_BINS := $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_TARGETS))

define fuzz_rule
$(B)/fuzz/fuzz_$(1): $$(fuzz_$(1)_SRCS) $$(KHDRS) $$(wildcard tests/unit/*.h tests/fuzz/*.h)
	@mkdir -p $(B)/fuzz
	@echo "  FUZZCC  $$@"; $(FUZZ_CC) $(FUZZCFLAGS) $$(fuzz_$(1)_CFLAGS) $$(fuzz_$(1)_SRCS) -o $$@
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rule,$(t))))

fuzz-build: $(FUZZ_BINS)

fuzz: deps fuzz-build
	@$(PYTHON) tests/run_tests.py --fuzz $(FUZZ_BINS) --fuzz-seconds $(FUZZ_SECONDS) \
		$(if $(filter 1,$(FUZZ_MERGE)),--fuzz-merge)
.PHONY: fuzz fuzz-build

# --- sanitizers in the kernel ----------------------------------------------------------------
# -fstack-protector-strong is always on (STACKPROTECTOR=0 turns it off), as in the kernels Linux
# distributions ship: it costs a compare only in functions with local arrays, needs one global
# from the kernel (kernel/debug/stackprotector.c), and so every test run checks it. gcc's default
# canary is %fs:40, in user space's thread block; a kernel has none: -mstack-protector-guard=
# global reads __stack_chk_guard instead.
#
# UBSAN=1 adds the undefined behaviour checks that mean something in a freestanding kernel,
# each reported by kernel/debug/ubsan.c (built without them). Left out: null, as in Linux: page 0 is
# unmapped, so the MMU already catches a NULL dereference, for free and with the registers in
# the oops (lkdtm's NULL shows it in both builds); return and enum (C++ only in gcc), float-* (no
# floating point here), vptr (C++).
STACKPROTECTOR ?= 1
ifeq ($(STACKPROTECTOR),1)
KCFLAGS := $(filter-out -fno-stack-protector,$(KCFLAGS)) -fstack-protector-strong \
	-mstack-protector-guard=global -DCONFIG_STACKPROTECTOR
endif
UBSAN_CFLAGS := -fsanitize=shift,integer-divide-by-zero,unreachable,vla-bound \
	-fsanitize=signed-integer-overflow,bounds,alignment,object-size,bool,pointer-overflow \
	-fsanitize=builtin -DCONFIG_UBSAN
ifeq ($(UBSAN),1)
KCFLAGS += $(UBSAN_CFLAGS)
$(B)/kernel/debug/ubsan.o: KCFLAGS += -fno-sanitize=all
endif
ifneq ($(filter 1,$(UBSAN) $(DEBUG)),)
KCFLAGS += -DCONFIG_DEBUG_ASSERT
endif

# The objects depend on the flags they are built with, written to $(B)/kcflags: changing
# STACKPROTECTOR or FTRACE rebuilds them. (Tests read the file to know what a build has.)
KCFLAGS_STAMP := $(B)/kcflags
$(shell mkdir -p $(B) && echo '$(KCFLAGS) FTRACE=$(FTRACE)' | cmp -s - $(KCFLAGS_STAMP) || \
	echo '$(KCFLAGS) FTRACE=$(FTRACE)' > $(KCFLAGS_STAMP))
$(KOBJS): $(KCFLAGS_STAMP)

# make test boots a UBSAN build too: these QEMU tests run against it (tests/run_tests.py).
UBSAN_B := build-ubsan
UBSAN_QEMU_TESTS := test_boot test_smp test_sanitizers
ubsan-iso:
	@$(MAKE) --no-print-directory UBSAN=1 B=$(UBSAN_B) iso
clean-ubsan:
	rm -rf $(UBSAN_B)
clean: clean-ubsan
clean-debug:
	rm -rf build-debug
clean: clean-debug
.PHONY: ubsan-iso clean-ubsan clean-debug
