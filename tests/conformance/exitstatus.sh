# Exit statuses: of commands, of a missing command (127), of a non-executable file (126).
true; echo $?
false; echo $?
sh -c 'exit 42'; echo $?
nonexistent_command_xyz 2>/dev/null; echo $?
cd "$(mktemp -d)" || exit 1
echo 'echo hi' > noexec
./noexec 2>/dev/null; echo $?
chmod +x noexec
./noexec; echo $?
sh -c 'kill_me() { return 200; }; kill_me'; echo $?
exit 300
