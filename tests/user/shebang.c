/*
 * shebang DIR: `#!` scripts as Linux's binfmt_script runs them, judged against the host
 * (tests/qemu/user/test_syscalls.py). In DIR it writes scripts with odd first lines, runs each with
 * execv from a child and prints what the interpreter was given, or execv's error:
 *	- the interpreter and ONE optional argument (all the words after it), argv
 *	  [interp, arg, script, argv[1]...], and the script's name as comm and AT_EXECFN;
 *	- "#!/bin/echo a b", a missing interpreter (ENOENT), CRLF lines (the '\r' is part of the
 *	  name: ENOENT), a NUL ending the name, lines past the 256-byte buffer (the argument cut,
 *	  or ENOEXEC when the name itself is), "#!" with nothing, a file without "#!" (ENOEXEC,
 *	  from execv and from musl's execvp, which does not fall back to /bin/sh);
 *	- scripts that name scripts: five deep run, six are ELOOP;
 *	- EACCES for a script or an interpreter without x, or a directory as the interpreter;
 *	- an empty argv (Linux gives the program "" as argv[0], which the script's path replaces).
 * The interpreter is this program itself, through the link DIR/interp: run by that name it
 * prints its argv instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_MAX_LINUX 256 /* BINPRM_BUF_SIZE */
#define LONG_WORD 300 /* longer than the buffer */
#define TASK_COMM_LEN 16
#define NEST_MAX 6 /* n0..n5: five scripts deep run, six do not */

/* s with its unprintable bytes escaped, so that a '\r' shows. */
static void print_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '\r')
			fputs("\\r", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else
			putchar(*s);
	}
}

static int interpreter(int argc, char **argv)
{
	char comm[TASK_COMM_LEN] = "", exe[256];
	ssize_t m = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	prctl(PR_GET_NAME, comm);
	exe[m > 0 ? m : 0] = '\0';
	printf("  argc %d:", argc);
	for (int i = 0; i < argc; i++) {
		printf(" [");
		if (strlen(argv[i]) > 40)
			printf("%zu bytes", strlen(argv[i]));
		else
			print_escaped(argv[i]);
		printf("]");
	}
	printf("\n  comm %s execfn %s exe %s\n", comm, (char *)getauxval(AT_EXECFN),
	       strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe);
	return 0;
}

static void write_file(const char *name, const char *text, size_t len, mode_t mode)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd)) {
		printf("cannot write %s: %s\n", name, strerror(errno));
		exit(1);
	}
	chmod(name, mode);
}

static void script(const char *name, const char *text)
{
	write_file(name, text, strlen(text), 0755);
}

/* Runs path with argv (execv, or execvp) in a child; prints its error or its status. */
static void run_argv(const char *path, char *const argv[], int use_execvp)
{
	printf("%s:\n", path);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (use_execvp)
			execvp(path, argv);
		else
			execv(path, argv);
		printf("  exec: %s\n", strerror(errno));
		fflush(stdout);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || (WEXITSTATUS(status) && WEXITSTATUS(status) != 127))
		printf("  status %#x\n", status);
}

static void run(const char *path)
{
	char *argv[] = {(char *)path, "a1", NULL};

	run_argv(path, argv, 0);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	char buf[LINE_MAX_LINUX * 2], exe[256];

	if (!strcmp(base, "interp"))
		return interpreter(argc, argv);
	if (argc < 2 || chdir(argv[1])) {
		fprintf(stderr, "usage: shebang DIR\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	unlink("interp");
	if (symlink(exe, "interp")) {
		printf("symlink: %s\n", strerror(errno));
		return 1;
	}

	script("s_opt", "#!./interp -x\necho\n");
	run("./s_opt");
	script("s_words", "#!./interp  a b\t c \t\n");
	run("./s_words");
	script("s_lead", "#! \t./interp\n");
	run("./s_lead");
	script("s_echo", "#!/bin/echo a b\n");
	run("./s_echo");
	script("s_none", "#!./nosuch\n");
	run("./s_none");
	script("s_crlf", "#!./interp\r\n");
	run("./s_crlf");
	script("s_crlf_arg", "#!./interp -x\r\n");
	run("./s_crlf_arg");
	write_file("s_nul", "#!./interp\0 -x\n", 15, 0755);
	run("./s_nul");
	write_file("s_nul_arg", "#!./interp \0-x\n", 15, 0755); /* an empty argument */
	run("./s_nul_arg");
	script("s_short", "#!./interp");
	run("./s_short");

	/* Past the buffer: the argument is cut where the buffer ends, the name must not be. */
	snprintf(buf, sizeof(buf), "#!./interp %0*d\n", LONG_WORD, 0);
	script("s_long_arg", buf);
	run("./s_long_arg");
	snprintf(buf, sizeof(buf), "#!./interp -x %*s\n", LONG_WORD, "y");
	script("s_long_spaces", buf);
	run("./s_long_spaces");
	snprintf(buf, sizeof(buf), "#!./%0*d\n", LONG_WORD, 0);
	script("s_long_name", buf);
	run("./s_long_name");
	snprintf(buf, sizeof(buf), "#!%*s", LONG_WORD, "");
	script("s_spaces", buf);
	run("./s_spaces");
	script("s_empty", "#!\n");
	run("./s_empty");
	script("s_blank", "#!   \n");
	run("./s_blank");
	script("s_bare", "#!");
	run("./s_bare");

	/* Not a script, and not a program. */
	script("s_plain", "echo hi\n");
	run("./s_plain");
	char *vp[] = {"s_plain", NULL};
	run_argv("./s_plain", vp, 1);

	/* Permissions: the script's x, the interpreter's x, a directory. */
	write_file("s_noexec", "#!./interp\n", 11, 0644);
	run("./s_noexec");
	write_file("plain", "data\n", 5, 0644);
	script("s_interp_noexec", "#!./plain\n");
	run("./s_interp_noexec");
	script("s_interp_dir", "#!.\n");
	run("./s_interp_dir");

	/* Scripts whose interpreter is a script: n0 runs interp, n1 runs n0, ... */
	for (int i = 0; i < NEST_MAX; i++) {
		char name[16];

		snprintf(name, sizeof(name), "n%d", i);
		if (i == 0)
			snprintf(buf, sizeof(buf), "#!./interp\n");
		else
			snprintf(buf, sizeof(buf), "#!./n%d\n", i - 1);
		script(name, buf);
	}
	run("./n4");
	run("./n5");

	/* No argv at all: "" becomes argv[0], and the script's path takes its place. */
	char *none[] = {NULL};
	run_argv("./s_opt", none, 0);
	fflush(stdout);
	return 0;
}
