/* The pid -> comm cache behind the trace's TASK column (Linux's saved_cmdlines). */

/*
 * An event records only a pid: sixteen bytes of comm per event would almost double a function
 * event. The name is kept here instead, once per task: the recorder (tracing_record_cmdline()
 * in trace/trace.c) saves it when the task it records for is not the one it saw last on this
 * CPU, so about once per task switch in the event stream, and the printer asks
 * trace_find_cmdline() for the name.
 *
 * SAVED_CMDLINES slots are reused round-robin; a hash of the pid (map_pid_to_cmdline) points
 * at a pid's slot, and the slot remembers its pid so that a stale or colliding entry is
 * recognised. A pid whose slot was reused prints as "<...>", as in Linux; pid 0, the idle
 * tasks, always prints as "<idle>".
 *
 * Recorders run in any context on any CPU, even inside an NMI that interrupted the printer: so
 * they only try the lock, and skip (to retry at the task's next event) rather than wait. They
 * call nothing that could be traced or could schedule: raw arch_spin_* and plain loops.
 * Not traced, for the same reason: the function tracer calls in here for every event.
 */
#include "trace/trace.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"

#define SAVED_CMDLINES 128 /* Linux's default saved_cmdlines_size */
#define PID_MAP_SIZE 1024  /* power of two */
#define NO_CMDLINE_MAP 0xffff

static uint16_t map_pid_to_cmdline[PID_MAP_SIZE];
static int map_cmdline_to_pid[SAVED_CMDLINES];
static char saved_cmdlines[SAVED_CMDLINES][TRACE_COMM_LEN];
static unsigned int cmdline_idx;
static spinlock_t trace_cmdline_lock = SPINLOCK_INIT;
static bool cmdlines_ready;

static notrace void copy_comm(char *dst, const char *src)
{
	int i;

	for (i = 0; i < TRACE_COMM_LEN - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

static notrace void init_cmdlines(void)
{
	for (int i = 0; i < PID_MAP_SIZE; i++)
		map_pid_to_cmdline[i] = NO_CMDLINE_MAP;
	for (int i = 0; i < SAVED_CMDLINES; i++)
		map_cmdline_to_pid[i] = -1;
	cmdlines_ready = true;
}

/* Saves pid's comm; false if another CPU (or the context we interrupted) holds the lock. */
notrace bool trace_save_cmdline(int pid, const char *comm)
{
	unsigned int slot;
	uint16_t *map;

	if (pid <= 0)
		return true; /* the idle tasks print as <idle> */
	if (!arch_spin_trylock(&trace_cmdline_lock))
		return false;
	if (!cmdlines_ready)
		init_cmdlines();
	map = &map_pid_to_cmdline[pid & (PID_MAP_SIZE - 1)];
	slot = *map;
	if (slot == NO_CMDLINE_MAP || map_cmdline_to_pid[slot] != pid) {
		slot = cmdline_idx;
		cmdline_idx = (cmdline_idx + 1) % SAVED_CMDLINES;
		/* The slot's previous owner loses its name (prints as <...>). */
		if (map_cmdline_to_pid[slot] >= 0) {
			int old_pid = map_cmdline_to_pid[slot];
			uint16_t *old = &map_pid_to_cmdline[old_pid & (PID_MAP_SIZE - 1)];

			if (*old == slot)
				*old = NO_CMDLINE_MAP;
		}
		map_cmdline_to_pid[slot] = pid;
		*map = (uint16_t)slot;
	}
	copy_comm(saved_cmdlines[slot], comm);
	arch_spin_unlock(&trace_cmdline_lock);
	return true;
}

notrace void trace_find_cmdline(int pid, char comm[TRACE_COMM_LEN])
{
	unsigned int slot;

	if (pid == 0) {
		copy_comm(comm, "<idle>");
		return;
	}
	copy_comm(comm, "<...>");
	if (pid < 0)
		return;
	/* Printing is task context: here waiting for a recorder is fine (it never waits). */
	while (!arch_spin_trylock(&trace_cmdline_lock))
		cpu_relax();
	if (cmdlines_ready) {
		slot = map_pid_to_cmdline[pid & (PID_MAP_SIZE - 1)];
		if (slot != NO_CMDLINE_MAP && map_cmdline_to_pid[slot] == pid)
			copy_comm(comm, saved_cmdlines[slot]);
	}
	arch_spin_unlock(&trace_cmdline_lock);
}
