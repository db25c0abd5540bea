/*
 * A vfork parent sleeps until its child execs or exits, but not deaf: a signal that kills it
 * (SIGKILL, a TERM it does not handle) ends the sleep and the parent, while the child runs on;
 * a signal it handles waits, and its handler runs once the child has let go.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

/* Has pid exited (a zombie not yet collected)? /proc/PID/stat's state, left for status_line. */
static int zombie(pid_t pid)
{
	char path[64], state = '?';
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
			state = '?';
		fclose(f);
	}
	return state == 'Z';
}

static void status_line(const char *what, pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		printf("%s: not collected\n", what);
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
	else
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
}

/*
 * Forks a process that vforks a child which sends its pid on out, then reads a byte on in
 * before it exits. The vfork parent exits 3 if its handler ran, else 4. Returns its pid.
 */
static pid_t vfork_parent(int out[2], int in[2], pid_t *child)
{
	pid_t parent = fork();

	if (parent == 0) {
		signal(SIGUSR1, on_usr1);
		pid_t c = vfork();
		if (c == 0) {
			char b;
			pid_t me = getpid();

			if (write(out[1], &me, sizeof(me)) != sizeof(me) || read(in[0], &b, 1) != 1)
				_exit(1);
			_exit(0);
		}
		_exit(got_usr1 ? 3 : 4);
	}
	if (read(out[0], child, sizeof(*child)) != sizeof(*child))
		*child = -1;
	return parent;
}

static void case_of(int sig)
{
	struct timespec nap = {0, 200 * 1000 * 1000};
	int out[2], in[2];
	pid_t child;

	if (pipe(out) || pipe(in))
		return;
	pid_t parent = vfork_parent(out, in, &child);
	kill(parent, sig);
	nanosleep(&nap, NULL); /* time to act on it: only "there" could be wrong, never flaky */
	printf("%s: the vfork parent is %s while its child runs\n",
	       sig == SIGUSR1 ? "USR1" : sig == SIGTERM ? "TERM" : "KILL",
	       zombie(parent) ? "gone" : "there");
	if (write(in[1], "x", 1) != 1) /* the child may go */
		printf("write: failed\n");
	status_line("  its parent", parent);
	status_line("  the child", child); /* ours (we are its subreaper) once its parent is gone */
	close(out[0]);
	close(out[1]);
	close(in[0]);
	close(in[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	case_of(SIGKILL);
	case_of(SIGTERM);
	case_of(SIGUSR1);
	return 0;
}
