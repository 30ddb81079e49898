; pub.smt2 - the controllers of memory tile 'pub' in SMT-LIB 2, written by lake.
; Semantics: lake/COLLATERAL.md. 6 loop levels (level 0 innermost), 16-bit counters,
; recurrence (delta) generators; all arithmetic is modulo 2^width of the value.
;
; The configuration registers are the constants below (names and widths as in
; pub.info.yaml). For each controller C:
;   C_active                 the tile and C are enabled
;   C_in_domain idx0..       the counter values lie in C's iteration domain
;   C_cycle idx0..           the cycle in which C fires at those counter values
;                            (its schedule generator's value)
;   C_src_addr, C_dst_addr   the address at the source / destination storage port
;                            (where the end has an address generator; an end whose
;                            port has one slot and no chaining always uses 0)
;   C_src_cycle, C_dst_cycle the cycle of the read / write request at a storage end
;                            (21 bits wide, so that the source latency never wraps)
;   C_src_hit, C_dst_hit     on a chained SRAM: the high address bits select this tile
;   C_ext<l>, C_ops          the extent of level l and the number of operations
;                            (97-bit: every product of extents fits)
;   C_idx<l>_of n            counter l at operation number n (n from 0, level 0 fastest)
;   C_cycle_at n, C_src_addr_at n, C_dst_addr_at n   the same per operation number
; The counter values idx<l> are 16-bit vectors.
; A recurrence generator adds delta<l> when level l is the lowest that increments;
; its value is start + sum_l stride<l> * idx<l> with the strides
;   C_<g>_stride<l> = delta<l> + sum_{k<l} stride<k> * max<k>
; (the closed form of the recurrence, defined below for each generator g).
;
; Example query (z3 -smt2): the cycle of the third operation of controller C:
;   (check-sat) (get-value ((C_cycle_at (_ bv2 N))))  with N the width of C_ops.

; ---- configuration registers ----
(declare-const tile_en (_ BitVec 1)) ; the tile runs (its cycle counter counts)
(declare-const chain_id (_ BitVec 7)) ; position of the tile in its chain (high SRAM address bits it serves)
(declare-const e0_en (_ BitVec 1)) ; enables in0 -> agg0.w
(declare-const e0_max0 (_ BitVec 16)) ; in0 -> agg0.w: extent of level 0 minus one
(declare-const e0_max1 (_ BitVec 16)) ; in0 -> agg0.w: extent of level 1 minus one
(declare-const e0_max2 (_ BitVec 16)) ; in0 -> agg0.w: extent of level 2 minus one
(declare-const e0_max3 (_ BitVec 16)) ; in0 -> agg0.w: extent of level 3 minus one
(declare-const e0_max4 (_ BitVec 16)) ; in0 -> agg0.w: extent of level 4 minus one
(declare-const e0_max5 (_ BitVec 16)) ; in0 -> agg0.w: extent of level 5 minus one
(declare-const e0_sched_start (_ BitVec 16)) ; cycle of in0 -> agg0.w: value of the first operation
(declare-const e0_sched_delta0 (_ BitVec 16)) ; cycle of in0 -> agg0.w: delta of level 0
(declare-const e0_sched_delta1 (_ BitVec 16)) ; cycle of in0 -> agg0.w: delta of level 1
(declare-const e0_sched_delta2 (_ BitVec 16)) ; cycle of in0 -> agg0.w: delta of level 2
(declare-const e0_sched_delta3 (_ BitVec 16)) ; cycle of in0 -> agg0.w: delta of level 3
(declare-const e0_sched_delta4 (_ BitVec 16)) ; cycle of in0 -> agg0.w: delta of level 4
(declare-const e0_sched_delta5 (_ BitVec 16)) ; cycle of in0 -> agg0.w: delta of level 5
(declare-const e0_dst_start (_ BitVec 2)) ; address of agg0.w: value of the first operation
(declare-const e0_dst_delta0 (_ BitVec 2)) ; address of agg0.w: delta of level 0
(declare-const e0_dst_delta1 (_ BitVec 2)) ; address of agg0.w: delta of level 1
(declare-const e0_dst_delta2 (_ BitVec 2)) ; address of agg0.w: delta of level 2
(declare-const e0_dst_delta3 (_ BitVec 2)) ; address of agg0.w: delta of level 3
(declare-const e0_dst_delta4 (_ BitVec 2)) ; address of agg0.w: delta of level 4
(declare-const e0_dst_delta5 (_ BitVec 2)) ; address of agg0.w: delta of level 5
(declare-const e1_en (_ BitVec 1)) ; enables in1 -> agg1.w
(declare-const e1_max0 (_ BitVec 16)) ; in1 -> agg1.w: extent of level 0 minus one
(declare-const e1_max1 (_ BitVec 16)) ; in1 -> agg1.w: extent of level 1 minus one
(declare-const e1_max2 (_ BitVec 16)) ; in1 -> agg1.w: extent of level 2 minus one
(declare-const e1_max3 (_ BitVec 16)) ; in1 -> agg1.w: extent of level 3 minus one
(declare-const e1_max4 (_ BitVec 16)) ; in1 -> agg1.w: extent of level 4 minus one
(declare-const e1_max5 (_ BitVec 16)) ; in1 -> agg1.w: extent of level 5 minus one
(declare-const e1_sched_start (_ BitVec 16)) ; cycle of in1 -> agg1.w: value of the first operation
(declare-const e1_sched_delta0 (_ BitVec 16)) ; cycle of in1 -> agg1.w: delta of level 0
(declare-const e1_sched_delta1 (_ BitVec 16)) ; cycle of in1 -> agg1.w: delta of level 1
(declare-const e1_sched_delta2 (_ BitVec 16)) ; cycle of in1 -> agg1.w: delta of level 2
(declare-const e1_sched_delta3 (_ BitVec 16)) ; cycle of in1 -> agg1.w: delta of level 3
(declare-const e1_sched_delta4 (_ BitVec 16)) ; cycle of in1 -> agg1.w: delta of level 4
(declare-const e1_sched_delta5 (_ BitVec 16)) ; cycle of in1 -> agg1.w: delta of level 5
(declare-const e1_dst_start (_ BitVec 2)) ; address of agg1.w: value of the first operation
(declare-const e1_dst_delta0 (_ BitVec 2)) ; address of agg1.w: delta of level 0
(declare-const e1_dst_delta1 (_ BitVec 2)) ; address of agg1.w: delta of level 1
(declare-const e1_dst_delta2 (_ BitVec 2)) ; address of agg1.w: delta of level 2
(declare-const e1_dst_delta3 (_ BitVec 2)) ; address of agg1.w: delta of level 3
(declare-const e1_dst_delta4 (_ BitVec 2)) ; address of agg1.w: delta of level 4
(declare-const e1_dst_delta5 (_ BitVec 2)) ; address of agg1.w: delta of level 5
(declare-const e2_en (_ BitVec 1)) ; enables agg0.r -> sram.rw
(declare-const e2_max0 (_ BitVec 16)) ; agg0.r -> sram.rw: extent of level 0 minus one
(declare-const e2_max1 (_ BitVec 16)) ; agg0.r -> sram.rw: extent of level 1 minus one
(declare-const e2_max2 (_ BitVec 16)) ; agg0.r -> sram.rw: extent of level 2 minus one
(declare-const e2_max3 (_ BitVec 16)) ; agg0.r -> sram.rw: extent of level 3 minus one
(declare-const e2_max4 (_ BitVec 16)) ; agg0.r -> sram.rw: extent of level 4 minus one
(declare-const e2_max5 (_ BitVec 16)) ; agg0.r -> sram.rw: extent of level 5 minus one
(declare-const e2_sched_start (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: value of the first operation
(declare-const e2_sched_delta0 (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: delta of level 0
(declare-const e2_sched_delta1 (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: delta of level 1
(declare-const e2_sched_delta2 (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: delta of level 2
(declare-const e2_sched_delta3 (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: delta of level 3
(declare-const e2_sched_delta4 (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: delta of level 4
(declare-const e2_sched_delta5 (_ BitVec 16)) ; cycle of agg0.r -> sram.rw: delta of level 5
(declare-const e2_dst_start (_ BitVec 16)) ; address of sram.rw: value of the first operation
(declare-const e2_dst_delta0 (_ BitVec 16)) ; address of sram.rw: delta of level 0
(declare-const e2_dst_delta1 (_ BitVec 16)) ; address of sram.rw: delta of level 1
(declare-const e2_dst_delta2 (_ BitVec 16)) ; address of sram.rw: delta of level 2
(declare-const e2_dst_delta3 (_ BitVec 16)) ; address of sram.rw: delta of level 3
(declare-const e2_dst_delta4 (_ BitVec 16)) ; address of sram.rw: delta of level 4
(declare-const e2_dst_delta5 (_ BitVec 16)) ; address of sram.rw: delta of level 5
(declare-const e3_en (_ BitVec 1)) ; enables agg1.r -> sram.rw
(declare-const e3_max0 (_ BitVec 16)) ; agg1.r -> sram.rw: extent of level 0 minus one
(declare-const e3_max1 (_ BitVec 16)) ; agg1.r -> sram.rw: extent of level 1 minus one
(declare-const e3_max2 (_ BitVec 16)) ; agg1.r -> sram.rw: extent of level 2 minus one
(declare-const e3_max3 (_ BitVec 16)) ; agg1.r -> sram.rw: extent of level 3 minus one
(declare-const e3_max4 (_ BitVec 16)) ; agg1.r -> sram.rw: extent of level 4 minus one
(declare-const e3_max5 (_ BitVec 16)) ; agg1.r -> sram.rw: extent of level 5 minus one
(declare-const e3_sched_start (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: value of the first operation
(declare-const e3_sched_delta0 (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: delta of level 0
(declare-const e3_sched_delta1 (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: delta of level 1
(declare-const e3_sched_delta2 (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: delta of level 2
(declare-const e3_sched_delta3 (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: delta of level 3
(declare-const e3_sched_delta4 (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: delta of level 4
(declare-const e3_sched_delta5 (_ BitVec 16)) ; cycle of agg1.r -> sram.rw: delta of level 5
(declare-const e3_dst_start (_ BitVec 16)) ; address of sram.rw: value of the first operation
(declare-const e3_dst_delta0 (_ BitVec 16)) ; address of sram.rw: delta of level 0
(declare-const e3_dst_delta1 (_ BitVec 16)) ; address of sram.rw: delta of level 1
(declare-const e3_dst_delta2 (_ BitVec 16)) ; address of sram.rw: delta of level 2
(declare-const e3_dst_delta3 (_ BitVec 16)) ; address of sram.rw: delta of level 3
(declare-const e3_dst_delta4 (_ BitVec 16)) ; address of sram.rw: delta of level 4
(declare-const e3_dst_delta5 (_ BitVec 16)) ; address of sram.rw: delta of level 5
(declare-const e4_en (_ BitVec 1)) ; enables sram.rw -> tb0.w
(declare-const e4_max0 (_ BitVec 16)) ; sram.rw -> tb0.w: extent of level 0 minus one
(declare-const e4_max1 (_ BitVec 16)) ; sram.rw -> tb0.w: extent of level 1 minus one
(declare-const e4_max2 (_ BitVec 16)) ; sram.rw -> tb0.w: extent of level 2 minus one
(declare-const e4_max3 (_ BitVec 16)) ; sram.rw -> tb0.w: extent of level 3 minus one
(declare-const e4_max4 (_ BitVec 16)) ; sram.rw -> tb0.w: extent of level 4 minus one
(declare-const e4_max5 (_ BitVec 16)) ; sram.rw -> tb0.w: extent of level 5 minus one
(declare-const e4_sched_start (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: value of the first operation
(declare-const e4_sched_delta0 (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: delta of level 0
(declare-const e4_sched_delta1 (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: delta of level 1
(declare-const e4_sched_delta2 (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: delta of level 2
(declare-const e4_sched_delta3 (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: delta of level 3
(declare-const e4_sched_delta4 (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: delta of level 4
(declare-const e4_sched_delta5 (_ BitVec 16)) ; cycle of sram.rw -> tb0.w: delta of level 5
(declare-const e4_src_start (_ BitVec 16)) ; address of sram.rw: value of the first operation
(declare-const e4_src_delta0 (_ BitVec 16)) ; address of sram.rw: delta of level 0
(declare-const e4_src_delta1 (_ BitVec 16)) ; address of sram.rw: delta of level 1
(declare-const e4_src_delta2 (_ BitVec 16)) ; address of sram.rw: delta of level 2
(declare-const e4_src_delta3 (_ BitVec 16)) ; address of sram.rw: delta of level 3
(declare-const e4_src_delta4 (_ BitVec 16)) ; address of sram.rw: delta of level 4
(declare-const e4_src_delta5 (_ BitVec 16)) ; address of sram.rw: delta of level 5
(declare-const e4_dst_start (_ BitVec 1)) ; address of tb0.w: value of the first operation
(declare-const e4_dst_delta0 (_ BitVec 1)) ; address of tb0.w: delta of level 0
(declare-const e4_dst_delta1 (_ BitVec 1)) ; address of tb0.w: delta of level 1
(declare-const e4_dst_delta2 (_ BitVec 1)) ; address of tb0.w: delta of level 2
(declare-const e4_dst_delta3 (_ BitVec 1)) ; address of tb0.w: delta of level 3
(declare-const e4_dst_delta4 (_ BitVec 1)) ; address of tb0.w: delta of level 4
(declare-const e4_dst_delta5 (_ BitVec 1)) ; address of tb0.w: delta of level 5
(declare-const e5_en (_ BitVec 1)) ; enables sram.rw -> tb1.w
(declare-const e5_max0 (_ BitVec 16)) ; sram.rw -> tb1.w: extent of level 0 minus one
(declare-const e5_max1 (_ BitVec 16)) ; sram.rw -> tb1.w: extent of level 1 minus one
(declare-const e5_max2 (_ BitVec 16)) ; sram.rw -> tb1.w: extent of level 2 minus one
(declare-const e5_max3 (_ BitVec 16)) ; sram.rw -> tb1.w: extent of level 3 minus one
(declare-const e5_max4 (_ BitVec 16)) ; sram.rw -> tb1.w: extent of level 4 minus one
(declare-const e5_max5 (_ BitVec 16)) ; sram.rw -> tb1.w: extent of level 5 minus one
(declare-const e5_sched_start (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: value of the first operation
(declare-const e5_sched_delta0 (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: delta of level 0
(declare-const e5_sched_delta1 (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: delta of level 1
(declare-const e5_sched_delta2 (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: delta of level 2
(declare-const e5_sched_delta3 (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: delta of level 3
(declare-const e5_sched_delta4 (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: delta of level 4
(declare-const e5_sched_delta5 (_ BitVec 16)) ; cycle of sram.rw -> tb1.w: delta of level 5
(declare-const e5_src_start (_ BitVec 16)) ; address of sram.rw: value of the first operation
(declare-const e5_src_delta0 (_ BitVec 16)) ; address of sram.rw: delta of level 0
(declare-const e5_src_delta1 (_ BitVec 16)) ; address of sram.rw: delta of level 1
(declare-const e5_src_delta2 (_ BitVec 16)) ; address of sram.rw: delta of level 2
(declare-const e5_src_delta3 (_ BitVec 16)) ; address of sram.rw: delta of level 3
(declare-const e5_src_delta4 (_ BitVec 16)) ; address of sram.rw: delta of level 4
(declare-const e5_src_delta5 (_ BitVec 16)) ; address of sram.rw: delta of level 5
(declare-const e5_dst_start (_ BitVec 1)) ; address of tb1.w: value of the first operation
(declare-const e5_dst_delta0 (_ BitVec 1)) ; address of tb1.w: delta of level 0
(declare-const e5_dst_delta1 (_ BitVec 1)) ; address of tb1.w: delta of level 1
(declare-const e5_dst_delta2 (_ BitVec 1)) ; address of tb1.w: delta of level 2
(declare-const e5_dst_delta3 (_ BitVec 1)) ; address of tb1.w: delta of level 3
(declare-const e5_dst_delta4 (_ BitVec 1)) ; address of tb1.w: delta of level 4
(declare-const e5_dst_delta5 (_ BitVec 1)) ; address of tb1.w: delta of level 5
(declare-const e6_en (_ BitVec 1)) ; enables tb0.r -> out0
(declare-const e6_max0 (_ BitVec 16)) ; tb0.r -> out0: extent of level 0 minus one
(declare-const e6_max1 (_ BitVec 16)) ; tb0.r -> out0: extent of level 1 minus one
(declare-const e6_max2 (_ BitVec 16)) ; tb0.r -> out0: extent of level 2 minus one
(declare-const e6_max3 (_ BitVec 16)) ; tb0.r -> out0: extent of level 3 minus one
(declare-const e6_max4 (_ BitVec 16)) ; tb0.r -> out0: extent of level 4 minus one
(declare-const e6_max5 (_ BitVec 16)) ; tb0.r -> out0: extent of level 5 minus one
(declare-const e6_sched_start (_ BitVec 16)) ; cycle of tb0.r -> out0: value of the first operation
(declare-const e6_sched_delta0 (_ BitVec 16)) ; cycle of tb0.r -> out0: delta of level 0
(declare-const e6_sched_delta1 (_ BitVec 16)) ; cycle of tb0.r -> out0: delta of level 1
(declare-const e6_sched_delta2 (_ BitVec 16)) ; cycle of tb0.r -> out0: delta of level 2
(declare-const e6_sched_delta3 (_ BitVec 16)) ; cycle of tb0.r -> out0: delta of level 3
(declare-const e6_sched_delta4 (_ BitVec 16)) ; cycle of tb0.r -> out0: delta of level 4
(declare-const e6_sched_delta5 (_ BitVec 16)) ; cycle of tb0.r -> out0: delta of level 5
(declare-const e6_src_start (_ BitVec 3)) ; address of tb0.r: value of the first operation
(declare-const e6_src_delta0 (_ BitVec 3)) ; address of tb0.r: delta of level 0
(declare-const e6_src_delta1 (_ BitVec 3)) ; address of tb0.r: delta of level 1
(declare-const e6_src_delta2 (_ BitVec 3)) ; address of tb0.r: delta of level 2
(declare-const e6_src_delta3 (_ BitVec 3)) ; address of tb0.r: delta of level 3
(declare-const e6_src_delta4 (_ BitVec 3)) ; address of tb0.r: delta of level 4
(declare-const e6_src_delta5 (_ BitVec 3)) ; address of tb0.r: delta of level 5
(declare-const e7_en (_ BitVec 1)) ; enables tb1.r -> out1
(declare-const e7_max0 (_ BitVec 16)) ; tb1.r -> out1: extent of level 0 minus one
(declare-const e7_max1 (_ BitVec 16)) ; tb1.r -> out1: extent of level 1 minus one
(declare-const e7_max2 (_ BitVec 16)) ; tb1.r -> out1: extent of level 2 minus one
(declare-const e7_max3 (_ BitVec 16)) ; tb1.r -> out1: extent of level 3 minus one
(declare-const e7_max4 (_ BitVec 16)) ; tb1.r -> out1: extent of level 4 minus one
(declare-const e7_max5 (_ BitVec 16)) ; tb1.r -> out1: extent of level 5 minus one
(declare-const e7_sched_start (_ BitVec 16)) ; cycle of tb1.r -> out1: value of the first operation
(declare-const e7_sched_delta0 (_ BitVec 16)) ; cycle of tb1.r -> out1: delta of level 0
(declare-const e7_sched_delta1 (_ BitVec 16)) ; cycle of tb1.r -> out1: delta of level 1
(declare-const e7_sched_delta2 (_ BitVec 16)) ; cycle of tb1.r -> out1: delta of level 2
(declare-const e7_sched_delta3 (_ BitVec 16)) ; cycle of tb1.r -> out1: delta of level 3
(declare-const e7_sched_delta4 (_ BitVec 16)) ; cycle of tb1.r -> out1: delta of level 4
(declare-const e7_sched_delta5 (_ BitVec 16)) ; cycle of tb1.r -> out1: delta of level 5
(declare-const e7_src_start (_ BitVec 3)) ; address of tb1.r: value of the first operation
(declare-const e7_src_delta0 (_ BitVec 3)) ; address of tb1.r: delta of level 0
(declare-const e7_src_delta1 (_ BitVec 3)) ; address of tb1.r: delta of level 1
(declare-const e7_src_delta2 (_ BitVec 3)) ; address of tb1.r: delta of level 2
(declare-const e7_src_delta3 (_ BitVec 3)) ; address of tb1.r: delta of level 3
(declare-const e7_src_delta4 (_ BitVec 3)) ; address of tb1.r: delta of level 4
(declare-const e7_src_delta5 (_ BitVec 3)) ; address of tb1.r: delta of level 5
(declare-const lookup_en (_ BitVec 1)) ; enables the table look-up: in0 addresses sram (read at sram.rw), out0 delivers the word
(declare-const lookup_wr (_ BitVec 32)) ; a write loads the look-up table: word (value >> 16) mod 2048 of sram takes the low 16 bits (through sram.rw)

; ---- controller e0: in0 -> agg0.w ----
(define-fun e0_active () Bool (and (= tile_en #b1) (= e0_en #b1)))
(define-fun e0_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e0_max0) (bvule idx1 e0_max1) (bvule idx2 e0_max2) (bvule idx3 e0_max3) (bvule idx4 e0_max4) (bvule idx5 e0_max5)))
(define-fun e0_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e0_max0) (_ bv1 97)))
(define-fun e0_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e0_max1) (_ bv1 97)))
(define-fun e0_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e0_max2) (_ bv1 97)))
(define-fun e0_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e0_max3) (_ bv1 97)))
(define-fun e0_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e0_max4) (_ bv1 97)))
(define-fun e0_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e0_max5) (_ bv1 97)))
(define-fun e0_ops () (_ BitVec 97) (bvmul e0_ext0 e0_ext1 e0_ext2 e0_ext3 e0_ext4 e0_ext5 (_ bv1 97)))
(define-fun e0_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e0_ext0)))
(define-fun e0_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e0_ext0)) e0_ext1)))
(define-fun e0_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e0_ext0 e0_ext1)) e0_ext2)))
(define-fun e0_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e0_ext0 e0_ext1 e0_ext2)) e0_ext3)))
(define-fun e0_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e0_ext0 e0_ext1 e0_ext2 e0_ext3)) e0_ext4)))
(define-fun e0_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e0_ext0 e0_ext1 e0_ext2 e0_ext3 e0_ext4)) e0_ext5)))
(define-fun e0_sched_stride0 () (_ BitVec 16) e0_sched_delta0)
(define-fun e0_sched_stride1 () (_ BitVec 16) (bvadd e0_sched_delta1 (bvmul e0_sched_stride0 e0_max0)))
(define-fun e0_sched_stride2 () (_ BitVec 16) (bvadd e0_sched_delta2 (bvmul e0_sched_stride0 e0_max0) (bvmul e0_sched_stride1 e0_max1)))
(define-fun e0_sched_stride3 () (_ BitVec 16) (bvadd e0_sched_delta3 (bvmul e0_sched_stride0 e0_max0) (bvmul e0_sched_stride1 e0_max1) (bvmul e0_sched_stride2 e0_max2)))
(define-fun e0_sched_stride4 () (_ BitVec 16) (bvadd e0_sched_delta4 (bvmul e0_sched_stride0 e0_max0) (bvmul e0_sched_stride1 e0_max1) (bvmul e0_sched_stride2 e0_max2) (bvmul e0_sched_stride3 e0_max3)))
(define-fun e0_sched_stride5 () (_ BitVec 16) (bvadd e0_sched_delta5 (bvmul e0_sched_stride0 e0_max0) (bvmul e0_sched_stride1 e0_max1) (bvmul e0_sched_stride2 e0_max2) (bvmul e0_sched_stride3 e0_max3) (bvmul e0_sched_stride4 e0_max4)))
(define-fun e0_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e0_sched_start (bvmul e0_sched_stride0 idx0) (bvmul e0_sched_stride1 idx1) (bvmul e0_sched_stride2 idx2) (bvmul e0_sched_stride3 idx3) (bvmul e0_sched_stride4 idx4) (bvmul e0_sched_stride5 idx5)))
(define-fun e0_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e0_cycle (e0_idx0_of n) (e0_idx1_of n) (e0_idx2_of n) (e0_idx3_of n) (e0_idx4_of n) (e0_idx5_of n)))
(define-fun e0_dst_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e0_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e0_dst_stride0 () (_ BitVec 2) e0_dst_delta0)
(define-fun e0_dst_stride1 () (_ BitVec 2) (bvadd e0_dst_delta1 (bvmul e0_dst_stride0 ((_ extract 1 0) e0_max0))))
(define-fun e0_dst_stride2 () (_ BitVec 2) (bvadd e0_dst_delta2 (bvmul e0_dst_stride0 ((_ extract 1 0) e0_max0)) (bvmul e0_dst_stride1 ((_ extract 1 0) e0_max1))))
(define-fun e0_dst_stride3 () (_ BitVec 2) (bvadd e0_dst_delta3 (bvmul e0_dst_stride0 ((_ extract 1 0) e0_max0)) (bvmul e0_dst_stride1 ((_ extract 1 0) e0_max1)) (bvmul e0_dst_stride2 ((_ extract 1 0) e0_max2))))
(define-fun e0_dst_stride4 () (_ BitVec 2) (bvadd e0_dst_delta4 (bvmul e0_dst_stride0 ((_ extract 1 0) e0_max0)) (bvmul e0_dst_stride1 ((_ extract 1 0) e0_max1)) (bvmul e0_dst_stride2 ((_ extract 1 0) e0_max2)) (bvmul e0_dst_stride3 ((_ extract 1 0) e0_max3))))
(define-fun e0_dst_stride5 () (_ BitVec 2) (bvadd e0_dst_delta5 (bvmul e0_dst_stride0 ((_ extract 1 0) e0_max0)) (bvmul e0_dst_stride1 ((_ extract 1 0) e0_max1)) (bvmul e0_dst_stride2 ((_ extract 1 0) e0_max2)) (bvmul e0_dst_stride3 ((_ extract 1 0) e0_max3)) (bvmul e0_dst_stride4 ((_ extract 1 0) e0_max4))))
(define-fun e0_dst_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 2) (bvadd e0_dst_start (bvmul e0_dst_stride0 ((_ extract 1 0) idx0)) (bvmul e0_dst_stride1 ((_ extract 1 0) idx1)) (bvmul e0_dst_stride2 ((_ extract 1 0) idx2)) (bvmul e0_dst_stride3 ((_ extract 1 0) idx3)) (bvmul e0_dst_stride4 ((_ extract 1 0) idx4)) (bvmul e0_dst_stride5 ((_ extract 1 0) idx5))))
(define-fun e0_dst_addr_at ((n (_ BitVec 97))) (_ BitVec 2) (e0_dst_addr (e0_idx0_of n) (e0_idx1_of n) (e0_idx2_of n) (e0_idx3_of n) (e0_idx4_of n) (e0_idx5_of n)))

; ---- controller e1: in1 -> agg1.w ----
(define-fun e1_active () Bool (and (= tile_en #b1) (= e1_en #b1)))
(define-fun e1_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e1_max0) (bvule idx1 e1_max1) (bvule idx2 e1_max2) (bvule idx3 e1_max3) (bvule idx4 e1_max4) (bvule idx5 e1_max5)))
(define-fun e1_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e1_max0) (_ bv1 97)))
(define-fun e1_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e1_max1) (_ bv1 97)))
(define-fun e1_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e1_max2) (_ bv1 97)))
(define-fun e1_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e1_max3) (_ bv1 97)))
(define-fun e1_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e1_max4) (_ bv1 97)))
(define-fun e1_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e1_max5) (_ bv1 97)))
(define-fun e1_ops () (_ BitVec 97) (bvmul e1_ext0 e1_ext1 e1_ext2 e1_ext3 e1_ext4 e1_ext5 (_ bv1 97)))
(define-fun e1_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e1_ext0)))
(define-fun e1_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e1_ext0)) e1_ext1)))
(define-fun e1_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e1_ext0 e1_ext1)) e1_ext2)))
(define-fun e1_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e1_ext0 e1_ext1 e1_ext2)) e1_ext3)))
(define-fun e1_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e1_ext0 e1_ext1 e1_ext2 e1_ext3)) e1_ext4)))
(define-fun e1_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e1_ext0 e1_ext1 e1_ext2 e1_ext3 e1_ext4)) e1_ext5)))
(define-fun e1_sched_stride0 () (_ BitVec 16) e1_sched_delta0)
(define-fun e1_sched_stride1 () (_ BitVec 16) (bvadd e1_sched_delta1 (bvmul e1_sched_stride0 e1_max0)))
(define-fun e1_sched_stride2 () (_ BitVec 16) (bvadd e1_sched_delta2 (bvmul e1_sched_stride0 e1_max0) (bvmul e1_sched_stride1 e1_max1)))
(define-fun e1_sched_stride3 () (_ BitVec 16) (bvadd e1_sched_delta3 (bvmul e1_sched_stride0 e1_max0) (bvmul e1_sched_stride1 e1_max1) (bvmul e1_sched_stride2 e1_max2)))
(define-fun e1_sched_stride4 () (_ BitVec 16) (bvadd e1_sched_delta4 (bvmul e1_sched_stride0 e1_max0) (bvmul e1_sched_stride1 e1_max1) (bvmul e1_sched_stride2 e1_max2) (bvmul e1_sched_stride3 e1_max3)))
(define-fun e1_sched_stride5 () (_ BitVec 16) (bvadd e1_sched_delta5 (bvmul e1_sched_stride0 e1_max0) (bvmul e1_sched_stride1 e1_max1) (bvmul e1_sched_stride2 e1_max2) (bvmul e1_sched_stride3 e1_max3) (bvmul e1_sched_stride4 e1_max4)))
(define-fun e1_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e1_sched_start (bvmul e1_sched_stride0 idx0) (bvmul e1_sched_stride1 idx1) (bvmul e1_sched_stride2 idx2) (bvmul e1_sched_stride3 idx3) (bvmul e1_sched_stride4 idx4) (bvmul e1_sched_stride5 idx5)))
(define-fun e1_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e1_cycle (e1_idx0_of n) (e1_idx1_of n) (e1_idx2_of n) (e1_idx3_of n) (e1_idx4_of n) (e1_idx5_of n)))
(define-fun e1_dst_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e1_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e1_dst_stride0 () (_ BitVec 2) e1_dst_delta0)
(define-fun e1_dst_stride1 () (_ BitVec 2) (bvadd e1_dst_delta1 (bvmul e1_dst_stride0 ((_ extract 1 0) e1_max0))))
(define-fun e1_dst_stride2 () (_ BitVec 2) (bvadd e1_dst_delta2 (bvmul e1_dst_stride0 ((_ extract 1 0) e1_max0)) (bvmul e1_dst_stride1 ((_ extract 1 0) e1_max1))))
(define-fun e1_dst_stride3 () (_ BitVec 2) (bvadd e1_dst_delta3 (bvmul e1_dst_stride0 ((_ extract 1 0) e1_max0)) (bvmul e1_dst_stride1 ((_ extract 1 0) e1_max1)) (bvmul e1_dst_stride2 ((_ extract 1 0) e1_max2))))
(define-fun e1_dst_stride4 () (_ BitVec 2) (bvadd e1_dst_delta4 (bvmul e1_dst_stride0 ((_ extract 1 0) e1_max0)) (bvmul e1_dst_stride1 ((_ extract 1 0) e1_max1)) (bvmul e1_dst_stride2 ((_ extract 1 0) e1_max2)) (bvmul e1_dst_stride3 ((_ extract 1 0) e1_max3))))
(define-fun e1_dst_stride5 () (_ BitVec 2) (bvadd e1_dst_delta5 (bvmul e1_dst_stride0 ((_ extract 1 0) e1_max0)) (bvmul e1_dst_stride1 ((_ extract 1 0) e1_max1)) (bvmul e1_dst_stride2 ((_ extract 1 0) e1_max2)) (bvmul e1_dst_stride3 ((_ extract 1 0) e1_max3)) (bvmul e1_dst_stride4 ((_ extract 1 0) e1_max4))))
(define-fun e1_dst_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 2) (bvadd e1_dst_start (bvmul e1_dst_stride0 ((_ extract 1 0) idx0)) (bvmul e1_dst_stride1 ((_ extract 1 0) idx1)) (bvmul e1_dst_stride2 ((_ extract 1 0) idx2)) (bvmul e1_dst_stride3 ((_ extract 1 0) idx3)) (bvmul e1_dst_stride4 ((_ extract 1 0) idx4)) (bvmul e1_dst_stride5 ((_ extract 1 0) idx5))))
(define-fun e1_dst_addr_at ((n (_ BitVec 97))) (_ BitVec 2) (e1_dst_addr (e1_idx0_of n) (e1_idx1_of n) (e1_idx2_of n) (e1_idx3_of n) (e1_idx4_of n) (e1_idx5_of n)))

