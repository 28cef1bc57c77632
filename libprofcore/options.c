/* options.c - the string key/value bag given to loaders and reports. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pc_options {
	char **keys;
	char **values;
	size_t n, cap, vcap;
};

pc_options *pc_options_new(void)
{
	return calloc(1, sizeof(pc_options));
}

void pc_options_free(pc_options *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++) {
		free(o->keys[i]);
		free(o->values[i]);
	}
	free(o->keys);
	free(o->values);
	free(o);
}

static ssize_t find(const pc_options *o, const char *key)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return (ssize_t)i;
	return -1;
}

int pc_options_set(pc_options *o, const char *key, const char *value)
{
	if (!o || !key || !*key)
		return PC_EUSAGE;
	ssize_t i = find(o, key);
	if (!value) {
		if (i >= 0) {
			free(o->keys[i]);
			free(o->values[i]);
			memmove(o->keys + i, o->keys + i + 1,
				(o->n - (size_t)i - 1) * sizeof *o->keys);
			memmove(o->values + i, o->values + i + 1,
				(o->n - (size_t)i - 1) * sizeof *o->values);
			o->n--;
		}
		return PC_OK;
	}
	char *v = pc_strdup(value);
	if (!v)
		return PC_ENOMEM;
	if (i >= 0) {
		free(o->values[i]);
		o->values[i] = v;
		return PC_OK;
	}
	char *k = pc_strdup(key);
	if (!k || pc_grow((void **)&o->keys, &o->cap, o->n + 1, sizeof(char *)) ||
	    pc_grow((void **)&o->values, &o->vcap, o->n + 1, sizeof(char *))) {
		free(k);
		free(v);
		return PC_ENOMEM;
	}
	o->keys[o->n] = k;
	o->values[o->n] = v;
	o->n++;
	return PC_OK;
}

int pc_options_parse(pc_options *o, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq)
		return pc_options_set(o, assignment, "1");
	if (eq == assignment)
		return PC_EUSAGE;
	char *k = pc_strndup(assignment, (size_t)(eq - assignment));
	if (!k)
		return PC_ENOMEM;
	int r = pc_options_set(o, k, eq + 1);
	free(k);
	return r;
}

const char *pc_options_get(const pc_options *o, const char *key)
{
	ssize_t i = find(o, key);
	return i >= 0 ? o->values[i] : NULL;
}

int pc_options_get_u64(const pc_options *o, const char *key, uint64_t *out)
{
	const char *v = pc_options_get(o, key);
	if (!v)
		return 0;
	char *end;
	errno = 0;
	if (*v == '-' || *v == '\0')
		return PC_EUSAGE;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || *end)
		return PC_EUSAGE;
	*out = (uint64_t)x;
	return 1;
}

int pc_options_get_double(const pc_options *o, const char *key, double *out)
{
	const char *v = pc_options_get(o, key);
	if (!v)
		return 0;
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || *end || end == v)
		return PC_EUSAGE;
	*out = x;
	return 1;
}

size_t pc_options_count(const pc_options *o)
{
	return o ? o->n : 0;
}

const char *pc_options_key_at(const pc_options *o, size_t i)
{
	return o && i < o->n ? o->keys[i] : NULL;
}
