/*
 * The vDSO as a program finds it (docs/design/vdso.md): through AT_SYSINFO_EHDR, an ELF
 * shared object whose LINUX_2.6 symbols answer as the system calls do. Built with musl
 * (/bin/vdso) and with glibc, static and dynamic (/opt/dyn/vdso-glibc, vdso-glibc-dyn), and
 * compared line for line with the host (Linux). Every check prints a fact true on any Linux.
 *
 *   vdso              the checks
 *   vdso loop N CLK   N clock_gettime(CLK), N gettimeofday and N time through the C library,
 *                     for a trace to show which of them made a system call
 *   vdso exec         (run by the checks) whether the new program has a vDSO of its own
 *   vdso cow          a write to [vdso] made writable by mprotect stays the writer's (6.1)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 20000 /* interleaved readings per clock */
#define MAX_CPUS 64
#define NSEC_PER_SEC 1000000000L
#define VVAR_BYTES (4 * 4096) /* Linux 6.1's [vvar]: four pages below the image */

typedef int (*gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

/* --- the vDSO's dynamic symbol table, read as a C library reads it ------------------------- */
static uintptr_t base; /* load bias: the image is linked at 0 */
static const Elf64_Sym *symtab;
static const char *strtab;
static const Elf64_Versym *versym;
static const Elf64_Verdef *verdef;
static const char *soname;
static unsigned long nsyms;

static int vdso_parse(void)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);

	if (!eh)
		return -1;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_type != ET_DYN || eh->e_machine != EM_X86_64)
		return -2;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;

	base = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !base)
			base = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const Elf64_Dyn *)((const char *)eh + ph[i].p_offset);
	}
	if (!dyn)
		return -3;
	unsigned long soname_off = 0;
	const Elf32_Word *hash = NULL;

	for (; dyn->d_tag != DT_NULL; dyn++) {
		void *p = (void *)(base + dyn->d_un.d_ptr);

		switch (dyn->d_tag) {
		case DT_STRTAB:
			strtab = p;
			break;
		case DT_SYMTAB:
			symtab = p;
			break;
		case DT_HASH:
			hash = p;
			break;
		case DT_VERSYM:
			versym = p;
			break;
		case DT_VERDEF:
			verdef = p;
			break;
		case DT_SONAME:
			soname_off = dyn->d_un.d_val;
			break;
		}
	}
	if (!strtab || !symtab || !hash) /* musl needs DT_HASH */
		return -4;
	nsyms = hash[1]; /* nchain: one per symbol */
	soname = soname_off ? strtab + soname_off : "(none)";
	return 0;
}

/* The version name of symbol i, or "" if the image has no versions. */
static const char *sym_version(unsigned long i)
{
	if (!versym || !verdef)
		return "";
	unsigned ndx = versym[i] & 0x7fff;
	const Elf64_Verdef *d = verdef;

	for (;;) {
		if (d->vd_ndx == ndx && !(d->vd_flags & VER_FLG_BASE)) {
			const Elf64_Verdaux *aux =
				(const Elf64_Verdaux *)((const char *)d + d->vd_aux);
			return strtab + aux->vda_name;
		}
		if (!d->vd_next)
			return "?";
		d = (const Elf64_Verdef *)((const char *)d + d->vd_next);
	}
}

/* name@LINUX_2.6's address, its binding in *bind; NULL if there is none. */
static void *vdso_sym(const char *name, const char **bind)
{
	for (unsigned long i = 1; i < nsyms; i++) {
		const Elf64_Sym *s = &symtab[i];

		if (s->st_shndx == SHN_UNDEF || strcmp(strtab + s->st_name, name) ||
		    strcmp(sym_version(i), "LINUX_2.6"))
			continue;
		if (bind)
			*bind = ELF64_ST_BIND(s->st_info) == STB_WEAK ? "WEAK" : "GLOBAL";
		return (void *)(base + s->st_value);
	}
	return NULL;
}

/* --- the checks --------------------------------------------------------------------------- */
static long long ns_of(const struct timespec *t)
{
	return t->tv_sec * (long long)NSEC_PER_SEC + t->tv_nsec;
}

