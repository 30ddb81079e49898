int16_t m[2][3] = {{1, 2, 3}, {4, 5, 6}};
int k = 0;
for (int i = 0; i < 2; i++) { for (int j = 0; j < 3; j++) { k += m[i][j]; } }
