float sigma = 1.5f;
double w = exp(-1.0 / (2 * sigma * sigma));
int k = (int) (w * 256);
