#!/usr/bin/env python3
"""profcat on the DOS fixtures: exact reports, notes and errors.

Run from meson (PROFCAT, PC_SOURCE_ROOT, PC_HAVE_YAML).  With --dialects
only the cases that read user dialect files (they need libyaml: exit 77,
skipped, in a build without it).  `test_dos_cli.py --regen` rewrites
expected/ from the current output (review the diff by hand: the numbers
are derived in gen_fixtures.py).
"""
import os
import subprocess
import sys

ROOT = os.environ.get('PC_SOURCE_ROOT', os.path.join(os.path.dirname(__file__), '..', '..'))
PROFCAT = os.environ.get('PROFCAT', 'profcat')
HERE = os.path.join(ROOT, 'tests', 'dos')
FIX = os.path.join(HERE, 'fixtures')
EXPECTED = os.path.join(HERE, 'expected')

PRIMES = ['dosmap/mslink_basicdos_PRIMES.MAP', '-O', 'com', 'prf/PRIMES.PRF']
DEMO = ['prf/DEMO.MAP', 'prf/DEMO.PRF']

# name: (arguments, exit status); expected/<name>.out and .err
CASES = {
    'primes_com': (PRIMES, 0),
    'primes_bucket_start': (['--attribution', 'bucket-start'] + PRIMES, 0),
    'demo_exe': (DEMO, 0),
    'demo_bucket_start': (['--attribution', 'bucket-start'] + DEMO, 0),
    'demo_gzip': (['prf/DEMO.MAP', 'prf/DEMO.PRF.gz'], 0),
    'demo_absolute': (['-v', '-O', 'absolute', 'prf/DEMO.PRF',
                       '-O', 'load-address=0x0a50', 'prf/DEMO.MAP'], 0),
    'demo_csv': (['-F', 'csv'] + DEMO, 0),
    'wrap': (['prf/DEMO.MAP', 'prf/WRAP.PRF'], 0),
    # the same map serves a raw CS:IP dump (absolute linear addresses)
    'demo_csip_raw': (['--load-address', '0x0a50', 'prf/DEMO.MAP',
                       '-O', 'origin=0xa500', '-O', 'program-end=0xab00',
                       'prf/DEMO-CSIP.TXT'], 0),
    'verbose_notes': (['-v'] + PRIMES, 0),
    'symbols_clkdev': (['--list-symbols', 'dosmap/mslink_basicdos_CLKDEV.MAP'], 0),
    'trunc': (['prf/DEMO.MAP', 'prf/TRUNC.PRF'], 1),
    'trailing': (['prf/DEMO.MAP', 'prf/TRAILING.PRF'], 1),
    'trailing_gzip': (['prf/DEMO.MAP', '-f', 'prf', 'prf/TRAILING.PRF.gz'], 1),
    'badcount': (['-f', 'prf', 'prf/BADCOUNT.PRF'], 1),
    'badorder': (['-f', 'prf', 'prf/BADORDER.PRF'], 1),
}
HAVE_YAML = os.environ.get('PC_HAVE_YAML', '1') != '0'
# user dialect files (libyaml)
DIALECT_CASES = {
    'symbols_acme': (['--list-symbols', '-f', 'map', '-O', 'dialect=dialects/acme.yaml',
                      'dialects/acme.map'], 0),
    'dialect_bad_key': (['-f', 'map', '-O', 'dialect=dialects/bad-key.yaml',
                         'dosmap/mslink_basicdos_CLKDEV.MAP'], 2),
    'dialect_unknown': (['-f', 'map', '-O', 'dialect=lattice',
                         'dosmap/mslink_basicdos_CLKDEV.MAP'], 2),
}
if not HAVE_YAML:
    # what a build without libyaml says instead
    CASES['dialect_no_yaml'] = (['-f', 'map', '-O', 'dialect=dialects/acme.yaml',
                                 'dialects/acme.map'], 1)


