/*
 * kmain: the boot CPU's path from boot/boot.asm to init, one step a line.
 *
 * Order matters: printk needs the serial port and the per-CPU base, page tables need the page
 * allocator, the scheduler needs page tables (for stacks), the timer needs the LAPIC, and the
 * other CPUs need all of it. When the list is done, the boot CPU becomes its idle task.
 */
#include <stdint.h>
#include "kernel/percpu.h"
#include "kernel/drivers/console.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/mmu_gather.h"
#include "kernel/kallsyms.h"
#include "kernel/kprobes.h"
#include "kernel/debug/test_kprobes.h"
#include "kernel/debug/test_uprobes.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/cmdline.h"
#include "kernel/shell/shell.h"
#include "kernel/debug/bench.h"
#include "kernel/debug/callsite.h"
#include "arch/x86_64/uprobes.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/debug/ftest.h"
#include "kernel/debug/lkdtm.h"
#include "kernel/debug/rbstat.h"
#include "kernel/debug/run_test.h"
#include "kernel/fs/fs_boot.h"
#include "kernel/watchdog.h"
#include "kernel/debug/sysrq.h"
#include "kernel/fs/initramfs.h"
#include "kernel/fs/vfs.h"
#include "kernel/syscalls.h"
#include "kernel/signal.h"
#include "kernel/drivers/tty.h"
#include "kernel/module/module.h"
#include "kernel/drivers/pci_proc.h"
#include "trace/trace.h"
#include "kernel/version.h"
#include "kernel/debug/stackprotector.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/uart.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/pci.h"
#include "kernel/drivers/virtio/virtio.h"
#include "kernel/fs/9p/v9fs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/vdso.h"
#include "kernel/jump_label.h"
#include "kernel/debug/test_static_keys.h"
#include "trace/ftrace.h"
#include "trace/trace_stack.h"
#include "trace/ftrace_profile.h"
#include "trace/trace_printk.h"

#define MB2_INFO_MAX (64 * 1024) /* GRUB's information block is far smaller */

static struct boot_info boot_info;
uint64_t boot_kmain_tsc;
uint64_t boot_prompt_tsc;

/* The first read of the console is its shell at the first prompt: boot is over. */
void boot_note_prompt(void)
{
	if (!boot_prompt_tsc)
		boot_prompt_tsc = rdtsc();
}

static void serial_interrupt(struct pt_regs *regs)
{
	(void)regs;
	int c;
	while ((c = uart_getc_nowait(COM1_PORT)) >= 0)
		console_rx((char)c);
	console_rx_done(); /* the batch to the readers, at once */
}

static void print_banner(void)
{
	unsigned long mib = nr_total_pages() * PAGE_SIZE >> 20;
	int cpus = num_online_cpus();
	printk(KERN_INFO "Lucid %s (x86_64): %d CPU%s, %lu MiB, TSC %lu MHz\n", LUCID_VERSION, cpus,
	       cpus > 1 ? "s" : "", mib, (unsigned long)(tsc_khz / 1000));
}

/*
 * Linux's run_init_process: path becomes pid 1's program, in /, with Linux's environment for
 * init (envp_init). pid 1 has the console as fds 0, 1 and 2 and leads its session (try_init,
 * or the rescue console's setup). Returns only the error if path cannot run.
 */
int run_init_process(const char *path, char *const argv[])
{
	static char *const envp[] = {"HOME=/", "TERM=linux", NULL};

	vfs_chdir("/");
	printk(KERN_INFO "Run %s as init process\n", path);
	return kernel_execve(path, argv, envp);
}

/*
 * init=PATH on the command line, /sbin/init without it: pid 1 runs that program, as Linux's
 * kernel_init does. Signals it does not handle do not reach it, as Linux's init. If it cannot
 * run, Linux panics ("Requested init ... failed", "No working init found"); Lucid says why in
 * Linux's words and returns, so that the rescue console runs instead (kernel/shell/shell.c).
 *
 * Where Lucid differs: Linux's console is nobody's controlling terminal (an init that wants job
 * control opens a real tty, as busybox's cttyhack does), so `init=/bin/sh` there says "can't
 * access tty; job control turned off". Here init leads the console's session and its group is
 * the foreground (tty_claim_console): `sh` or `bash` as init has job control, ^C, ^Z, fg and
 * bg.
 */
