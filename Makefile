# Lucid: build the kernel, its GRUB ISO and its tests.
#
#   make / make iso    build build/lucid.iso
#   make run           boot it in QEMU, serial console on this terminal (SMP=4 MEM=256 CMDLINE=...)
#   make test          every test: host unit tests, then QEMU integration tests
#   make debug         boot, and wait for gdb
#   make bench         figures measured in guest instructions (qemu -icount shift=0)
#   make clean

CROSS_COMPILE ?=
CC      := $(CROSS_COMPILE)gcc
LD      := $(CROSS_COMPILE)ld
NM      := $(CROSS_COMPILE)nm
OBJDUMP := $(CROSS_COMPILE)objdump
NASM    ?= nasm
HOSTCC  ?= cc
PYTHON  ?= /usr/bin/python3
QEMU    ?= qemu-system-x86_64

SMP     ?= 4
MEM     ?= 256
CMDLINE ?=
FTRACE  ?= 1
GDBPORT ?= $(shell expr `id -u` % 5000 + 25000)

B := build

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

# Work in progress by other changes that is not yet part of the kernel image.
KERNEL_EXCLUDE := $(wildcard kernel/sh_parse.c kernel/line_edit.c kernel/vfs.c kernel/namei.c \
	kernel/dcache.c kernel/ramfs.c kernel/seq_file.c kernel/mount.c kernel/file.c \
	kernel/pseudofs.c kernel/inode.c lib/regex.c trace/ring_buffer.c)
KSRCS := $(filter-out $(KERNEL_EXCLUDE), \
	$(wildcard arch/x86_64/*.c kernel/*.c lib/*.c trace/*.c) $(wildcard arch/x86_64/*.S))
KOBJS := $(patsubst %,$(B)/%.o,$(basename $(KSRCS))) $(patsubst %.asm,$(B)/%.o,$(wildcard boot/*.asm))

# Dynamic ftrace: every function of kernel/ and arch/ starts with "call __fentry__", listed in
# __mcount_loc. Not instrumented, ever: the tracer itself (trace/), lib/ (the tracer formats
# with it), and the code that patches call sites. Other exceptions are marked notrace in the code.
FTRACE_CFLAGS := -pg -mfentry -mrecord-mcount
NOTRACE_SRCS := arch/x86_64/ftrace.c arch/x86_64/text_poke.c
ifeq ($(FTRACE),1)
TRACED_OBJS := $(patsubst %,$(B)/%.o,$(basename $(filter-out $(NOTRACE_SRCS), \
	$(filter kernel/%.c arch/x86_64/%.c,$(KSRCS)))))
$(TRACED_OBJS): KCFLAGS += $(FTRACE_CFLAGS)
endif

all: iso
iso: $(B)/lucid.iso
.PHONY: all iso run debug test unit qemu-test bench clean deps print-gdbport

deps:
	@tools/deps.sh

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"; $(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(B)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KASFLAGS) -MMD -MP -c $< -o $@

$(B)/boot/%.o: boot/%.asm
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 -g -o $@ $<

# Two links (kernel/kallsyms.c explains): the first with an empty symbol table, the second
# with the table made from the first. tools/check_kallsyms.sh proves no code moved.
$(B)/kallsyms0.o: tools/gen_kallsyms.py
	@mkdir -p $(B)
	$(PYTHON) tools/gen_kallsyms.py < /dev/null > $(B)/kallsyms0.S
	$(CC) -c $(B)/kallsyms0.S -o $@

$(B)/lucid.pass1.elf: $(KOBJS) $(B)/kallsyms0.o linker.ld
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms0.o

$(B)/kallsyms.o: $(B)/lucid.pass1.elf tools/gen_kallsyms.py
	$(NM) -n $< | $(PYTHON) tools/gen_kallsyms.py > $(B)/kallsyms.S
	$(CC) -c $(B)/kallsyms.S -o $@

$(B)/lucid.elf: $(B)/kallsyms.o
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms.o
	@tools/check_kallsyms.sh $(NM) $(B)/lucid.pass1.elf $@
	$(NM) -n $@ > $(B)/kernel.sym
	$(OBJDUMP) -d --no-show-raw-insn -l $@ > $(B)/kernel.asm

$(B)/lucid.iso: $(B)/lucid.elf tools/mkiso.sh FORCE
	@tools/mkiso.sh $(B)/lucid.elf $@ "$(CMDLINE)"

FORCE:

QEMU_FLAGS = -smp $(SMP) -m $(MEM) -serial stdio -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -cdrom $(B)/lucid.iso -boot d

run: deps iso
	@tools/run-qemu.sh $(QEMU) $(QEMU_FLAGS)

debug: deps iso
	@sed "s/@GDBPORT@/$(GDBPORT)/" tools/gdbinit.tmpl > .gdbinit
	@echo "*** Now run 'gdb -x .gdbinit' in another window, then: hbreak kmain, continue"
	@tools/run-qemu.sh $(QEMU) $(QEMU_FLAGS) -S -gdb tcp::$(GDBPORT)

print-gdbport:
	@echo $(GDBPORT)

# --- tests -----------------------------------------------------------------------------------
UNIT_TESTS :=
include $(wildcard tests/unit/*.mk)
HOSTCFLAGS := -std=gnu11 -g -O1 -I. -DLUCID_HOST -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -Wall -Wextra -Werror
UNIT_BINS := $(patsubst %,$(B)/host/test_%,$(UNIT_TESTS))

define unit_rule
$(B)/host/test_$(1): $$($(1)_SRCS) $$(wildcard lib/*.h kernel/*.h trace/*.h tests/unit/*.h)
	@mkdir -p $(B)/host
	$(HOSTCC) $(HOSTCFLAGS) $$($(1)_CFLAGS) $$($(1)_SRCS) -o $$@ -lcmocka -lpthread
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

unit: $(UNIT_BINS)

# Runs every suite and ends with one "N passed, N failed" line over all of them.
test: deps iso unit
	@$(PYTHON) tests/run_tests.py --unit $(UNIT_BINS) --qemu tests/qemu

bench: deps iso
	@$(PYTHON) tools/bench.py

clean:
	rm -rf $(B) .gdbinit

-include $(KOBJS:.o=.d)
