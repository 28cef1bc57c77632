"""pip's build backend for profcore (pyproject.toml): meson-python's.

When the Python that runs pip has no meson-python (a pyenv or conda
python3 with --no-build-isolation, where Debian's python3-mesonpy belongs
to /usr/bin/python3), pip would print a traceback ending in "No module
named 'mesonpy'"; this says so in one line and names the interpreter.
"""
import sys

try:
    from mesonpy import (build_sdist, build_wheel,  # noqa: F401
                         get_requires_for_build_sdist,
                         get_requires_for_build_wheel)
    try:  # meson-python >= 0.13 builds editable wheels too
        from mesonpy import build_editable, get_requires_for_build_editable  # noqa: F401
    except ImportError:
        pass
except ImportError:
    sys.stderr.write(
        "profcore: meson-python is not installed for %s (Python %d.%d): "
        "Debian's python3-mesonpy is for /usr/bin/python3 (make the venv "
        "with /usr/bin/python3 -m venv --system-site-packages), or drop "
        "--no-build-isolation to let pip fetch meson-python\n"
        % (sys.executable, sys.version_info[0], sys.version_info[1]))
    raise SystemExit(1)
