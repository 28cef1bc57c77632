"""Python bindings for libprofcore (ctypes, standard library only).

libprofcore reads program-counter sample captures (gmon.out, mon.out,
MS-DOS PROFIL .PRF, raw PC dumps, ...) and symbol tables (ELF, linker map
files, ...), attributes the samples to symbols and renders reports.

Example::

    import profcore

    with profcore.Profile() as prof:
        prof.load("a.out")                 # symbols (format detected)
        prof.load("gmon.out")              # samples and arcs
        for row in prof.top(5):
            print(f"{row.percent:6.2f}% {row.count:10g} {row.name}")
        print(prof.render("flat"))

Every failure of the C library is raised as :class:`ProfcoreError`, which
carries the file and byte offset of the offending input.

The shared library is found through ``$PROFCORE_LIBRARY``, next to this
package, or installed (see :func:`profcore._lib.candidates`).

Thread safety: distinct :class:`Profile` objects may be used from
different threads at once.  Calls on one Profile are serialised by a lock
it holds; a :class:`Registry` must not be changed (plugins loaded) while a
profile that uses it is loading a file.
"""

from __future__ import annotations

import ctypes
import enum
import os
import threading
from dataclasses import dataclass
from typing import (Any, Dict, Iterator, List, Mapping, Optional, Tuple,
                    Union)

from . import _lib as _c

try:
    from ._paths import VERSION as __version__  # written by meson install
except ImportError:  # running from the source tree: ask the library
    def __getattr__(name: str) -> Any:
        if name == "__version__":
            return version()
        raise AttributeError("module 'profcore' has no attribute %r" % name)

__all__ = [
    "ProfcoreError", "STATUS", "RegionClass", "SymbolKind", "Binding", "SymbolFlags",
    "Role", "Symbol", "Region", "Histogram", "Arc", "Row", "Totals",
    "CallNode", "CallEdge", "CallGraph",
    "Loader", "OptionKey", "report_options", "export_options",
    "Registry", "Profile", "load", "report_names", "reports",
    "export_names", "version", "demangler_available",
    "library_path",
]

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Options = Optional[Mapping[str, Any]]


# --------------------------------------------------------------------------
# Vocabulary

class RegionClass(enum.IntEnum):
    """Where a PC fell when it is not in a symbol of the program."""
    APPLICATION = 0
    SYSTEM = 1
    DOS = 2
    IO = 3
    HIGH = 4
    LOW = 5
    LIBRARY = 6
    KERNEL = 7
    UNKNOWN = 8
    SLEEP = 9


class SymbolKind(enum.IntEnum):
    """pc_symkind: only TEXT symbols (and TARGET-flagged ones) take samples."""
    TEXT = 0
    DATA = 1
    BSS = 2
    ABS = 3
    OTHER = 4


class Binding(enum.IntEnum):
    """pc_binding."""
    GLOBAL = 0
    LOCAL = 1
    WEAK = 2


class SymbolFlags(enum.IntFlag):
    """pc_symbol.flags (PC_SYMF_*)."""
    NONE = 0
    FUNC = 0x1
    NOATTR = 0x2
    EXCLUDED = 0x4
    TARGET = 0x8


class Role(enum.IntFlag):
    """What a loader reads (``pc_loader.roles``)."""
    NONE = 0
    SYMBOLS = 0x1
    SAMPLES = 0x2
    ARCS = 0x4


def _s(b: Optional[bytes]) -> Optional[str]:
    """C string (owned by the library) to a Python copy."""
    return None if b is None else b.decode("utf-8", "replace")


def _seg(v: int) -> Optional[int]:
    return None if v == _c.PC_NOSEG else v


# --------------------------------------------------------------------------
# Errors

#: pc_status values by name (profcore.h).
STATUS = {
    "PC_OK": 0, "PC_EIO": -1, "PC_EFORMAT": -2, "PC_ETRUNC": -3,
    "PC_ENOMEM": -4, "PC_EUNSUPPORTED": -5, "PC_EUSAGE": -6,
    "PC_EUNKNOWN": -7, "PC_ELIMIT": -8, "PC_EAMBIGUOUS": -9,
    "PC_ENOTFOUND": -10,
}
_STATUS_NAME = {v: k for k, v in STATUS.items()}


