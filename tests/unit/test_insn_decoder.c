/*
 * Tests for arch/x86_64/insn_decoder.c: the length of each instruction of a table assembled by
 * GNU as (objdump's bytes and text: prefixes, REX, the 0F/0F38/0F3A maps, ModRM/SIB/disp,
 * immediates of every size, VEX and EVEX), the RIP-relative displacement where one is, relative
 * branches, and refusal of what is not an instruction in 64-bit mode or does not fit the buffer.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "arch/x86_64/insn_decoder.h"
#include "lib/errno.h"

struct sample {
	uint8_t bytes[MAX_INSN_LEN];
	int len;
	const char *text;
};

/* as --64 then objdump -d: the bytes of each instruction and its length. */
static const struct sample samples[] = {
	{{0x90}, 1, "nop"},
	{{0x55}, 1, "push %rbp"},
	{{0x48, 0x89, 0xe5}, 3, "mov %rsp,%rbp"},
	{{0x48, 0x8b, 0x05, 0x78, 0x56, 0x34, 0x12}, 7, "mov 0x12345678(%rip),%rax"},
	{{0x48, 0x8d, 0x3d, 0x10, 0x00, 0x00, 0x00}, 7, "lea 0x10(%rip),%rdi"},
	{{0xc7, 0x05, 0x10, 0x00, 0x00, 0x00, 0x34, 0x12, 0x00, 0x00}, 10, "movl $0x1234,0x10(%rip)"},
	{{0x80, 0x3d, 0x20, 0x00, 0x00, 0x00, 0x05}, 7, "cmpb $0x5,0x20(%rip)"},
	{{0x8b, 0x0c, 0x98}, 3, "mov (%rax,%rbx,4),%ecx"},
	{{0x48, 0x8b, 0x44, 0x24, 0x08}, 5, "mov 0x8(%rsp),%rax"},
	{{0x48, 0x8b, 0x04, 0xdd, 0x45, 0x23, 0x01, 0x00}, 8, "mov 0x12345(,%rbx,8),%rax"},
	{{0x48, 0xb8, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, 10, "movabs $0x1122334455667788,%rax"},
	{{0xa1, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, 9, "movabs 0x1122334455667788,%eax"},
	{{0x41, 0xbc, 0x78, 0x56, 0x34, 0x12}, 6, "mov $0x12345678,%r12d"},
	{{0x66, 0xc7, 0x00, 0x34, 0x12}, 5, "movw $0x1234,(%rax)"},
	{{0x48, 0x83, 0xc4, 0x7f}, 4, "add $0x7f,%rsp"},
	{{0x48, 0x81, 0xc4, 0x00, 0x10, 0x00, 0x00}, 7, "add $0x1000,%rsp"},
	{{0x83, 0xec, 0x08}, 3, "sub $0x8,%esp"},
	{{0xa8, 0x01}, 2, "test $0x1,%al"},
	{{0xf7, 0x47, 0x08, 0x00, 0x01, 0x00, 0x00}, 7, "testl $0x100,0x8(%rdi)"},
	{{0xf6, 0x47, 0x08, 0x01}, 4, "testb $0x1,0x8(%rdi)"},
	{{0xf7, 0x10}, 2, "notl (%rax)"},
	{{0x75, 0x0e}, 2, "jne 0x7f"},
	{{0x0f, 0x84, 0xfa, 0x0f, 0x00, 0x00}, 6, "je 0x1071"},
	{{0xeb, 0x0e}, 2, "jmp 0x87"},
	{{0xe9, 0xfb, 0xff, 0x0f, 0x00}, 5, "jmp 0x100079"},
	{{0xe8, 0xfb, 0x00, 0x00, 0x00}, 5, "call 0x17e"},
	{{0xff, 0xd0}, 2, "call *%rax"},
	{{0xff, 0x50, 0x10}, 3, "call *0x10(%rax)"},
	{{0xff, 0x25, 0x00, 0x10, 0x00, 0x00}, 6, "jmp *0x1000(%rip)"},
	{{0xc3}, 1, "ret"},
	{{0xc2, 0x08, 0x00}, 3, "ret $0x8"},
	{{0xc8, 0x10, 0x00, 0x01}, 4, "enter $0x10,$0x1"},
	{{0xc9}, 1, "leave"},
	{{0xf0, 0x48, 0x0f, 0xb1, 0x0a}, 5, "lock cmpxchg %rcx,(%rdx)"},
	{{0xf3, 0xa4}, 2, "rep movsb %ds:(%rsi),%es:(%rdi)"},
	{{0xf3, 0x48, 0xab}, 3, "rep stos %rax,%es:(%rdi)"},
	{{0x66, 0x90}, 2, "xchg %ax,%ax"},
	{{0x66, 0x0f, 0x1f, 0x04, 0x00}, 5, "nopw (%rax,%rax,1)"},
	{{0x0f, 0x1f, 0x04, 0x00}, 4, "nopl (%rax,%rax,1)"},
	{{0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00}, 11, "data16 cs nopw 0x0(%rax,%rax,1)"},
	{{0x0f, 0xa2}, 2, "cpuid"},
	{{0x0f, 0x31}, 2, "rdtsc"},
	{{0x0f, 0x30}, 2, "wrmsr"},
	{{0x0f, 0x05}, 2, "syscall"},
	{{0x0f, 0x0b}, 2, "ud2"},
	{{0x0f, 0xc8}, 2, "bswap %eax"},
	{{0x49, 0x0f, 0xc9}, 3, "bswap %r9"},
	{{0x48, 0x0f, 0x45, 0xd8}, 4, "cmovne %rax,%rbx"},
	{{0x0f, 0xb6, 0x07}, 3, "movzbl (%rdi),%eax"},
	{{0x48, 0x0f, 0xbe, 0x47, 0x01}, 5, "movsbq 0x1(%rdi),%rax"},
	{{0x48, 0x63, 0xc7}, 3, "movslq %edi,%rax"},
	{{0x48, 0x6b, 0xc0, 0x64}, 4, "imul $0x64,%rax,%rax"},
	{{0x48, 0x69, 0xc0, 0x45, 0x23, 0x01, 0x00}, 7, "imul $0x12345,%rax,%rax"},
	{{0x48, 0xc1, 0xe0, 0x03}, 4, "shl $0x3,%rax"},
	{{0xd3, 0xfa}, 2, "sar %cl,%edx"},
	{{0x48, 0x0f, 0xac, 0xc2, 0x04}, 5, "shrd $0x4,%rax,%rdx"},
	{{0x48, 0x0f, 0xba, 0xe0, 0x03}, 5, "bt $0x3,%rax"},
	{{0x48, 0x0f, 0xab, 0x02}, 4, "bts %rax,(%rdx)"},
	{{0x0f, 0x94, 0xc0}, 3, "sete %al"},
	{{0xf3, 0x90}, 2, "pause"},
	{{0xf4}, 1, "hlt"},
	{{0xfa}, 1, "cli"},
	{{0xfb}, 1, "sti"},
	{{0x9c}, 1, "pushf"},
	{{0x9d}, 1, "popf"},
	{{0xe4, 0x60}, 2, "in $0x60,%al"},
	{{0xe6, 0x80}, 2, "out %al,$0x80"},
	{{0xcc}, 1, "int3"},
	{{0xcd, 0x80}, 2, "int $0x80"},
	{{0x48, 0xcf}, 2, "iretq"},
	{{0x0f, 0x20, 0xd8}, 3, "mov %cr3,%rax"},
	{{0x0f, 0x22, 0xd8}, 3, "mov %rax,%cr3"},
	{{0x0f, 0x01, 0x38}, 3, "invlpg (%rax)"},
	{{0x0f, 0x01, 0x10}, 3, "lgdt (%rax)"},
	{{0x0f, 0x01, 0xd0}, 3, "xgetbv"},
	{{0x0f, 0x01, 0xf8}, 3, "swapgs"},
	{{0x65, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00}, 9, "mov %gs:0x28,%rax"},
	{{0x65, 0x48, 0x8b, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00}, 9, "mov %gs:0x0,%rax"},
	{{0x0f, 0xae, 0x00}, 3, "fxsave (%rax)"},
	{{0xf3, 0x0f, 0x6f, 0x00}, 4, "movdqu (%rax),%xmm0"},
	{{0x66, 0x0f, 0xef, 0xc9}, 4, "pxor %xmm1,%xmm1"},
	{{0x66, 0x0f, 0x70, 0xc8, 0x1b}, 5, "pshufd $0x1b,%xmm0,%xmm1"},
	{{0x66, 0x0f, 0x38, 0x00, 0xc1}, 5, "pshufb %xmm1,%xmm0"},
	{{0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x04}, 6, "palignr $0x4,%xmm1,%xmm0"},
	{{0xc5, 0xfe, 0x6f, 0x00}, 4, "vmovdqu (%rax),%ymm0"},
	{{0xc5, 0xed, 0xef, 0xd9}, 4, "vpxor %ymm1,%ymm2,%ymm3"},
	{{0xc4, 0xe3, 0xfd, 0x00, 0xd1, 0x4e}, 6, "vpermq $0x4e,%ymm1,%ymm2"},
	{{0xc5, 0xf8, 0x77}, 3, "vzeroupper"},
	{{0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x48, 0x01}, 7, "vmovdqu64 0x40(%rax),%zmm1"},
	{{0x62, 0xf1, 0x6d, 0x49, 0xfe, 0xd9}, 6, "vpaddd %zmm1,%zmm2,%zmm3{%k1}"},
	{{0x62, 0xf1, 0x7d, 0x48, 0x70, 0x25, 0x78, 0x56, 0x34, 0x12, 0x1b}, 11, "vpshufd $0x1b,0x12345678(%rip),%zmm4"},
	{{0xc4, 0xe2, 0xe0, 0xf2, 0xc8}, 5, "andn %rax,%rbx,%rcx"},
	{{0xc4, 0xe2, 0xf9, 0xf7, 0xcb}, 5, "shlx %rax,%rbx,%rcx"},
	{{0xc4, 0xe3, 0xfb, 0xf0, 0xd8, 0x05}, 6, "rorx $0x5,%rax,%rbx"},
	{{0x0f, 0x38, 0xf0, 0x08}, 4, "movbe (%rax),%ecx"},
	{{0xf2, 0x48, 0x0f, 0x38, 0xf1, 0xd8}, 6, "crc32 %rax,%rbx"},
	{{0xf3, 0x48, 0x0f, 0xb8, 0xd8}, 5, "popcnt %rax,%rbx"},
	{{0xf3, 0x48, 0x0f, 0xbc, 0xd8}, 5, "tzcnt %rax,%rbx"},
	{{0xf3, 0x0f, 0xbd, 0xd8}, 4, "lzcnt %eax,%ebx"},
	{{0x0f, 0x18, 0x08}, 3, "prefetcht0 (%rax)"},
	{{0x0f, 0xae, 0x38}, 3, "clflush (%rax)"},
	{{0x0f, 0xae, 0xf0}, 3, "mfence"},
	{{0x0f, 0xae, 0xe8}, 3, "lfence"},
	{{0xe2, 0x0e}, 2, "loop 0x1b3"},
	{{0xe3, 0x0e}, 2, "jrcxz 0x1b5"},
	{{0xc7, 0xf8, 0xfa, 0x00, 0x00, 0x00}, 6, "xbegin 0x2a7"},
	{{0xc6, 0xf8, 0x01}, 3, "xabort $0x1"},
	{{0x0f, 0x01, 0xd5}, 3, "xend"},
	{{0xf3, 0x0f, 0x1e, 0xfa}, 4, "endbr64"},
	{{0x48, 0x0f, 0xc7, 0xf0}, 4, "rdrand %rax"},
	{{0x8c, 0xd0}, 2, "mov %ss,%eax"},
	{{0x6a, 0x12}, 2, "push $0x12"},
	{{0x68, 0x45, 0x23, 0x01, 0x00}, 5, "push $0x12345"},
	{{0x8f, 0x40, 0x08}, 3, "pop 0x8(%rax)"},
	{{0xff, 0x70, 0x08}, 3, "push 0x8(%rax)"},
	{{0xcb}, 1, "lret"},
	{{0x6e}, 1, "outsb %ds:(%rsi),(%dx)"},
	{{0x98}, 1, "cwtl"},
	{{0x48, 0x99}, 2, "cqto"},
	{{0x0f, 0xbe, 0xc0}, 3, "movsbl %al,%eax"},
	{{0x49, 0x90}, 2, "xchg %rax,%r8"},
	{{0x48, 0x8d, 0x14, 0xc5, 0x00, 0x00, 0x00, 0x00}, 8, "lea 0x0(,%rax,8),%rdx"},
	{{0x66, 0x44, 0x8b, 0x5c, 0x4d, 0xf8}, 6, "mov -0x8(%rbp,%rcx,2),%r11w"},
};

/* Every sample decodes to objdump's length, with a 15-byte buffer and one exactly as long. */
static void test_lengths(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		struct insn insn;
		int ret = insn_decode(&insn, samples[i].bytes, MAX_INSN_LEN);

		if (ret || insn.length != samples[i].len)
			fail_msg("%s: got %d (ret %d), want %d", samples[i].text, insn.length, ret,
				 samples[i].len);
		assert_int_equal(insn_decode(&insn, samples[i].bytes, samples[i].len), 0);
		/* One byte short: refused, never read past the buffer (ASan checks). */
		uint8_t *shorter = malloc((size_t)samples[i].len - 1 + 1);
		memcpy(shorter, samples[i].bytes, (size_t)samples[i].len - 1);
		assert_int_equal(insn_decode(&insn, shorter, samples[i].len - 1), -EINVAL);
		free(shorter);
	}
}

/* The samples back to back, as in a function: a walk lands on each start, then at the end. */
static void test_walk(void **state)
{
	uint8_t buf[ARRAY_SIZE(samples) * MAX_INSN_LEN];
	size_t n = 0, starts[ARRAY_SIZE(samples)];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		starts[i] = n;
		memcpy(buf + n, samples[i].bytes, (size_t)samples[i].len);
		n += (size_t)samples[i].len;
	}
	size_t off = 0;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		struct insn insn;

		assert_int_equal(off, starts[i]);
		assert_int_equal(insn_decode(&insn, buf + off, (int)(n - off)), 0);
		off += insn.length;
	}
	assert_int_equal(off, n);
}

