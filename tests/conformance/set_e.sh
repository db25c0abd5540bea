# set -e: a failing command ends the script, except in conditions, && lists and after !.
set -e
if false; then echo no; fi
false || echo "or list runs"
false && echo no
! true
echo "still here"
(set +e; false; echo "subshell with +e goes on")
f() { false; echo "not reached in f"; }
if f; then echo "f as a condition: set -e is ignored inside"; fi
echo before
false
echo "not reached"
