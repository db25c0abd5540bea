/*
 * argmax: how much argv and envp execve takes, judged against the host
 * (tests/qemu/user/test_syscalls.py). Linux's bprm_stack_limits: the strings and their pointers may
 * fill a quarter of RLIMIT_STACK (at least 128 KiB, at most 6 MiB), each string at most
 * MAX_ARG_STRLEN (128 KiB with its NUL); beyond either, E2BIG. Each case execs this program
 * again, which prints what it was given.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define KIB 1024UL
#define MIB (1024 * KIB)
#define MAX_ARG_STRLEN (128 * KIB)

static char *env[] = {"A=1", "B=2", NULL};

/* The child: counts what it got. */
static int child(int argc, char **argv, char **envp)
{
	size_t bytes = 0, envc = 0, envbytes = 0;

	for (int i = 0; i < argc; i++)
		bytes += strlen(argv[i]) + 1;
	for (; envp[envc]; envc++)
		envbytes += strlen(envp[envc]) + 1;
	printf("  ran: argc %d, %zu bytes; envc %zu, %zu bytes\n", argc, bytes, envc, envbytes);
	return 0;
}

/* n strings of len bytes each (NUL not counted) after argv[0] "child", then NULL. */
static char **make_vec(const char *first, size_t n, size_t len)
{
	char **v = calloc(n + 2, sizeof(char *));
	char *s = malloc(len + 1);

	memset(s, 'x', len);
	s[len] = '\0';
	v[0] = (char *)first;
	for (size_t i = 0; i < n; i++)
		v[i + 1] = s;
	return v;
}

static void try(const char *what, char **argv, char **envp)
{
	printf("%s:\n", what);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		execve("/proc/self/exe", argv, envp);
		printf("  execve: %s\n", strerror(errno));
		fflush(stdout);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	if (status)
		printf("  status %#x\n", status);
}

static void stack_limit(rlim_t cur)
{
	struct rlimit r = {cur, RLIM_INFINITY};

	if (setrlimit(RLIMIT_STACK, &r))
		printf("setrlimit: %s\n", strerror(errno));
}

int main(int argc, char **argv, char **envp)
{
	if (argc > 1 && !strcmp(argv[0], "child"))
		return child(argc, argv, envp);
	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	stack_limit(8 * MIB); /* the host's test may run with another */

	try("one 200 KiB string", make_vec("child", 1, 200 * KIB), env);
	try("one string of MAX_ARG_STRLEN with its NUL", make_vec("child", 1, MAX_ARG_STRLEN - 1),
	    env);
	try("one string a byte longer", make_vec("child", 1, MAX_ARG_STRLEN), env);
	try("1 MiB in 1 KiB strings", make_vec("child", KIB, KIB - 1), env);
	try("1 MiB of environment", make_vec("child", 1, 1), make_vec("E=1", KIB - 1, KIB - 1));
	try("3 MiB in 64 KiB strings", make_vec("child", 48, 64 * KIB - 1), env);
	try("2 MiB in 1-byte strings", make_vec("child", MIB, 1), env);
	try("a bad argv", (char **)8, env);

	/* The limit follows RLIMIT_STACK: a quarter of 1 MiB, and 128 KiB at the least. */
	stack_limit(MIB);
	try("stack 1 MiB: 200 KiB", make_vec("child", 200, KIB - 1), env);
	try("stack 1 MiB: 300 KiB", make_vec("child", 300, KIB - 1), env);
	stack_limit(64 * KIB);
	try("stack 64 KiB: 100 KiB", make_vec("child", 100, KIB - 1), env);
	try("stack 64 KiB: 200 KiB", make_vec("child", 200, KIB - 1), env);
	fflush(stdout);
	return 0;
}