; ---- controller e2: agg0.r -> sram.rw ----
(define-fun e2_active () Bool (and (= tile_en #b1) (= e2_en #b1)))
(define-fun e2_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e2_max0) (bvule idx1 e2_max1) (bvule idx2 e2_max2) (bvule idx3 e2_max3) (bvule idx4 e2_max4) (bvule idx5 e2_max5)))
(define-fun e2_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e2_max0) (_ bv1 97)))
(define-fun e2_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e2_max1) (_ bv1 97)))
(define-fun e2_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e2_max2) (_ bv1 97)))
(define-fun e2_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e2_max3) (_ bv1 97)))
(define-fun e2_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e2_max4) (_ bv1 97)))
(define-fun e2_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e2_max5) (_ bv1 97)))
(define-fun e2_ops () (_ BitVec 97) (bvmul e2_ext0 e2_ext1 e2_ext2 e2_ext3 e2_ext4 e2_ext5 (_ bv1 97)))
(define-fun e2_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e2_ext0)))
(define-fun e2_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e2_ext0)) e2_ext1)))
(define-fun e2_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e2_ext0 e2_ext1)) e2_ext2)))
(define-fun e2_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e2_ext0 e2_ext1 e2_ext2)) e2_ext3)))
(define-fun e2_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e2_ext0 e2_ext1 e2_ext2 e2_ext3)) e2_ext4)))
(define-fun e2_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e2_ext0 e2_ext1 e2_ext2 e2_ext3 e2_ext4)) e2_ext5)))
(define-fun e2_sched_stride0 () (_ BitVec 16) e2_sched_delta0)
(define-fun e2_sched_stride1 () (_ BitVec 16) (bvadd e2_sched_delta1 (bvmul e2_sched_stride0 e2_max0)))
(define-fun e2_sched_stride2 () (_ BitVec 16) (bvadd e2_sched_delta2 (bvmul e2_sched_stride0 e2_max0) (bvmul e2_sched_stride1 e2_max1)))
(define-fun e2_sched_stride3 () (_ BitVec 16) (bvadd e2_sched_delta3 (bvmul e2_sched_stride0 e2_max0) (bvmul e2_sched_stride1 e2_max1) (bvmul e2_sched_stride2 e2_max2)))
(define-fun e2_sched_stride4 () (_ BitVec 16) (bvadd e2_sched_delta4 (bvmul e2_sched_stride0 e2_max0) (bvmul e2_sched_stride1 e2_max1) (bvmul e2_sched_stride2 e2_max2) (bvmul e2_sched_stride3 e2_max3)))
(define-fun e2_sched_stride5 () (_ BitVec 16) (bvadd e2_sched_delta5 (bvmul e2_sched_stride0 e2_max0) (bvmul e2_sched_stride1 e2_max1) (bvmul e2_sched_stride2 e2_max2) (bvmul e2_sched_stride3 e2_max3) (bvmul e2_sched_stride4 e2_max4)))
(define-fun e2_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e2_sched_start (bvmul e2_sched_stride0 idx0) (bvmul e2_sched_stride1 idx1) (bvmul e2_sched_stride2 idx2) (bvmul e2_sched_stride3 idx3) (bvmul e2_sched_stride4 idx4) (bvmul e2_sched_stride5 idx5)))
(define-fun e2_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e2_cycle (e2_idx0_of n) (e2_idx1_of n) (e2_idx2_of n) (e2_idx3_of n) (e2_idx4_of n) (e2_idx5_of n)))
(define-fun e2_src_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e2_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e2_dst_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e2_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e2_dst_stride0 () (_ BitVec 16) e2_dst_delta0)
(define-fun e2_dst_stride1 () (_ BitVec 16) (bvadd e2_dst_delta1 (bvmul e2_dst_stride0 e2_max0)))
(define-fun e2_dst_stride2 () (_ BitVec 16) (bvadd e2_dst_delta2 (bvmul e2_dst_stride0 e2_max0) (bvmul e2_dst_stride1 e2_max1)))
(define-fun e2_dst_stride3 () (_ BitVec 16) (bvadd e2_dst_delta3 (bvmul e2_dst_stride0 e2_max0) (bvmul e2_dst_stride1 e2_max1) (bvmul e2_dst_stride2 e2_max2)))
(define-fun e2_dst_stride4 () (_ BitVec 16) (bvadd e2_dst_delta4 (bvmul e2_dst_stride0 e2_max0) (bvmul e2_dst_stride1 e2_max1) (bvmul e2_dst_stride2 e2_max2) (bvmul e2_dst_stride3 e2_max3)))
(define-fun e2_dst_stride5 () (_ BitVec 16) (bvadd e2_dst_delta5 (bvmul e2_dst_stride0 e2_max0) (bvmul e2_dst_stride1 e2_max1) (bvmul e2_dst_stride2 e2_max2) (bvmul e2_dst_stride3 e2_max3) (bvmul e2_dst_stride4 e2_max4)))
(define-fun e2_dst_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e2_dst_start (bvmul e2_dst_stride0 idx0) (bvmul e2_dst_stride1 idx1) (bvmul e2_dst_stride2 idx2) (bvmul e2_dst_stride3 idx3) (bvmul e2_dst_stride4 idx4) (bvmul e2_dst_stride5 idx5)))
(define-fun e2_dst_addr_at ((n (_ BitVec 97))) (_ BitVec 16) (e2_dst_addr (e2_idx0_of n) (e2_idx1_of n) (e2_idx2_of n) (e2_idx3_of n) (e2_idx4_of n) (e2_idx5_of n)))
(define-fun e2_dst_hit ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (= ((_ extract 15 9) (e2_dst_addr idx0 idx1 idx2 idx3 idx4 idx5)) chain_id))

