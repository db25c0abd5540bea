/* kprobe_events: events on any kernel instruction or function return, as Linux 6.1's. */

/*
 *   echo 'p:myopen do_sys_openat2 dfd=$arg1 path=+0($arg2):string' > kprobe_events
 *   echo 'r:myret do_sys_openat2 ret=$retval' >> kprobe_events
 *
 * Each line makes an event (events/kprobes/myopen/: enable, filter, trigger, format, id) on a
 * kprobe, or a kretprobe for 'r' and SYM%return, of the mechanism in kernel/kprobes.h. The
 * probe is registered when the event is made, disarmed (KPROBE_FLAG_DISABLED), so a bad place
 * (no such symbol, not an instruction boundary, blacklisted) is refused at once with Linux's
 * error_log line; enabling the event arms it, disabling disarms it. The exception, as Linux
 * 6.1's: "MOD:sym" of a module that is not loaded makes the event with a warning, and the probe
 * is registered when the module comes (trace_kprobe_module_coming). A hit runs the arguments'
 * fetch programs (trace/trace_probe_fetch.c) on the registers the probe saw and records
 *
 *   kprobe:    struct trace_entry, unsigned long __probe_ip, the arguments
 *   kretprobe: struct trace_entry, __probe_func, __probe_ret_ip, the arguments
 *
 * printed "myopen: (do_sys_openat2+0x0/0x180) dfd=..." or "myret: (do_sys_open+0x5a/0x90 <-
 * do_sys_openat2) ret=0x3". kprobe_profile counts each event's hits (per CPU, summed when
 * read) and the mechanism's misses (nmissed). Linux's kernel/trace/trace_kprobe.c.
 *
 * A second definition under a name in use, of the same kind ('p' or 'r') and with the same
 * arguments' names and types, is appended to that event (Linux 6.1's multi-probe events):
 *
 *   echo 'p:kprobes/rw vfs_read cnt=%dx' >> kprobe_events
 *   echo 'p:kprobes/rw vfs_write cnt=%dx' >> kprobe_events	(one event, two probes)
 *
 * Each probe is a trace_kprobe of its own (listed on its own line, counted on its own
 * kprobe_profile line, removable alone by "-:rw vfs_write"), and all record into the event's
 * call (trace/trace_probe.h: tp->event). Enabling the event arms every probe on it; a probe
 * appended to an enabled event is armed at once. The same place with the same arguments again
 * is refused ("There is already the exact same probe event", EEXIST), as is another kind or
 * other arguments, with Linux's error_log lines.
 *
 * Definitions are parsed and events made under dyn_event_mutex (trace/trace_dynevent.c); a
 * hit runs in the probe's context, interrupts off.
 */
#include "trace/trace_probe.h"
#include "trace/trace_dynevent.h"
#include "trace/trace_fs.h"
#include "kernel/kprobes.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/module/module.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define KPROBE_EVENT_SYSTEM "kprobes"

struct trace_kprobe {
	struct dyn_event devent;
	struct kretprobe rp; /* rp.kp is the kprobe of a 'p' probe too */
	bool is_return;
	unsigned long nhit[NR_CPUS]; /* hits while enabled, per CPU: no shared line to bounce */
	struct list_head sibling; /* on tp->event->probes: the probes of this event */
	char *symbol; /* "do_sys_openat2" (or "mod:sym"), NULL for an address */
	struct trace_probe *tp;
	/*
	 * rp (or rp.kp) is registered with the mechanism. Not while the module of a "MOD:sym"
	 * probe is not loaded: the event is made all the same and the probe registered when the
	 * module comes (trace_kprobe_module_coming), as Linux 6.1's.
	 */
	bool registered;
};

/* The records' own fields, Linux's kprobe_trace_entry_head and kretprobe_trace_entry_head. */
struct kprobe_trace_entry_head {
	struct trace_entry ent;
	unsigned long ip;
};
struct kretprobe_trace_entry_head {
	struct trace_entry ent;
	unsigned long func;
	unsigned long ret_ip;
};

