# What a red team met first, as a user meets it at a shell: programs that run a helper
# (busybox awk's system() and pipes), scripts with odd #! lines, dd's byte counts, timeout,
# orphans that outlive their parent, process substitution, alarms and times. Each line's output
# (stderr folded in where it says what happened) must be the host's.
# Needs: clone(CLONE_VM|CLONE_VFORK), binfmt_script, full reads, reparenting, /dev/fd, setitimer.
d=$(mktemp -d)
cd "$d" || exit 1

echo "--- a helper from awk: system(), cmd | getline, print | cmd"
busybox awk 'BEGIN { r = system("echo from-system"); print "system returned " r }'
busybox awk 'BEGIN { "echo from-getline" | getline v; print "got " v }'
busybox awk 'BEGIN { print "to-cat" | "cat"; close("cat"); print "closed" }'
busybox awk 'BEGIN { print system("exit 3") }'

echo "--- #! lines"
SH=$(which sh)
ECHO=$(which echo)
printf '#!%s -x\necho traced\n' "$SH" > x.sh
printf '#!%s a b\n' "$ECHO" > e.sh
printf '#!%s\n' "$ECHO" > bare.sh
printf '#!   %s    spaced   out  \n' "$ECHO" > spaced.sh
printf '#!/nonexistent/interp\necho never\n' > missing.sh
printf '#!%s\r\necho crlf\r\n' "$SH" > crlf.sh
printf 'echo no-hashbang\n' > plain.sh
printf '#!%s/e.sh\n' "$d" > nest1.sh
chmod +x ./*.sh
./x.sh 2>&1
./e.sh 1 2 | sed "s|$d|DIR|g"
./bare.sh one | sed "s|$d|DIR|g"
./spaced.sh | sed "s|$d|DIR|g"
./missing.sh 2> /dev/null
echo "missing interpreter: $?"
./crlf.sh 2> /dev/null
echo "crlf: $?"
./plain.sh
echo "plain: $?"
./nest1.sh z | sed "s|$d|DIR|g"
find . -name 'e.sh' -exec ./e.sh {} \; | sed "s|$d|DIR|g"

echo "--- dd's counts"
dd if=/dev/zero bs=1M count=1 2> /dev/null | wc -c
dd if=/dev/urandom bs=256k count=2 2> /dev/null | wc -c
dd if=/dev/zero of=fill bs=64k count=100 2> /dev/null
wc -c < fill
dd if=fill bs=1M 2> /dev/null | wc -c
rm -f fill

echo "--- timeout"
busybox timeout 1 sleep 10
echo "timeout: $?"
busybox timeout 5 sleep 0
echo "no timeout: $?"

echo "--- orphans"
( (sleep 1; echo "orphan ran") & )
sleep 3
(sh -c 'sleep 1; echo "grandchild ran"' &) ; sleep 3

echo "--- /dev/fd and /dev/stdin"
echo "from stdin" | cat /dev/stdin
echo "fd 0" | cat /dev/fd/0
ls /dev/fd/ > /dev/null && echo "/dev/fd lists"
if [ -n "$BASH_VERSION" ]; then
	eval 'cat <(echo "process substitution")'
	eval 'diff <(printf "a\nb\n") <(printf "a\nc\n")'
	echo "diff: $?"
	eval 'read -t 1 x < <(sleep 3)'
	echo "read -t: $?"
	eval 'times > t.out; read u s < t.out; case $u in 0m0.*) echo "times: small";; *) echo "times: $u";; esac'
fi

cd / && rm -rf "$d"
