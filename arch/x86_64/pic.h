/* The legacy 8259 PICs, remapped and masked (arch/x86_64/pic.c). */
#ifndef ARCH_PIC_H
#define ARCH_PIC_H
void pic_disable(void);
#endif
