#!/bin/sh
# The Python package as users install it (docs/python.md ("Python")): `pip install .`
# into a fresh venv, offline, then the Python test suite against that
# installed package from another directory (no PYTHONPATH, no
# PROFCORE_LIBRARY).  Needs build/ (scripts/test.sh) for profcat and the
# test helpers.  Debian's python3 and python3-mesonpy build the wheel:
# --no-build-isolation uses them instead of downloading meson-python.
set -e
cd "$(dirname "$0")/.."
repo=$(pwd)
py=/usr/bin/python3
venv=$repo/build/venv
rm -rf "$venv"
"$py" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --no-build-isolation --no-index --quiet "$repo"
rm -f "$repo/.mesonpy-native-file.ini"
cd "$repo/build"   # not the checkout: the import must find the installed package
env -u PYTHONPATH -u PROFCORE_LIBRARY -u LD_LIBRARY_PATH \
	"$venv/bin/python" -c 'import profcore; print("venv-test: profcore", profcore.__version__, "from", profcore.library_path())'
exec env -u PYTHONPATH -u PROFCORE_LIBRARY -u LD_LIBRARY_PATH \
	PC_INSTALLED=1 PC_SOURCE_ROOT="$repo" PROFCAT="$repo/build/cli/profcat" \
	PC_TICKS_PLUGIN="$repo/build/tests/python/ticks.so" \
	PC_STRUCT_LAYOUT="$repo/build/tests/python/struct_layout" \
	PYTHONDONTWRITEBYTECODE=1 \
	"$venv/bin/python" "$repo/tests/python/test_profcore.py"