static const struct sample *find(const char *text)
{
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++)
		if (!strcmp(samples[i].text, text))
			return &samples[i];
	fail_msg("no sample %s", text);
	return NULL;
}

/* RIP-relative operands: found, with the displacement and where it sits. */
static void test_rip_relative(void **state)
{
	struct insn insn;
	const struct sample *s;

	(void)state;
	s = find("mov 0x12345678(%rip),%rax");
	assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
	assert_true(insn_rip_relative(&insn));
	assert_int_equal(insn.displacement, 0x12345678);
	assert_int_equal(insn.disp_offset, 3);
	assert_int_equal(insn.disp_size, 4);

	s = find("movl $0x1234,0x10(%rip)");
	assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
	assert_true(insn_rip_relative(&insn));
	assert_int_equal(insn.displacement, 0x10);
	assert_int_equal(insn.imm_size, 4);
	assert_int_equal(insn.immediate, 0x1234);

	s = find("mov (%rax,%rbx,4),%ecx");
	assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
	assert_false(insn_rip_relative(&insn));
	assert_true(insn.has_sib);

	/* SIB with no base and mod 00: disp32, but absolute, not RIP-relative. */
	s = find("mov 0x12345(,%rbx,8),%rax");
	assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
	assert_false(insn_rip_relative(&insn));
	assert_int_equal(insn.displacement, 0x12345);

	s = find("vpshufd $0x1b,0x12345678(%rip),%zmm4");
	assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
	assert_true(insn_rip_relative(&insn));
	assert_int_equal(insn.vex_len, 4);
}