static noinline void try_init(void)
{
	static char path[PROGRAM_PATH_MAX];
	char *argv[] = {path, NULL};
	int fd, err;

	if (!cmdline_get("init", path, sizeof(path)) || !path[0])
		strcpy(path, "/sbin/init");
	setpgid_task(current, current->pid); /* a group of its own, which kill and ^C reach */
	tty_claim_console(); /* its session's terminal, with it in the foreground */
	fd = vfs_open("/dev/console", O_RDWR, 0);
	if (fd != 0 || vfs_dup2(0, 1) != 1 || vfs_dup2(0, 2) != 2)
		printk(KERN_WARNING "Warning: unable to open an initial console.\n");
	err = run_init_process(path, argv);
	printk(KERN_ERR "Failed to execute %s (error %d)\n", path, err);
}

/*
 * The init steps that must run in a task, as they may sleep; then the task becomes init, or,
 * with the boot option `rescue` or if init cannot run, the rescue console.
 */
static int kernel_init(void *arg)
{
	child_reaper = current; /* pid 1 adopts orphans: init, or the rescue console */
	v9fs_init(); // the 9p file system; the host's shared folder at /mnt/host, if QEMU has one
	if (cmdline_has("static_keys_selftest"))
		static_keys_selftest(); // its threads on the other CPUs are joined: a task's work
	tlb_debug_init(); /* debug_vm: mmu_gather checks no CPU can reach a page it frees */
	fault_inject_start(); /* fail_kmalloc= and fail_page_alloc= test what runs from here on */
	if (!cmdline_has("rescue"))
		try_init();
	rescue_console(arg);
}

