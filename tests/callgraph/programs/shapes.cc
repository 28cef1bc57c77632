/* A C++ program for g++ -pg: virtual calls forming a cycle
 * (Square::visit/Circle::visit), function templates forming two cycles
 * (ping/pong<long>, <double>), a namespaced self-recursive function and
 * standard containers.  Built and run by check_real_programs.py. */
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <memory>
#include <map>
#include <string>

volatile unsigned long sink;
static void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }

struct Shape {
	virtual ~Shape() {}
	virtual double area() const = 0;
	virtual int visit(int depth) const = 0;
};
struct Square : Shape {
	double s;
	explicit Square(double s) : s(s) {}
	double area() const override { spin(300); return s * s; }
	int visit(int depth) const override;
};
struct Circle : Shape {
	double r;
	explicit Circle(double r) : r(r) {}
	double area() const override { spin(500); return 3.14159 * r * r; }
	int visit(int depth) const override;
};
static std::vector<std::unique_ptr<Shape>> all;
/* a cycle through virtual calls */
int Square::visit(int depth) const { return depth <= 0 ? 0 : all[depth % all.size()]->visit(depth - 1) + 1; }
int Circle::visit(int depth) const { return depth <= 0 ? 0 : all[(depth * 3) % all.size()]->visit(depth - 1) + 2; }

template <typename T> struct Acc {
	T total{};
	void add(T v) { total += v; }
	T get() const { return total; }
};
template <typename T> T twice(T v) { return v + v; }
template <typename T> T ping(T v, int n);
template <typename T> T pong(T v, int n) { return n <= 0 ? v : ping<T>(twice(v), n - 1); }
template <typename T> T ping(T v, int n) { return n <= 0 ? v : pong<T>(v, n - 1); }

namespace deep { namespace inner {
int rec(int n) { return n <= 1 ? 1 : rec(n - 1) + rec(n - 2); }
} }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;
	for (int i = 0; i < 8; i++) {
		if (i % 3) all.emplace_back(new Square(i));
		else all.emplace_back(new Circle(i));
	}
	Acc<double> ad; Acc<long> al;
	std::map<int, std::string> m;
	for (int r = 0; r < n; r++) {
		for (auto &s : all) ad.add(s->area());
		al.add(all[0]->visit(r % 17));
		al.add(ping<long>(r, r % 9));
		ad.add(ping<double>(r, r % 5));
		al.add(deep::inner::rec(15));
		m[r % 10] = std::to_string(r);
	}
	std::printf("%g %ld %zu\n", ad.get(), al.get(), m.size());
	return 0;
}
