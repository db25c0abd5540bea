# Loops and case: for, while, until, break, continue, nested loops.
for i in a b c; do echo "for $i"; done
i=0
while [ $i -lt 3 ]; do i=$((i + 1)); echo "while $i"; done
until [ $i -eq 0 ]; do i=$((i - 1)); done; echo "until $i"
for i in 1 2 3 4 5; do
	[ $i -eq 2 ] && continue
	[ $i -eq 4 ] && break
	echo "kept $i"
done
for i in 1 2; do for j in x y; do echo "$i$j"; done; done
for w in apple banana cherry; do
	case $w in
	a*) echo "$w starts with a" ;;
	*an*) echo "$w has an" ;;
	*) echo "$w other" ;;
	esac
done
n=0; for f in $(seq 1 50); do n=$((n + f)); done; echo "sum $n"
