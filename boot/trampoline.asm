; boot/trampoline.asm - how a second CPU gets from real mode to the kernel.
;
; An application processor (AP) wakes up, on the INIT-SIPI-SIPI signal from the boot CPU, in
; 16-bit real mode at address (SIPI vector * 4096), just as the boot CPU did at power-on. The
; boot CPU copies this code to TRAMPOLINE_PHYS (below 1 MiB, where real mode can reach), fills in
; the data block at its end (page tables, stack, entry point, CPU number), and sends the SIPI.
; The AP then climbs the same ladder boot.asm did: protected mode, paging, long mode, and jumps
; to ap_start() (arch/x86_64/smpboot.c) on its own stack.
;
; The code runs at TRAMPOLINE_PHYS, not where it is linked, so every address below is written
; as TRAMPOLINE_PHYS + (label - trampoline_start).

TRAMPOLINE_PHYS equ 0x8000          ; must match arch/x86_64/smpboot.c
CR0_PE          equ 1 << 0

%include "boot/long_mode.inc"

%define T(x) (TRAMPOLINE_PHYS + (x - trampoline_start))

section .rodata
global trampoline_start, trampoline_end, trampoline_data
align 16
trampoline_start:
bits 16
	cli
	xor ax, ax
	mov ds, ax
	lgdt [T(tramp_gdt_ptr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp dword 0x08:T(.pm32)

bits 32
.pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [T(tramp_cr3)]
	mov cr3, eax
	enable_long_mode
	jmp 0x18:T(.lm64)

bits 64
.lm64:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [T(tramp_stack)]
	push 0                              ; a zero return address ends backtraces here
	mov rdi, [T(tramp_cpu)]
	mov rax, [T(tramp_entry)]
	jmp rax                             ; ap_start(cpu), in the higher half

align 8
tramp_gdt:
	dq 0                                ; null
	dq 0x00cf9a000000ffff               ; 0x08: 32-bit code, 4 GiB
	dq 0x00cf92000000ffff               ; 0x10: data, 4 GiB
	dq 0x00209a0000000000               ; 0x18: 64-bit code
tramp_gdt_ptr:
	dw tramp_gdt_ptr - tramp_gdt - 1
	dd T(tramp_gdt)

; Filled in by the boot CPU before each SIPI (struct trampoline_data in smpboot.c).
align 8
trampoline_data:
tramp_cr3:   dq 0
tramp_stack: dq 0
tramp_entry: dq 0
tramp_cpu:   dq 0
trampoline_end:
