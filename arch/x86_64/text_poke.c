/*
 * text_poke: changing kernel code while it runs, on every CPU at once.
 *
 * Kernel text is mapped read-only, and stays so. To change it we map the physical page a second
 * time, writable, at POKE_AREA, write there, and unmap it again: the writable alias exists for
 * a few instructions, on one CPU.
 *
 * Writing one byte is atomic, but a 5-byte instruction is not written in one go, and another CPU
 * may be executing it meanwhile. So a running kernel is patched as Linux's text_poke_bp() does:
 *
 *   1. write int3 (INT3_INSN_OPCODE) over the first byte of every site;          sync all CPUs
 *   2. write bytes 2..5 of the new instruction (behind the int3);     sync all CPUs
 *   3. write the new first byte, replacing the int3;                  sync all CPUs
 *
 * A CPU that reaches a site during the change executes either the old instruction, or the int3,
 * never a mix. The int3 handler below recognizes our sites and sends the CPU on as the new
 * instruction would if that is a jump (a static key's, kernel/jump_label.c), else past the 5
 * bytes, as if the site were a NOP (so a traced call may be missed while its site changes;
 * nothing breaks). "Sync" means an IPI that makes each CPU execute a serializing instruction, so
 * no CPU keeps running old, already-decoded bytes. The three steps are done for a whole batch
 * of sites at once, so enabling thousands of sites costs three rounds of IPIs, not thousands.
 * One batch at a time (text_mutex): dynamic ftrace (trace/ftrace.c) and static keys
 * (kernel/jump_label.c) both patch with it.
 *
 * QEMU's TCG keeps translations of guest code, and a vCPU translating a page while another
 * writes to it can keep a translation of the bytes from before the write (QEMU drops the old
 * translations, then stores: one made in between survives, until the page is written again). A
 * CPU can then keep executing an int3 that is no longer in memory, with interrupts off, from a
 * timer interrupt say: had the handler sent it back to run "what is there now", it would trap
 * again, forever. So the handler treats a site of the batch as a NOP whatever it finds there,
 * and the batch ends by writing every first byte once more, the same value: that write makes
 * QEMU drop whatever translation was made from older bytes, and cannot itself leave one behind.
 * A stale int3 elsewhere (a kprobe's, removed while this CPU translated its page) has no site
 * to skip: there the trapping CPU rewrites the byte itself, unchanged (text_poke_refresh), and
 * runs it again. Waiting for whoever removed the int3 to write again would not do: that CPU
 * first waits for this one to answer its sync IPI, which it cannot, trapping with interrupts
 * off.
 *
 * Not traced: this code rewrites the very call sites the tracer uses.
 */
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/insn.h"
#include "kernel/smp.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/mutex.h"
#include "kernel/panic.h"
#include "lib/bsearch.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(poke_lock); /* one user of POKE_AREA at a time */
/*
 * One batch at a time (Linux's text_mutex): dynamic ftrace and static keys both patch, each
 * under its own lock, and bp_locs is the one batch the int3 handler looks in.
 */
static DEFINE_MUTEX(text_mutex);
static const struct text_poke_loc *bp_locs; /* the batch being patched, for the int3 handler */
static volatile int bp_count;
static text_poke_site_fn holds_site_insn; /* what the sites hold between batches */

/* The writable alias of addr's page, mapped under poke_lock; 0 if addr is not mapped. */
static notrace uintptr_t poke_map(uintptr_t addr)
{
	/* The kernel's image is one linear mapping; a module's pages were found anywhere. */
	bool module = addr >= MODULES_VADDR && addr < MODULES_END;
	uintptr_t pa = module ? mmu_virt_to_phys(addr) : __pa(addr);

	if (!pa)
		return 0;
	if (mmu_map_page(POKE_AREA, pa & ~(PAGE_SIZE - 1), MMU_WRITE))
		panic("text_poke: cannot map the alias");
	return POKE_AREA + (pa & (PAGE_SIZE - 1));
}

/* Writes within one page. */
static notrace void poke_page(uintptr_t addr, const void *src, size_t len)
{
	unsigned long flags = spin_lock_irqsave(&poke_lock);
	uintptr_t alias = poke_map(addr);

	if (!alias)
		panic("text_poke: %lx is not mapped", (unsigned long)addr);
	memcpy((void *)alias, src, len);
	mmu_unmap_page(POKE_AREA); /* also drops this CPU's TLB entry */
	spin_unlock_irqrestore(&poke_lock, flags);
}

/*
 * Rewrites the byte at addr with its own value, so that QEMU drops every translation of its
 * page (the top of the file says why). From the int3 handler, interrupts off: with a trylock,
 * as this CPU may have trapped inside text_poke itself; the caller's next trap tries again.
 */
static notrace void text_poke_refresh(uintptr_t addr)
{
	if (!__raw_spin_trylock(&poke_lock))
		return;
	volatile uint8_t *alias = (volatile uint8_t *)poke_map(addr);

	if (alias) {
		*alias = *alias;
		mmu_unmap_page(POKE_AREA);
	}
	__raw_spin_unlock(&poke_lock);
}

notrace void text_poke(void *addr, const void *src, size_t len)
{
	uintptr_t a = (uintptr_t)addr;
	const uint8_t *s = src;
	while (len) {
		size_t n = MIN(len, PAGE_SIZE - (a & (PAGE_SIZE - 1)));
		poke_page(a, s, n);
		a += n;
		s += n;
		len -= n;
	}
}

/* cpuid is serializing: the CPU discards anything it fetched or decoded ahead. */
static notrace void sync_core(void *unused)
{
	(void)unused;
	uint32_t a, b, c, d;
	cpuid(0, 0, &a, &b, &c, &d);
}

