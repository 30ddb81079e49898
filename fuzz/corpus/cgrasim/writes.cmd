reset 3
write 00800000 00000001
step 4
expect-all 0
check
flush
step
