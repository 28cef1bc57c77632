#ifndef SHAPES_H
#define SHAPES_H
namespace geo {
struct Shape {
	virtual double area(int steps) const = 0;
	virtual ~Shape() {}
};
struct Circle : Shape {
	double r;
	explicit Circle(double radius) : r(radius) {}
	double area(int steps) const override;
};
struct Square : Shape {
	double side;
	explicit Square(double s) : side(s) {}
	double area(int steps) const override;
};
struct Vec {
	double x, y;
};
Vec operator+(const Vec &a, const Vec &b);
} // namespace geo
#endif
