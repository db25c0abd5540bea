# Functions: arguments, return status, recursion, $@ and shift, globals changed inside.
greet() { echo "hello $1, $# args"; }
greet world extra
add() { echo $(($1 + $2)); }
echo "sum $(add 2 3)"
fails() { return 3; }
fails; echo "returned $?"
fact() { if [ $1 -le 1 ]; then echo 1; else echo $(($1 * $(fact $(($1 - 1))))); fi; }
echo "5! = $(fact 5)"
all() { for a in "$@"; do echo "[$a]"; done; }
all "a b" c "" d
shifty() { shift 2; echo "$@"; }
shifty 1 2 3 4
g=before; setg() { g=after; }; setg; echo "g is $g"
count() { echo $#; }; count; count ""; count a b
