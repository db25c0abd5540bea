# `#!` lines the kernel reads (binfmt_script): each shell runs scripts whose interpreter is
# missing, has a '\r' after it (a CRLF line: ENOENT too), takes an option, or takes one argument
# of several words; and a script without "#!", which the shell runs itself (ENOEXEC).
d=/tmp/shebang.$$
mkdir -p $d && cd $d || exit 1
IFS=:
for p in $PATH; do [ -x "$p/sh" ] && sh=$p/sh && break; done # the sh the shell would run
unset IFS
printf '#!./nosuch\necho no\n' > missing
printf '#!%s\r\necho crlf\n' "$sh" > crlf
printf '#!%s -x\necho traced\n' "$sh" > option
printf '#!/bin/echo a b\n' > words
printf 'echo plain $#\n' > plain
chmod +x missing crlf option words plain
for s in missing crlf option words plain; do
	out=$(./$s one 2>&1)
	echo "$s $? $out" | sed 's|^\(.* \)[^ ]*shebang.sh: \(line [0-9]*: \)\{0,1\}|\1|'
done
cd / && rm -r $d