static long sys_gettime(clockid_t c, struct timespec *t)
{
	return syscall(SYS_clock_gettime, c, t);
}

static const struct {
	clockid_t id;
	const char *name;
} hres_clocks[] = {
	{CLOCK_REALTIME, "REALTIME"},
	{CLOCK_MONOTONIC, "MONOTONIC"},
	{CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW"},
	{CLOCK_REALTIME_COARSE, "REALTIME_COARSE"},
	{CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE"},
	{CLOCK_BOOTTIME, "BOOTTIME"},
	{CLOCK_TAI, "TAI"},
};

/* syscall, vDSO, syscall, ... ROUNDS times: every vDSO reading between its two neighbours. */
static void interleaved(gettime_fn vgt, clockid_t id, const char *name)
{
	struct timespec a, b, c;
	int ok = 0, ret = 0;

	for (int i = 0; i < ROUNDS; i++) {
		sys_gettime(id, &a);
		ret |= vgt(id, &b);
		sys_gettime(id, &c);
		ok += ns_of(&a) <= ns_of(&b) && ns_of(&b) <= ns_of(&c) && b.tv_nsec >= 0 &&
		      b.tv_nsec < NSEC_PER_SEC;
	}
	printf("clock_gettime(%s): returns %d, between the system call's readings %d/%d\n", name,
	       ret, ok, ROUNDS);
}

static void fallbacks(gettime_fn vgt)
{
	/* CPU-time clocks, alarm clocks, ids no clock has: Linux's vDSO asks the system call. */
	static const clockid_t ids[] = {
		CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, 8, 9, 10, 12, 15, 99, -1};
	for (unsigned i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct timespec a = {0, 0};
		int v = vgt(ids[i], &a);
		long s = sys_gettime(ids[i], &a) < 0 ? -errno : 0;

		printf("clock_gettime(%d): the vDSO answers as the system call: %s\n", ids[i],
		       v == s ? "yes" : "no");
	}
}

static void getres(void)
{
	int (*vres)(clockid_t, struct timespec *) = vdso_sym("__vdso_clock_getres", NULL);
	int same = 0, n = 0;

	/* Linux's ids: 16 and up are newer Linux's auxiliary clocks (6.17), not 6.1's. */
	for (clockid_t id = -1; id < 16; id++, n++) {
		struct timespec v = {-1, -1}, s = {-1, -1};
		int rv = vres(id, &v);
		long rs = syscall(SYS_clock_getres, id, &s) < 0 ? -errno : 0;

		same += rv == rs && v.tv_sec == s.tv_sec && v.tv_nsec == s.tv_nsec;
	}
	printf("clock_getres: vdso and system call agree on %d of %d clock ids\n", same, n);
	struct timespec r;
	vres(CLOCK_MONOTONIC_COARSE, &r);
	printf("clock_getres(MONOTONIC_COARSE): a tick, 1 to 10 ms: %s\n",
	       r.tv_sec == 0 && r.tv_nsec >= 1000000 && r.tv_nsec <= 10000000 ? "yes" : "no");
	printf("clock_getres(CLOCK_MONOTONIC, NULL) = %d\n", vres(CLOCK_MONOTONIC, NULL));
}

static void tod_and_time(void)
{
	gettimeofday_fn vtod = vdso_sym("__vdso_gettimeofday", NULL);
	time_fn vtime = vdso_sym("__vdso_time", NULL);
	int ok = 0, tok = 0;

	for (int i = 0; i < ROUNDS; i++) {
		struct timeval a, b, c;

		syscall(SYS_gettimeofday, &a, NULL);
		vtod(&b, NULL);
		syscall(SYS_gettimeofday, &c, NULL);
		long long x = a.tv_sec * 1000000LL + a.tv_usec,
			  y = b.tv_sec * 1000000LL + b.tv_usec,
			  z = c.tv_sec * 1000000LL + c.tv_usec;
		ok += x <= y && y <= z && b.tv_usec >= 0 && b.tv_usec < 1000000;
		time_t ta = syscall(SYS_time, NULL), tb = vtime(NULL), tc = syscall(SYS_time, NULL);
		tok += ta <= tb && tb <= tc;
	}
	printf("gettimeofday: between the system call's readings %d/%d\n", ok, ROUNDS);
	printf("time: between the system call's readings %d/%d\n", tok, ROUNDS);
	struct timezone tz;
	time_t t2 = 0;
	printf("gettimeofday(NULL, &tz) = %d\n", vtod(NULL, &tz));
	time_t t1 = vtime(&t2);
	printf("time(&t): returned and stored the same: %s\n", t1 == t2 ? "yes" : "no");
}

/* On each CPU this process may use, pinned there: the vDSO's answer, and the system call's. */
static void getcpu_check(void)
{
	getcpu_fn vgetcpu = vdso_sym("__vdso_getcpu", NULL);
	cpu_set_t all;
	int cpus = 0, right = 0;

	sched_getaffinity(0, sizeof(all), &all);
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		unsigned v = ~0u, node = ~0u, s = ~0u;

		cpus++;
		long r = vgetcpu(&v, &node, NULL);
		syscall(SYS_getcpu, &s, NULL, NULL);
		right += r == 0 && v == (unsigned)cpu && s == (unsigned)cpu && node == 0;
	}
	sched_setaffinity(0, sizeof(all), &all);
	printf("getcpu: right on every CPU it ran on: %s\n", cpus && right == cpus ? "yes" : "no");
	printf("getcpu(NULL, NULL) = %ld\n", vgetcpu(NULL, NULL, NULL));
}

/* The maps line of the area holding addr: its name (what ends the line) in name. */
static int maps_area(uintptr_t addr, char *name, size_t size, uintptr_t *start, char *perms)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long s, e;
		char p[8], nm[256] = "";

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &s, &e, p, nm) >= 3 &&
		    s <= addr && addr < e) {
			snprintf(name, size, "%s", nm);
			*start = s;
			strcpy(perms, p);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static void maps_check(void)
{
	uintptr_t ehdr = getauxval(AT_SYSINFO_EHDR), start = 0, vstart = 0;
	char name[256] = "", vname[256] = "", perms[8] = "", vperms[8] = "";

	maps_area(ehdr, name, sizeof(name), &start, perms);
	printf("AT_SYSINFO_EHDR is the start of %s (%s)\n", start == ehdr ? name : "?", perms);
	/* [vvar] below it (Linux 6.1: just below; newer Linux puts [vvar_vclock] between). */
	maps_area(ehdr - 1, vname, sizeof(vname), &vstart, vperms);
	printf("below it: %s (%s)\n", strncmp(vname, "[vvar", 5) ? "?" : "[vvar]", vperms);
}

/* A write to [vvar] or [vdso] kills the writer with SIGSEGV: nobody changes the shared pages. */
static void write_check(const char *what, volatile char *p)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		*p = 1;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	/* Linux's report of the fault is in the log: the tests count this line against it. */
	printf("a write to %s: %s\n", what,
	       WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV ? "killed by Segmentation fault"
							  : "no signal");
}