def run(args, cwd=FIX):
    p = subprocess.run([PROFCAT] + args, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


# One fixture per built-in dialect: read with LF, CRLF and CRLF ending in
# DOS Ctrl-Z bytes (an editor's end-of-file mark, or a last 128-byte record
# padded with them), profcat prints the same bytes.
EOL_CASES = [
    ('mslink', 'dosmap/mslink_basicdos_CLKDEV.MAP', []),
    ('mslink', 'dosmap/mslink_basicdos_GWBASIC.MAP', []),
    ('mslink', 'dosmap/mslink_basicdos_PRIMES.MAP', ['-O', 'com', 'prf/PRIMES.PRF']),
    ('tlink', 'dosmap/tlink_proboard_TEST.MAP', []),
    ('wlink', 'dosmap/wlink_ifknot_test.map', []),
    ('optlink', 'optlink/LAYOUT.MAP', []),
    ('gnu-ld', 'gnumap/prog.map', []),
    ('nm', 'gnumap/prog.nm.txt', []),
    ('nm', 'gnumap/prog.nm-S.txt', []),
    ('nm-posix', 'gnumap/prog.nm-P.txt', []),
]


def line_endings():
    import tempfile
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for dialect, rel, more in EOL_CASES:
            data = open(os.path.join(FIX, rel), 'rb').read()
            lf = data.replace(b'\r\n', b'\n')
            crlf = lf.replace(b'\n', b'\r\n')
            outs = []
            for tag, body in (('lf', lf), ('crlf', crlf), ('ctrlz', crlf + b'\x1a' * 37),
                              ('ctrlz-noeol', crlf[:-2] + b'\x1a')):
                os.makedirs(os.path.join(tmp, tag), exist_ok=True)
                name = os.path.join(tag, os.path.basename(rel))
                with open(os.path.join(tmp, name), 'wb') as f:
                    f.write(body)
                args = ['-v', name] + [os.path.join(FIX, m) if '/' in m else m for m in more]
                if not more:
                    args.insert(0, '--list-symbols')
                rc, out, err = run(args, cwd=tmp)
                outs.append((tag, rc, out.replace(name, 'MAP'), err.replace(name, 'MAP')))
            want = outs[0]
            bad = [o for o in outs[1:] if o[1:] != want[1:]]
            if want[1] != 0 or 'dialect %s (detected)' % dialect not in want[3] or \
                    len(want[2].splitlines()) < 1:
                bad.append(want)
            if bad:
                failed += 1
                print('FAIL line endings', rel, [b[0] for b in bad])
                for tag, rc, out, err in [want] + bad:
                    print('---', tag, 'exit', rc)
                    print(err + out[:2000])
            else:
                print('ok line endings', dialect, rel, len(want[2].splitlines()), 'lines')
    return failed


def main():
    regen = '--regen' in sys.argv
    cases = CASES
    if '--dialects' in sys.argv:
        if not HAVE_YAML:
            print('SKIP: user dialects need libyaml (built with -Dyaml=disabled)')
            return 77
        cases = DIALECT_CASES
    failed = 0
    for name, (args, status) in sorted(cases.items()):
        rc, out, err = run(args)
        files = {'.out': out, '.err': err}
        if regen:
            for ext, text in files.items():
                path = os.path.join(EXPECTED, name + ext)
                if text:
                    with open(path, 'w') as f:
                        f.write(text)
                elif os.path.exists(path):
                    os.remove(path)
            print('regenerated', name, 'exit', rc)
            continue
        problems = []
        if rc != status:
            problems.append('exit status %d, expected %d' % (rc, status))
        for ext, text in files.items():
            path = os.path.join(EXPECTED, name + ext)
            want = open(path).read() if os.path.exists(path) else ''
            if text != want:
                problems.append('%s differs:\n--- expected\n%s--- got\n%s' % (ext, want, text))
        if problems:
            failed += 1
            print('FAIL', name, ' '.join(args))
            for pr in problems:
                print(pr)
        else:
            print('ok', name)
    if not regen and '--dialects' not in sys.argv:
        failed += line_endings()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
