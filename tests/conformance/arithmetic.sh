# Arithmetic expansion: operators, precedence, variables, assignment, comparison, bases.
echo $((1 + 2 * 3))
echo $(( (1 + 2) * 3 ))
echo $((17 / 5)) $((17 % 5)) $((-17 / 5))
echo $((1 << 10)) $((255 >> 4)) $((6 & 3)) $((6 | 3)) $((6 ^ 3))
i=5
echo $((i * i)) $(( i += 2 )) $i
echo $((i > 3)) $((i < 3)) $((i == 7)) $((i != 7))
echo $(( i > 3 ? 100 : 200 ))
echo $((0x1f)) $((010)) $((2#101))
echo $(( !0 )) $(( ~0 ))
j=0; j=$((j + 1)); j=$((j + 1)); echo $j
echo $((9223372036854775807 + 1))
echo $(( 7 && 0 )) $(( 7 || 0 ))
