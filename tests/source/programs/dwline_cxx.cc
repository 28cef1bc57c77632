// A C++ program for tests/source/check_dwline.py: namespaces, member
// functions, templates and the standard library's inline code (DIEs with
// DW_AT_specification and DW_AT_abstract_origin, linkage names, many
// inlined subroutines from many header files).
#include <algorithm>
#include <string>
#include <vector>

namespace ns {
struct S {
	int v;
	explicit S(int x) : v(x) {}
	int get() const { return v * 2; }
};
} // namespace ns

template <typename T> T acc(const std::vector<T> &v)
{
	T s{};
	for (const auto &x : v)
		s += x;
	return s;
}

int main(int argc, char **)
{
	std::vector<int> v;
	for (int i = 0; i < argc * 100; i++)
		v.push_back(ns::S(i).get());
	std::sort(v.begin(), v.end());
	std::string s("x");
	return acc(v) + static_cast<int>(s.size());
}