static const struct trace_event_field kprobe_fields[] = {
	{.type = "unsigned long",
	 .name = FIELD_STRING_IP,
	 .offset = offsetof(struct kprobe_trace_entry_head, ip),
	 .size = sizeof(unsigned long)},
	{.name = NULL},
};
static const struct trace_event_field kretprobe_fields[] = {
	{.type = "unsigned long",
	 .name = FIELD_STRING_FUNC,
	 .offset = offsetof(struct kretprobe_trace_entry_head, func),
	 .size = sizeof(unsigned long)},
	{.type = "unsigned long",
	 .name = FIELD_STRING_RETIP,
	 .offset = offsetof(struct kretprobe_trace_entry_head, ret_ip),
	 .size = sizeof(unsigned long)},
	{.name = NULL},
};

static struct dyn_event_operations trace_kprobe_ops;

static struct trace_kprobe *to_trace_kprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_kprobe, devent);
}

/* --- a hit ------------------------------------------------------------------------------------ */

/*
 * The arguments' strings' size, and the arguments stored, from the registers a hit saw. Apart
 * from the record's making, so that a probe without arguments builds no fetch_context (whose
 * address, taken, would also cost the stack protector's check on every hit).
 */
static noinline int kprobe_args_size(const struct trace_probe *tp, struct pt_regs *regs)
{
	struct fetch_context fc = {.regs = regs};

	return traceprobe_get_data_size(tp, &fc);
}

static noinline void kprobe_store_args(void *data, const struct trace_probe *tp,
				       struct pt_regs *regs, int header_size, int dsize)
{
	struct fetch_context fc = {.regs = regs};

	store_trace_args(data, tp, &fc, header_size, dsize);
}

static void kprobe_trace_func(struct trace_kprobe *tk, struct pt_regs *regs)
{
	struct trace_probe *tp = tk->tp;
	struct trace_event_call *call = &tp->event->call;
	struct kprobe_trace_entry_head *entry;
	unsigned int len;
	int dsize;

	dsize = tp->fixed_size ? 0 : kprobe_args_size(tp, regs);
	len = (unsigned int)sizeof(*entry) + tp->size + (unsigned int)dsize;
	entry = trace_event_buffer_reserve(call, len);
	if (!entry)
		return;
	entry->ip = (unsigned long)tk->rp.kp.addr;
	if (tp->nr_args && tp->cannot_fault)
		store_trace_regs(entry + 1, tp, regs);
	else if (tp->nr_args)
		kprobe_store_args(entry + 1, tp, regs, sizeof(*entry), dsize);
	trace_event_buffer_commit(call, entry, len);
}

static void kretprobe_trace_func(struct trace_kprobe *tk, struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct trace_probe *tp = tk->tp;
	struct trace_event_call *call = &tp->event->call;
	struct kretprobe_trace_entry_head *entry;
	unsigned int len;
	int dsize;

	dsize = tp->fixed_size ? 0 : kprobe_args_size(tp, regs);
	len = (unsigned int)sizeof(*entry) + tp->size + (unsigned int)dsize;
	entry = trace_event_buffer_reserve(call, len);
	if (!entry)
		return;
	entry->func = (unsigned long)tk->rp.kp.addr;
	entry->ret_ip = get_kretprobe_retaddr(ri);
	if (tp->nr_args && tp->cannot_fault)
		store_trace_regs(entry + 1, tp, regs);
	else if (tp->nr_args)
		kprobe_store_args(entry + 1, tp, regs, sizeof(*entry), dsize);
	trace_event_buffer_commit(call, entry, len);
}

static int kprobe_dispatcher(struct kprobe *kp, struct pt_regs *regs)
{
	struct trace_kprobe *tk = container_of(kp, struct trace_kprobe, rp.kp);

	tk->nhit[smp_processor_id()]++;
	if (trace_probe_is_enabled(tk->tp->event))
		kprobe_trace_func(tk, regs);
	return 0; /* we did not change regs->ip */
}

static int kretprobe_dispatcher(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct trace_kprobe *tk;

	if (!rp)
		return 0; /* unregistered while the call was in flight */
	tk = container_of(rp, struct trace_kprobe, rp);
	tk->nhit[smp_processor_id()]++;
	if (trace_probe_is_enabled(tk->tp->event))
		kretprobe_trace_func(tk, ri, regs);
	return 0;
}

/* --- the text --------------------------------------------------------------------------------- */

