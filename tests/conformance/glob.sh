# Globbing: *, ?, [set], [!set], hidden files, no match stays as written, quotes turn it off.
cd "$(mktemp -d)" || exit 1
touch a1 a2 b1 bb .hidden c.txt d.txt
echo *
echo a?
echo [ab]1
echo [!a]*
echo *.txt
echo .h*
echo nomatch*
echo "*"
set -- *; echo "$# files"
for f in *.txt; do echo "file $f"; done
mkdir sub; touch sub/x sub/y; echo sub/*
