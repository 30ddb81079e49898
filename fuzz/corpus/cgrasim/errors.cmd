drive io_in_x0_16 in.hex
record io_out_x1_16 o.hex
record io_out_x1_16 o.hex
run 5
poke
