int taps[3] = {1, 2, 1};
int k = 0;
for (int i = 0; i < 3; i++)
  k += taps[i] * (i + 1);
