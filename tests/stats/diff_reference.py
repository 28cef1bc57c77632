"""The diff's statistics computed again from their definitions
(docs/statistics.md ("Adjusted intervals, MDE and verdicts")), sharing no
code or closed form with libprofcore/statistics.c:

 - normal quantiles by bisection on math.erfc (profcore: Acklam's
   approximation refined by a Halley step);
 - the restricted maximum-likelihood proportions by bisection on the
   log-likelihood's derivative (profcore: Farrington and Manning's cubic);
 - Holm and Benjamini-Hochberg adjusted p-values from their definitions
   (min over subsets written out as running max / min over sorted ranks);
 - the score interval's ends by bisection on the score statistic.

test_diff_stats.py compares profcat diff -F csv with diff(); a one-off
Monte Carlo of the intervals' coverage used the same functions
(tests/realworld/SOURCES.md, "Diff statistics")."""
import math


def norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def norm_sf(x):
    return 0.5 * math.erfc(x / math.sqrt(2))


def quantile_upper(a):
    """x with P(Z > x) = a, by bisection."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if norm_sf(mid) > a:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def pooled_p(k1, n1, k2, n2):
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    z = (k2 / n2 - k1 / n1) / se if se > 0 else 0.0
    return min(1.0, 2 * norm_sf(abs(z))), z


def holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    adj, run = [0.0] * m, 0.0
    for j, i in enumerate(order):
        run = max(run, min(1.0, (m - j) * p[i]))
        adj[i] = run
    return adj


def bh(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    adj, run = [0.0] * m, 1.0
    for j in range(m - 1, -1, -1):
        i = order[j]
        run = min(run, m / (j + 1) * p[i])
        adj[i] = run
    return adj


def restricted_mle(k1, n1, k2, n2, d):
    """(before, after) maximizing the likelihood under after - before = d:
    the zero of the log-likelihood's derivative (decreasing: the
    log-likelihood is concave), by bisection."""
    def slope(pb):
        pa = pb + d
        g = 0.0
        for k, n, x in ((k1, n1, pb), (k2, n2, pa)):
            if k:
                g += k / x if x > 0 else math.inf
            if n - k:
                g -= (n - k) / (1 - x) if x < 1 else math.inf
        return g
    a, b = max(0.0, -d), min(1.0, 1.0 - d)
    for _ in range(100):
        m = (a + b) / 2
        if m <= a or m >= b:
            break
        if slope(m) > 0:
            a = m
        else:
            b = m
    pb = (a + b) / 2
    return pb, pb + d


def score(k1, n1, k2, n2, d):
    pb, pa = restricted_mle(k1, n1, k2, n2, d)
    num = k2 / n2 - k1 / n1 - d
    var = pb * (1 - pb) / n1 + pa * (1 - pa) / n2
    if var <= 0:
        return math.copysign(math.inf, num) if num else 0.0
    return num / math.sqrt(var)


def score_interval(k1, n1, k2, n2, z):
    dh = k2 / n2 - k1 / n1

    def root(t, a, b):  # score > t at a, < t at b
        for _ in range(64):
            m = (a + b) / 2
            if score(k1, n1, k2, n2, m) > t:
                a = m
            else:
                b = m
        return (a + b) / 2
    lo = dh if dh <= -1 else root(z, -1.0, dh)
    hi = dh if dh >= 1 else root(-z, dh, 1.0)
    return lo, hi


def diff(rows, n1, n2, level=95.0, correction="holm", threshold=1.0, power=80.0):
    """rows: [(name, k1, k2)] -> {name: dict of the CSV's columns as numbers}."""
    alpha = 1 - level / 100
    thr = threshold / 100
    m = len(rows)
    p = [pooled_p(k1, n1, k2, n2)[0] for _, k1, k2 in rows]
    adj = holm(p) if correction == "holm" else bh(p)
    sig = [a < alpha for a in adj]
    r = sum(sig)
    zpow = quantile_upper(1 - power / 100)
    out = {}
    for (name, k1, k2), pv, pa, s in zip(rows, p, adj, sig):
        if correction == "holm":
            ga = alpha / m
        else:
            ga = (r if s else r + 1) * alpha / m
        zc = quantile_upper(ga / 2)
        lo, hi = score_interval(k1, n1, k2, n2, zc)
        d = k2 / n2 - k1 / n1
        if correction == "holm" and s:
            if d < 0:
                hi = min(hi, 0.0)
            else:
                lo = max(lo, 0.0)
        pbar = (k1 + k2) / (n1 + n2)
        se = math.sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2))
        mde = (zc + zpow) * se
        more = None
        if s:
            verdict = "slower" if d > 0 else "faster"
        elif lo >= -thr and hi <= thr:
            verdict = "unchanged"
        else:
            verdict = "unresolved"
            f = math.inf
            if abs(d) > 0 and se > 0:
                f = (zc / (abs(d) / se)) ** 2
            if abs(d) < thr:
                f = min(f, max(((hi - d) / (thr - d)) ** 2, ((d - lo) / (thr + d)) ** 2))
            more = max(1, math.ceil((f - 1) * (n1 + n2)))
        out[name] = dict(p_value=pv, p_adjusted=pa, significant=int(s), ci_low_pp=100 * lo,
                         ci_high_pp=100 * hi, ci_level=100 * (1 - ga), mde_pp=100 * mde,
                         verdict=verdict, more_samples=more)
    return out
