/* The regular expression engine (libprofcore/regex.c): exact captures,
 * the leftmost-longest rule, every refused construct with its message,
 * and hostile patterns that must finish fast. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "pc_regex.h"

static pc_re *comp(const char *pat, unsigned flags)
{
	pc_re *re;
	char err[256];
	int r = pc_re_compile(pat, strlen(pat), flags, &re, err, sizeof err);
	if (r)
		fail_msg("%s: %s", pat, err);
	return re;
}

/* Matches pat against text; want is "so,eo so,eo ..." for groups 0..n
 * ("-" for an unset group) or NULL for no match. */
static void check(const char *pat, const char *text, const char *want)
{
	pc_re *re = comp(pat, PC_RE_NAMED);
	pc_re_span sub[8];
	int r = pc_re_exec(re, NULL, text, strlen(text), sub, 8);
	char got[256] = "";
	if (r == 1) {
		size_t n = pc_re_groups(re) + 1, k = 0;
		for (size_t i = 0; i < n && i < 8; i++) {
			if (sub[i].so == PC_RE_UNSET)
				k += (size_t)snprintf(got + k, sizeof got - k, "%s-", i ? " " : "");
			else
				k += (size_t)snprintf(got + k, sizeof got - k, "%s%zu,%zu", i ? " " : "",
						      sub[i].so, sub[i].eo);
		}
	}
	if (!want) {
		if (r != 0)
			fail_msg("/%s/ on \"%s\": matched (%s), expected no match", pat, text, got);
	} else if (r != 1 || strcmp(got, want) != 0) {
		fail_msg("/%s/ on \"%s\": got %s, expected %s", pat, text, r == 1 ? got : "no match",
			 want);
	}
	/* the yes/no form agrees */
	assert_int_equal(pc_re_exec(re, NULL, text, strlen(text), NULL, 0), want != NULL);
	pc_re_free(re);
}

static void refused(const char *pat, unsigned flags, const char *msg)
{
	pc_re *re = (pc_re *)&re;
	char err[256];
	assert_int_equal(pc_re_compile(pat, strlen(pat), flags, &re, err, sizeof err),
			 PC_EFORMAT);
	assert_null(re);
	if (strcmp(err, msg) != 0)
		fail_msg("/%s/: got \"%s\", expected \"%s\"", pat, err, msg);
}

static void captures(void **state)
{
	(void)state;
	check("^(?P<name>[^ ]+) +(?P<class>[^ ]*) *$", "CODE   DATA ", "0,12 0,4 7,11");
	check("^(?P<name>[^ ]+) +(?P<class>[^ ]*) *$", "CODE   ", "0,7 0,4 7,7");
	/* MS LINK publics: the 7-character marker field */
	check("^ (?P<address>[0-9A-F]{4}:[0-9A-F]{4})(?P<marker>.{7})(?P<name>[^ ].*)$",
	      " 0000:000F  Abs  CMDTBL_SIZE", "0,28 1,10 10,17 17,28");
	/* nm: the optional size column */
	check("^([0-9a-f]+) (?:([0-9a-f]+) )?([A-Za-z]) (.+)$", "00001234 00000010 T main",
	      "0,24 0,8 9,17 18,19 20,24");
	check("^([0-9a-f]+) (?:([0-9a-f]+) )?([A-Za-z]) (.+)$", "00001234 T main",
	      "0,15 0,8 - 9,10 11,15");
	/* Hatari's field regexp */
	check("^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$", "$00e00030 :  move.l  #$1,d0  0.23% (12, 48, 0)",
	      "0,46 1,9 36,45");
	/* a group that takes no part is unset; a repeated one keeps its last turn */
	check("(a)|b", "b", "0,1 -");
	check("(a|b)+", "xabba", "1,5 4,5");
	check("x(a*)y", "xy", "0,2 1,1");
	/* a repeated group that matches empty takes one empty turn (glibc) */
	check("(b?)*", "caacc", "0,0 0,0");
	check("x(a*)*y", "xy", "0,2 1,1");
}

