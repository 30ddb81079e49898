const uint8_t lo = 200;
int16_t m = 40000;
unsigned u = 5;
bool b = lo > 3;
auto k = b ? m + u : 0;