; ---- controller e3: agg1.r -> sram.rw ----
(define-fun e3_active () Bool (and (= tile_en #b1) (= e3_en #b1)))
(define-fun e3_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e3_max0) (bvule idx1 e3_max1) (bvule idx2 e3_max2) (bvule idx3 e3_max3) (bvule idx4 e3_max4) (bvule idx5 e3_max5)))
(define-fun e3_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e3_max0) (_ bv1 97)))
(define-fun e3_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e3_max1) (_ bv1 97)))
(define-fun e3_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e3_max2) (_ bv1 97)))
(define-fun e3_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e3_max3) (_ bv1 97)))
(define-fun e3_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e3_max4) (_ bv1 97)))
(define-fun e3_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e3_max5) (_ bv1 97)))
(define-fun e3_ops () (_ BitVec 97) (bvmul e3_ext0 e3_ext1 e3_ext2 e3_ext3 e3_ext4 e3_ext5 (_ bv1 97)))
(define-fun e3_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e3_ext0)))
(define-fun e3_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e3_ext0)) e3_ext1)))
(define-fun e3_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e3_ext0 e3_ext1)) e3_ext2)))
(define-fun e3_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e3_ext0 e3_ext1 e3_ext2)) e3_ext3)))
(define-fun e3_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e3_ext0 e3_ext1 e3_ext2 e3_ext3)) e3_ext4)))
(define-fun e3_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e3_ext0 e3_ext1 e3_ext2 e3_ext3 e3_ext4)) e3_ext5)))
(define-fun e3_sched_stride0 () (_ BitVec 16) e3_sched_delta0)
(define-fun e3_sched_stride1 () (_ BitVec 16) (bvadd e3_sched_delta1 (bvmul e3_sched_stride0 e3_max0)))
(define-fun e3_sched_stride2 () (_ BitVec 16) (bvadd e3_sched_delta2 (bvmul e3_sched_stride0 e3_max0) (bvmul e3_sched_stride1 e3_max1)))
(define-fun e3_sched_stride3 () (_ BitVec 16) (bvadd e3_sched_delta3 (bvmul e3_sched_stride0 e3_max0) (bvmul e3_sched_stride1 e3_max1) (bvmul e3_sched_stride2 e3_max2)))
(define-fun e3_sched_stride4 () (_ BitVec 16) (bvadd e3_sched_delta4 (bvmul e3_sched_stride0 e3_max0) (bvmul e3_sched_stride1 e3_max1) (bvmul e3_sched_stride2 e3_max2) (bvmul e3_sched_stride3 e3_max3)))
(define-fun e3_sched_stride5 () (_ BitVec 16) (bvadd e3_sched_delta5 (bvmul e3_sched_stride0 e3_max0) (bvmul e3_sched_stride1 e3_max1) (bvmul e3_sched_stride2 e3_max2) (bvmul e3_sched_stride3 e3_max3) (bvmul e3_sched_stride4 e3_max4)))
(define-fun e3_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e3_sched_start (bvmul e3_sched_stride0 idx0) (bvmul e3_sched_stride1 idx1) (bvmul e3_sched_stride2 idx2) (bvmul e3_sched_stride3 idx3) (bvmul e3_sched_stride4 idx4) (bvmul e3_sched_stride5 idx5)))
(define-fun e3_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e3_cycle (e3_idx0_of n) (e3_idx1_of n) (e3_idx2_of n) (e3_idx3_of n) (e3_idx4_of n) (e3_idx5_of n)))
(define-fun e3_src_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e3_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e3_dst_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e3_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e3_dst_stride0 () (_ BitVec 16) e3_dst_delta0)
(define-fun e3_dst_stride1 () (_ BitVec 16) (bvadd e3_dst_delta1 (bvmul e3_dst_stride0 e3_max0)))
(define-fun e3_dst_stride2 () (_ BitVec 16) (bvadd e3_dst_delta2 (bvmul e3_dst_stride0 e3_max0) (bvmul e3_dst_stride1 e3_max1)))
(define-fun e3_dst_stride3 () (_ BitVec 16) (bvadd e3_dst_delta3 (bvmul e3_dst_stride0 e3_max0) (bvmul e3_dst_stride1 e3_max1) (bvmul e3_dst_stride2 e3_max2)))
(define-fun e3_dst_stride4 () (_ BitVec 16) (bvadd e3_dst_delta4 (bvmul e3_dst_stride0 e3_max0) (bvmul e3_dst_stride1 e3_max1) (bvmul e3_dst_stride2 e3_max2) (bvmul e3_dst_stride3 e3_max3)))
(define-fun e3_dst_stride5 () (_ BitVec 16) (bvadd e3_dst_delta5 (bvmul e3_dst_stride0 e3_max0) (bvmul e3_dst_stride1 e3_max1) (bvmul e3_dst_stride2 e3_max2) (bvmul e3_dst_stride3 e3_max3) (bvmul e3_dst_stride4 e3_max4)))
(define-fun e3_dst_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e3_dst_start (bvmul e3_dst_stride0 idx0) (bvmul e3_dst_stride1 idx1) (bvmul e3_dst_stride2 idx2) (bvmul e3_dst_stride3 idx3) (bvmul e3_dst_stride4 idx4) (bvmul e3_dst_stride5 idx5)))
(define-fun e3_dst_addr_at ((n (_ BitVec 97))) (_ BitVec 16) (e3_dst_addr (e3_idx0_of n) (e3_idx1_of n) (e3_idx2_of n) (e3_idx3_of n) (e3_idx4_of n) (e3_idx5_of n)))
(define-fun e3_dst_hit ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (= ((_ extract 15 9) (e3_dst_addr idx0 idx1 idx2 idx3 idx4 idx5)) chain_id))

