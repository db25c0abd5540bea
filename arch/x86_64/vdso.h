/*
 * The vDSO (arch/x86_64/entry/vdso/): a small ELF shared object the kernel maps into every
 * process, whose functions answer clock_gettime, gettimeofday, time, getcpu and clock_getres
 * in user space, without a system call. Before it, [vvar]: pages the kernel writes and user
 * space may only read, holding the data those functions compute from (struct vdso_data, as
 * Linux's include/vdso/datapage.h). docs/design/vdso.md tells the whole story.
 *
 * This header is shared: the kernel includes it, and so does the vDSO's own C code, built
 * as user code (no kernel header may come in through it: plain stdint only).
 */
#ifndef ARCH_X86_64_VDSO_H
#define ARCH_X86_64_VDSO_H

#define VDSO_PAGE_SIZE 4096
/*
 * [vvar]'s size, as Linux 6.1's: its data page, then the pvclock, Hyper-V and time-namespace
 * pages Linux has room for (never mapped here: a read there is SIGBUS, as on Linux without
 * them). The vDSO's linker script puts vvar_page this far below its first byte.
 */
#define VVAR_PAGES 4
#define VVAR_SIZE (VVAR_PAGES * VDSO_PAGE_SIZE)
/* Where struct vdso_data starts in the vvar page (Linux's DECLARE_VVAR(128, ..., _vdso_data)). */
#define VVAR_VDSO_DATA_OFFSET 128

#ifndef __ASSEMBLY__
#include <stdint.h>

/* Linux's clock ids: the vDSO answers those below VDSO_BASES, by these masks. */
#define VDSO_CLOCK_REALTIME 0
#define VDSO_CLOCK_MONOTONIC 1
#define VDSO_CLOCK_MONOTONIC_RAW 4
#define VDSO_CLOCK_REALTIME_COARSE 5
#define VDSO_CLOCK_MONOTONIC_COARSE 6
#define VDSO_CLOCK_BOOTTIME 7
#define VDSO_CLOCK_TAI 11
#define VDSO_BASES 16 /* Linux's MAX_CLOCKS: one slot per clock id */
#define VDSO_BIT(clk) (1U << (clk))
/* Read from the TSC now (Linux's VDSO_HRES and VDSO_RAW). */
#define VDSO_HRES                                                         \
	(VDSO_BIT(VDSO_CLOCK_REALTIME) | VDSO_BIT(VDSO_CLOCK_MONOTONIC) | \
	 VDSO_BIT(VDSO_CLOCK_BOOTTIME) | VDSO_BIT(VDSO_CLOCK_TAI) |       \
	 VDSO_BIT(VDSO_CLOCK_MONOTONIC_RAW))
/* What the last tick stored (Linux's VDSO_COARSE). Any other clock: the system call. */
#define VDSO_COARSE (VDSO_BIT(VDSO_CLOCK_REALTIME_COARSE) | VDSO_BIT(VDSO_CLOCK_MONOTONIC_COARSE))

/* clock_mode: may the vDSO read the TSC? NONE until the TSC is calibrated: then the syscall. */
#define VDSO_CLOCKMODE_NONE 0
#define VDSO_CLOCKMODE_TSC 1

/*
 * The kernel's timekeeping as the vDSO needs it, written only by update_vsyscall()
 * (kernel/time/vsyscall.c) inside a seqcount: seq is odd while a write is in progress, and a
 * reader that saw it odd, or changed, reads again (Linux's vdso_read_begin/vdso_read_retry).
 *
 * Lucid's clocks are all one TSC line (arch/x86_64/tsc.c): ns = (tsc - cycle_last) * mult >>
 * shift, the very formula of ktime_get_ns(), so the vDSO and the system call give the same
 * nanosecond for the same TSC. Each clock id then adds its offset_ns (CLOCK_REALTIME: the
 * date at boot); a coarse clock is the whole reading the last tick stored in coarse_ns.
 * (Linux keeps seconds and shifted nanoseconds per clock at each update instead, as its
 * clocks are adjusted by NTP; Lucid's never are.)
 */
struct vdso_data {
	uint32_t seq;
	int32_t clock_mode; /* VDSO_CLOCKMODE_* */
	uint64_t cycle_last; /* the TSC at which the hres clocks' offsets hold */
	uint64_t mult; /* ns = (tsc - cycle_last) * mult >> shift, 128-bit product */
	uint32_t shift;
	uint32_t hrtimer_res; /* clock_getres of an hres clock, ns (Linux: 1 in high-res mode) */
	uint64_t offset_ns[VDSO_BASES]; /* per hres clock id: added to the TSC's ns */
	uint64_t coarse_ns[VDSO_BASES]; /* per coarse clock id: its reading at the last tick */
	uint32_t coarse_res; /* clock_getres of a coarse clock: a tick (Linux's LOW_RES_NSEC) */
	int32_t tz_minuteswest; /* gettimeofday's struct timezone: settimeofday's sys_tz */
	int32_t tz_dsttime;
};

#ifndef VDSO_BUILD /* the kernel's side */
struct mm_struct;
/* The kernel's (writable) view of the data page; NULL before vdso_init(). */
extern struct vdso_data *vdso_data;
/* At boot, before the first program: the image copied into pages of its own, the data page. */
void vdso_init(void);
/*
 * exec: [vvar] and [vdso] mapped into mm, below what is mapped already (Linux's
 * arch_setup_additional_pages); mm->vdso is then the image's address (AT_SYSINFO_EHDR).
 * 0 or -ENOMEM; mm is the new program's, not yet running anywhere.
 */
int arch_setup_additional_pages(struct mm_struct *mm);
struct vm_area_struct;
/*
 * A fault in [vvar] or [vdso] where nothing is mapped (Linux's vdso_fault and vvar_fault): the
 * shared page that belongs there, read-only whatever the area allows (a write after mprotect
 * then copies it), or VM_FAULT_SIGBUS for [vvar]'s pages Lucid has no data for. mmap_lock held.
 */
int vdso_fault(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va);
/* The image as built (arch/x86_64/entry/vdso/vdso-image.S): the stripped vdso64.so. */
extern const char vdso_image_start[], vdso_image_end[];
#endif
#endif
#endif
