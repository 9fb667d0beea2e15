"""The two-sided Mann-Whitney U test of compare.py: exact distribution over the
observed (mid)ranks for small samples, normal approximation with tie correction
above."""
import math

EXACT_MAX_SAMPLES = 10     # exact U distribution when both sides have at most this many


def rank(values):
    """Midranks (1-based) of values; ties share the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney_u(x, y, exact=None):
    """Two-sided Mann-Whitney U test of samples x and y.

    Returns (U of x, p-value, method) with method "exact" or "normal". exact=None
    picks exact when both samples have at most EXACT_MAX_SAMPLES values. The exact
    p-value is the permutation distribution of the rank sum of x over the observed
    (mid)ranks, so it stays exact with ties; the normal approximation uses the tie
    corrected variance and a continuity correction of 0.5.
    """
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("Mann-Whitney U needs at least one value on each side")
    ranks = rank(list(x) + list(y))
    r1 = sum(ranks[:n1])
    u1 = r1 - n1 * (n1 + 1) / 2
    if exact is None:
        exact = n1 <= EXACT_MAX_SAMPLES and n2 <= EXACT_MAX_SAMPLES
    if exact:
        return u1, _exact_p(ranks, n1), "exact"
    n = n1 + n2
    mean = n1 * n2 / 2
    ties = {}
    for r in ranks:
        ties[r] = ties.get(r, 0) + 1
    tie_term = sum(t ** 3 - t for t in ties.values()) / (n * (n - 1)) if n > 1 else 0.0
    var = n1 * n2 / 12 * ((n + 1) - tie_term)
    if var <= 0:  # every value equal
        return u1, 1.0, "normal"
    z = max(abs(u1 - mean) - 0.5, 0.0) / math.sqrt(var)
    return u1, min(1.0, math.erfc(z / math.sqrt(2))), "normal"


def _exact_p(ranks, n1):
    """Two-sided p of the rank sum of the first n1 ranks under all C(n, n1) splits."""
    doubled = [int(round(2 * r)) for r in ranks]  # midranks are multiples of 1/2
    total = sum(doubled)
    # ways[k][s]: subsets of k of the ranks seen so far whose doubled sum is s
    ways = [[0] * (total + 1) for _ in range(n1 + 1)]
    ways[0][0] = 1
    for d in doubled:
        for k in range(n1, 0, -1):
            row, prev = ways[k], ways[k - 1]
            for s in range(total, d - 1, -1):
                if prev[s - d]:
                    row[s] += prev[s - d]
    dist = ways[n1]
    observed = sum(doubled[:n1])
    count = sum(dist)
    lower = sum(dist[: observed + 1])
    upper = sum(dist[observed:])
    return min(1.0, 2 * min(lower, upper) / count)