; ---- controller e4: sram.rw -> tb0.w ----
(define-fun e4_active () Bool (and (= tile_en #b1) (= e4_en #b1)))
(define-fun e4_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e4_max0) (bvule idx1 e4_max1) (bvule idx2 e4_max2) (bvule idx3 e4_max3) (bvule idx4 e4_max4) (bvule idx5 e4_max5)))
(define-fun e4_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e4_max0) (_ bv1 97)))
(define-fun e4_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e4_max1) (_ bv1 97)))
(define-fun e4_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e4_max2) (_ bv1 97)))
(define-fun e4_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e4_max3) (_ bv1 97)))
(define-fun e4_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e4_max4) (_ bv1 97)))
(define-fun e4_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e4_max5) (_ bv1 97)))
(define-fun e4_ops () (_ BitVec 97) (bvmul e4_ext0 e4_ext1 e4_ext2 e4_ext3 e4_ext4 e4_ext5 (_ bv1 97)))
(define-fun e4_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e4_ext0)))
(define-fun e4_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e4_ext0)) e4_ext1)))
(define-fun e4_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e4_ext0 e4_ext1)) e4_ext2)))
(define-fun e4_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e4_ext0 e4_ext1 e4_ext2)) e4_ext3)))
(define-fun e4_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e4_ext0 e4_ext1 e4_ext2 e4_ext3)) e4_ext4)))
(define-fun e4_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e4_ext0 e4_ext1 e4_ext2 e4_ext3 e4_ext4)) e4_ext5)))
(define-fun e4_sched_stride0 () (_ BitVec 16) e4_sched_delta0)
(define-fun e4_sched_stride1 () (_ BitVec 16) (bvadd e4_sched_delta1 (bvmul e4_sched_stride0 e4_max0)))
(define-fun e4_sched_stride2 () (_ BitVec 16) (bvadd e4_sched_delta2 (bvmul e4_sched_stride0 e4_max0) (bvmul e4_sched_stride1 e4_max1)))
(define-fun e4_sched_stride3 () (_ BitVec 16) (bvadd e4_sched_delta3 (bvmul e4_sched_stride0 e4_max0) (bvmul e4_sched_stride1 e4_max1) (bvmul e4_sched_stride2 e4_max2)))
(define-fun e4_sched_stride4 () (_ BitVec 16) (bvadd e4_sched_delta4 (bvmul e4_sched_stride0 e4_max0) (bvmul e4_sched_stride1 e4_max1) (bvmul e4_sched_stride2 e4_max2) (bvmul e4_sched_stride3 e4_max3)))
(define-fun e4_sched_stride5 () (_ BitVec 16) (bvadd e4_sched_delta5 (bvmul e4_sched_stride0 e4_max0) (bvmul e4_sched_stride1 e4_max1) (bvmul e4_sched_stride2 e4_max2) (bvmul e4_sched_stride3 e4_max3) (bvmul e4_sched_stride4 e4_max4)))
(define-fun e4_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e4_sched_start (bvmul e4_sched_stride0 idx0) (bvmul e4_sched_stride1 idx1) (bvmul e4_sched_stride2 idx2) (bvmul e4_sched_stride3 idx3) (bvmul e4_sched_stride4 idx4) (bvmul e4_sched_stride5 idx5)))
(define-fun e4_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e4_cycle (e4_idx0_of n) (e4_idx1_of n) (e4_idx2_of n) (e4_idx3_of n) (e4_idx4_of n) (e4_idx5_of n)))
(define-fun e4_src_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e4_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e4_src_stride0 () (_ BitVec 16) e4_src_delta0)
(define-fun e4_src_stride1 () (_ BitVec 16) (bvadd e4_src_delta1 (bvmul e4_src_stride0 e4_max0)))
(define-fun e4_src_stride2 () (_ BitVec 16) (bvadd e4_src_delta2 (bvmul e4_src_stride0 e4_max0) (bvmul e4_src_stride1 e4_max1)))
(define-fun e4_src_stride3 () (_ BitVec 16) (bvadd e4_src_delta3 (bvmul e4_src_stride0 e4_max0) (bvmul e4_src_stride1 e4_max1) (bvmul e4_src_stride2 e4_max2)))
(define-fun e4_src_stride4 () (_ BitVec 16) (bvadd e4_src_delta4 (bvmul e4_src_stride0 e4_max0) (bvmul e4_src_stride1 e4_max1) (bvmul e4_src_stride2 e4_max2) (bvmul e4_src_stride3 e4_max3)))
(define-fun e4_src_stride5 () (_ BitVec 16) (bvadd e4_src_delta5 (bvmul e4_src_stride0 e4_max0) (bvmul e4_src_stride1 e4_max1) (bvmul e4_src_stride2 e4_max2) (bvmul e4_src_stride3 e4_max3) (bvmul e4_src_stride4 e4_max4)))
(define-fun e4_src_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e4_src_start (bvmul e4_src_stride0 idx0) (bvmul e4_src_stride1 idx1) (bvmul e4_src_stride2 idx2) (bvmul e4_src_stride3 idx3) (bvmul e4_src_stride4 idx4) (bvmul e4_src_stride5 idx5)))
(define-fun e4_src_addr_at ((n (_ BitVec 97))) (_ BitVec 16) (e4_src_addr (e4_idx0_of n) (e4_idx1_of n) (e4_idx2_of n) (e4_idx3_of n) (e4_idx4_of n) (e4_idx5_of n)))
(define-fun e4_src_hit ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (= ((_ extract 15 9) (e4_src_addr idx0 idx1 idx2 idx3 idx4 idx5)) chain_id))
(define-fun e4_dst_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e4_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv1 21)))
(define-fun e4_dst_stride0 () (_ BitVec 1) e4_dst_delta0)
(define-fun e4_dst_stride1 () (_ BitVec 1) (bvadd e4_dst_delta1 (bvmul e4_dst_stride0 ((_ extract 0 0) e4_max0))))
(define-fun e4_dst_stride2 () (_ BitVec 1) (bvadd e4_dst_delta2 (bvmul e4_dst_stride0 ((_ extract 0 0) e4_max0)) (bvmul e4_dst_stride1 ((_ extract 0 0) e4_max1))))
(define-fun e4_dst_stride3 () (_ BitVec 1) (bvadd e4_dst_delta3 (bvmul e4_dst_stride0 ((_ extract 0 0) e4_max0)) (bvmul e4_dst_stride1 ((_ extract 0 0) e4_max1)) (bvmul e4_dst_stride2 ((_ extract 0 0) e4_max2))))
(define-fun e4_dst_stride4 () (_ BitVec 1) (bvadd e4_dst_delta4 (bvmul e4_dst_stride0 ((_ extract 0 0) e4_max0)) (bvmul e4_dst_stride1 ((_ extract 0 0) e4_max1)) (bvmul e4_dst_stride2 ((_ extract 0 0) e4_max2)) (bvmul e4_dst_stride3 ((_ extract 0 0) e4_max3))))
(define-fun e4_dst_stride5 () (_ BitVec 1) (bvadd e4_dst_delta5 (bvmul e4_dst_stride0 ((_ extract 0 0) e4_max0)) (bvmul e4_dst_stride1 ((_ extract 0 0) e4_max1)) (bvmul e4_dst_stride2 ((_ extract 0 0) e4_max2)) (bvmul e4_dst_stride3 ((_ extract 0 0) e4_max3)) (bvmul e4_dst_stride4 ((_ extract 0 0) e4_max4))))
(define-fun e4_dst_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 1) (bvadd e4_dst_start (bvmul e4_dst_stride0 ((_ extract 0 0) idx0)) (bvmul e4_dst_stride1 ((_ extract 0 0) idx1)) (bvmul e4_dst_stride2 ((_ extract 0 0) idx2)) (bvmul e4_dst_stride3 ((_ extract 0 0) idx3)) (bvmul e4_dst_stride4 ((_ extract 0 0) idx4)) (bvmul e4_dst_stride5 ((_ extract 0 0) idx5))))
(define-fun e4_dst_addr_at ((n (_ BitVec 97))) (_ BitVec 1) (e4_dst_addr (e4_idx0_of n) (e4_idx1_of n) (e4_idx2_of n) (e4_idx3_of n) (e4_idx4_of n) (e4_idx5_of n)))

