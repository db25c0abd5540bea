/* The pid -> comm cache behind the trace's TASK column (Linux's saved_cmdlines). */

/*
 * An event records only a pid: sixteen bytes of comm per event would almost double a function
 * event. The name is kept here instead, once per task: the recorder (tracing_record_cmdline()
 * in trace/trace_ctx.h) saves it when the task it records for is not the one it saw last on this
 * CPU, so about once per task switch in the event stream, and the printer asks
 * trace_find_cmdline() for the name.
 *
 * The slots (saved_cmdlines_size of them, 128 by default) are reused round-robin; a hash of the pid
 * (map_pid_to_cmdline) points at a pid's slot, and the slot remembers its pid so that a stale or
 * colliding entry is recognised. A pid whose slot was reused prints as "<...>", as in Linux; pid 0,
 * the idle tasks, always prints as "<idle>".
 *
 * Recorders run in any context on any CPU, even inside an NMI that interrupted the printer: so
 * they only try the lock, and skip (to retry at the task's next event) rather than wait. They
 * call nothing that could be traced or could schedule: raw arch_spin_* and plain loops.
 * A task whose every try failed (a short one, while another CPU held the lock: under a loaded
 * host a vCPU can be descheduled holding it) would print as "<...>": so the task marks itself,
 * and its exit, task context, saves the name waiting for the lock (trace_save_cmdline_wait()).
 * Not traced, for the same reason: the function tracer calls in here for every event.
 */
#include "trace/trace.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "lib/errno.h"
#include "kernel/locking/lockdep.h"

#define SAVED_CMDLINES_DEFAULT 128 /* Linux's default saved_cmdlines_size */
#define PID_MAP_SIZE 1024 /* power of two */
#define NO_CMDLINE_MAP 0xffff
#define CMDLINE_LOCK_SPINS 1000000 /* a printer's longest wait for the lock */

/*
 * The slots. The default set is static, so recording works from the first boot-time event,
 * before the heap exists; saved_cmdlines_size swaps in a kmalloc'ed set of another size.
 */
struct saved_cmdlines_buffer {
	unsigned int cmdline_num; /* slots */
	unsigned int cmdline_idx; /* the next slot to reuse */
	int *map_cmdline_to_pid; /* slot -> pid, -1 when free */
	char (*saved_cmdlines)[TRACE_COMM_LEN]; /* slot -> comm */
};

static int default_map_cmdline_to_pid[SAVED_CMDLINES_DEFAULT];
static char default_saved_cmdlines[SAVED_CMDLINES_DEFAULT][TRACE_COMM_LEN];
static struct saved_cmdlines_buffer default_savedcmd = {
	.cmdline_num = SAVED_CMDLINES_DEFAULT,
	.map_cmdline_to_pid = default_map_cmdline_to_pid,
	.saved_cmdlines = default_saved_cmdlines,
};

static struct saved_cmdlines_buffer *savedcmd = &default_savedcmd;
static uint16_t map_pid_to_cmdline[PID_MAP_SIZE];
static spinlock_t trace_cmdline_lock = SPINLOCK_INIT;
static bool cmdlines_ready;

