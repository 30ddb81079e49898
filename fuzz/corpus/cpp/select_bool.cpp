bool invert = false;
int c = 3;
Expr m = select(invert, u16(x), u16(y)) + select(c, u16(1), u16(2));
int k = 0;
