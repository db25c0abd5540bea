/* Attaching probes to tracepoints, and detaching them safely (kernel/tracepoint.h explains). */

/*
 * Writers (attach, detach) are serialized by tracepoints_mutex; callers of the tracepoint
 * take no lock at all. A slot changes from NULL to a new pair, or from a pair to NULL, in one
 * atomic store, and a pair is never changed once published: so a caller sees either the old
 * state or the new one, never half of a pair. The key is turned on after the first slot is
 * filled and off after the last one is emptied (static_key_enable patches every trace_X() site,
 * kernel/jump_label.c); a CPU that runs a site while it changes just looks at the slots for
 * nothing, or misses a probe that was being attached at that moment.
 */
#include "kernel/tracepoint.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/smp.h"
#include "lib/errno.h"

static DEFINE_MUTEX(tracepoints_mutex);

static bool tracepoint_has_probes(struct tracepoint *tp)
{
	for (int i = 0; i < TRACEPOINT_MAX_PROBES; i++)
		if (tp->funcs[i])
			return true;
	return false;
}

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	struct tracepoint_func *f;
	int slot = -1, ret = 0;

	mutex_lock(&tracepoints_mutex);
	for (int i = 0; i < TRACEPOINT_MAX_PROBES; i++) {
		if (tp->funcs[i] && tp->funcs[i]->func == probe && tp->funcs[i]->data == data) {
			ret = -EEXIST;
			goto out;
		}
		if (!tp->funcs[i] && slot < 0)
			slot = i;
	}
	if (slot < 0) {
		ret = -ENOSPC;
		goto out;
	}
	f = kmalloc(sizeof(*f));
	if (!f) {
		ret = -ENOMEM;
		goto out;
	}
	f->func = probe;
	f->data = data;
	__atomic_store_n(&tp->funcs[slot], f, __ATOMIC_RELEASE); /* the pair before its pointer */
	if (!static_key_enabled(&tp->key)) {
		if (tp->regfunc)
			tp->regfunc(true);
		static_key_enable(&tp->key);
	}
out:
	mutex_unlock(&tracepoints_mutex);
	return ret;
}

int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data)
{
	const struct tracepoint_func *f = NULL;

	mutex_lock(&tracepoints_mutex);
	for (int i = 0; i < TRACEPOINT_MAX_PROBES && !f; i++) {
		if (tp->funcs[i] && tp->funcs[i]->func == probe && tp->funcs[i]->data == data) {
			f = tp->funcs[i];
			__atomic_store_n(&tp->funcs[i], NULL, __ATOMIC_RELEASE);
		}
	}
	if (f && !tracepoint_has_probes(tp)) {
		static_key_disable(&tp->key);
		if (tp->regfunc)
			tp->regfunc(false);
	}
	mutex_unlock(&tracepoints_mutex);
	if (!f)
		return -ENOENT;
	/* A CPU may be inside the probe right now: free the pair only once all are out. */
	tracepoint_synchronize_unregister();
	kfree((void *)f);
	return 0;
}

/* Probes run with preemption off: see kernel/tracepoint.h for why this is enough. */
void tracepoint_synchronize_unregister(void)
{
	synchronize_sched();
}
