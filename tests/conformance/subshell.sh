# Subshells: variables, cd and exit stay inside; the status comes out; { } is not a subshell.
v=outer
(v=inner; echo "inside $v")
echo "outside $v"
(cd / && pwd)
(exit 7); echo "status $?"
{ v=group; }; echo "group sets $v"
x=$( (echo deep; exit 2) ); echo "$x $?"
(echo a; (echo b; (echo c)))
( umask 077; umask ); umask
echo "$( (echo nested) )"