; ---- controller e5: sram.rw -> tb1.w ----
(define-fun e5_active () Bool (and (= tile_en #b1) (= e5_en #b1)))
(define-fun e5_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e5_max0) (bvule idx1 e5_max1) (bvule idx2 e5_max2) (bvule idx3 e5_max3) (bvule idx4 e5_max4) (bvule idx5 e5_max5)))
(define-fun e5_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e5_max0) (_ bv1 97)))
(define-fun e5_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e5_max1) (_ bv1 97)))
(define-fun e5_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e5_max2) (_ bv1 97)))
(define-fun e5_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e5_max3) (_ bv1 97)))
(define-fun e5_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e5_max4) (_ bv1 97)))
(define-fun e5_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e5_max5) (_ bv1 97)))
(define-fun e5_ops () (_ BitVec 97) (bvmul e5_ext0 e5_ext1 e5_ext2 e5_ext3 e5_ext4 e5_ext5 (_ bv1 97)))
(define-fun e5_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e5_ext0)))
(define-fun e5_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e5_ext0)) e5_ext1)))
(define-fun e5_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e5_ext0 e5_ext1)) e5_ext2)))
(define-fun e5_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e5_ext0 e5_ext1 e5_ext2)) e5_ext3)))
(define-fun e5_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e5_ext0 e5_ext1 e5_ext2 e5_ext3)) e5_ext4)))
(define-fun e5_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e5_ext0 e5_ext1 e5_ext2 e5_ext3 e5_ext4)) e5_ext5)))
(define-fun e5_sched_stride0 () (_ BitVec 16) e5_sched_delta0)
(define-fun e5_sched_stride1 () (_ BitVec 16) (bvadd e5_sched_delta1 (bvmul e5_sched_stride0 e5_max0)))
(define-fun e5_sched_stride2 () (_ BitVec 16) (bvadd e5_sched_delta2 (bvmul e5_sched_stride0 e5_max0) (bvmul e5_sched_stride1 e5_max1)))
(define-fun e5_sched_stride3 () (_ BitVec 16) (bvadd e5_sched_delta3 (bvmul e5_sched_stride0 e5_max0) (bvmul e5_sched_stride1 e5_max1) (bvmul e5_sched_stride2 e5_max2)))
(define-fun e5_sched_stride4 () (_ BitVec 16) (bvadd e5_sched_delta4 (bvmul e5_sched_stride0 e5_max0) (bvmul e5_sched_stride1 e5_max1) (bvmul e5_sched_stride2 e5_max2) (bvmul e5_sched_stride3 e5_max3)))
(define-fun e5_sched_stride5 () (_ BitVec 16) (bvadd e5_sched_delta5 (bvmul e5_sched_stride0 e5_max0) (bvmul e5_sched_stride1 e5_max1) (bvmul e5_sched_stride2 e5_max2) (bvmul e5_sched_stride3 e5_max3) (bvmul e5_sched_stride4 e5_max4)))
(define-fun e5_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e5_sched_start (bvmul e5_sched_stride0 idx0) (bvmul e5_sched_stride1 idx1) (bvmul e5_sched_stride2 idx2) (bvmul e5_sched_stride3 idx3) (bvmul e5_sched_stride4 idx4) (bvmul e5_sched_stride5 idx5)))
(define-fun e5_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e5_cycle (e5_idx0_of n) (e5_idx1_of n) (e5_idx2_of n) (e5_idx3_of n) (e5_idx4_of n) (e5_idx5_of n)))
(define-fun e5_src_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e5_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e5_src_stride0 () (_ BitVec 16) e5_src_delta0)
(define-fun e5_src_stride1 () (_ BitVec 16) (bvadd e5_src_delta1 (bvmul e5_src_stride0 e5_max0)))
(define-fun e5_src_stride2 () (_ BitVec 16) (bvadd e5_src_delta2 (bvmul e5_src_stride0 e5_max0) (bvmul e5_src_stride1 e5_max1)))
(define-fun e5_src_stride3 () (_ BitVec 16) (bvadd e5_src_delta3 (bvmul e5_src_stride0 e5_max0) (bvmul e5_src_stride1 e5_max1) (bvmul e5_src_stride2 e5_max2)))
(define-fun e5_src_stride4 () (_ BitVec 16) (bvadd e5_src_delta4 (bvmul e5_src_stride0 e5_max0) (bvmul e5_src_stride1 e5_max1) (bvmul e5_src_stride2 e5_max2) (bvmul e5_src_stride3 e5_max3)))
(define-fun e5_src_stride5 () (_ BitVec 16) (bvadd e5_src_delta5 (bvmul e5_src_stride0 e5_max0) (bvmul e5_src_stride1 e5_max1) (bvmul e5_src_stride2 e5_max2) (bvmul e5_src_stride3 e5_max3) (bvmul e5_src_stride4 e5_max4)))
(define-fun e5_src_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e5_src_start (bvmul e5_src_stride0 idx0) (bvmul e5_src_stride1 idx1) (bvmul e5_src_stride2 idx2) (bvmul e5_src_stride3 idx3) (bvmul e5_src_stride4 idx4) (bvmul e5_src_stride5 idx5)))
(define-fun e5_src_addr_at ((n (_ BitVec 97))) (_ BitVec 16) (e5_src_addr (e5_idx0_of n) (e5_idx1_of n) (e5_idx2_of n) (e5_idx3_of n) (e5_idx4_of n) (e5_idx5_of n)))
(define-fun e5_src_hit ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (= ((_ extract 15 9) (e5_src_addr idx0 idx1 idx2 idx3 idx4 idx5)) chain_id))
(define-fun e5_dst_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e5_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv1 21)))
(define-fun e5_dst_stride0 () (_ BitVec 1) e5_dst_delta0)
(define-fun e5_dst_stride1 () (_ BitVec 1) (bvadd e5_dst_delta1 (bvmul e5_dst_stride0 ((_ extract 0 0) e5_max0))))
(define-fun e5_dst_stride2 () (_ BitVec 1) (bvadd e5_dst_delta2 (bvmul e5_dst_stride0 ((_ extract 0 0) e5_max0)) (bvmul e5_dst_stride1 ((_ extract 0 0) e5_max1))))
(define-fun e5_dst_stride3 () (_ BitVec 1) (bvadd e5_dst_delta3 (bvmul e5_dst_stride0 ((_ extract 0 0) e5_max0)) (bvmul e5_dst_stride1 ((_ extract 0 0) e5_max1)) (bvmul e5_dst_stride2 ((_ extract 0 0) e5_max2))))
(define-fun e5_dst_stride4 () (_ BitVec 1) (bvadd e5_dst_delta4 (bvmul e5_dst_stride0 ((_ extract 0 0) e5_max0)) (bvmul e5_dst_stride1 ((_ extract 0 0) e5_max1)) (bvmul e5_dst_stride2 ((_ extract 0 0) e5_max2)) (bvmul e5_dst_stride3 ((_ extract 0 0) e5_max3))))
(define-fun e5_dst_stride5 () (_ BitVec 1) (bvadd e5_dst_delta5 (bvmul e5_dst_stride0 ((_ extract 0 0) e5_max0)) (bvmul e5_dst_stride1 ((_ extract 0 0) e5_max1)) (bvmul e5_dst_stride2 ((_ extract 0 0) e5_max2)) (bvmul e5_dst_stride3 ((_ extract 0 0) e5_max3)) (bvmul e5_dst_stride4 ((_ extract 0 0) e5_max4))))
(define-fun e5_dst_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 1) (bvadd e5_dst_start (bvmul e5_dst_stride0 ((_ extract 0 0) idx0)) (bvmul e5_dst_stride1 ((_ extract 0 0) idx1)) (bvmul e5_dst_stride2 ((_ extract 0 0) idx2)) (bvmul e5_dst_stride3 ((_ extract 0 0) idx3)) (bvmul e5_dst_stride4 ((_ extract 0 0) idx4)) (bvmul e5_dst_stride5 ((_ extract 0 0) idx5))))
(define-fun e5_dst_addr_at ((n (_ BitVec 97))) (_ BitVec 1) (e5_dst_addr (e5_idx0_of n) (e5_idx1_of n) (e5_idx2_of n) (e5_idx3_of n) (e5_idx4_of n) (e5_idx5_of n)))