class ProfcoreError(Exception):
    """A libprofcore failure.

    Attributes:
        code: the negative ``pc_status`` value (e.g. -2 for PC_EFORMAT).
        status: its name (``"PC_EFORMAT"``...), see :data:`STATUS`.
        description: the library's words for the status ("malformed
            input").
        file: the input file involved, or None.
        offset: byte offset in that file's content, or None.
        message: the library's message ("expected ...").

    ``str(error)`` reads like profcat's diagnostics: ``FILE:OFFSET: message``.
    """

    def __init__(self, code: int, message: str, file: Optional[str] = None,
                 offset: Optional[int] = None) -> None:
        self.code = code
        self.status = _STATUS_NAME.get(code, str(code))
        self.description = _s(_c.lib().pc_status_name(code)) or ""
        self.message = message
        self.file = file
        self.offset = offset
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file + ":"
            if self.offset is not None:
                where += "%d:" % self.offset
            where += " "
        return where + self.message

    def __repr__(self) -> str:
        return "ProfcoreError(%s, %r, file=%r, offset=%r)" % (
            self.status, self.message, self.file, self.offset)


def _raise(code: int, err: "Optional[ctypes._Pointer[_c.PcError]]") -> None:
    # The handle's error describes this failure only if the codes agree
    # (a few calls fail without recording, e.g. an index out of range).
    if err and err.contents.code == code:
        e = err.contents
        raise ProfcoreError(
            e.code or code, _s(e.message) or "",
            None if e.file is None else os.fsdecode(e.file),
            None if e.offset < 0 else e.offset)
    raise ProfcoreError(code, _s(_c.lib().pc_status_name(code)) or "error")


class _COptions:
    """A pc_options built from a mapping, freed on exit."""

    def __init__(self, options: Options) -> None:
        self.ptr = None
        if not options:
            return
        L = _c.lib()
        ptr = ctypes.c_void_p()
        if L.pc_options_new(ctypes.byref(ptr)) != 0:
            raise MemoryError("pc_options_new")
        self.ptr = ptr.value
        for key, value in options.items():
            if value is None:
                continue
            if value is True:
                value = "1"
            elif value is False:
                value = "0"
            rc = L.pc_options_set(self.ptr, str(key).encode(),
                                  str(value).encode())
            if rc != 0:
                self.close()
                raise ProfcoreError(rc, "bad option %s=%s" % (key, value))

    def close(self) -> None:
        """Frees the options."""
        if self.ptr:
            _c.lib().pc_options_free(self.ptr)
            self.ptr = None

    def __enter__(self) -> "_COptions":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _str_value(value: Any) -> str:
    return "1" if value is True else "0" if value is False else str(value)


class _CAttrib:
    """pc_attrib_options parsed from a mapping of the attribution's string
    keys (the library's typed options; this binding is a string edge).
    An unknown key, or a bad value, raises ProfcoreError naming it and
    the known keys, consumer naming the function ("pc_profile_attribute").
    extra: keys this call also reads (their values returned in .extra)."""

    def __init__(self, options: Options, consumer: str,
                 extra: Tuple[str, ...] = ()) -> None:
        L = _c.lib()
        self.opts = _c.PcAttribOptions()
        L.pc_attrib_options_init(ctypes.byref(self.opts), 1)
        self.extra = {}
        self._keep = []  # the bytes gprof_symspecs points into
        items = [(k, v) for k, v in (options or {}).items() if v is not None]
        check = [(k, v) for k, v in items if k not in extra]
        self.extra = {k: _str_value(v) for k, v in items if k in extra}
        if not check:
            return
        with _COptions(None) as o:
            ptr = ctypes.c_void_p()
            if L.pc_options_new(ctypes.byref(ptr)) != 0:
                raise MemoryError("pc_options_new")
            o.ptr = ptr.value
            L.pc_options_bind(o.ptr, L.pc_attrib_options_keys(), consumer.encode())
            for key, value in check:
                k, v = str(key).encode(), _str_value(value).encode()
                rc = L.pc_options_set(o.ptr, k, v)
                if rc == 0:
                    self._keep.append(v)
                    rc = L.pc_attrib_options_set(ctypes.byref(self.opts), k, v)
                if rc != 0:
                    _raise(rc, L.pc_options_error(o.ptr))


# --------------------------------------------------------------------------
# Model records (plain copies; they stay valid after the profile is closed)

@dataclass(frozen=True)
class Symbol:
    """A symbol as loaded (pc_symbol).  name: the raw bytes of the symbol
    table (mangled C++/Rust names stay mangled); display_name: as reports
    show it (demangled, see :func:`demangler_available`)."""
    name: str
    address: int
    size: int                 # 0 = unknown: extends to the next symbol
    segment: Optional[int]    # None for flat address spaces
    kind: SymbolKind
    binding: Binding
    flags: SymbolFlags
    file: Optional[str]
    section: Optional[str]
    display_name: str


