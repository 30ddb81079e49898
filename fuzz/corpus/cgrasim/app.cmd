reset
bitstream cfg.bs
flush
set io_in_x0_16 0x1234
expect io_out_x1_16 0
check first
record io_out_x1_16 out.hex
run 20
print x1_y1_data0
read 00000001 0
