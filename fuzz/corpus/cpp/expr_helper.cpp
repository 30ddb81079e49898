Expr mul_q8(Expr a, Expr b) { return (a * b) >> 8; }
Expr e = mul_q8(u16(x), u16(3));
int k = std::min(3, std::max(1, 2));