notrace void text_poke_sync(void)
{
	sync_core(NULL);
	smp_call_function(sync_core, NULL);
}

static notrace int loc_addr_cmp(const void *key, const void *elt)
{
	unsigned long addr = *(const unsigned long *)key;
	unsigned long loc = ((const struct text_poke_loc *)elt)->addr;

	if (addr < loc)
		return -1;
	return addr > loc; /* branches, not arithmetic: inlined, they merge with bsearch's */
}

/* The batch is sorted by address (text_poke.h): a binary search finds a site in it. */
static notrace const struct text_poke_loc *find_loc(unsigned long addr)
{
	return __inline_bsearch(&addr, bp_locs, (size_t)bp_count, sizeof(*bp_locs), loc_addr_cmp);
}

notrace void text_poke_set_site_insn(text_poke_site_fn fn)
{
	WRITE_ONCE(holds_site_insn, fn);
}

/* The jump a JMP32 at addr takes (the displacement counts from the instruction's end). */
static notrace unsigned long jmp32_target(unsigned long addr, const volatile uint8_t *insn)
{
	int32_t rel = (int32_t)((uint32_t)insn[1] | (uint32_t)insn[2] << 8 |
				(uint32_t)insn[3] << 16 | (uint32_t)insn[4] << 24);

	return addr + JMP32_INSN_SIZE + (long)rel;
}

/*
 * A CPU hit one of our int3s: it runs the new instruction instead, if that is a jump (a static
 * key's, arch/x86_64/jump_label.c: which branch runs is part of what the program does, so the
 * CPU takes the one the key has from now on, as Linux's int3 handler emulates it), or goes past
 * the whole instruction being replaced (a NOP, or dynamic ftrace's call: that traced call is
 * missed, nothing breaks).
 */
static notrace bool poke_int3_handler(struct pt_regs *regs)
{
	unsigned long addr = regs->rip - INT3_INSN_SIZE; /* int3 is a trap: RIP is past it */
	const volatile uint8_t *site = (const volatile uint8_t *)addr;
	bool gone = kernel_text_address(addr) && *site != INT3_INSN_OPCODE;
	const struct text_poke_loc *loc = READ_ONCE(bp_count) ? find_loc(addr) : NULL;

	/* One of the batch's sites, whatever it holds now (see above). */
	if (loc) {
		if (loc->new_insn[0] == JMP32_INSN_OPCODE)
			regs->rip = jmp32_target(addr, loc->new_insn);
		else
			regs->rip = addr + POKE_INSN_MAX;
		return true;
	}
	/*
	 * A stale int3 over a jump that is there now: the jump is taken here, as the CPU would run
	 * it, rather than run again (a stale translation may trap forever, see above).
	 */
	if (gone && kernel_text_address(addr + JMP32_INSN_SIZE - 1) &&
	    *site == JMP32_INSN_OPCODE) {
		regs->rip = jmp32_target(addr, site);
		return true;
	}
	/*
	 * The int3 is gone already: this CPU executed a copy fetched before the last write (its
	 * instruction stream was not yet resynchronized). A site that holds one of the
	 * instructions its patcher writes (text_poke_set_site_insn) is skipped, as while it
	 * changes, rather than run again: should a stale translation outlive the batch after all,
	 * running it again would trap forever. Anything else is run again as it is now.
	 */
	if (gone) {
		text_poke_site_fn is_site = READ_ONCE(holds_site_insn);

		if (kernel_text_address(addr + POKE_INSN_MAX - 1) && is_site && is_site(site)) {
			regs->rip = addr + POKE_INSN_MAX;
		} else {
			text_poke_refresh(addr); /* so that it runs what is there now */
			regs->rip = addr;
		}
		return true;
	}
	return false;
}

notrace void text_poke_bp_batch(const struct text_poke_loc *locs, int n)
{
	static const uint8_t int3 = INT3_INSN_OPCODE;
	if (n <= 0)
		return;
	mutex_lock(&text_mutex); /* one batch at a time: the int3 handler knows only one */
	bp_locs = locs;
	__atomic_store_n(&bp_count, n, __ATOMIC_RELEASE);

	for (int i = 0; i < n; i++)
		text_poke((void *)locs[i].addr, &int3, INT3_INSN_SIZE);
	text_poke_sync();
	for (int i = 0; i < n; i++)
		text_poke((void *)(locs[i].addr + INT3_INSN_SIZE),
			  locs[i].new_insn + INT3_INSN_SIZE, POKE_INSN_MAX - INT3_INSN_SIZE);
	text_poke_sync();
	for (int i = 0; i < n; i++)
		text_poke((void *)locs[i].addr, locs[i].new_insn, INT3_INSN_SIZE);
	text_poke_sync();
	/* Once more, the same bytes: no translation from before survives this (see above). */
	for (int i = 0; i < n; i++)
		text_poke((void *)locs[i].addr, locs[i].new_insn, INT3_INSN_SIZE);
	/* After this sync no CPU can still be inside poke_int3_handler for this batch: the
	 * handler runs with interrupts off, and each CPU answers the IPI only once out of it. */
	text_poke_sync();

	__atomic_store_n(&bp_count, 0, __ATOMIC_RELEASE);
	bp_locs = NULL;
	mutex_unlock(&text_mutex);
}

void text_poke_init(void)
{
	/* Build the page tables under POKE_AREA now, so text_poke never has to allocate. */
	if (mmu_map_page(POKE_AREA, 0, 0))
		panic("text_poke: no memory for the alias's page tables");
	mmu_unmap_page(POKE_AREA);
	set_exception_handler(VEC_BREAKPOINT, poke_int3_handler);
}
