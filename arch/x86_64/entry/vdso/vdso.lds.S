/*
 * The vDSO's linker script (Linux's arch/x86/entry/vdso/vdso-layout.lds.S and vdso.lds.S): one
 * read-and-execute PT_LOAD holding the ELF headers, the dynamic symbol table and the code, so
 * the whole image maps as it is, at any address (it is position-independent and has no
 * relocations: the Makefile checks). [vvar] sits just below it, so that the code reaches its
 * data with a RIP-relative address that holds wherever the pair is mapped.
 *
 * Preprocessed (cpp -P) for the constants of arch/x86_64/vdso.h.
 */
#include "arch/x86_64/vdso.h"

SECTIONS
{
	/* [vvar]: VVAR_PAGES below the image; struct vdso_data at its offset in the first. */
	vvar_page = . - VVAR_SIZE;
	_vdso_data = vvar_page + VVAR_VDSO_DATA_OFFSET;

	. = SIZEOF_HEADERS;
	.hash		: { *(.hash) }			:text
	.gnu.hash	: { *(.gnu.hash) }
	.dynsym		: { *(.dynsym) }
	.dynstr		: { *(.dynstr) }
	.gnu.version	: { *(.gnu.version) }
	.gnu.version_d	: { *(.gnu.version_d) }
	.gnu.version_r	: { *(.gnu.version_r) }
	.dynamic	: { *(.dynamic) }		:text	:dynamic
	/* Read-only data only: the image is shared by every process, never written. */
	.rodata		: { *(.rodata*) *(.got) *(.got.plt) }	:text
	/DISCARD/	: { *(.note.gnu.property) *(.data*) *(.bss*) *(.comment) }
	.note		: { *(.note.*) }		:text	:note
	.eh_frame_hdr	: { *(.eh_frame_hdr) }		:text	:eh_frame_hdr
	.eh_frame	: { KEEP (*(.eh_frame)) }	:text
	.text		: { *(.text*) }			:text	=0x90909090
}

PHDRS
{
	text		PT_LOAD		FLAGS(5) FILEHDR PHDRS; /* PF_R | PF_X */
	dynamic		PT_DYNAMIC	FLAGS(4);		/* PF_R */
	note		PT_NOTE		FLAGS(4);		/* PF_R */
	eh_frame_hdr	PT_GNU_EH_FRAME;
}

/*
 * The exported symbols, all of version LINUX_2.6 as Linux's x86_64 vDSO: glibc and musl look
 * up __vdso_clock_gettime@LINUX_2.6 and the others by name and version, and the unprefixed
 * names are there too (weak aliases), as Linux's.
 */
VERSION
{
	LINUX_2.6 {
	global:
		clock_gettime;
		__vdso_clock_gettime;
		gettimeofday;
		__vdso_gettimeofday;
		getcpu;
		__vdso_getcpu;
		time;
		__vdso_time;
		clock_getres;
		__vdso_clock_getres;
	local: *;
	};
}