static void copy_comm(char *dst, const char *src)
{
	int i;

	for (i = 0; i < TRACE_COMM_LEN - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/* Forgets every name (the lock held): at first use, and when the slots change. */
static void reset_cmdlines(struct saved_cmdlines_buffer *s)
{
	lockdep_assert_held(&trace_cmdline_lock);
	for (int i = 0; i < PID_MAP_SIZE; i++)
		map_pid_to_cmdline[i] = NO_CMDLINE_MAP;
	for (unsigned int i = 0; i < s->cmdline_num; i++)
		s->map_cmdline_to_pid[i] = -1;
	s->cmdline_idx = 0;
	cmdlines_ready = true;
}

/* Saves pid's comm in its slot, or takes the next one (the lock held). */
static void __trace_save_cmdline(int pid, const char *comm)
{
	struct saved_cmdlines_buffer *s;
	unsigned int slot;
	uint16_t *map;

	lockdep_assert_held(&trace_cmdline_lock);
	s = savedcmd;
	if (!cmdlines_ready)
		reset_cmdlines(s);
	map = &map_pid_to_cmdline[pid & (PID_MAP_SIZE - 1)];
	slot = *map;
	if (slot == NO_CMDLINE_MAP || slot >= s->cmdline_num ||
	    s->map_cmdline_to_pid[slot] != pid) {
		slot = s->cmdline_idx;
		s->cmdline_idx = (s->cmdline_idx + 1) % s->cmdline_num;
		/* The slot's previous owner loses its name (prints as <...>). */
		if (s->map_cmdline_to_pid[slot] >= 0) {
			int old_pid = s->map_cmdline_to_pid[slot];
			uint16_t *old = &map_pid_to_cmdline[old_pid & (PID_MAP_SIZE - 1)];

			if (*old == slot)
				*old = NO_CMDLINE_MAP;
		}
		s->map_cmdline_to_pid[slot] = pid;
		*map = (uint16_t)slot;
	}
	copy_comm(s->saved_cmdlines[slot], comm);
}

/* Saves pid's comm; false if another CPU (or the context we interrupted) holds the lock. */
bool trace_save_cmdline(int pid, const char *comm)
{
	if (pid <= 0)
		return true; /* the idle tasks print as <idle> */
	if (!arch_spin_trylock(&trace_cmdline_lock))
		return false;
	__trace_save_cmdline(pid, comm);
	arch_spin_unlock(&trace_cmdline_lock);
	return true;
}

/* Task context only: here waiting for a recorder is fine (it never waits). */
static void cmdline_lock(void)
{
	while (!arch_spin_trylock(&trace_cmdline_lock))
		cpu_relax();
}

/* The same, waiting for the lock: for a task's exit, when no later event can retry. */
void trace_save_cmdline_wait(int pid, const char *comm)
{
	if (pid <= 0)
		return;
	cmdline_lock();
	__trace_save_cmdline(pid, comm);
	arch_spin_unlock(&trace_cmdline_lock);
}

void trace_find_cmdline(int pid, char comm[TRACE_COMM_LEN])
{
	unsigned int slot;

	if (pid == 0) {
		copy_comm(comm, "<idle>");
		return;
	}
	copy_comm(comm, "<...>");
	if (pid < 0)
		return;
	/*
	 * A bounded wait: ftrace_dump() prints from an oops, where the holder may be a CPU that
	 * was stopped, or the code that faulted. Then the name is unknown.
	 */
	for (int spins = 0; !arch_spin_trylock(&trace_cmdline_lock); spins++) {
		if (spins >= CMDLINE_LOCK_SPINS)
			return;
		cpu_relax();
	}
	if (cmdlines_ready) {
		slot = map_pid_to_cmdline[pid & (PID_MAP_SIZE - 1)];
		if (slot < savedcmd->cmdline_num && savedcmd->map_cmdline_to_pid[slot] == pid)
			copy_comm(comm, savedcmd->saved_cmdlines[slot]);
	}
	arch_spin_unlock(&trace_cmdline_lock);
}

/* The slot's pid and comm, for saved_cmdlines; false past the last slot. pid -1: unused. */
bool trace_saved_cmdline(unsigned int slot, int *pid, char comm[TRACE_COMM_LEN])
{
	bool more;

	cmdline_lock();
	more = slot < savedcmd->cmdline_num;
	*pid = -1;
	if (more && cmdlines_ready && savedcmd->map_cmdline_to_pid[slot] >= 0) {
		*pid = savedcmd->map_cmdline_to_pid[slot];
		copy_comm(comm, savedcmd->saved_cmdlines[slot]);
	}
	arch_spin_unlock(&trace_cmdline_lock);
	return more;
}

unsigned int trace_saved_cmdlines_size(void)
{
	unsigned int n;

	cmdline_lock();
	n = savedcmd->cmdline_num;
	arch_spin_unlock(&trace_cmdline_lock);
	return n;
}

/* Resizing forgets every name, as Linux's reallocation does. */
static struct saved_cmdlines_buffer *alloc_cmdlines(unsigned int num)
{
	struct saved_cmdlines_buffer *s = kzalloc(sizeof(*s));

	if (!s)
		return NULL;
	s->cmdline_num = num;
	s->map_cmdline_to_pid = kmalloc(num * sizeof(*s->map_cmdline_to_pid));
	s->saved_cmdlines = kmalloc(num * sizeof(*s->saved_cmdlines));
	if (!s->map_cmdline_to_pid || !s->saved_cmdlines) {
		kfree(s->map_cmdline_to_pid);
		kfree(s->saved_cmdlines);
		kfree(s);
		return NULL;
	}
	return s;
}

static void free_cmdlines(struct saved_cmdlines_buffer *s)
{
	if (s == &default_savedcmd)
		return;
	kfree(s->map_cmdline_to_pid);
	kfree(s->saved_cmdlines);
	kfree(s);
}

int trace_resize_saved_cmdlines(unsigned int num)
{
	struct saved_cmdlines_buffer *s, *old;

	if (!num || num > PID_MAX_DEFAULT)
		return -EINVAL;
	s = alloc_cmdlines(num);
	if (!s)
		return -ENOMEM;
	cmdline_lock();
	reset_cmdlines(s);
	old = savedcmd;
	savedcmd = s;
	arch_spin_unlock(&trace_cmdline_lock);
	/* Everyone who looks at the slots holds the lock, so nobody still sees the old ones. */
	free_cmdlines(old);
	return 0;
}

/* --- record-tgid's map (options/record-tgid, saved_tgids in trace/trace_options.c) --- */

/*
 * pid -> tgid, one int per pid up to PID_MAX_DEFAULT as Linux's tgid_map: allocated the first
 * time the option is turned on and kept (an event may be reading it on another CPU). Written by
 * __tracing_record_cmdline() when a CPU records for a task it did not record for last; 0 means
 * unknown.
 */
static int *tgid_map;

void trace_save_tgid(const struct task *t)
{
	int *map = READ_ONCE(tgid_map);

	if (map && t->pid > 0 && t->pid <= PID_MAX_DEFAULT)
		WRITE_ONCE(map[t->pid], t->tgid ? t->tgid : t->pid);
}

int trace_find_tgid(int pid)
{
	int *map = READ_ONCE(tgid_map);

	if (!map || pid <= 0 || pid > PID_MAX_DEFAULT)
		return 0;
	return READ_ONCE(map[pid]);
}

/* Turning record-tgid on: the map must exist first. The caller holds trace_types_lock. */
int trace_alloc_tgid_map(void)
{
	int *map;

	lockdep_assert_held(&trace_types_lock);
	if (tgid_map)
		return 0;
	map = kzalloc((PID_MAX_DEFAULT + 1) * sizeof(*map));
	if (!map)
		return -ENOMEM;
	WRITE_ONCE(tgid_map, map);
	return 0;
}