; ---- controller e6: tb0.r -> out0 ----
(define-fun e6_active () Bool (and (= tile_en #b1) (= e6_en #b1)))
(define-fun e6_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e6_max0) (bvule idx1 e6_max1) (bvule idx2 e6_max2) (bvule idx3 e6_max3) (bvule idx4 e6_max4) (bvule idx5 e6_max5)))
(define-fun e6_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e6_max0) (_ bv1 97)))
(define-fun e6_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e6_max1) (_ bv1 97)))
(define-fun e6_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e6_max2) (_ bv1 97)))
(define-fun e6_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e6_max3) (_ bv1 97)))
(define-fun e6_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e6_max4) (_ bv1 97)))
(define-fun e6_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e6_max5) (_ bv1 97)))
(define-fun e6_ops () (_ BitVec 97) (bvmul e6_ext0 e6_ext1 e6_ext2 e6_ext3 e6_ext4 e6_ext5 (_ bv1 97)))
(define-fun e6_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e6_ext0)))
(define-fun e6_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e6_ext0)) e6_ext1)))
(define-fun e6_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e6_ext0 e6_ext1)) e6_ext2)))
(define-fun e6_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e6_ext0 e6_ext1 e6_ext2)) e6_ext3)))
(define-fun e6_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e6_ext0 e6_ext1 e6_ext2 e6_ext3)) e6_ext4)))
(define-fun e6_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e6_ext0 e6_ext1 e6_ext2 e6_ext3 e6_ext4)) e6_ext5)))
(define-fun e6_sched_stride0 () (_ BitVec 16) e6_sched_delta0)
(define-fun e6_sched_stride1 () (_ BitVec 16) (bvadd e6_sched_delta1 (bvmul e6_sched_stride0 e6_max0)))
(define-fun e6_sched_stride2 () (_ BitVec 16) (bvadd e6_sched_delta2 (bvmul e6_sched_stride0 e6_max0) (bvmul e6_sched_stride1 e6_max1)))
(define-fun e6_sched_stride3 () (_ BitVec 16) (bvadd e6_sched_delta3 (bvmul e6_sched_stride0 e6_max0) (bvmul e6_sched_stride1 e6_max1) (bvmul e6_sched_stride2 e6_max2)))
(define-fun e6_sched_stride4 () (_ BitVec 16) (bvadd e6_sched_delta4 (bvmul e6_sched_stride0 e6_max0) (bvmul e6_sched_stride1 e6_max1) (bvmul e6_sched_stride2 e6_max2) (bvmul e6_sched_stride3 e6_max3)))
(define-fun e6_sched_stride5 () (_ BitVec 16) (bvadd e6_sched_delta5 (bvmul e6_sched_stride0 e6_max0) (bvmul e6_sched_stride1 e6_max1) (bvmul e6_sched_stride2 e6_max2) (bvmul e6_sched_stride3 e6_max3) (bvmul e6_sched_stride4 e6_max4)))
(define-fun e6_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e6_sched_start (bvmul e6_sched_stride0 idx0) (bvmul e6_sched_stride1 idx1) (bvmul e6_sched_stride2 idx2) (bvmul e6_sched_stride3 idx3) (bvmul e6_sched_stride4 idx4) (bvmul e6_sched_stride5 idx5)))
(define-fun e6_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e6_cycle (e6_idx0_of n) (e6_idx1_of n) (e6_idx2_of n) (e6_idx3_of n) (e6_idx4_of n) (e6_idx5_of n)))
(define-fun e6_src_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e6_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e6_src_stride0 () (_ BitVec 3) e6_src_delta0)
(define-fun e6_src_stride1 () (_ BitVec 3) (bvadd e6_src_delta1 (bvmul e6_src_stride0 ((_ extract 2 0) e6_max0))))
(define-fun e6_src_stride2 () (_ BitVec 3) (bvadd e6_src_delta2 (bvmul e6_src_stride0 ((_ extract 2 0) e6_max0)) (bvmul e6_src_stride1 ((_ extract 2 0) e6_max1))))
(define-fun e6_src_stride3 () (_ BitVec 3) (bvadd e6_src_delta3 (bvmul e6_src_stride0 ((_ extract 2 0) e6_max0)) (bvmul e6_src_stride1 ((_ extract 2 0) e6_max1)) (bvmul e6_src_stride2 ((_ extract 2 0) e6_max2))))
(define-fun e6_src_stride4 () (_ BitVec 3) (bvadd e6_src_delta4 (bvmul e6_src_stride0 ((_ extract 2 0) e6_max0)) (bvmul e6_src_stride1 ((_ extract 2 0) e6_max1)) (bvmul e6_src_stride2 ((_ extract 2 0) e6_max2)) (bvmul e6_src_stride3 ((_ extract 2 0) e6_max3))))
(define-fun e6_src_stride5 () (_ BitVec 3) (bvadd e6_src_delta5 (bvmul e6_src_stride0 ((_ extract 2 0) e6_max0)) (bvmul e6_src_stride1 ((_ extract 2 0) e6_max1)) (bvmul e6_src_stride2 ((_ extract 2 0) e6_max2)) (bvmul e6_src_stride3 ((_ extract 2 0) e6_max3)) (bvmul e6_src_stride4 ((_ extract 2 0) e6_max4))))
(define-fun e6_src_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 3) (bvadd e6_src_start (bvmul e6_src_stride0 ((_ extract 2 0) idx0)) (bvmul e6_src_stride1 ((_ extract 2 0) idx1)) (bvmul e6_src_stride2 ((_ extract 2 0) idx2)) (bvmul e6_src_stride3 ((_ extract 2 0) idx3)) (bvmul e6_src_stride4 ((_ extract 2 0) idx4)) (bvmul e6_src_stride5 ((_ extract 2 0) idx5))))
(define-fun e6_src_addr_at ((n (_ BitVec 97))) (_ BitVec 3) (e6_src_addr (e6_idx0_of n) (e6_idx1_of n) (e6_idx2_of n) (e6_idx3_of n) (e6_idx4_of n) (e6_idx5_of n)))