static enum print_line_t print_kprobe_event(struct trace_iterator *iter, unsigned int flags,
					    struct trace_event *event)
{
	struct trace_probe *tp = trace_probe_from_call(trace_event_call_of(event));
	struct kprobe_trace_entry_head *field = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (", trace_probe_name(tp));
	seq_print_ip_sym(s, field->ip, flags | TRACE_ITER_SYM_OFFSET);
	trace_seq_putc(s, ')');
	if (trace_probe_print_args(s, tp->args, (int)tp->nr_args, (uint8_t *)(field + 1), field) <
	    0)
		return trace_handle_return(s);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static enum print_line_t print_kretprobe_event(struct trace_iterator *iter, unsigned int flags,
					       struct trace_event *event)
{
	struct trace_probe *tp = trace_probe_from_call(trace_event_call_of(event));
	struct kretprobe_trace_entry_head *field = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (", trace_probe_name(tp));
	seq_print_ip_sym(s, field->ret_ip, flags | TRACE_ITER_SYM_OFFSET);
	trace_seq_puts(s, " <- ");
	seq_print_ip_sym(s, field->func, flags & ~TRACE_ITER_SYM_OFFSET);
	trace_seq_putc(s, ')');
	if (trace_probe_print_args(s, tp->args, (int)tp->nr_args, (uint8_t *)(field + 1), field) <
	    0)
		return trace_handle_return(s);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

/* --- enabling --------------------------------------------------------------------------------- */

static int trace_kprobe_arm(struct trace_kprobe *tk, bool on)
{
	/*
	 * A probe whose module is not loaded, or was unloaded (gone): nothing to arm; the event's
	 * enable stands, and a module that comes registers it armed (Linux's
	 * __enable_trace_kprobe skips them too).
	 */
	if (!tk->registered || kprobe_gone(&tk->rp.kp))
		return 0;
	if (on)
		return tk->is_return ? enable_kretprobe(&tk->rp) : enable_kprobe(&tk->rp.kp);
	return tk->is_return ? disable_kretprobe(&tk->rp) : disable_kprobe(&tk->rp.kp);
}

/*
 * The event's enable (any instance, a trigger's hold): arm or disarm each probe on it (all or
 * none: a probe that cannot be armed disarms the ones before it). event_mutex.
 */
static int kprobe_register(struct trace_event_call *call, bool on)
{
	struct trace_probe *ev = trace_probe_from_call(call);
	struct trace_kprobe *tk, *undo;
	int ret = 0;

	if (on) {
		__atomic_fetch_or(&ev->flags, TP_FLAG_TRACE, __ATOMIC_RELEASE);
		list_for_each_entry(tk, &ev->probes, sibling)
		{
			ret = trace_kprobe_arm(tk, true);
			if (ret)
				break;
		}
		if (!ret)
			return 0;
		list_for_each_entry(undo, &ev->probes, sibling)
		{
			if (undo == tk)
				break;
			trace_kprobe_arm(undo, false);
		}
		__atomic_fetch_and(&ev->flags, ~TP_FLAG_TRACE, __ATOMIC_RELEASE);
		return ret;
	}
	list_for_each_entry(tk, &ev->probes, sibling)
	{
		int err = trace_kprobe_arm(tk, false);

		if (!ret)
			ret = err;
	}
	__atomic_fetch_and(&ev->flags, ~TP_FLAG_TRACE, __ATOMIC_RELEASE);
	return ret;
}

/* --- making one ------------------------------------------------------------------------------- */

/* tk off its event (the event freed with its last probe), and freed. */
static void free_trace_kprobe(struct trace_kprobe *tk)
{
	if (!tk)
		return;
	trace_probe_unlink(tk->tp, &tk->sibling);
	kfree(tk->symbol);
	kfree(tk);
}

static struct trace_kprobe *find_trace_kprobe(const char *event, const char *group)
{
	struct dyn_event *pos;

	for_each_dyn_event(pos)
	{
		struct trace_kprobe *tk;

		if (pos->ops != &trace_kprobe_ops)
			continue;
		tk = to_trace_kprobe(pos);
		if (!strcmp(trace_probe_name(tk->tp->event), event) &&
		    !strcmp(trace_probe_group_name(tk->tp->event), group))
			return tk;
	}
	return NULL;
}

/* Does b probe where a probe already on a's event does, with the same arguments' texts? */
static bool trace_kprobe_has_same_kprobe(const struct trace_kprobe *a, const struct trace_kprobe *b)
{
	const struct trace_kprobe *o;

	list_for_each_entry(o, &a->tp->event->probes, sibling)
	{
		if (((o->symbol == NULL) == (b->symbol == NULL)) &&
		    (!o->symbol || !strcmp(o->symbol, b->symbol)) &&
		    o->rp.kp.offset == b->rp.kp.offset &&
		    (o->symbol || o->rp.kp.addr == b->rp.kp.addr) &&
		    trace_probe_same_fetchargs(o->tp, b->tp))
			return true;
	}
	return false;
}

/* The mechanism's probe, armed if the event is enabled. */
static int __register_trace_kprobe(struct trace_kprobe *tk)
{
	int ret;

	for (unsigned int i = 0; i < tk->tp->nr_args; i++) {
		ret = traceprobe_update_arg(&tk->tp->args[i]); /* @SYM's address */
		if (ret)
			return ret;
	}
	if (trace_probe_is_enabled(tk->tp->event))
		tk->rp.kp.flags &= ~KPROBE_FLAG_DISABLED;
	else
		tk->rp.kp.flags |= KPROBE_FLAG_DISABLED;
	ret = tk->is_return ? register_kretprobe(&tk->rp) : register_kprobe(&tk->rp.kp);
	tk->registered = ret == 0;
	/* EEXIST from the mechanism is not the name's: do not let it read so */
	return ret == -EEXIST ? -EBUSY : ret;
}

/* The mechanism's probe away, tk kept for a later __register_trace_kprobe (Linux's). */
static void __unregister_trace_kprobe(struct trace_kprobe *tk)
{
	if (!tk->registered)
		return;
	if (tk->is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
	tk->registered = false;
	/* For reuse: the symbol is looked up again, and its gone mark forgotten. */
	if (tk->symbol)
		tk->rp.kp.addr = NULL;
	tk->rp.kp.flags = 0;
}

/* Is tk's "MOD:" module loaded? (Any other probe: as if it were, since nothing waits for it.) */
static void note_module(struct module *mod, void *data)
{
	const char **name = data;

	if (*name && !strcmp(mod->name, *name))
		*name = NULL;
}

static bool trace_kprobe_module_exist(struct trace_kprobe *tk)
{
	char mod[MODULE_NAME_LEN];
	const char *colon, *name = mod;

	if (!tk->symbol)
		return false;
	colon = strchr(tk->symbol, ':');
	if (!colon)
		return true;
	if ((size_t)(colon - tk->symbol) >= sizeof(mod))
		return false; /* no module has so long a name */
	memcpy(mod, tk->symbol, (size_t)(colon - tk->symbol));
	mod[colon - tk->symbol] = '\0';
	module_for_each(note_module, &name);
	return name == NULL;
}

/*
 * Registration's ENOENT for a probe on a module that is not loaded is not an error: Linux 6.1
 * warns and keeps the event, whose probe is registered when the module comes. A symbol a
 * loaded module lacks stays an error.
 */
static int register_or_defer(struct trace_kprobe *tk)
{
	int ret = __register_trace_kprobe(tk);

	if (ret == -ENOENT && !trace_kprobe_module_exist(tk)) {
		pr_warn("trace_kprobe: This probe might be able to register after target module is "
			"loaded. Continue.\n");
		ret = 0;
	}
	return ret;
}

/*
 * A name already used by a kprobe event of the same kind: Linux's append_trace_kprobe(). The
 * arguments must be the event's (else DIFF_ARG_TYPE, the caret on the first that differs), and
 * not all the same as a probe already there at the same place (SAME_PROBE). -EEXIST, or tk is
 * a probe of old's event. Under event_mutex, so that enabling sees the probe list whole.
 */
static int append_trace_kprobe(struct trace_kprobe *tk, struct trace_kprobe *old)
{
	int ret = trace_probe_compare_arg_type(tk->tp, old->tp->event);

	if (ret) {
		trace_probe_log_set_index(ret + 1); /* the arguments' words start at 2 */
		trace_probe_log_err(0, DIFF_ARG_TYPE);
		return -EEXIST;
	}
	if (trace_kprobe_has_same_kprobe(old, tk)) {
		trace_probe_log_set_index(0);
		trace_probe_log_err(0, SAME_PROBE);
		return -EEXIST;
	}
	mutex_lock(&event_mutex);
	trace_probe_append(tk->tp, old->tp, &tk->sibling);
	ret = register_or_defer(tk);
	if (ret)
		list_del_init(&tk->sibling); /* tk->tp is freed with tk, the event stays */
	mutex_unlock(&event_mutex);
	return ret;
}

/* Event first (its name may be taken), then the probe, disarmed; undone if either fails. */
static int register_trace_kprobe(struct trace_kprobe *tk)
{
	struct trace_kprobe *old =
		find_trace_kprobe(trace_probe_name(tk->tp), trace_probe_group_name(tk->tp));
	int ret;

	if (old) {
		if (tk->is_return != old->is_return) {
			trace_probe_log_set_index(0);
			trace_probe_log_err(0, DIFF_PROBE_TYPE);
			return -EEXIST;
		}
		return append_trace_kprobe(tk, old);
	}
	ret = trace_probe_register_event_call(
		tk->tp, tk->is_return ? print_kretprobe_event : print_kprobe_event,
		kprobe_register);
	if (ret) {
		if (ret == -EEXIST) {
			trace_probe_log_set_index(0);
			trace_probe_log_err(0, EVENT_EXIST);
		}
		return ret;
	}
	ret = register_or_defer(tk);
	if (ret) {
		trace_probe_unregister_event_call(tk->tp);
		return ret;
	}
	trace_probe_link(tk->tp, &tk->sibling);
	return 0;
}

/* Linux's sanitize_event_name(): anything but a letter, digit or '_' becomes '_'. */
static void sanitize_event_name(char *name)
{
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && *name != '_')
			*name = '_';
}

/* Linux's __trace_kprobe_create(). */
static int __trace_kprobe_create(int argc, const char *argv[])
{
	const char *event = NULL, *group = KPROBE_EVENT_SYSTEM;
	char buf[MAX_EVENT_NAME_LEN], gbuf[MAX_EVENT_NAME_LEN];
	unsigned int flags = TPARG_FL_KERNEL, maxactive = 0;
	char *symbol = NULL, *tmp;
	struct trace_kprobe *tk = NULL;
	unsigned long addr = 0;
	bool is_return = false;
	long offset = 0;
	int ret = 0;
	size_t len;

	switch (argv[0][0]) {
	case 'r':
		is_return = true;
		break;
	case 'p':
		break;
	default:
		return -ECANCELED;
	}
	if (argc < 2)
		return -ECANCELED;
	trace_probe_log_init("trace_kprobe", argc, argv);

	event = strchr(&argv[0][1], ':');
	if (event)
		event++;
	if (isdigit((unsigned char)argv[0][1])) {
		if (!is_return) {
			trace_probe_log_err(1, MAXACT_NO_KPROBE);
			goto parse_error;
		}
		len = event ? (size_t)(event - &argv[0][1] - 1) : strlen(&argv[0][1]);
		if (len > MAX_EVENT_NAME_LEN - 1) {
			trace_probe_log_err(1, BAD_MAXACT);
			goto parse_error;
		}
		memcpy(buf, &argv[0][1], len);
		buf[len] = '\0';
		if (kstrtouint(buf, 0, &maxactive) || !maxactive) {
			trace_probe_log_err(1, BAD_MAXACT);
			goto parse_error;
		}
		if (maxactive > KRETPROBE_MAXACTIVE_MAX) {
			trace_probe_log_err(1, MAXACT_TOO_BIG);
			goto parse_error;
		}
	}

	/* an address, or else a symbol */
	if (kstrtoul(argv[1], 0, &addr)) {
		trace_probe_log_set_index(1);
		/* PATH:OFFSET is a uprobe's: not ours */
		if (strchr(argv[1], '/') && strchr(argv[1], ':')) {
			ret = -ECANCELED;
			goto out;
		}
		symbol = kstrdup(argv[1]);
		if (!symbol) {
			ret = -ENOMEM;
			goto out;
		}
		tmp = strchr(symbol, '%');
		if (tmp) {
			if (!strcmp(tmp, "%return")) {
				*tmp = '\0';
				is_return = true;
			} else {
				trace_probe_log_err((int)(tmp - symbol), BAD_ADDR_SUFFIX);
				goto parse_error;
			}
		}
		ret = traceprobe_split_symbol_offset(symbol, &offset);
		if (ret || offset < 0 || offset > (long)UINT32_MAX) {
			trace_probe_log_err(0, BAD_PROBE_ADDR);
			goto parse_error;
		}
		if (is_return)
			flags |= TPARG_FL_RETURN;
		ret = kprobe_on_func_entry(NULL, symbol, (unsigned long)offset);
		if (ret == 0)
			flags |= TPARG_FL_FENTRY;
		/* an unknown symbol is refused at registration, below */
		if (ret == -EINVAL && is_return) {
			trace_probe_log_err(0, BAD_RETPROBE);
			goto parse_error;
		}
		ret = 0;
	} else if (is_return) {
		flags |= TPARG_FL_RETURN;
	} else if (!kprobe_on_func_entry((kprobe_opcode_t *)addr, NULL, 0)) {
		flags |= TPARG_FL_FENTRY;
	}

	trace_probe_log_set_index(0);
	if (event) {
		ret = traceprobe_parse_event_name(&event, &group, gbuf, (int)(event - argv[0]));
		if (ret)
			goto parse_error;
	}
	if (!event) {
		/* p_do_sys_openat2_0, r_do_sys_openat2_0, p_0xffffffff81234567 */
		if (symbol)
			snprintf(buf, MAX_EVENT_NAME_LEN, "%c_%s_%ld", is_return ? 'r' : 'p',
				 symbol, offset);
		else
			snprintf(buf, MAX_EVENT_NAME_LEN, "%c_0x%lx", is_return ? 'r' : 'p', addr);
		sanitize_event_name(buf);
		event = buf;
	}
	if (argc - 2 > MAX_TRACE_ARGS) {
		trace_probe_log_set_index(2 + MAX_TRACE_ARGS);
		trace_probe_log_err(0, TOO_MANY_ARGS);
		goto parse_error;
	}

	ret = -ENOMEM;
	tk = kzalloc(sizeof(*tk));
	if (!tk)
		goto out;
	tk->tp = trace_probe_alloc(event, group, argc - 2);
	if (!tk->tp)
		goto error;
	tk->is_return = is_return;
	tk->symbol = symbol;
	symbol = NULL;
	if (tk->symbol) {
		tk->rp.kp.symbol_name = tk->symbol;
		tk->rp.kp.offset = (unsigned int)offset;
	} else {
		tk->rp.kp.addr = (kprobe_opcode_t *)addr;
	}
	if (is_return)
		tk->rp.handler = kretprobe_dispatcher;
	else
		tk->rp.kp.pre_handler = kprobe_dispatcher;
	tk->rp.maxactive = (int)maxactive;

	for (int i = 2; i < argc; i++) {
		trace_probe_log_set_index(i);
		ret = traceprobe_parse_probe_arg(tk->tp, i - 2, argv[i], flags);
		if (ret)
			goto error;
	}
	ret = traceprobe_set_print_fmt(tk->tp, is_return ? PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL);
	if (!ret)
		ret = is_return ? traceprobe_define_arg_fields(
					  tk->tp, kretprobe_fields,
					  sizeof(struct kretprobe_trace_entry_head) -
						  sizeof(struct trace_entry))
				: traceprobe_define_arg_fields(
					  tk->tp, kprobe_fields,
					  sizeof(struct kprobe_trace_entry_head) -
						  sizeof(struct trace_entry));
	if (ret)
		goto error;
	ret = register_trace_kprobe(tk);
	if (ret) {
		trace_probe_log_set_index(1);
		if (ret == -EILSEQ)
			trace_probe_log_err(0, BAD_INSN_BNDRY);
		else if (ret == -ENOENT)
			trace_probe_log_err(0, BAD_PROBE_ADDR);
		else if (ret != -ENOMEM && ret != -EEXIST)
			trace_probe_log_err(0, FAIL_REG_PROBE);
		goto error;
	}
	dyn_event_add(&tk->devent, &trace_kprobe_ops);
	goto out;

parse_error:
	ret = -EINVAL;
error:
	free_trace_kprobe(tk);
out:
	trace_probe_log_clear();
	kfree(symbol);
	return ret;
}

static int trace_kprobe_create(const char *raw_command)
{
	char **argv;
	int argc, ret;

	argv = argv_split(raw_command, &argc);
	if (!argv)
		return -ENOMEM;
	ret = argc ? __trace_kprobe_create(argc, (const char **)argv) : 0;
	argv_free(argv);
	return ret;
}

/* --- listing and removing --------------------------------------------------------------------- */

static int trace_kprobe_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);

	seq_putc(m, tk->is_return ? 'r' : 'p');
	if (tk->is_return && tk->rp.maxactive)
		seq_printf(m, "%d", tk->rp.maxactive);
	seq_printf(m, ":%s/%s", trace_probe_group_name(tk->tp), trace_probe_name(tk->tp));
	if (!tk->symbol)
		seq_printf(m, " 0x%lx", (unsigned long)tk->rp.kp.addr);
	else if (tk->rp.kp.offset)
		seq_printf(m, " %s+%u", tk->symbol, tk->rp.kp.offset);
	else
		seq_printf(m, " %s", tk->symbol);
	trace_probe_show_args(m, tk->tp);
	seq_putc(m, '\n');
	return 0;
}

static bool trace_kprobe_is_busy(struct dyn_event *ev)
{
	struct trace_probe *event = to_trace_kprobe(ev)->tp->event;

	return trace_probe_is_enabled(event) || event->call.registered || event->call.file.triggers;
}

/*
 * Linux's unregister_trace_kprobe(): a probe with siblings just leaves its event (even an
 * enabled one: the others go on recording); the last one takes the event with it, which it
 * cannot while the event is enabled or used (EBUSY).
 */
static int trace_kprobe_release(struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);
	int ret;

	if (!trace_probe_has_sibling(tk->tp)) {
		if (trace_kprobe_is_busy(ev))
			return -EBUSY;
		ret = trace_probe_unregister_event_call(tk->tp->event);
		if (ret)
			return ret;
	}
	mutex_lock(&event_mutex); /* off the list kprobe_register walks */
	list_del_init(&tk->sibling);
	mutex_unlock(&event_mutex);
	__unregister_trace_kprobe(tk);
	dyn_event_remove(ev);
	trace_probe_unlink(tk->tp, &tk->sibling); /* the event too, if it was the last */
	kfree(tk->symbol);
	kfree(tk);
	return 0;
}

/* "SYM[+OFFS]" or the address, as written: the head of a removal's arguments. */
static bool trace_kprobe_match_command_head(struct trace_kprobe *tk, int argc, const char **argv)
{
	char buf[MAX_ARGSTR_LEN + 1];

	if (!argc)
		return true;
	if (!tk->symbol)
		snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)tk->rp.kp.addr);
	else if (tk->rp.kp.offset)
		snprintf(buf, sizeof(buf), "%s+%u", tk->symbol, tk->rp.kp.offset);
	else
		snprintf(buf, sizeof(buf), "%s", tk->symbol);
	if (strcmp(buf, argv[0]))
		return false;
	return trace_probe_match_command_args(tk->tp, argc - 1, argv + 1);
}

