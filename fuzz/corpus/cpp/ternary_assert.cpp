int stride = 2;
assert(stride >= 1 && "stride");
int k = stride == 2 ? 7 : 9;
