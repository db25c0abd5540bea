# Pipes: long pipelines, the status of the last command, !, and a loop reading a pipe.
# Needs: poll(2) for busybox sh, whose read builtin polls its input before each byte.
seq 1 10 | grep 1 | wc -l
printf 'b\na\nc\n' | sort | tr a-z A-Z | head -2
echo hello | cat | cat | cat
false | true; echo "status $?"
true | false; echo "status $?"
! false; echo "negated $?"
seq 3 | while read -r n; do echo "line $n"; done
seq 100 | tail -1
yes | head -3
echo abc | { read -r x; echo "got $x"; }