/* Relative branches: flagged, with their displacement as the immediate. */
static void test_branches(void **state)
{
	static const char *const rel[] = {"jne 0x7f",	 "je 0x1071",	"jmp 0x87",
					  "jmp 0x100079", "call 0x17e", "loop 0x1b3",
					  "jrcxz 0x1b5"};
	static const char *const notrel[] = {"call *%rax", "ret", "jmp *0x1000(%rip)", "nop"};
	struct insn insn;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		const struct sample *s = find(rel[i]);

		assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
		assert_true(insn.rel_branch);
	}
	for (size_t i = 0; i < ARRAY_SIZE(notrel); i++) {
		const struct sample *s = find(notrel[i]);

		assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
		assert_false(insn.rel_branch);
	}
	const struct sample *s = find("call 0x17e");
	assert_int_equal(insn_decode(&insn, s->bytes, s->len), 0);
	assert_int_equal(insn.immediate, 0x100 - 5);
}

/* What 64-bit mode does not have, and sequences no CPU would take: refused. */
static void test_invalid(void **state)
{
	static const uint8_t bad[][4] = {
		{0x06},             /* push %es */
		{0x27},             /* daa */
		{0x9a},             /* far call */
		{0xea},             /* far jmp */
		{0xd4, 0x0a},       /* aam */
		{0x0f, 0x0a},       /* no such 0F opcode */
		{0x0f, 0xff},       /* ud0 */
		{0x48, 0x66, 0x90}, /* REX before a prefix */
		{0xff, 0xf8},       /* FF /7 */
		{0xfe, 0xd0},       /* FE /2 */
		{0x8f, 0xc8},       /* 8F /1 (XOP, not gcc's) */
	};
	uint8_t many[MAX_INSN_LEN + 1];
	struct insn insn;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(insn_decode(&insn, bad[i], sizeof(bad[i])), -EINVAL);
	/* More than 15 bytes in all: the CPU's limit. */
	memset(many, 0x66, sizeof(many));
	many[MAX_INSN_LEN] = 0x90;
	assert_int_equal(insn_decode(&insn, many, sizeof(many)), -EINVAL);
	assert_int_equal(insn_decode(&insn, many, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),	 cmocka_unit_test(test_walk),
		cmocka_unit_test(test_rip_relative), cmocka_unit_test(test_branches),
		cmocka_unit_test(test_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