@dataclass(frozen=True)
class Region:
    """An address range with a class, e.g. the program's text (pc_region)."""
    segment: Optional[int]
    low: int
    high: int                 # [low, high)
    cls: RegionClass
    label: Optional[str]


@dataclass(frozen=True)
class Histogram:
    """A profil-style histogram: [low, high) in len(counts) equal buckets."""
    segment: Optional[int]
    low: int
    high: int
    unit: int
    counts: Tuple[int, ...]


@dataclass(frozen=True)
class Arc:
    """A call arc as loaded: call site, callee, count, Proff times."""
    from_segment: Optional[int]
    from_address: int
    to_segment: Optional[int]
    to_address: int
    count: int
    htime: float
    ftime: float


@dataclass(frozen=True)
class Row:
    """One attributed symbol.  percent is count / Totals.total * 100.
    name is demangled (C++, Rust) unless the attribution options say
    ``{"demangle": "none"}``; raw_name is the symbol table's spelling."""
    symbol: int               # index into Profile.symbols()
    name: str
    segment: Optional[int]
    address: int
    end: int                  # attribution extent: [address, end)
    count: float
    calls: int
    self_calls: int
    percent: float
    raw_name: str


@dataclass(frozen=True)
class Totals:
    """Where every sample went (pc_totals); by_class: outside samples by
    region class, APPLICATION = in the program but in no symbol."""
    total: float
    in_program: float
    attributed: float
    outside: float
    excluded: float
    by_class: Dict[RegionClass, float]


@dataclass(frozen=True)
class CallNode:
    """A call-graph node: one row, or one cycle as a whole (row None).
    Times are in samples (or, without samples, the arcs' flat times)."""
    row: Optional[int]        # index into Profile.rows(); None for a cycle
    name: Optional[str]       # None for a cycle
    cycle: int                # gprof's <cycle N>, 0 = in no cycle
    index: int                # gprof's [index], 1-based
    listed: bool              # gprof -q prints an entry for it
    calls: int                # calls from outside itself / its cycle
    self_calls: int           # self-recursive calls; cycle: calls inside
    time: float               # own time before propagation
    self_time: float          # gprof "self"
    children: float           # gprof "children"
    htime: float              # inclusive (hierarchical) time, Proff
    ftime: float              # flat time, Proff
    next_member: Optional[int]  # next node of its cycle, None at the end


@dataclass(frozen=True)
class CallEdge:
    """All arcs from one node to another, merged."""
    parent: int
    child: int
    count: int
    self_time: float          # child's self time propagated to parent
    children: float           # child's children time propagated
    htime: float
    ftime: float


@dataclass(frozen=True)
class CallGraph:
    """A call graph: nodes 0..rows-1 are the rows, then one per cycle."""
    nodes: Tuple[CallNode, ...]
    edges: Tuple[CallEdge, ...]
    total: float              # gprof's total: sum of the nodes' self time
    run_htime: float          # the run's hierarchical time (Proff)
    dropped_arcs: int         # arcs with an end in no row

    def node(self, name: str) -> CallNode:
        """The node of the row called name (KeyError if none)."""
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(name)


@dataclass(frozen=True)
class OptionKey:
    """One option key a loader, report or export reads (``pc_option_decl``):
    type is "string", "u64", "number", "bool" or "enum" (then choices lists
    the accepted values); default is None when it depends on the input."""
    name: str
    type: str
    choices: Tuple[str, ...]
    default: Optional[str]
    help: str


def _option_keys(table: Any) -> Tuple[OptionKey, ...]:
    """The entries of a NULL-terminated pc_option_decl table (an address)."""
    if not table:
        return ()
    arr = ctypes.cast(table, ctypes.POINTER(_c.PcOptionDecl))
    out = []
    i = 0
    while arr[i].name:
        d = arr[i]
        out.append(OptionKey(_s(d.name) or "",
                             _s(_c.lib().pc_option_type_name(d.type)) or "",
                             tuple((_s(d.choices) or "").split(","))
                             if d.choices else (),
                             _s(d.default_value), _s(d.help) or ""))
        i += 1
    return tuple(out)


def report_options(report: str = "flat") -> Tuple[OptionKey, ...]:
    """The keys a report reads (render() refuses others)."""
    t = _c.lib().pc_report_options(report.encode())
    if not t:
        raise ProfcoreError(STATUS["PC_ENOTFOUND"], "no report named '%s'" % report)
    return _option_keys(t)


