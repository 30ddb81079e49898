int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int k = fact(5);
