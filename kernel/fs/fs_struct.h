/* Each task's view of the files: its cwd and open files (kernel/fs/fs_struct.c). */
#ifndef KERNEL_FS_STRUCT_H
#define KERNEL_FS_STRUCT_H

struct task;

/* Boot, once / exists: the context of the tasks that have none of their own (swapper/N). */
void init_fs_context(void);
/* kthread_create: t gets a copy of its creator's context. 0, or -ENOMEM. */
int copy_fs_context(struct task *t);
/* clone(CLONE_FILES or CLONE_FS): t shares its creator's context (one user more). */
void share_fs_context(struct task *t);
/*
 * kthread_exit: the last user closes t's files, lets go of its cwd. Does nothing if t has no
 * context.
 */
void exit_fs_context(struct task *t);

#endif
