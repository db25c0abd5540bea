/*
 * The vDSO's image in the kernel (Linux's generated vdso-image-64.c): the stripped
 * vdso64.so, built from this folder's C at kernel build time, page-aligned so that
 * vdso_init() (vma.c) can check and copy it whole. VDSO_IMAGE is its path (the Makefile).
 */
	.section .rodata
	.balign 4096
	.globl vdso_image_start
vdso_image_start:
	.incbin VDSO_IMAGE
	.globl vdso_image_end
vdso_image_end:
	.balign 4096
	.section .note.GNU-stack, "", @progbits
