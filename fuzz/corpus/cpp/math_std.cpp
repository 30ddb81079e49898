using namespace std;
int k = (int) sqrt(1600.0f) + (int) std::pow(2.0f, 3) + (int) floor(2.5);
