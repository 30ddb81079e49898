void inc(int &n) { n += 1; }
int k = 1;
inc(k);
inc(k);