/* No canary in kmain's own frame: it was made before boot_init_stack_canary() picked one. */
void __no_stack_protector kmain(uint32_t magic, uint32_t info_pa)
{
	boot_kmain_tsc = rdtsc();       // for `bench`: instructions from here to the prompt
	boot_init_stack_canary();       // before any function with a canary runs
	percpu_init_this_cpu(&cpus[0]); // GS base: this_cpu() and printk work from here on
	console_init();                 // COM1, 115200 8N1
	gdt_init_this_cpu(0);           // our GDT, and the TSS with the double-fault/NMI stacks
	idt_init();                     // every vector to irqentry_64.S; oopses can be printed
	syscall_init();                 // SYSCALL enters at entry_SYSCALL_64; SSE on for user space
	if (magic != MULTIBOOT2_BOOTLOADER_MAGIC ||
	    multiboot2_parse(__va(info_pa), MB2_INFO_MAX, &boot_info))
		panic("not booted by a multiboot2 loader, or bad boot information");
	cmdline_init(boot_info.cmdline); // keep the command line before its memory is reused
	printk_setup();                  // quiet, loglevel=N: what the console shows from here on
	/* The log's first line, at time 0 as Linux's "Linux version" line: the clock is not set. */
	printk(KERN_INFO "Lucid %s booting, command line: %s\n", LUCID_VERSION, boot_info.cmdline);
	tsc_init();                      // calibrate the clock: printk timestamps start now
	native_pv_lock_init();           // ticket or test-and-set spin locks: hardware or guest
	timekeeping_init();              // CLOCK_REALTIME from the CMOS clock: real dates
	page_alloc_init(&boot_info);     // free RAM from the multiboot2 memory map
	mmu_init();                      // real page tables: RO text, NX data, nothing at 0
	vdso_init();                     // the vDSO's image and [vvar] page, for every program
	kallsyms_init();                 // %pS prints function names
	sched_init();                    // this code becomes swapper/0, the boot CPU's idle task
	user_traps_init();               // page faults: demand paging, copy_*_user fixups
	text_poke_init();                // the writable alias and int3 handler for code patching
	jump_label_init();               // the static branches sorted by key, each site checked
	ftrace_init();                   // NOP out every __fentry__ call site before other CPUs run
	init_kprobes();                  // the blacklist, the int3 and single-step handlers
	arch_uprobes_init();             // ring 3's int3 and single-step traps: uprobes first
	pic_disable();                   // the legacy PIC, masked: the APICs do the work
	acpi_init(boot_info.rsdp, boot_info.rsdp_len); // MADT: the CPUs, the IOAPIC
	lapic_init();                    // this CPU's interrupt controller; timer calibration
	ioapic_init();                   // device interrupts, all masked for now
	timer_interrupt_init();          // the tick: timers, scheduler accounting
	watchdog_init();                 // soft-lockup detection on every tick
	smp_ipi_init();                  // reschedule and call-function IPIs
	lapic_init_this_cpu();           // this CPU's APIC on, its timer one-shot
	tick_setup_sched_timer();        // start this CPU's tick, an hrtimer
	trace_printk_init();             // each trace_printk format parsed once, before any call
	tracing_init();                  // trace buffer, tracers: ftrace=NAME sees the CPUs start
	smp_boot_cpus();                 // wake the other CPUs
	request_irq(COM1_IRQ, serial_interrupt, "ttyS0"); // its handler: the ttyS0 interrupt
	ioapic_route(isa_irq_to_gsi[COM1_IRQ], VEC_SERIAL, lapic_id()); // COM1 input
	uart_enable_rx_interrupt(COM1_PORT);
	fs_boot_init();                  // the files: / /root /tmp /dev/console /proc, debugfs
	initramfs_unpack(boot_info.initrd_start, boot_info.initrd_end); // /bin: user/'s programs
	pci_init();                      // the PCI bus: every device and its BARs (lspci)
	virtio_pci_init();               // its virtio devices, reset and waiting for a driver
	print_banner();
	if (cmdline_has("ftrace_selftest"))
		ftrace_selftest();       // patch, call, count, unpatch: on all CPUs, at boot
	if (cmdline_has("kprobe_selftest"))
		kprobes_selftest();      // probes on every kind of instruction, kretprobes, errors
	tracing_init_tracefs();          // the tracing files (needs the VFS)
	stack_tracer_init_files();       // stack_trace, stack_max_size, stack_tracer_enabled
	fault_inject_init();             // fail_kmalloc=, fail_page_alloc= and their sysctls
	ftrace_profile_init_files();     // function_profile_enabled, trace_stat/functionN
	lkdtm_init();                    // provoke-crash/DIRECT in debugfs: crashes on purpose
	ftest_init();                    // debugfs ftest, run_test: for /bin/ftest, /bin/run_test
	run_test_init();
	callsite_init();                 // /sys/kernel/debug/callsite: /bin/callsite
	rbstat_init();                   // /sys/kernel/debug/rbstat: the trace buffer's counters
	debugfs_kprobe_init();           // /sys/kernel/debug/kprobes: list, blacklist
	kprobe_stress_init();            // /sys/kernel/debug/kprobe_stress: every function probed
	uprobe_signal_init();            // /sys/kernel/debug/uprobe_signal: a uprobe that signals
	bench_init();                    // /sys/kernel/debug/bench: make bench's figures
	sysrq_init();                    // /proc/sysrq-trigger (also `sysrq KEY`, Ctrl-O KEY)
	if (printk_init_files())         // /proc/sys/kernel/printk
		panic("cannot make /proc/sys/kernel/printk");
	if (module_init_files())         // /proc/modules
		panic("cannot make /proc/modules");
	if (pci_proc_init())             // /proc/bus/pci: lspci's
		panic("cannot make /proc/bus/pci");
	late_trace_init();               // boot is done: tp_printk_stop_on_boot
	if (!kthread_run_init(kernel_init, NULL, "init")) // pid 1: Linux's init task
		panic("cannot start init");
	cpu_idle();                      // the boot CPU is now swapper/0
}