static bool trace_kprobe_match(const char *system, const char *event, int argc, const char **argv,
			       struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);

	return (event[0] == '\0' || !strcmp(trace_probe_name(tk->tp), event)) &&
	       (!system || !strcmp(trace_probe_group_name(tk->tp), system)) &&
	       trace_kprobe_match_command_head(tk, argc, argv);
}

static struct dyn_event_operations trace_kprobe_ops = {
	.create = trace_kprobe_create,
	.show = trace_kprobe_show,
	.is_busy = trace_kprobe_is_busy,
	.free = trace_kprobe_release,
	.match = trace_kprobe_match,
};

/* --- kprobe_events, kprobe_profile ------------------------------------------------------------ */

/* A line of kprobe_events: "-:..." removes (kprobes only), anything else must be a kprobe. */
static int create_or_delete_trace_kprobe(const char *raw_command)
{
	const char *p = skip_spaces(raw_command);
	int ret;

	if (!*p)
		return 0;
	if (p[0] == '-')
		return dyn_event_release(p, &trace_kprobe_ops);
	ret = trace_kprobe_create(raw_command);
	return ret == -ECANCELED ? -EINVAL : ret;
}

static int probes_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return dyn_event_file_open(file, &trace_kprobe_ops);
}

static ssize_t probes_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return trace_parse_run_command(ubuf, cnt, ppos, create_or_delete_trace_kprobe);
}

