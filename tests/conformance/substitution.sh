# Command substitution: $(), backquotes, nesting, trailing newlines stripped, word splitting.
a=$(echo hello)
echo "$a world"
b=`echo back quoted`
echo "$b"
echo "nested: $(echo "$(echo inner)")"
c=$(printf 'x\n\n\n')
echo "[$c]"
n=$(seq 5 | wc -l)
echo "count $n"
set -- $(echo one two three)
echo "$# args, second is $2"
echo "status of substitution: $(false; echo $?)"
d=$(cat /etc/passwd | cut -d: -f1 | head -1)
echo "user $d"
