# A PE (x0 y1 of cgra_4x4) counting: add with a constant 1 and its output registered,
# its output routed back into its own data0 (written for cgra_4x4's config.map).
reset
write 02000001 00010000
write 00000001 00100000
write 01000001 00002000
write 00800000 00000040
write 00800001 00000003
write 00800100 00000200
write 00800101 00000000
write 01800000 00000000
write 01800001 00000003
write 01800100 00000000
write 01800101 00000000
step
print x0_y1_res
step
print x0_y1_res
step
print x0_y1_res
step
print x0_y1_res
step
print x0_y1_res
step
print x0_y1_res
step
print x0_y1_res
step
print x0_y1_res
