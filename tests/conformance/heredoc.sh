# Here-documents: expanded, quoted delimiter, <<- with tabs, into a pipe and a loop.
# Needs: poll(2) for busybox sh, whose read builtin polls its input before each byte.
name=Lucid
cat <<END
Hello $name
sum $((1 + 1))
END
cat <<'END'
Literal $name $(echo no)
END
cat <<-END
	tabs stripped
	END
cat <<END | tr a-z A-Z
piped $name
END
while read -r a b; do echo "$b $a"; done <<END
1 one
2 two
END
