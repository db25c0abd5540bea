# A pipeline whose reader exits early: the writer dies of SIGPIPE (status 141), unless it
# ignores SIGPIPE, when its write fails with EPIPE instead.
# Needs: SIGPIPE on a write to a pipe with no reader, and EPIPE when it is ignored.
set -o pipefail
yes | head -2
echo "yes | head: $?"
seq 100000 | head -1
echo "seq | head: $?"
{ yes; echo "yes ended $?" >&2; } 2>&1 | head -1
echo "status $?"
(trap '' PIPE; yes 2>/dev/null | head -1; echo "ignored: $?")
(trap '' PIPE; seq 100000 | { head -1; sleep 1; }; echo "ignored, seq: $?")
f=$(mktemp)
{ yes; echo "yes: $?" > "$f"; } | head -1
cat "$f"; rm -f "$f"
