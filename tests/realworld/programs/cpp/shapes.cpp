// A small C++ program for the live corpus (tests/realworld/check_programs.py):
// namespaces, class and function templates, virtual functions, a lambda,
// operators and a static initializer, built with g++ -O1 -g -pg so that
// gprof and profcat print demangled names of every kind.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "shapes.h"

namespace geo {

static std::vector<std::string> names;
static struct registrar {
	registrar() { names.push_back("circle"); names.push_back("square"); }
} reg;

double Circle::area(int steps) const
{
	double s = 0;
	for (int i = 1; i <= steps; i++)
		s += r * r * 3.14159 / (double)i;
	return s;
}

double Square::area(int steps) const
{
	double s = 0;
	for (int i = 1; i <= steps; i++)
		s += side * side / (double)(i * i);
	return s;
}

Vec operator+(const Vec &a, const Vec &b)
{
	return Vec{a.x + b.x, a.y + b.y};
}

} // namespace geo

namespace num {

template <typename T> __attribute__((noinline)) T dot(const std::vector<T> &a,
						      const std::vector<T> &b)
{
	T s = T();
	for (size_t i = 0; i < a.size(); i++)
		s += a[i] * b[i];
	return s;
}

template <typename T, int N> struct Poly {
	T c[N];
	__attribute__((noinline)) T eval(T x) const
	{
		T s = T();
		for (int i = N - 1; i >= 0; i--)
			s = s * x + c[i];
		return s;
	}
};

} // namespace num

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 3000;
	std::vector<std::unique_ptr<geo::Shape>> shapes;
	shapes.emplace_back(new geo::Circle(2.0));
	shapes.emplace_back(new geo::Square(3.0));
	std::vector<double> a(4000, 1.5), b(4000, 0.5);
	std::vector<long> la(4000, 3), lb(4000, 7);
	num::Poly<double, 8> pd{{1, 2, 3, 4, 5, 6, 7, 8}};
	num::Poly<float, 5> pf{{1, 2, 3, 4, 5}};
	auto accumulate = [&](int k) {
		double t = 0;
		for (auto &s : shapes)
			t += s->area(k);
		return t;
	};
	double total = 0;
	geo::Vec v{0, 0};
	for (int r = 0; r < rounds; r++) {
		total += accumulate(30000);
		total += num::dot(a, b);
		total += (double)num::dot(la, lb);
		for (int i = 0; i < 2000; i++) {
			total += pd.eval(0.001 * i);
			total += pf.eval(0.002f * (float)i);
			v = v + geo::Vec{1, 2};
		}
	}
	std::printf("%s %g %g\n", geo::names[0].c_str(), total, v.x);
	return 0;
}
