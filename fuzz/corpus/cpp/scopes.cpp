int k = 1;
{ int k2 = 2; { int k = 3; k2 += k; } k += k2; }
