# A program killed by each default-action signal, as the shell reports it:
# its status, 128 + the signal, and the shell's own line about it, with the script's name and
# the pid taken out. No core is written (ulimit -c 0), so none says "(core dumped)".
# Needs: kill(2) and every signal's default action (terminate, or core without a core file).
ulimit -c 0
for sig in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 24 25 26 27 29 30 31 34 50 64; do
	sh -c 'kill -'$sig' $$'
	echo "signal $sig: status $?"
done 2>&1 | sed 's/^.*line [0-9]*: *[0-9]* *//'