static const struct file_operations kprobe_events_ops = {
	.open = probes_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = probes_write,
	.release = seq_release,
};

static unsigned long trace_kprobe_nhit(const struct trace_kprobe *tk)
{
	unsigned long nhit = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		nhit += __atomic_load_n(&tk->nhit[cpu], __ATOMIC_RELAXED);
	return nhit;
}

/* "  NAME  HITS  MISSES", Linux's probes_profile_seq_show(). */
static int probes_profile_seq_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);
	unsigned long nmissed =
		tk->rp.kp.nmissed + (tk->is_return ? (unsigned long)tk->rp.nmissed : 0);

	seq_printf(m, "  %-44s %15lu %15lu\n", trace_probe_name(tk->tp), trace_kprobe_nhit(tk),
		   nmissed);
	return 0;
}

static void *profile_start(struct seq_file *m, loff_t *pos)
{
	struct dyn_event *ev;
	loff_t i = 0;

	(void)m;
	mutex_lock(&dyn_event_mutex);
	for_each_dyn_event(ev)
	{
		if (ev->ops == &trace_kprobe_ops && i++ == *pos)
			return ev;
	}
	return NULL;
}

static void *profile_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct list_head *p = &((struct dyn_event *)v)->list;

	(void)m;
	(*pos)++;
	for (p = p->next; p != &dyn_event_list; p = p->next) {
		struct dyn_event *ev = container_of(p, struct dyn_event, list);

		if (ev->ops == &trace_kprobe_ops)
			return ev;
	}
	return NULL;
}