def export_options(format: str) -> Tuple[OptionKey, ...]:
    """The keys an export reads (export() refuses others)."""
    t = _c.lib().pc_export_options(format.encode())
    if not t:
        raise ProfcoreError(STATUS["PC_ENOTFOUND"], "no export named '%s'" % format)
    return _option_keys(t)


@dataclass(frozen=True)
class Loader:
    """A registered loader: name for format=, roles, description, and the
    option keys it declares (none for a loader built for ABI 1)."""
    name: str
    description: str
    roles: Role
    abi_version: int
    options: Tuple[OptionKey, ...] = ()


# --------------------------------------------------------------------------
# Registry

class Registry:
    """The set of loaders a profile may use: the built-in ones plus plugins.

    ``Registry(plugins="dir1:dir2")`` also loads every plugin found in
    those directories.  Profiles made with a registry hold it: closing the
    registry (or leaving its ``with`` block) while one of them is open
    closes it for new use at once, and frees the C registry when the last
    of them is closed.
    """

    def __init__(self, plugins: Optional[str] = None) -> None:
        L = _c.lib()
        self._lock = threading.Lock()
        self._users = 0      # open Profiles and calls in progress
        self._closed = False
        ptr = ctypes.c_void_p()
        if L.pc_registry_new(ctypes.byref(ptr)) != 0:
            raise MemoryError("pc_registry_new")
        self._ptr = ptr.value
        if plugins:
            try:
                self.load_plugins(plugins)
            except BaseException:
                self.close()
                raise

    def _acquire(self) -> int:
        """The C handle, held until the matching _release()."""
        with self._lock:
            if self._closed:
                raise ValueError("registry is closed")
            self._users += 1
            return self._ptr

    def _release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._closed and self._users == 0:
                self._free()

    def _free(self) -> None:  # with the lock held
        if self._ptr:
            _c.lib().pc_registry_free(self._ptr)
            self._ptr = None

    def _call(self, fn: Any, *args: Any) -> int:
        """fn(handle, *args) with the handle held; errors raised."""
        h = self._acquire()
        try:
            rc = fn(h, *args)
            if rc < 0:
                _raise(rc, _c.lib().pc_registry_error(h))
            return rc
        finally:
            self._release()

    def load_plugins(self, dirs: str) -> None:
        """Loads every plugin in a ':'-separated list of directories."""
        self._call(_c.lib().pc_registry_load_plugins, os.fsencode(dirs))

    def load_plugin(self, path: PathLike) -> None:
        """Loads one plugin shared object."""
        self._call(_c.lib().pc_registry_load_plugin, os.fsencode(path))

    def loaders(self) -> List[Loader]:
        """The loaders, built-in first, in detection order."""
        h = self._acquire()
        try:
            return self._loaders(h)
        finally:
            self._release()

    def _loaders(self, h: int) -> List[Loader]:
        L = _c.lib()
        out = []
        for i in range(L.pc_registry_count(h)):
            p = L.pc_registry_at(h, i)
            if not p:
                continue
            ld = ctypes.cast(p, ctypes.POINTER(_c.PcLoader)).contents
            opts = (_option_keys(ctypes.cast(ld.options, ctypes.c_void_p).value)
                    if ld.abi_version >= 2 else ())
            out.append(Loader(_s(ld.name) or "", _s(ld.description) or "",
                              Role(ld.roles & 0x7), ld.abi_version, opts))
        return out

    def close(self) -> None:
        """Closes the registry: no new use; the C registry is freed now, or
        when the last profile made with it is closed.  Closing twice is
        harmless."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ failed before the handle existed
            return
        with lock:
            if not self._closed:
                self._closed = True
                if self._users == 0:
                    self._free()

    @property
    def closed(self) -> bool:
        """True once close() was called (profiles may still hold it)."""
        return self._closed

    def __enter__(self) -> "Registry":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


# --------------------------------------------------------------------------
# Profile

class Profile:
    """Everything loaded for one analysis: symbols, samples, arcs, regions.

    Use it as a context manager (or call :meth:`close`) to free the C
    profile deterministically.  Records returned by its methods are Python
    copies and outlive it.
    """

    def __init__(self, registry: Optional[Registry] = None) -> None:
        L = _c.lib()
        self._lock = threading.RLock()
        self._attr_options: Dict[str, Any] = {}
        self._ptr = None
        # held until close(): the C profile reads the registry while loading
        self._registry = None
        h = registry._acquire() if registry is not None else None
        self._registry = registry
        ptr = ctypes.c_void_p()
        if L.pc_profile_new(ctypes.byref(ptr), h) != 0:
            self.close()
            raise MemoryError("pc_profile_new")
        self._ptr = ptr.value

    # -- lifetime --
    def close(self) -> None:
        """Frees the profile.  Closing twice is harmless."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._ptr:
                _c.lib().pc_profile_free(self._ptr)
                self._ptr = None
            reg, self._registry = getattr(self, "_registry", None), None
            if reg is not None:
                reg._release()

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return not self._ptr

    def __enter__(self) -> "Profile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def _handle(self) -> int:
        if not self._ptr:
            raise ValueError("profile is closed")
        return self._ptr

    def _check(self, rc: int) -> int:
        if rc < 0:
            _raise(rc, _c.lib().pc_profile_error(self._ptr))
        return rc

    # -- loading --
    def load(self, path: PathLike, format: Optional[str] = None,
             options: Options = None) -> "Profile":
        """Loads one file (capture or symbol table); ``"-"`` is stdin.

        format: a loader name (see :meth:`Registry.loaders`) to override
        detection.  options: loader options, e.g. ``{"rate": 100}``.
        Returns self, so that loads can be chained.
        """
        with self._lock, _COptions(options) as o:
            self._check(_c.lib().pc_profile_load_file(
                self._handle(), os.fsencode(path),
                format.encode() if format else None, o.ptr))
        return self

    def load_bytes(self, data: bytes, name: str = "<memory>",
                   format: Optional[str] = None,
                   options: Options = None) -> "Profile":
        """Loads a capture held in memory; name is used in error messages."""
        buf = bytes(data)
        with self._lock, _COptions(options) as o:
            self._check(_c.lib().pc_profile_load_memory(
                self._handle(), buf, len(buf), name.encode(),
                format.encode() if format else None, o.ptr))
        return self

    # -- metadata --
    def _str(self, fn: str) -> Optional[str]:
        with self._lock:
            return _s(getattr(_c.lib(), fn)(self._handle()))

    @property
    def program(self) -> Optional[str]:
        """The profiled program's name, when a loader knows it."""
        return self._str("pc_profile_program")

    @property
    def dimension(self) -> Optional[str]:
        """Dimension of one sample, e.g. "seconds"."""
        return self._str("pc_profile_dimension")

    @property
    def rate(self) -> Optional[float]:
        """Sampling rate in Hz, None when unknown."""
        with self._lock:
            r = _c.lib().pc_profile_rate(self._handle())
        return r if r > 0 else None

    @property
    def duration(self) -> Optional[float]:
        """Run duration in seconds, None when unknown."""
        with self._lock:
            d = _c.lib().pc_profile_duration(self._handle())
        return d if d >= 0 else None

    @property
    def threads(self) -> int:
        """Threads that count large raw-sample batches
        (pc_profile_set_threads; the counts do not depend on it).  Set it
        before loading: 0 = one per core, at most 8.  The library reads no
        environment variable (profcat reads PROFCORE_THREADS)."""
        with self._lock:
            return _c.lib().pc_profile_threads(self._handle())

    @threads.setter
    def threads(self, n: int) -> None:
        with self._lock:
            self._check(_c.lib().pc_profile_set_threads(self._handle(), n))

    @property
    def target_width(self) -> int:
        """Address width of the profiled program in bytes (0 = unknown)."""
        with self._lock:
            return _c.lib().pc_profile_target_width(self._handle())

    @property
    def sources(self) -> List[Tuple[str, str]]:
        """(format, file) for every file loaded, in order."""
        L = _c.lib()
        with self._lock:
            h = self._handle()
            return [(_s(L.pc_profile_source_format(h, i)) or "",
                     _s(L.pc_profile_source_file(h, i)) or "")
                    for i in range(L.pc_profile_source_count(h))]

    @property
    def warnings(self) -> List[str]:
        """Warnings the loaders recorded (shown in reports)."""
        L = _c.lib()
        with self._lock:
            h = self._handle()
            return [_s(L.pc_profile_warning_at(h, i)) or ""
                    for i in range(L.pc_profile_warning_count(h))]

    @property
    def notes(self) -> List[str]:
        """What the loaders detected or decided (profcat --verbose)."""
        L = _c.lib()
        with self._lock:
            h = self._handle()
            return [_s(L.pc_profile_note_at(h, i)) or ""
                    for i in range(L.pc_profile_note_count(h))]

    # -- the model --
    def symbols(self) -> List[Symbol]:
        """Every symbol, in the order loaded."""
        L = _c.lib()
        out = []
        with self._lock:
            h = self._handle()
            s = _c.PcSymbol()
            shown = ctypes.c_char_p()
            for i in range(L.pc_profile_symbol_count(h)):
                self._check(L.pc_profile_symbol_at(ctypes.byref(s), h, i))
                self._check(L.pc_profile_symbol_display_name(
                    ctypes.byref(shown), h, i, 0))
                out.append(Symbol(_s(s.name) or "", s.address, s.size,
                                  _seg(s.segment), SymbolKind(s.kind),
                                  Binding(s.binding), SymbolFlags(s.flags),
                                  _s(s.file), _s(s.section),
                                  _s(shown.value) or ""))
        return out

    def regions(self) -> List[Region]:
        """Address ranges with their classes, in the order loaded."""
        L = _c.lib()
        out = []
        with self._lock:
            h = self._handle()
            r = _c.PcRegion()
            for i in range(L.pc_profile_region_count(h)):
                self._check(L.pc_profile_region_at(ctypes.byref(r), h, i))
                out.append(Region(_seg(r.segment), r.low, r.high,
                                  RegionClass(r.cls), _s(r.label)))
        return out

    def histograms(self) -> List[Histogram]:
        """The histograms as captured (identical ranges summed)."""
        L = _c.lib()
        out = []
        with self._lock:
            h = self._handle()
            g = _c.PcHistogram()
            for i in range(L.pc_profile_histogram_count(h)):
                self._check(L.pc_profile_histogram_at(ctypes.byref(g), h, i))
                counts = tuple(g.counts[:g.nbins]) if g.nbins else ()
                out.append(Histogram(_seg(g.segment), g.low, g.high, g.unit,
                                     counts))
        return out

    def arcs(self) -> List[Arc]:
        """Every call arc, in the order loaded."""
        L = _c.lib()
        out = []
        with self._lock:
            h = self._handle()
            a = _c.PcArc()
            for i in range(L.pc_profile_arc_count(h)):
                self._check(L.pc_profile_arc_at(ctypes.byref(a), h, i))
                out.append(Arc(_seg(a.from_segment), a.from_,
                               _seg(a.to_segment), a.to, a.count, a.htime,
                               a.ftime))
        return out

    def samples(self) -> List[Tuple[Optional[int], int, int]]:
        """Raw samples aggregated by address: (segment, address, count)."""
        L = _c.lib()
        out = []
        seg, addr, cnt = ctypes.c_uint32(), ctypes.c_uint64(), ctypes.c_uint64()
        with self._lock:
            h = self._handle()
            for i in range(L.pc_profile_sample_count(h)):
                self._check(L.pc_profile_sample_at(
                    ctypes.byref(seg), ctypes.byref(addr),
                    ctypes.byref(cnt), h, i))
                out.append((_seg(seg.value), addr.value, cnt.value))
        return out

    def class_samples(self, cls: RegionClass) -> int:
        """Samples known only by their region class (e.g. PROFIL's DOS)."""
        with self._lock:
            return _c.lib().pc_profile_class_samples(self._handle(), int(cls))

    # -- attribution --
    def attribute(self, options: Options = None) -> "Profile":
        """Sets the attribution options used by rows(), totals() and
        render(), e.g. ``{"attribution": "bucket-start"}``, and computes
        the attribution now (so that errors surface here)."""
        self._attr_options = dict(options or {})
        with self._lock:
            self._attribute()
        return self

    def _attribute(self) -> None:
        a = _CAttrib(self._attr_options, "pc_profile_attribute")
        self._check(_c.lib().pc_profile_attribute(
            self._handle(), ctypes.byref(a.opts) if self._attr_options else None))

    def totals(self) -> Totals:
        """The attribution's totals (computed on first use)."""
        L = _c.lib()
        t = _c.PcTotals()
        v = ctypes.c_double()
        by_class = {}
        with self._lock:
            self._attribute()
            h = self._handle()
            self._check(L.pc_profile_totals_sized(ctypes.byref(t),
                                                  ctypes.sizeof(t), h))
            for i in range(_c.PC_REGION_COUNT):
                self._check(L.pc_profile_class_total(ctypes.byref(v), h, i))
                by_class[RegionClass(i)] = v.value
        return Totals(t.total, t.in_program, t.attributed, t.outside,
                      t.excluded, by_class)

    def rows(self) -> List[Row]:
        """Attributed symbols in address order (see :meth:`top`)."""
        L = _c.lib()
        out = []
        r = _c.PcRow()
        with self._lock:
            total = self.totals().total
            h = self._handle()
            n = ctypes.c_size_t()
            self._check(L.pc_profile_row_count(ctypes.byref(n), h))
            for i in range(n.value):
                self._check(L.pc_profile_row_at_sized(ctypes.byref(r),
                                                      ctypes.sizeof(r), h, i))
                out.append(self._row(h, r, total))
        return out

    @staticmethod
    def _row(h: int, r: _c.PcRow, total: float) -> Row:
        s = _c.PcSymbol()
        raw = r.name
        if _c.lib().pc_profile_symbol_at(ctypes.byref(s), h, r.symbol) == 0:
            raw = s.name
        return Row(r.symbol, _s(r.name) or "", _seg(r.segment), r.address,
                   r.end, r.count, r.calls, r.self_calls,
                   r.count * 100.0 / total if total > 0 else 0.0,
                   _s(raw) or "")

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows())

    def top(self, n: Optional[int] = None) -> List[Row]:
        """Rows sorted as gprof sorts its flat profile (count descending,
        then calls descending, then raw name), the first n of them."""
        rows = sorted(self.rows(),
                      key=lambda r: (-r.count, -r.calls, r.raw_name))
        return rows if n is None else rows[:n]

    def lookup(self, address: int,
               segment: Optional[int] = None) -> Optional[Row]:
        """The row whose extent holds the address, or None."""
        L = _c.lib()
        r = _c.PcRow()
        with self._lock:
            self._attribute()
            h = self._handle()
            i = ctypes.c_size_t()
            rc = L.pc_profile_lookup(ctypes.byref(i), h,
                                     _c.PC_NOSEG if segment is None
                                     else segment, address)
            if rc == STATUS["PC_ENOTFOUND"]:
                return None
            self._check(rc)
            self._check(L.pc_profile_row_at_sized(ctypes.byref(r),
                                                  ctypes.sizeof(r), h, i.value))
            return self._row(h, r, self.totals().total)

    def callgraph(self, options: Options = None) -> CallGraph:
        """The call graph (gprof's cycles and propagation, Proff's
        inclusive times) as a plain copy.  options: attribution keys."""
        L = _c.lib()
        merged = dict(self._attr_options)
        merged.update(options or {})
        g = ctypes.c_void_p()
        nodes, edges = [], []
        a = _CAttrib(merged, "pc_profile_callgraph", ("callgraph-time",))
        c = _c.PcCallgraphOptions()
        L.pc_callgraph_options_init(ctypes.byref(c), 1)
        if merged:  # else the profile's attribution settings
            c.attrib = ctypes.pointer(a.opts)
        times = {"samples": 1, "flat": 2}
        t = a.extra.get("callgraph-time")
        if t is not None and t not in times:
            raise ProfcoreError(STATUS["PC_EUSAGE"],
                                "bad value '%s' for option 'callgraph-time' of "
                                "pc_profile_callgraph; expected one of: samples, flat" % t)
        c.time = times.get(t, 0)
        with self._lock:
            self._check(L.pc_profile_callgraph(ctypes.byref(g), self._handle(),
                                               ctypes.byref(c)))
            try:
                n = _c.PcCgNode()
                for i in range(L.pc_callgraph_node_count(g)):
                    if L.pc_callgraph_node_at_sized(
                            ctypes.byref(n), ctypes.sizeof(n), g, i) < 0:
                        raise ProfcoreError(STATUS["PC_ENOTFOUND"],
                                            "call-graph node %d" % i)
                    nodes.append(CallNode(
                        None if n.is_cycle else n.row, _s(n.name), n.cycle,
                        n.index, bool(n.listed), n.calls, n.self_calls,
                        n.time, n.self, n.children, n.htime, n.ftime,
                        n.next_member if n.has_next else None))
                e = _c.PcCgEdge()
                for i in range(L.pc_callgraph_edge_count(g)):
                    if L.pc_callgraph_edge_at_sized(
                            ctypes.byref(e), ctypes.sizeof(e), g, i) < 0:
                        raise ProfcoreError(STATUS["PC_ENOTFOUND"],
                                            "call-graph edge %d" % i)
                    edges.append(CallEdge(e.parent, e.child, e.count, e.self,
                                          e.children, e.htime, e.ftime))
                return CallGraph(tuple(nodes), tuple(edges),
                                 L.pc_callgraph_total(g),
                                 L.pc_callgraph_run_htime(g),
                                 L.pc_callgraph_dropped_arcs(g))
            finally:
                L.pc_callgraph_free(g)

    # -- reports --
    def render(self, report: Optional[str] = None,
               options: Options = None) -> str:
        """Renders a report (default "flat"; see :func:`report_names`) to a
        string.  options: report options, e.g. ``{"output-format": "csv"}``;
        the attribution options set with :meth:`attribute` apply too unless
        overridden here."""
        L = _c.lib()
        merged = dict(self._attr_options)
        merged.update(options or {})
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        with self._lock, _COptions(merged) as o:
            self._check(L.pc_profile_render(
                ctypes.byref(out), ctypes.byref(n), self._handle(),
                report.encode() if report else None, o.ptr))
            try:
                data = ctypes.string_at(out, n.value) if out.value else b""
            finally:
                L.pc_free(out)
        return data.decode("utf-8", "replace")

    def export(self, format: str, options: Options = None) -> bytes:
        """The attributed profile in another tool's format (see
        :func:`export_names`: "pprof", "speedscope", "folded", ...), as
        bytes since some formats are binary."""
        L = _c.lib()
        merged = dict(self._attr_options)
        merged.update(options or {})
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        with self._lock, _COptions(merged) as o:
            self._check(L.pc_profile_export(
                ctypes.byref(out), ctypes.byref(n), self._handle(),
                format.encode(), o.ptr))
            try:
                return ctypes.string_at(out, n.value) if out.value else b""
            finally:
                L.pc_free(out)

    def html(self, options: Options = None) -> str:
        """The self-contained HTML report: the page ``profcat -F html``
        writes (header, sortable flat table with intervals, regions, the
        flame view of the call paths, caller/callee tables, source lines).
        One file, no network; save it and open it in a browser.  options:
        as for :meth:`render` (e.g. ``{"ci": 90}``)."""
        return self.render("html", options)

    def svg(self, options: Options = None) -> str:
        """The static flame graph SVG: the ``svg`` export, the document
        ``profcat -e svg`` writes."""
        return self.export("svg", options).decode("utf-8")


