/* Sleeps the seconds given (default 100): a program Ctrl-C ends while it sleeps. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sleep(argc > 1 ? atoi(argv[1]) : 100);
	return 0;
}
