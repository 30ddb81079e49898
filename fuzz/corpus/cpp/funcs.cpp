Func b[2];
for (int i = 0; i < 2; i++) b[i] = Func("blur" + std::to_string(i));
b[0](x, y) = in(x, y);
b[1](x, y) = b[0](x, y) + 1;
int k = 2;
