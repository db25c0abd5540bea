/* Prints what exec gave it: argv, the environment, a few auxv entries and its ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct utsname u;

	printf("argc=%d\n", argc);
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	printf("HOME=%s PATH=%s\n", getenv("HOME"), getenv("PATH"));
	printf("AT_PAGESZ=%lu\n", getauxval(AT_PAGESZ));
	printf("AT_EXECFN=%s\n", (const char *)getauxval(AT_EXECFN));
	printf("AT_PLATFORM=%s\n", (const char *)getauxval(AT_PLATFORM));
	printf("AT_CLKTCK=%lu\n", getauxval(AT_CLKTCK));
	printf("AT_UID=%lu AT_SECURE=%lu\n", getauxval(AT_UID), getauxval(AT_SECURE));
	printf("AT_RANDOM=%s\n", getauxval(AT_RANDOM) ? "set" : "missing");
	printf("AT_ENTRY=%s\n", getauxval(AT_ENTRY) ? "set" : "missing");
	printf("uid=%d gid=%d pid>0=%d ppid>0=%d\n", getuid(), getgid(), getpid() > 0,
	       getppid() > 0);
	if (uname(&u) == 0)
		printf("uname=%s %s\n", u.sysname, u.machine);
	return 0;
}
