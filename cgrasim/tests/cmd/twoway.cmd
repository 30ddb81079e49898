# Two PEs (x0 y1, x1 y1 of cgra_4x4) each feeding the other, with no combinational loop:
# A's 1-bit output into B's bit0, B's 16-bit output into A's data0; each output reads
# only the other inputs (written for cgra_4x4's config.map).
reset
write 00800001 00300000
write 01800001 00000002
write 01800101 00000c00
write 00800101 00003000
write 00000001 00015540
write 00000101 00015540
step 3
print x0_y1_res
print x1_y1_res_p
