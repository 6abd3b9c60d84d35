//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func indexPairAVX2(s []byte, first, last byte, off int) int
TEXT ·indexPairAVX2(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVBLZX first+24(FP), AX
	MOVBLZX last+25(FP), CX
	MOVQ off+32(FP), DX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVQ CX, X1
	VPBROADCASTB X1, Y1
	LEAQ (SI)(DX*1), R9 // R9: where the last bytes are
	MOVQ BX, R8
	SUBQ DX, R8
	SUBQ $32, R8        // R8: the last block start that fits
	XORQ DI, DI
	CMPQ R8, $0
	JLT  none

loop:
	VMOVDQU (SI)(DI*1), Y2
	VMOVDQU (R9)(DI*1), Y3
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y1, Y3, Y3
	VPAND    Y2, Y3, Y2
	VPMOVMSKB Y2, R10
	TESTL R10, R10
	JNZ   found
	ADDQ  $32, DI
	CMPQ  DI, R8
	JLE   loop

none:
	NOTQ DI             // -1 - DI
	MOVQ DI, ret+40(FP)
	VZEROUPPER
	RET

found:
	BSFL R10, R10
	ADDQ R10, DI
	MOVQ DI, ret+40(FP)
	VZEROUPPER
	RET