/*
 * `vdso cow`: mprotect may make [vdso] writable (Linux 6.1 allows it, for debuggers; newer
 * Linux seals it, EINVAL, so this is not compared with the host): the write then lands in a
 * copy of the writer's own, and every other process's vDSO stays as it was.
 */
static void cow_check(void)
{
	volatile char *ehdr = (volatile char *)getauxval(AT_SYSINFO_EHDR);
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (mprotect((void *)ehdr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC))
			_exit(1);
		ehdr[0] = 'X';
		_exit(ehdr[0] == 'X' ? 0 : 2);
	}
	waitpid(pid, &st, 0);
	printf("mprotect([vdso], rwx) and a write in a child: %s; the parent's is unchanged: %s\n",
	       WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "done" : "failed",
	       ehdr[0] == 0x7f ? "yes" : "no");
}

static void fork_exec_check(const char *self)
{
	uintptr_t mine = getauxval(AT_SYSINFO_EHDR);
	gettime_fn vgt = vdso_sym("__vdso_clock_gettime", NULL);
	int p[2];
	char buf[256] = "";

	if (pipe(p))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		struct timespec t;
		uintptr_t s = 0;
		char name[256] = "", perms[8];

		maps_area(mine, name, sizeof(name), &s, perms);
		dprintf(p[1],
			"fork: the child's vDSO is at the parent's address, %s, and answers: %s\n",
			name, vgt(CLOCK_MONOTONIC, &t) == 0 && s == mine ? "yes" : "no");
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	ssize_t n = read(p[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	fputs(buf, stdout);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl(self, self, "exec", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		char name[256] = "", perms[8] = "";
		uintptr_t s = 0;
		int n = vdso_parse();

		maps_area(getauxval(AT_SYSINFO_EHDR), name, sizeof(name), &s, perms);
		printf("exec: the new program has a vDSO: %s, in %s\n", n == 0 ? "yes" : "no",
		       name);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "cow")) {
		cow_check();
		/* [vvar]'s pages past its first (Linux 6.1's pvclock, Hyper-V, time namespace
		 * pages), never mapped here: SIGBUS, as on a Linux without them. */
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			volatile char *vvar =
				(volatile char *)getauxval(AT_SYSINFO_EHDR) - VVAR_BYTES;
			(void)vvar[0]; /* the data page: there */
			(void)vvar[4096];
			_exit(0);
		}
		waitpid(pid, &st, 0);
		printf("a read of [vvar]'s second page: %s\n",
		       WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "no signal");
		return 0;
	}
	if (argc > 3 && !strcmp(argv[1], "loop")) {
		int n = atoi(argv[2]);
		clockid_t id = atoi(argv[3]);
		struct timespec t;
		struct timeval tv;
		long sum = 0;

		for (int i = 0; i < n; i++) {
			clock_gettime(id, &t);
			gettimeofday(&tv, NULL);
			sum += t.tv_nsec + tv.tv_usec + time(NULL);
		}
		printf("loop: %d calls each, done (%ld)\n", n, sum & 1);
		return 0;
	}
	int err = vdso_parse();

	printf("AT_SYSINFO_EHDR: an x86_64 ELF shared object with DT_HASH: %s\n",
	       err ? "no" : "yes");
	if (err)
		return 1;
	printf("DT_SONAME: %s\n", soname);
	/* The auxiliary vector is past envp's NULL; Linux's ARCH_DLINFO puts the vDSO first. */
	char **e = environ;
	while (*e)
		e++;
	const unsigned long *auxv = (const unsigned long *)(e + 1);
	printf("auxv: AT_SYSINFO_EHDR first: %s\n", auxv[0] == AT_SYSINFO_EHDR ? "yes" : "no");
	static const char *names[] = {
		"__vdso_clock_gettime", "clock_gettime", "__vdso_gettimeofday", "gettimeofday",
		"__vdso_time",		"time",		 "__vdso_getcpu",	"getcpu",
		"__vdso_clock_getres",	"clock_getres"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *bind = "";
		void *p = vdso_sym(names[i], &bind);

		printf("%s@LINUX_2.6: %s %s\n", names[i], p ? "found," : "missing", bind);
		if (!p)
			return 1;
	}
	gettime_fn vgt = vdso_sym("__vdso_clock_gettime", NULL);

	for (unsigned i = 0; i < sizeof(hres_clocks) / sizeof(hres_clocks[0]); i++)
		interleaved(vgt, hres_clocks[i].id, hres_clocks[i].name);
	fallbacks(vgt);
	getres();
	tod_and_time();
	getcpu_check();
	maps_check();
	write_check("[vdso]", (volatile char *)getauxval(AT_SYSINFO_EHDR));
	write_check("[vvar]", (volatile char *)getauxval(AT_SYSINFO_EHDR) - 1);
	fork_exec_check(argv[0][0] == '/' ? argv[0] : "/proc/self/exe");
	return 0;
}
