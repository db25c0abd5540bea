/* Runs forever without a system call: only Ctrl-C (SIGINT's default action) ends it. */
int main(void)
{
	for (volatile unsigned long i = 0;; i++)
		;
}
