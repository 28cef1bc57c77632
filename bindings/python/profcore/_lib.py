"""Low-level ctypes declarations for libprofcore (private module).

Everything here mirrors ``profcore.h``; the public, Pythonic layer lives in
``profcore/__init__.py``.  The structures must match the C header field for
field: C enums are ``int`` on every ABI profcore supports.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
import re
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int,
                    c_int64, c_size_t, c_uint, c_uint32, c_uint64, c_void_p)
from typing import Any, List, Optional


def _tree_version() -> str:
    """The version of the tree these bindings come from: installed, the
    project version meson wrote into ``_paths.py``; run from the source
    tree, the one in its ``meson.build`` (the only place it is written)."""
    try:
        from ._paths import VERSION  # written by meson install
        return VERSION
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.join(here, os.pardir, os.pardir, os.pardir, "meson.build")
    try:
        with open(build, encoding="utf-8") as f:
            m = re.search(r"\bproject\([^)]*?\bversion\s*:\s*'([^']+)'",
                          f.read())
    except OSError:
        m = None
    if not m:
        raise ImportError("profcore: no _paths.py (written by meson install) "
                          "and no project version in %s: cannot tell which "
                          "libprofcore these bindings are for"
                          % os.path.normpath(build))
    return m.group(1)


def abi_version(version: str) -> str:
    """The ABI part of a version, the SONAME's suffix: MAJOR.MINOR while
    MAJOR is 0 (before 1.0 a new minor version may break callers), then
    MAJOR (docs/development.md ("ABI"))."""
    v = version.split(".")
    return "%s.%s" % (v[0], v[1]) if v[0] == "0" else v[0]


#: The version of the C library these bindings were written for (their
#: structures mirror its profcore.h) and its ABI; the shared object's
#: SONAME carries the ABI (libprofcore.so.ABI).
VERSION = _tree_version()
ABI = abi_version(VERSION)
SONAME = "libprofcore.so." + ABI

PC_REGION_COUNT = 10
PC_NOSEG = 0xFFFFFFFF


class PcError(Structure):
    _fields_ = [("code", c_int), ("file", c_char_p), ("offset", c_int64),
                ("message", c_char_p)]


class PcSymbol(Structure):
    _fields_ = [("name", c_char_p), ("file", c_char_p),
                ("section", c_char_p), ("segment", c_uint32),
                ("address", c_uint64), ("size", c_uint64), ("kind", c_int),
                ("binding", c_int), ("flags", c_uint)]


class PcRegion(Structure):
    _fields_ = [("segment", c_uint32), ("low", c_uint64), ("high", c_uint64),
                ("cls", c_int), ("label", c_char_p)]


class PcHistogram(Structure):
    _fields_ = [("segment", c_uint32), ("low", c_uint64), ("high", c_uint64),
                ("nbins", c_size_t), ("counts", POINTER(c_uint64)),
                ("unit", c_uint)]


class PcArc(Structure):
    _fields_ = [("from_segment", c_uint32), ("from_", c_uint64),
                ("to_segment", c_uint32), ("to", c_uint64),
                ("count", c_uint64), ("htime", c_double),
                ("ftime", c_double)]


class PcRow(Structure):
    _fields_ = [("symbol", c_size_t), ("name", c_char_p),
                ("segment", c_uint32), ("address", c_uint64),
                ("end", c_uint64), ("count", c_double), ("calls", c_uint64),
                ("self_calls", c_uint64)]


class PcAttribOptions(Structure):
    _fields_ = [("version", c_uint), ("rule", c_int), ("use_sizes", c_int),
                ("demangle", c_int), ("gprof_symspecs", c_char_p)]


class PcCallgraphOptions(Structure):
    _fields_ = [("version", c_uint), ("attrib", POINTER(PcAttribOptions)),
                ("time", c_int)]


class PcTotals(Structure):
    _fields_ = [("total", c_double), ("in_program", c_double),
                ("attributed", c_double), ("outside", c_double),
                ("excluded", c_double)]


class PcCgNode(Structure):
    _fields_ = [("row", c_size_t), ("is_cycle", c_int), ("name", c_char_p),
                ("cycle", c_uint),
                ("index", c_size_t), ("listed", c_int), ("calls", c_uint64),
                ("self_calls", c_uint64), ("time", c_double),
                ("self", c_double), ("children", c_double),
                ("htime", c_double), ("ftime", c_double),
                ("has_next", c_int), ("next_member", c_size_t)]


class PcCgEdge(Structure):
    _fields_ = [("parent", c_size_t), ("child", c_size_t),
                ("count", c_uint64), ("self", c_double),
                ("children", c_double), ("htime", c_double),
                ("ftime", c_double)]


P = c_void_p  # every opaque handle

# name: (restype, argtypes)
_PROTOTYPES = {
    "pc_version": (c_char_p, []),
    "pc_status_name": (c_char_p, [c_int]),
    "pc_region_class_name": (c_char_p, [c_int]),
    "pc_symkind_name": (c_char_p, [c_int]),
    "pc_options_new": (c_int, [POINTER(c_void_p)]),
    "pc_options_free": (None, [P]),
    "pc_options_set": (c_int, [P, c_char_p, c_char_p]),
    "pc_last_error": (POINTER(PcError), []),
    "pc_profile_new": (c_int, [POINTER(c_void_p), P]),
    "pc_profile_set_threads": (c_int, [P, c_uint]),
    "pc_profile_threads": (c_uint, [P]),
    "pc_option_type_name": (c_char_p, [c_int]),
    "pc_report_options": (c_void_p, [c_char_p]),
    "pc_export_options": (c_void_p, [c_char_p]),
    "pc_profile_free": (None, [P]),
    "pc_profile_error": (POINTER(PcError), [P]),
    "pc_profile_warning_count": (c_size_t, [P]),
    "pc_profile_warning_at": (c_char_p, [P, c_size_t]),
    "pc_profile_note_count": (c_size_t, [P]),
    "pc_profile_note_at": (c_char_p, [P, c_size_t]),
    "pc_profile_load_file": (c_int, [P, c_char_p, c_char_p, P]),
    "pc_profile_load_memory": (c_int, [P, c_void_p, c_size_t, c_char_p,
                                       c_char_p, P]),
    "pc_profile_rate": (c_double, [P]),
    "pc_profile_duration": (c_double, [P]),
    "pc_profile_dimension": (c_char_p, [P]),
    "pc_profile_dimension_abbrev": (c_char, [P]),
    "pc_profile_program": (c_char_p, [P]),
    "pc_profile_target_width": (c_uint, [P]),
    "pc_profile_target_endian": (c_int, [P]),
    "pc_profile_source_count": (c_size_t, [P]),
    "pc_profile_source_format": (c_char_p, [P, c_size_t]),
    "pc_profile_source_file": (c_char_p, [P, c_size_t]),
    "pc_profile_symbol_count": (c_size_t, [P]),
    "pc_profile_symbol_at": (c_int, [POINTER(PcSymbol), P, c_size_t]),
    "pc_profile_symbol_display_name": (c_int, [POINTER(c_char_p), P,
                                                c_size_t, c_int]),
    "pc_attrib_options_init": (c_int, [POINTER(PcAttribOptions), c_uint]),
    "pc_attrib_options_set": (c_int, [POINTER(PcAttribOptions), c_char_p,
                                      c_char_p]),
    "pc_attrib_options_keys": (c_void_p, []),
    "pc_callgraph_options_init": (c_int, [POINTER(PcCallgraphOptions),
                                          c_uint]),
    "pc_options_bind": (c_int, [P, c_void_p, c_char_p]),
    "pc_options_error": (POINTER(PcError), [P]),
    "pc_demangler_available": (c_int, []),
    "pc_profile_region_count": (c_size_t, [P]),
    "pc_profile_region_at": (c_int, [POINTER(PcRegion), P, c_size_t]),
    "pc_profile_histogram_count": (c_size_t, [P]),
    "pc_profile_histogram_at": (c_int, [POINTER(PcHistogram), P, c_size_t]),
    "pc_profile_arc_count": (c_size_t, [P]),
    "pc_profile_arc_at": (c_int, [POINTER(PcArc), P, c_size_t]),
    "pc_profile_sample_count": (c_size_t, [P]),
    "pc_profile_sample_at": (c_int, [POINTER(c_uint32), POINTER(c_uint64),
                                     POINTER(c_uint64), P, c_size_t]),
    "pc_profile_class_samples": (c_uint64, [P, c_int]),
    "pc_profile_attribute": (c_int, [P, POINTER(PcAttribOptions)]),
    "pc_profile_row_count": (c_int, [POINTER(c_size_t), P]),
    "pc_profile_row_at_sized": (c_int, [POINTER(PcRow), c_size_t, P,
                                        c_size_t]),
    "pc_profile_totals_sized": (c_int, [POINTER(PcTotals), c_size_t, P]),
    "pc_profile_class_total": (c_int, [POINTER(c_double), P, c_int]),
    "pc_profile_lookup": (c_int, [POINTER(c_size_t), P, c_uint32,
                                  c_uint64]),
    "pc_profile_rows_sorted": (c_int, [POINTER(c_size_t), c_size_t,
                                       POINTER(c_size_t), P, c_int]),
    "pc_profile_render": (c_int, [POINTER(c_void_p), POINTER(c_size_t), P,
                                  c_char_p, P]),
    "pc_report_name_at": (c_char_p, [c_size_t]),
    "pc_report_description_at": (c_char_p, [c_size_t]),
    "pc_profile_export": (c_int, [POINTER(c_void_p), POINTER(c_size_t), P,
                                  c_char_p, P]),
    "pc_export_name_at": (c_char_p, [c_size_t]),
    "pc_export_description_at": (c_char_p, [c_size_t]),
    "pc_free": (None, [c_void_p]),
    "pc_profile_callgraph": (c_int, [POINTER(c_void_p), P,
                                     POINTER(PcCallgraphOptions)]),
    "pc_callgraph_free": (None, [P]),
    "pc_callgraph_node_count": (c_size_t, [P]),
    "pc_callgraph_node_at_sized": (c_int, [POINTER(PcCgNode), c_size_t, P,
                                           c_size_t]),
    "pc_callgraph_edge_count": (c_size_t, [P]),
    "pc_callgraph_edge_at_sized": (c_int, [POINTER(PcCgEdge), c_size_t, P,
                                           c_size_t]),
    "pc_callgraph_total": (c_double, [P]),
    "pc_callgraph_run_htime": (c_double, [P]),
    "pc_callgraph_dropped_arcs": (c_size_t, [P]),
    "pc_registry_new": (c_int, [POINTER(c_void_p)]),
    "pc_registry_free": (None, [P]),
    "pc_registry_load_plugins": (c_int, [P, c_char_p]),
    "pc_registry_load_plugin": (c_int, [P, c_char_p]),
    "pc_registry_error": (POINTER(PcError), [P]),
    "pc_registry_count": (c_size_t, [P]),
    "pc_registry_at": (c_void_p, [P, c_size_t]),
}


class PcOptionDecl(Structure):
    """``pc_option_decl``: one key a loader, report or export reads."""
    _fields_ = [("name", c_char_p), ("type", c_int), ("choices", c_char_p),
                ("default_value", c_char_p), ("help", c_char_p)]


class PcLoader(Structure):
    """``pc_loader`` of loader ABI 2 (the registry hands out copies of
    older loaders with the later fields zero, so all of them can be read;
    the function pointers are not used from Python)."""
    _fields_ = [("abi_version", c_uint), ("name", c_char_p),
                ("description", c_char_p), ("roles", c_uint),
                ("extensions", c_void_p), ("probe", c_void_p),
                ("load", c_void_p), ("order", c_int),
                ("options", POINTER(PcOptionDecl))]


def candidates() -> List[str]:
    """Where the shared library is looked for, in order.

    1. ``$PROFCORE_LIBRARY`` (a path to the shared object);
    2. next to the package (``libprofcore-py.so``, which a wheel built by
       ``pip install .`` carries, or ``libprofcore.so*`` in the package
       directory, e.g. when a build or a bundle copies the library there);
    3. the installed library: by SONAME through the dynamic loader's
       usual search (``LD_LIBRARY_PATH``, ``ld.so.cache``), then in the
       libdir recorded when the package was installed with it
       (``_paths.py``), then ``ctypes.util.find_library("profcore")``.
    """
    out: List[str] = []
    env = os.environ.get("PROFCORE_LIBRARY")
    if env:
        out.append(env)
    here = os.path.dirname(os.path.abspath(__file__))
    for pattern in ("libprofcore-py.so", "libprofcore-py.dylib",
                    "libprofcore-py.dll",   # a wheel's own copy
                    SONAME, "libprofcore.so", "libprofcore.so.*",
                    "libprofcore.*.dylib", "libprofcore.dylib"):
        out.extend(sorted(glob.glob(os.path.join(here, pattern))))
    out.append(SONAME)
    try:
        from ._paths import LIBDIR  # written by meson install
        out.append(os.path.join(LIBDIR, SONAME))
    except ImportError:  # running from the source tree
        pass
    found = ctypes.util.find_library("profcore")
    if found:
        out.append(found)
    return out


class Library:
    """libprofcore with prototypes declared on first use of each function.

    A function this library build lacks raises AttributeError naming it
    when (and only when) it is used.
    """

    def __init__(self, handle: ctypes.CDLL) -> None:
        self._handle = handle
        self.path: str = handle._name

    def __getattr__(self, name: str) -> Any:
        proto = _PROTOTYPES.get(name)
        if proto is None:
            raise AttributeError(name)
        try:
            fn = getattr(self._handle, name)
        except AttributeError:
            raise AttributeError("%s has no %s (libprofcore too old?)"
                                 % (self.path, name)) from None
        fn.restype, fn.argtypes = proto
        setattr(self, name, fn)  # next time: no __getattr__
        return fn


_lib: Optional[Library] = None


def lib() -> Library:
    """Loads (once) and returns libprofcore.

    Raises ``OSError`` naming every place tried when none works.
    """
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    handle = None
    env = os.environ.get("PROFCORE_LIBRARY")
    for path in candidates():
        try:
            handle = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            if env and path == env:
                # An explicit choice that fails is an error, not a hint.
                raise OSError("PROFCORE_LIBRARY=%s cannot be loaded: %s"
                              % (env, e)) from None
    if handle is None:
        raise OSError("libprofcore not found; tried: " + "; ".join(tried)
                      + ". Set PROFCORE_LIBRARY to the shared object.")
    L = Library(handle)
    version = L.pc_version().decode()
    if abi_version(version) != ABI:
        raise OSError("%s is libprofcore %s; these bindings need %s.x"
                      % (L.path, version, ABI))
    _lib = L
    return L
