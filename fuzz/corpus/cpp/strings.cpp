std::string s = "ab";
int len(std::string t) { return 2; }
int k = len(s + "c" + std::to_string(3));
