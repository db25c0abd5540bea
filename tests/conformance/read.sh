# read: words split by IFS, the rest into the last name, -r, the status at end of file.
# Needs: poll(2) for busybox sh, whose read builtin polls its input before each byte.
printf 'alpha beta gamma delta\n' | { read -r a b c; echo "$a|$b|$c"; }
printf 'a:b:c\n' | { IFS=: read -r x y z; echo "$x $y $z"; }
printf 'back\\slash\n' | { read -r v; echo "$v"; }
printf 'back\\slash\n' | { read v; echo "$v"; }
printf 'no newline' | { read -r v; echo "status $? [$v]"; }
: | { read -r v; echo "empty status $?"; }
printf '  lead and trail  \n' | { read -r v; echo "[$v]"; }
cd "$(mktemp -d)" || exit 1
printf 'l1\nl2\nl3\n' > lines
n=0; while read -r line; do n=$((n + 1)); echo "$n $line"; done < lines
