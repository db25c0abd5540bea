# trap: an EXIT trap, a handler for a signal the shell sends itself, resetting with -.
# Needs: signal handlers (rt_sigaction delivering to user handlers, rt_sigreturn, kill).
trap 'echo "exit trap"' EXIT
trap 'echo "got USR1"' USR1
kill -USR1 $$
echo "after USR1"
trap 'echo "got TERM"' TERM
kill -TERM $$
trap - TERM
echo "end"
