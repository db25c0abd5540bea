# Redirections: >, >>, <, 2>&1, >&2, exec with numbered fds, >| and an fd closed with >&-.
# Needs: poll(2) for busybox sh, whose read builtin polls its input before each byte.
cd "$(mktemp -d)" || exit 1
echo one > f
echo two >> f
cat < f
wc -l < f
{ echo out; echo err >&2; } > both 2>&1
sort both
{ echo to-stderr >&2; } 2> e
cat e
exec 3> fd3
echo via three >&3
exec 3>&-
cat fd3
exec 4< f
read -r first <&4
echo "first: $first"
exec 4<&-
set -C
{ echo again > f; } 2>/dev/null || echo "noclobber refused"
echo forced >| f
cat f
set +C
ls nonexistent 2>/dev/null || echo "ls failed: $?"
echo x 1>/dev/null
echo done