; ---- controller e7: tb1.r -> out1 ----
(define-fun e7_active () Bool (and (= tile_en #b1) (= e7_en #b1)))
(define-fun e7_in_domain ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) Bool (and true (bvule idx0 e7_max0) (bvule idx1 e7_max1) (bvule idx2 e7_max2) (bvule idx3 e7_max3) (bvule idx4 e7_max4) (bvule idx5 e7_max5)))
(define-fun e7_ext0 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e7_max0) (_ bv1 97)))
(define-fun e7_ext1 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e7_max1) (_ bv1 97)))
(define-fun e7_ext2 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e7_max2) (_ bv1 97)))
(define-fun e7_ext3 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e7_max3) (_ bv1 97)))
(define-fun e7_ext4 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e7_max4) (_ bv1 97)))
(define-fun e7_ext5 () (_ BitVec 97) (bvadd ((_ zero_extend 81) e7_max5) (_ bv1 97)))
(define-fun e7_ops () (_ BitVec 97) (bvmul e7_ext0 e7_ext1 e7_ext2 e7_ext3 e7_ext4 e7_ext5 (_ bv1 97)))
(define-fun e7_idx0_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem n e7_ext0)))
(define-fun e7_idx1_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e7_ext0)) e7_ext1)))
(define-fun e7_idx2_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e7_ext0 e7_ext1)) e7_ext2)))
(define-fun e7_idx3_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e7_ext0 e7_ext1 e7_ext2)) e7_ext3)))
(define-fun e7_idx4_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e7_ext0 e7_ext1 e7_ext2 e7_ext3)) e7_ext4)))
(define-fun e7_idx5_of ((n (_ BitVec 97))) (_ BitVec 16) ((_ extract 15 0) (bvurem (bvudiv n (bvmul (_ bv1 97) e7_ext0 e7_ext1 e7_ext2 e7_ext3 e7_ext4)) e7_ext5)))
(define-fun e7_sched_stride0 () (_ BitVec 16) e7_sched_delta0)
(define-fun e7_sched_stride1 () (_ BitVec 16) (bvadd e7_sched_delta1 (bvmul e7_sched_stride0 e7_max0)))
(define-fun e7_sched_stride2 () (_ BitVec 16) (bvadd e7_sched_delta2 (bvmul e7_sched_stride0 e7_max0) (bvmul e7_sched_stride1 e7_max1)))
(define-fun e7_sched_stride3 () (_ BitVec 16) (bvadd e7_sched_delta3 (bvmul e7_sched_stride0 e7_max0) (bvmul e7_sched_stride1 e7_max1) (bvmul e7_sched_stride2 e7_max2)))
(define-fun e7_sched_stride4 () (_ BitVec 16) (bvadd e7_sched_delta4 (bvmul e7_sched_stride0 e7_max0) (bvmul e7_sched_stride1 e7_max1) (bvmul e7_sched_stride2 e7_max2) (bvmul e7_sched_stride3 e7_max3)))
(define-fun e7_sched_stride5 () (_ BitVec 16) (bvadd e7_sched_delta5 (bvmul e7_sched_stride0 e7_max0) (bvmul e7_sched_stride1 e7_max1) (bvmul e7_sched_stride2 e7_max2) (bvmul e7_sched_stride3 e7_max3) (bvmul e7_sched_stride4 e7_max4)))
(define-fun e7_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 16) (bvadd e7_sched_start (bvmul e7_sched_stride0 idx0) (bvmul e7_sched_stride1 idx1) (bvmul e7_sched_stride2 idx2) (bvmul e7_sched_stride3 idx3) (bvmul e7_sched_stride4 idx4) (bvmul e7_sched_stride5 idx5)))
(define-fun e7_cycle_at ((n (_ BitVec 97))) (_ BitVec 16) (e7_cycle (e7_idx0_of n) (e7_idx1_of n) (e7_idx2_of n) (e7_idx3_of n) (e7_idx4_of n) (e7_idx5_of n)))
(define-fun e7_src_cycle ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 21) (bvadd ((_ zero_extend 5) (e7_cycle idx0 idx1 idx2 idx3 idx4 idx5)) (_ bv0 21)))
(define-fun e7_src_stride0 () (_ BitVec 3) e7_src_delta0)
(define-fun e7_src_stride1 () (_ BitVec 3) (bvadd e7_src_delta1 (bvmul e7_src_stride0 ((_ extract 2 0) e7_max0))))
(define-fun e7_src_stride2 () (_ BitVec 3) (bvadd e7_src_delta2 (bvmul e7_src_stride0 ((_ extract 2 0) e7_max0)) (bvmul e7_src_stride1 ((_ extract 2 0) e7_max1))))
(define-fun e7_src_stride3 () (_ BitVec 3) (bvadd e7_src_delta3 (bvmul e7_src_stride0 ((_ extract 2 0) e7_max0)) (bvmul e7_src_stride1 ((_ extract 2 0) e7_max1)) (bvmul e7_src_stride2 ((_ extract 2 0) e7_max2))))
(define-fun e7_src_stride4 () (_ BitVec 3) (bvadd e7_src_delta4 (bvmul e7_src_stride0 ((_ extract 2 0) e7_max0)) (bvmul e7_src_stride1 ((_ extract 2 0) e7_max1)) (bvmul e7_src_stride2 ((_ extract 2 0) e7_max2)) (bvmul e7_src_stride3 ((_ extract 2 0) e7_max3))))
(define-fun e7_src_stride5 () (_ BitVec 3) (bvadd e7_src_delta5 (bvmul e7_src_stride0 ((_ extract 2 0) e7_max0)) (bvmul e7_src_stride1 ((_ extract 2 0) e7_max1)) (bvmul e7_src_stride2 ((_ extract 2 0) e7_max2)) (bvmul e7_src_stride3 ((_ extract 2 0) e7_max3)) (bvmul e7_src_stride4 ((_ extract 2 0) e7_max4))))
(define-fun e7_src_addr ((idx0 (_ BitVec 16)) (idx1 (_ BitVec 16)) (idx2 (_ BitVec 16)) (idx3 (_ BitVec 16)) (idx4 (_ BitVec 16)) (idx5 (_ BitVec 16))) (_ BitVec 3) (bvadd e7_src_start (bvmul e7_src_stride0 ((_ extract 2 0) idx0)) (bvmul e7_src_stride1 ((_ extract 2 0) idx1)) (bvmul e7_src_stride2 ((_ extract 2 0) idx2)) (bvmul e7_src_stride3 ((_ extract 2 0) idx3)) (bvmul e7_src_stride4 ((_ extract 2 0) idx4)) (bvmul e7_src_stride5 ((_ extract 2 0) idx5))))
(define-fun e7_src_addr_at ((n (_ BitVec 97))) (_ BitVec 3) (e7_src_addr (e7_idx0_of n) (e7_idx1_of n) (e7_idx2_of n) (e7_idx3_of n) (e7_idx4_of n) (e7_idx5_of n)))

; ---- table look-up: in0 addresses sram.rw, out0 delivers the word ----
; Nothing to solve: lookup_en and lookup_wr (feature 9, role SET0) stay 0 in the
; configuration solver, which never writes them; a bus write of lookup_wr loads a
; table word (lake/COLLATERAL.md, "Table look-up").
