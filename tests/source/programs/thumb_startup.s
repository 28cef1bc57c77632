/* thumb_startup.s - Cortex-M startup code in assembly, shaped as
 * STM32Cube's startup_stm32*.s (fixtures/thumb-startup.elf,
 * gen_thumb_startup.sh): a vector table; Reset_Handler copying .data and
 * zeroing .bss in loops at local labels (size-0 symbols), with .size, so
 * that GNU as writes a DW_TAG_subprogram whose DW_AT_low_pc carries the
 * Thumb bit; Default_Handler and SysTick_Handler without .size (no
 * subprogram: their lines are named after the symbol table), one right
 * after the other, so no "$t" mapping symbol marks SysTick_Handler's
 * first instruction. */
	.syntax unified
	.cpu cortex-m4
	.thumb

	.section .isr_vector,"a",%progbits
	.type g_vectors, %object
g_vectors:
	.word _estack
	.word Reset_Handler
	.word Default_Handler
	.word SysTick_Handler
	.size g_vectors, .-g_vectors

	.section .text.startup,"ax",%progbits
	.global Default_Handler
	.type Default_Handler, %function
Default_Handler:
	b     Default_Handler

	.global SysTick_Handler
	.type SysTick_Handler, %function
SysTick_Handler:
	ldr   r0, =ticks
	ldr   r1, [r0]
	adds  r1, r1, #1
	str   r1, [r0]
	bx    lr

	.weak Reset_Handler
	.type Reset_Handler, %function
Reset_Handler:
	ldr   sp, =_estack
	movs  r1, #0
	b     LoopCopyDataInit
CopyDataInit:
	ldr   r3, =_sidata
	ldr   r3, [r3, r1]
	str   r3, [r0, r1]
	adds  r1, r1, #4
LoopCopyDataInit:
	ldr   r0, =_sdata
	ldr   r3, =_edata
	adds  r2, r0, r1
	cmp   r2, r3
	bcc   CopyDataInit
	ldr   r2, =_sbss
	b     LoopFillZerobss
FillZerobss:
	movs  r3, #0
	str   r3, [r2], #4
LoopFillZerobss:
	ldr   r3, =_ebss
	cmp   r2, r3
	bcc   FillZerobss
	bl    SystemInit
	bl    main
	bx    lr
	.size Reset_Handler, .-Reset_Handler