# --------------------------------------------------------------------------
# Module functions

#: One file for :func:`load`: a path, or ``(path, format)`` or
#: ``(path, format, options)`` for a file that needs its own.
FileSpec = Union[PathLike, Tuple[PathLike, Optional[str]],
                 Tuple[PathLike, Optional[str], Options]]


def load(*files: FileSpec, format: Optional[str] = None,
         options: Options = None,
         registry: Optional[Registry] = None) -> Profile:
    """A new Profile with every file loaded, in order.

    format/options apply to every file given as a plain path; a tuple
    ``(path, format)`` or ``(path, format, options)`` sets them for that
    file alone, e.g. a raw dump and its map in one call::

        profcore.load(("dump.bin", "raw", {"width": 16}), "prog.map")

    On failure the partly built profile is closed and the error raised.
    """
    prof = Profile(registry)
    try:
        for spec in files:
            if isinstance(spec, tuple):
                if not 2 <= len(spec) <= 3:
                    raise TypeError("a file to load is a path, (path, "
                                    "format) or (path, format, options)")
                prof.load(*spec)
            else:
                prof.load(spec, format, options)
    except BaseException:
        prof.close()
        raise
    return prof


def report_names() -> List[str]:
    """Names accepted by :meth:`Profile.render`, "flat" first."""
    return list(reports())


def reports() -> Dict[str, str]:
    """Report names with their one-line descriptions, in library order."""
    L = _c.lib()
    out: Dict[str, str] = {}
    i = 0
    while True:
        name = L.pc_report_name_at(i)
        if name is None:
            return out
        out[name.decode()] = _s(L.pc_report_description_at(i)) or ""
        i += 1


def export_names() -> List[str]:
    """Formats accepted by :meth:`Profile.export` ("pprof", ...)."""
    L = _c.lib()
    out = []
    i = 0
    while True:
        name = L.pc_export_name_at(i)
        if name is None:
            return out
        out.append(name.decode())
        i += 1


def demangler_available() -> bool:
    """True if the library demangles C++ and Rust names (libiberty);
    False for a build without it (names stay mangled)."""
    return bool(_c.lib().pc_demangler_available())


def version() -> str:
    """Version of the loaded libprofcore, "MAJOR.MINOR.PATCH"."""
    return _c.lib().pc_version().decode()


def library_path() -> str:
    """File name of the shared library in use."""
    return _c.lib().path
