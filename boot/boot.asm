; boot/boot.asm - from GRUB's 32-bit protected mode to the kernel's 64-bit C entry.
;
; GRUB (multiboot2) jumps here with paging off, EAX = magic, EBX = physical address of the boot
; information. Long mode needs paging, so before we can run any C we build a tiny set of page
; tables that map physical memory three times: at 0 (identity, so the instruction after "enable
; paging" still exists), at 0xffff888000000000 (the direct map, through which C code reaches
; all of RAM) and at 0xffffffff80000000 (where the kernel is linked, -mcmodel=kernel). Then we
; load a 64-bit GDT, far-jump into 64-bit code, and jump up to the higher half. The C code
; (arch/x86_64/mmu.c) later replaces these tables with real ones: 4 KiB pages, read-only text,
; no-execute data, and nothing at address 0.
;
; This file is linked low (VMA == LMA, see linker.ld) because it runs before paging exists.

MB2_MAGIC        equ 0xe85250d6        ; multiboot2 header magic
MB2_ARCH_I386    equ 0                 ; "i386 protected mode" (the only choice for x86)
KERNEL_VMA       equ 0xffffffff80000000
PAGE_PRESENT     equ 1 << 0
PAGE_WRITE       equ 1 << 1
PAGE_HUGE        equ 1 << 7            ; in a page directory entry: a 2 MiB page
BOOT_STACK_SIZE  equ 16384
PML4_DIRECT_MAP  equ 273               ; 0xffff888000000000 >> 39 & 511
BOOT_PT_PAGES    equ 8                 ; pml4 + 3 pdpts + 4 pds

%include "boot/long_mode.inc"

section .multiboot
align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; end tag: no optional requests (no framebuffer: Lucid talks over the serial port)
	dw 0, 0
	dd 8
mb2_header_end:

section .boot.text progbits alloc exec
bits 32
global _start
_start:
	cli
	mov esp, early_stack_top
	mov edi, eax                    ; keep magic and info pointer for kmain(magic, info)
	mov esi, ebx

	; GRUB zero-fills .bss-like sections, but the tables must be clean whatever loaded us.
	mov ebx, edi
	mov edx, esi
	mov edi, pml4
	mov ecx, BOOT_PT_PAGES * 4096 / 4
	xor eax, eax
	rep stosd
	mov edi, ebx
	mov esi, edx

	; Four page directories of 2 MiB pages map physical 0-4 GiB. PML4[0] (identity), PML4[273]
	; (the direct map at 0xffff888000000000, where C reaches all of RAM) and PML4[511] (the
	; kernel image at 0xffffffff80000000, the first 1 GiB only) all lead to them.
	mov ecx, 0                      ; pd[i] = i * 2 MiB, for i in 0..2047
.fill_pd:
	mov eax, ecx
	shl eax, 21
	or eax, PAGE_PRESENT | PAGE_WRITE | PAGE_HUGE
	mov [pd + ecx * 8], eax
	mov eax, ecx
	shr eax, 11                     ; bits 32+ of the physical address (i * 2 MiB)
	mov [pd + ecx * 8 + 4], eax
	inc ecx
	cmp ecx, 4 * 512
	jne .fill_pd

	mov ecx, 0                      ; pdpt_low[i] = pdpt_phys[i] = pd + i * 4096, i in 0..3
.fill_pdpt:
	mov eax, ecx
	shl eax, 12
	add eax, pd
	or eax, PAGE_PRESENT | PAGE_WRITE
	mov [pdpt_low + ecx * 8], eax
	mov [pdpt_phys + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jne .fill_pdpt
	mov eax, pd
	or eax, PAGE_PRESENT | PAGE_WRITE
	mov [pdpt_high + 510 * 8], eax  ; 0xffffffff80000000 is entry 510 of the last PDPT

	mov eax, pdpt_low
	or eax, PAGE_PRESENT | PAGE_WRITE
	mov [pml4], eax
	mov eax, pdpt_phys
	or eax, PAGE_PRESENT | PAGE_WRITE
	mov [pml4 + PML4_DIRECT_MAP * 8], eax
	mov eax, pdpt_high
	or eax, PAGE_PRESENT | PAGE_WRITE
	mov [pml4 + 511 * 8], eax

	mov eax, pml4
	mov cr3, eax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	enable_long_mode

	lgdt [boot_gdt_ptr]
	jmp 0x08:.long_mode             ; reload CS with the 64-bit code segment

bits 64
.long_mode:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov rax, higher_half_entry      ; an absolute jump leaves the identity map behind
	jmp rax

section .boot.data progbits alloc write
align 8
boot_gdt:
	dq 0                            ; null descriptor
	dq 0x00209a0000000000           ; 0x08: 64-bit code, present, ring 0
	dq 0x0000920000000000           ; 0x10: data, present, writable
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dq boot_gdt

section .boot.bss nobits alloc write
align 4096
pml4:      resb 4096
pdpt_low:  resb 4096
pdpt_phys: resb 4096
pdpt_high: resb 4096
pd:        resb 4 * 4096
global boot_pml4
boot_pml4 equ pml4
early_stack: resb BOOT_STACK_SIZE
early_stack_top:

; --- 64-bit, linked in the higher half -------------------------------------------------------
section .text
extern kmain
extern boot_stack
BOOT_GUARD_SIZE  equ 4096              ; must match kernel/mm/kstack.c
BOOT_KSTACK_SIZE equ 16384
higher_half_entry:
	mov rsp, boot_stack + BOOT_GUARD_SIZE + BOOT_KSTACK_SIZE ; the real stack (kernel/mm/kstack.c)
	xor ebp, ebp                    ; terminates frame-pointer backtraces
	call kmain                      ; kmain(magic = edi, info = esi): never returns
.hang:
	cli
	hlt
	jmp .hang
