/*
 * The system calls init and bash probe, with the answers a Linux without networking gives
 * (tests/qemu/user/test_init.py): socket() for each family (AF_UNIX is there: kernel/net/),
 * getpeername()/getsockname() on a pipe,
 * a file and a closed descriptor, reboot() with wrong magic or an unknown command, mount() and
 * umount2() with what Lucid's mount table cannot do, chown() to root (what bash does to its
 * history file) and to another user. Nothing it does changes anything; each line is
 * "call: result errno-text".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_MAGIC2 672274793
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc
#define NOT_A_COMMAND 0x1234 /* no reboot command has this number */
#define CLOSED_FD 99 /* a descriptor this program never opens */
#define UMOUNT_UNKNOWN_FLAG 0x100
#define OTHER_USER 1000
#define UNCHANGED ((unsigned int)-1) /* chown: keep this one */

static void show(const char *what, long r)
{
	printf("%s: %ld %s\n", what, r, r < 0 ? strerror(errno) : "ok");
}

int main(void)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	int fds[2], file = open("/proc/self/stat", O_RDONLY);

	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	show("socket AF_UNIX", s < 0 ? s : 0);
	close(s);
	show("socket AF_INET", socket(AF_INET, SOCK_DGRAM, 0));
	show("socket AF_INET6", socket(AF_INET6, SOCK_STREAM, 0));
	if (pipe(fds) == 0)
		show("getpeername pipe", getpeername(fds[0], (struct sockaddr *)&sa, &len));
	show("getpeername file", getpeername(file, (struct sockaddr *)&sa, &len));
	show("getsockname file", getsockname(file, (struct sockaddr *)&sa, &len));
	show("getpeername closed", getpeername(CLOSED_FD, (struct sockaddr *)&sa, &len));
	show("getsockname closed", getsockname(CLOSED_FD, (struct sockaddr *)&sa, &len));
	show("reboot bad magic",
	     syscall(SYS_reboot, 0x1234, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_POWER_OFF, NULL));
	show("reboot bad command",
	     syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, NOT_A_COMMAND, NULL));
	show("mount unknown type", mount("none", "/tmp", "nosuchfs", 0, NULL));
	show("mount no dir", mount("proc", "/nosuch/dir", "proc", 0, NULL));
	show("mount read-only", mount("proc", "/tmp", "proc", MS_RDONLY, NULL));
	show("mount bad pointer", mount("proc", (const char *)8, "proc", 0, NULL));
	show("umount2 not mounted", umount2("/tmp", 0));
	show("umount2 busy", umount2("/proc", 0));
	show("umount2 lazy", umount2("/proc", MNT_DETACH));
	show("umount2 bad flag", umount2("/proc", UMOUNT_UNKNOWN_FLAG));
	show("chown root", chown("/tmp", 0, 0));
	show("chown unchanged", chown("/tmp", UNCHANGED, UNCHANGED));
	show("lchown root", lchown("/bin/sh", 0, UNCHANGED));
	show("fchown root", fchown(file, UNCHANGED, 0));
	show("fchownat root", fchownat(AT_FDCWD, "/tmp", 0, 0, AT_SYMLINK_NOFOLLOW));
	show("chown other user", chown("/tmp", OTHER_USER, UNCHANGED));
	show("chown other group", chown("/tmp", UNCHANGED, OTHER_USER));
	show("chown missing", chown("/nosuch", 0, 0));
	show("fchown closed", fchown(CLOSED_FD, 0, 0));
	return 0;
}
