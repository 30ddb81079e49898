int k = 0;
for (int i = 10; i > 0; i -= 3) if (i % 2) k++; else k--;