static void leftmost_longest(void **state)
{
	(void)state;
	check("a|ab", "xab", "1,3");
	check("b+", "aabbbc", "2,5");
	check("(a|ab)(c|bcd)", "abcd", "0,4 0,1 1,4"); /* as glibc's regexec */
	check("x*", "aaa", "0,0");
	check("(wee|week)(knights|night)", "weeknights", "0,10 0,3 3,10");
	check("", "abc", "0,0");
	check("a", "", NULL);
	check("^abc", "xabc", NULL);
	check("(^a|b)c", "xbc", "1,3 1,2");
	check("(^a|b)c", "ac", "0,2 0,1");
	check("a$b", "a$b", NULL);
	check("a\\$b", "a$b", "0,3");
	check("ab$", "abab", "2,4");
}

static void classes(void **state)
{
	(void)state;
	check("[[:digit:]]+", "ab123c", "2,5");
	check("[^a-c]+", "abcxyza", "3,6");
	check("[]a]+", "x]a]", "1,4");
	check("[a-]+", "x-a-", "1,4");
	check("[\\d]+", "1\\dd", "1,4"); /* a backslash is literal inside [] */
	check("\\d+\\s\\w+", "x 42 a_1", "2,8");
	check("\\D\\S\\W", "1a1-", "1,4");
	check("[[:upper:][:punct:]]+", "aB.;c", "1,4");
	check("[[:xdigit:]]+", "xFfa9g", "1,5");
	check("[[:space:]]", "a\tb", "1,2");
	check("[^[:alnum:]_]", "a_b-c", "3,4");
	check(".", "\x80", "0,1");
	check("[\x80-\xff]+", "a\xc3\xa9z", "1,3");
	check("a.c", "abc", "0,3");
	/* escaped punctuation is literal */
	check("\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\\\\\^", "x.*+?()[]{}|\\^", "1,14");
	check("[|]", "a|b", "1,2");
	check("a{2,3}", "aaaa", "0,3");
	check("^a{2}$", "aa", "0,2");
	check("^a{2}$", "aaa", NULL);
	check("^a{2,}$", "aaaaa", "0,5");
	check("^(ab){0}c", "c", "0,1 -");
	check("^(?:ab){1,2}$", "abab", "0,4");
	check("^x?y+z*$", "yyzz", "0,4");
}

static void names(void **state)
{
	(void)state;
	pc_re *re = comp("(?P<name>a)(b)(?<size>c)(?:d)", PC_RE_NAMED);
	assert_int_equal(pc_re_groups(re), 3);
	assert_string_equal(pc_re_group_name(re, 1), "name");
	assert_null(pc_re_group_name(re, 2));
	assert_string_equal(pc_re_group_name(re, 3), "size");
	assert_null(pc_re_group_name(re, 4));
	assert_null(pc_re_group_name(re, 0));
	/* size: SAVE 0, 3 x (SAVE, CHAR, SAVE), CHAR, SAVE 1, MATCH */
	assert_int_equal(pc_re_size(re), 13);
	/* fewer spans than groups: the rest are not computed */
	pc_re_span sub[2];
	assert_int_equal(pc_re_exec(re, NULL, "xabcd", 5, sub, 2), 1);
	assert_int_equal(sub[0].so, 1);
	assert_int_equal(sub[0].eo, 5);
	assert_int_equal(sub[1].so, 1);
	assert_int_equal(sub[1].eo, 2);
	pc_re_free(re);
}

static void refusals(void **state)
{
	(void)state;
	refused("([", PC_RE_NAMED, "unterminated bracket expression");
	refused("[[:alpha:", 0, "unterminated character class");
	refused("[[:foo:]]", 0, "unknown character class [:foo:]");
	refused("[[.a.]]", 0, "collating elements [. .] and equivalence classes [= =] are not supported");
	refused("[z-a]", 0, "invalid range z-a in a bracket expression");
	refused("[[:digit:]-z]", 0, "a range cannot start with a character class");
	refused("(?P<x", PC_RE_NAMED, "unterminated group name");
	refused("(?P<>x)", PC_RE_NAMED, "empty group name");
	refused("(?=x)", PC_RE_NAMED, "unsupported (? construct (only (?:...) and (?P<name>...))");
	refused("(?:x)", 0, "'(?' constructs are not supported");
	refused("a**", 0, "stacked quantifiers ('*' after '*') are not supported");
	refused("a+?", 0, "stacked quantifiers ('?' after '+') are not supported");
	refused("a{2}*", 0, "stacked quantifiers ('*' after '{') are not supported");
	refused("*a", 0, "'*' has nothing to repeat");
	refused("(+a)", 0, "'+' has nothing to repeat");
	refused("a|?", 0, "'?' has nothing to repeat");
	refused("{1}", 0, "'{' has nothing to repeat (write a literal { as \\{)");
	refused("^*", 0, "'*' cannot follow an anchor");
	refused("a{", 0, "'{' must start a count {m}, {m,} or {m,n} (write a literal { as \\{)");
	refused("a{x}", 0, "'{' must start a count {m}, {m,} or {m,n} (write a literal { as \\{)");
	refused("a{1,2", 0, "'{' must start a count {m}, {m,} or {m,n} (write a literal { as \\{)");
	refused("a{3,2}", 0, "repetition count {3,2}: the maximum is below the minimum");
	refused("a{1001}", 0, "repetition count above 1000");
	refused("(a)\\1", 0, "unsupported escape \\1 (back-references and letter escapes other than \\d \\s \\w are not supported)");
	refused("\\bx", 0, "unsupported escape \\b (back-references and letter escapes other than \\d \\s \\w are not supported)");
	refused("ab\\", 0, "trailing backslash");
	refused("(ab", 0, "unmatched '(' (no ')')");
	refused("ab)", 0, "unmatched ')'");
}