static void profile_stop(struct seq_file *m, void *v)
{
	(void)m, (void)v;
	mutex_unlock(&dyn_event_mutex);
}

static int profile_show(struct seq_file *m, void *v)
{
	return probes_profile_seq_show(m, v);
}

static const struct seq_operations profile_seq_op = {
	.start = profile_start,
	.next = profile_next,
	.stop = profile_stop,
	.show = profile_show,
};

static int profile_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &profile_seq_op);
}

static const struct file_operations kprobe_profile_ops = {
	.open = profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/*
 * Module mod has come (kernel/module/main.c, before its init runs: Linux's MODULE_STATE_COMING
 * notifier, trace_kprobe_module_callback): each "MOD:sym" probe on it is registered now, armed
 * if its event is enabled. One that was registered before (the module was loaded, unloaded and
 * is back: its probe gone) is registered afresh.
 */
void trace_kprobe_module_coming(struct module *mod)
{
	size_t len = strlen(mod->name);
	struct dyn_event *pos;

	mutex_lock(&dyn_event_mutex);
	mutex_lock(&event_mutex);
	for_each_dyn_event(pos)
	{
		struct trace_kprobe *tk;
		int ret;

		if (pos->ops != &trace_kprobe_ops)
			continue;
		tk = to_trace_kprobe(pos);
		if (!tk->symbol || strncmp(tk->symbol, mod->name, len) || tk->symbol[len] != ':')
			continue;
		__unregister_trace_kprobe(tk);
		ret = __register_trace_kprobe(tk);
		if (ret)
			pr_warn("trace_kprobe: Failed to re-register probe %s on %s: %d\n",
				trace_probe_name(tk->tp), mod->name, ret);
	}
	mutex_unlock(&event_mutex);
	mutex_unlock(&dyn_event_mutex);
}

void init_kprobe_trace(void)
{
	if (dyn_event_register(&trace_kprobe_ops) ||
	    !tracefs_create_file("kprobe_events", TRACE_MODE_WRITE, NULL, NULL,
				 &kprobe_events_ops) ||
	    !tracefs_create_file("kprobe_profile", TRACE_MODE_READ, NULL, NULL,
				 &kprobe_profile_ops))
		pr_warn("Could not create tracefs 'kprobe_events' entries\n");
}
