# The applets on small files: text tools, files, checksums and arithmetic.
cd "$(mktemp -d)" || exit 1
printf 'pear 3\napple 10\nfig 7\napple 2\n' > fruit
cat fruit
grep apple fruit
grep -c apple fruit
grep -v apple fruit
sed 's/apple/APPLE/' fruit
sed -n '2p' fruit
awk '{ s += $2 } END { print s }' fruit
awk '$2 > 5 { print $1 }' fruit
cut -d' ' -f1 fruit
head -2 fruit
tail -1 fruit
sort fruit
sort -k2 -n fruit
sort -u fruit | wc -l
cut -d' ' -f1 fruit | sort | uniq -c
wc -l fruit
wc -w < fruit
tr a-z A-Z < fruit
tr -d 'p' < fruit
expr 6 \* 7
expr length hello
seq 2 2 9
echo teed | tee copy
cat copy
mkdir -p d/e
cp fruit d/e/f2
mv d/e/f2 d/e/f3
find d | sort
find . -name 'f*' | sort
rm -r d
ls
dirname /usr/local/bin/tool
basename /usr/local/bin/tool
basename file.txt .txt
printf 'pear 3\napple 10\n' > other
diff fruit other; echo "diff $?"
md5sum fruit | cut -d' ' -f1
dd if=fruit bs=4 count=2 2>/dev/null; echo
printf '%s-%d\n' x 5
test -f fruit && echo "fruit is a file"
[ -d . ] && echo "dot is a directory"
echo "exit status next"
exit 3