static double seconds_since(clock_t t0)
{
	return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/* Patterns that take exponential time in a backtracker or blow up a DFA
 * finish in time linear in the text; sizes beyond the limits are refused. */
static void hostile(void **state)
{
	(void)state;
	size_t n = 100000;
	char *text = malloc(n + 2);
	memset(text, 'a', n);
	text[n] = 0;
	static const char *const slow[] = {"(a*)*b", "(a|a)*b", "((a+)+)+b", "(a|aa)*$x",
					   "(.*)*(.*)*(.*)*c", "^(a?){30}a{30}b"};
	pc_re_scratch sc = {NULL, 0, NULL};
	for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++) {
		pc_re *re = comp(slow[i], 0);
		pc_re_span sub[4];
		clock_t t0 = clock();
		assert_int_equal(pc_re_exec(re, &sc, text, n, sub, 4), 0);
		double dt = seconds_since(t0);
		if (dt > 2.0)
			fail_msg("/%s/ on %zu bytes took %.2f s", slow[i], n, dt);
		pc_re_free(re);
	}
	/* a match at the very end, with captures */
	text[n] = 'b';
	text[n + 1] = 0;
	pc_re *re = comp("(a*)*b", 0);
	pc_re_span sub[2];
	assert_int_equal(pc_re_exec(re, &sc, text, n + 1, sub, 2), 1);
	assert_int_equal(sub[0].so, 0);
	assert_int_equal(sub[0].eo, n + 1);
	assert_int_equal(sub[1].so, 0);
	assert_int_equal(sub[1].eo, n);
	pc_re_free(re);
	pc_re_scratch_free(&sc);
	free(text);

	/* deep nesting, huge counted repetition, too many groups */
	char deep[1024] = "";
	for (int i = 0; i < 101; i++)
		strcat(deep, "(?:");
	strcat(deep, "a");
	for (int i = 0; i < 101; i++)
		strcat(deep, ")");
	refused(deep, PC_RE_NAMED, "groups nested deeper than 100 levels");
	refused(deep + 3, PC_RE_NAMED, "unmatched ')'"); /* 100 opened, 101 closed */
	deep[strlen(deep) - 1] = 0;
	re = comp(deep + 3, PC_RE_NAMED); /* 100 levels are fine */
	assert_int_equal(pc_re_exec(re, NULL, "xa", 2, NULL, 0), 1);
	pc_re_free(re);
	refused("(a{1000}){1000}", 0,
		"expression too large (more than 5000 instructions once repetitions are expanded)");
	refused("((((a{10}){10}){10}){10})", 0,
		"expression too large (more than 5000 instructions once repetitions are expanded)");
	char many[256] = "";
	for (int i = 0; i < PC_RE_MAX_GROUPS + 1; i++)
		strcat(many, "(a)");
	refused(many, 0, "too many groups (at most 40)");
	many[strlen(many) - 3] = 0;
	re = comp(many, 0);
	assert_int_equal(pc_re_groups(re), PC_RE_MAX_GROUPS);
	pc_re_free(re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(captures), cmocka_unit_test(leftmost_longest),
		cmocka_unit_test(classes),  cmocka_unit_test(names),
		cmocka_unit_test(refusals), cmocka_unit_test(hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
