/*
 * ELF64 as the System V ABI defines it: the types and numbers an object file is made of, with
 * Linux's names (include/uapi/linux/elf.h). Only what Lucid's module loader reads is here.
 *
 * A relocatable object (what `gcc -c` and `ld -r` write, and what a module is) has no program
 * headers: it is a list of sections (code, data, the symbol table, the relocations), each
 * described by a section header, and the loader decides where each goes.
 */
#ifndef LIB_ELF_H
#define LIB_ELF_H

#include <stdint.h>

typedef uint64_t Elf64_Addr;
typedef uint64_t Elf64_Off;
typedef uint16_t Elf64_Half;
typedef uint32_t Elf64_Word;
typedef int32_t Elf64_Sword;
typedef uint64_t Elf64_Xword;
typedef int64_t Elf64_Sxword;

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define EI_VERSION 6
#define ELFMAG "\177ELF"
#define SELFMAG 4
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1

#define ET_REL 1 /* a relocatable object: a module */
#define EM_X86_64 62

typedef struct {
	unsigned char e_ident[EI_NIDENT];
	Elf64_Half e_type;
	Elf64_Half e_machine;
	Elf64_Word e_version;
	Elf64_Addr e_entry;
	Elf64_Off e_phoff;
	Elf64_Off e_shoff;
	Elf64_Word e_flags;
	Elf64_Half e_ehsize;
	Elf64_Half e_phentsize;
	Elf64_Half e_phnum;
	Elf64_Half e_shentsize;
	Elf64_Half e_shnum;
	Elf64_Half e_shstrndx;
} Elf64_Ehdr;

typedef struct {
	Elf64_Word sh_name; /* offset of its name in the section-name string table */
	Elf64_Word sh_type;
	Elf64_Xword sh_flags;
	Elf64_Addr sh_addr; /* where it is in memory: 0 in a .o, the loader fills it in */
	Elf64_Off sh_offset; /* where its bytes are in the file */
	Elf64_Xword sh_size;
	Elf64_Word sh_link;
	Elf64_Word sh_info;
	Elf64_Xword sh_addralign;
	Elf64_Xword sh_entsize;
} Elf64_Shdr;

#define SHT_NULL 0
#define SHT_PROGBITS 1
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHT_RELA 4
#define SHT_NOBITS 8 /* .bss: takes memory, no bytes in the file */
#define SHT_REL 9

#define SHF_WRITE 0x1
#define SHF_ALLOC 0x2 /* occupies memory when loaded */
#define SHF_EXECINSTR 0x4

#define SHN_UNDEF 0
#define SHN_LORESERVE 0xff00
#define SHN_ABS 0xfff1
#define SHN_COMMON 0xfff2

typedef struct {
	Elf64_Word st_name;
	unsigned char st_info; /* binding << 4 | type */
	unsigned char st_other;
	Elf64_Half st_shndx; /* the section it is defined in, SHN_UNDEF if elsewhere */
	Elf64_Addr st_value; /* its offset in that section; the loader makes it an address */
	Elf64_Xword st_size;
} Elf64_Sym;

#define ELF64_ST_BIND(info) ((info) >> 4)
#define ELF64_ST_TYPE(info) ((info)&0xf)
#define STB_LOCAL 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_NOTYPE 0
#define STT_OBJECT 1
#define STT_FUNC 2
#define STT_SECTION 3
#define STT_FILE 4

/* At r_offset in the section: the symbol's address + r_addend, computed as r_info's type says. */
typedef struct {
	Elf64_Addr r_offset;
	Elf64_Xword r_info;
	Elf64_Sxword r_addend;
} Elf64_Rela;

#define ELF64_R_SYM(i) ((i) >> 32)
#define ELF64_R_TYPE(i) ((i)&0xffffffff)

/* x86_64's relocation types (S: the symbol's address, A: the addend, P: the place patched). */
#define R_X86_64_NONE 0
#define R_X86_64_64 1    /* S + A, 64 bits */
#define R_X86_64_PC32 2  /* S + A - P, 32 bits signed */
#define R_X86_64_PLT32 4 /* the same for a call: no PLT in the kernel */
#define R_X86_64_32 10   /* S + A, zero-extended from 32 bits */
#define R_X86_64_32S 11  /* S + A, sign-extended from 32 bits: -mcmodel=kernel's addresses */

#endif
