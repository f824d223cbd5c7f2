"""The pairing engine of club leagues: which players sit at which tables, in which seats.

Pure Python (no Django): every function is a deterministic function of its arguments. Randomness
only breaks ties, through ``random.Random`` seeded from the ``seed`` argument and the round's
number (use ints, strings or tuples of them as seeds), so the same inputs give the same rounds
on every machine and Python version.

A *round* is a :class:`Round`: its tables, each an ordered tuple of player ids (the order is the
seat position, 0 first), and its byes (players without a table). A season's *history* is the list
of its rounds so far. Player ids can be anything hashable; when they are mutually comparable (ints,
strings) they are sorted first, so the order they are passed in does not matter.

Formats:

- :func:`round_robin` / :func:`next_round`: multiplayer round robin within a division. The rounds
  still to play are planned together: byes (only when unavoidable) to those with the fewest, a
  greedy first partition per round, then a search over all planned rounds for the most even
  pair-meeting counts (spread first); then seats, by bipartite edge colouring when all tables
  have one size (each player's seat counts within 1 of each other) and a search for the most
  even seat counts taking the history into account.
- :func:`swiss`: tables by current standing (consecutive players), avoiding players meeting again
  where a small displacement in rank allows it; seats by the Hungarian method on the history.
- :func:`reform`: after a dropout, keeps the played rounds and re-forms the future ones.

Table sizes come from :func:`table_sizes`: the league's table size is honoured; a division of
at least two tables' worth is seated with tables of size ±1 where the game allows; a smaller one
is never merged into one bigger table: one table of the league's size, or two smaller tables
where they seat everyone at less cost than the byes; the players left over get byes, rotated
fairly. The
fairness figures are :func:`pair_meetings`, :func:`seat_counts`, :func:`bye_counts` and their
spreads, summed up by :func:`fairness`. See docs/leagues.md.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

Player = Hashable

__all__ = [
    "Round",
    "table_sizes",
    "next_round",
    "round_robin",
    "swiss",
    "reform",
    "pair_meetings",
    "pair_spread",
    "seat_counts",
    "seat_spreads",
    "seat_spread",
    "bye_counts",
    "bye_spread",
    "fairness",
]

#: Swiss: local-search restarts per round (from seeded random partitions); the best is kept.
RESTARTS = 8
#: Round robin: local-search restarts of each round's greedy first partition.
GREEDY_RESTARTS = 3
#: Round robin: improvement moves per planned seat, for the partitions and for the seats.
EFFORT = 200
#: Threshold accepting: the largest objective increase accepted at the start (falls to 0).
PAIR_THRESHOLD = 40
SEAT_THRESHOLD = 2000
#: Weight of the spread (max - min) in the improvement objectives: it comes first.
SPREAD_WEIGHT = 1000
#: The band costs' outlier term (see ``_band_costs``).
OUTLIER_WEIGHT = 4
OUTLIER_BASE = 4


@dataclass(frozen=True)
class Round:
    """One round: ``tables`` (each an ordered tuple of players, index = seat position) and
    ``byes`` (players without a table this round). Lists are accepted and stored as tuples."""

    tables: tuple[tuple[Player, ...], ...]
    byes: tuple[Player, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(tuple(table) for table in self.tables))
        object.__setattr__(self, "byes", tuple(self.byes))

    @property
    def players(self) -> list[Player]:
        """Everyone in the round: seated players table by table, then the byes."""
        return [p for table in self.tables for p in table] + list(self.byes)


def _as_round(item) -> Round:
    if isinstance(item, Round):
        return item
    return Round(tables=item)  # a plain list of tables


def _canonical(players: Iterable[Player]) -> list[Player]:
    """Distinct players, sorted when they are comparable (else in the given order)."""
    seen: dict[Player, None] = dict.fromkeys(players)
    try:
        return sorted(seen)
    except TypeError:
        return list(seen)


def _check_sizes(size: int, min_size: int | None, max_size: int | None) -> tuple[int, int]:
    min_size = size if min_size is None else min_size
    max_size = size if max_size is None else max_size
    if not 1 <= min_size <= size <= max_size:
        raise ValueError(f"need 1 <= min_size <= size <= max_size, got {min_size}, {size}, {max_size}")
    return min_size, max_size


# --------------------------------------------------------------------------------------------
# Table sizes


# What a player sitting out a round costs, against a seat of deviation from the league's table
# size (1): more than one seat (5 at tables of 3 play 3 + 2, not 3 and two byes), less than two
# (4 at tables of 3 play 3 and a bye, not two tables of 2).
BYE_COST = 1.5


def table_sizes(
    n_players: int,
    size: int,
    min_size: int | None = None,
    max_size: int | None = None,
    *,
    max_deviation: int | None = 1,
) -> list[int]:
    """How to split ``n_players`` into tables: a list of table sizes, largest first; the
    ``n_players - sum(result)`` players left over get a bye.

    ``size`` is the league's table size, ``[min_size, max_size]`` what the game allows (default:
    exactly ``size``). The league's size is honoured:

    - A division that does not hold two tables' worth (``n_players < 2 * size``) is never merged
      into one table bigger than ``size``. It plays one table of ``size`` (byes for the rest), or
      two smaller tables within ``size - max_deviation`` and the game's range when they seat
      everyone at a lower cost, where a seat of deviation from ``size`` costs 1 and a bye
      ``BYE_COST`` (1.5): 4 players at tables of 3 play a table of 3 with a bye (not 2 + 2, not
      one table of 4 that is the whole division); 5 at tables of 3 play 3 + 2; 7 at tables of 4
      play 4 + 3. With fewer than ``size`` players: one smaller table within ``max_deviation``
      and the game's range, else none.
    - From two tables' worth on, tables of ``size ± max_deviation`` (within the game's range)
      seat everyone where any such split exists; otherwise as many as possible, the rest byes.
      Among the splits seating the most: the smallest largest deviation from ``size``, then the
      smallest total deviation, then fewer tables.

    ``max_deviation`` is 1 by default (the issue's "tables of size ±1 where the engine allows,
    else byes"), 0 for a league of exact table sizes, ``None`` for any size the game allows.

    >>> table_sizes(4, 3, 2, 4), table_sizes(5, 3, 2, 4), table_sizes(7, 3, 2, 4), table_sizes(8, 3, 2, 4)
    ([3], [3, 2], [4, 3], [3, 3, 2])
    >>> table_sizes(9, 4, 2, 4), table_sizes(2, 3, 2, 4), table_sizes(7, 3, 2, 4, max_deviation=0)
    ([3, 3, 3], [2], [3, 3])
    """
    min_size, max_size = _check_sizes(size, min_size, max_size)
    if n_players < 0:
        raise ValueError("n_players must not be negative")
    if max_deviation is not None and max_deviation < 0:
        raise ValueError("max_deviation must not be negative")
    lo, hi = min_size, max_size
    if max_deviation is not None:
        lo, hi = max(lo, size - max_deviation), min(hi, size + max_deviation)
    if n_players < 2 * size:
        # Not two tables' worth: never one table bigger than the league's size. One table of
        # the league's size and byes, or two smaller tables that seat everyone if cheaper.
        seated = min(n_players, size)
        one = [seated] if seated >= lo else []
        one_cost = BYE_COST * (n_players - sum(one)) + sum(abs(s - size) for s in one)
        q, r = divmod(n_players, 2)
        two = [q + r, q]
        if n_players >= 2 and all(lo <= s <= min(hi, size) for s in two) \
                and sum(abs(s - size) for s in two) < one_cost:
            return two
        return one
    for seated in range(n_players, lo - 1, -1):
        best: tuple[tuple[int, int, int], list[int]] | None = None
        for tables in range(max(-(-seated // hi), 2), seated // lo + 1):
            # With a fixed number of tables, the most even split minimises both deviations.
            q, r = divmod(seated, tables)
            sizes = [q + 1] * r + [q] * (tables - r)
            deviations = [abs(s - size) for s in sizes]
            key = (max(deviations), sum(deviations), tables)
            if best is None or key < best[0]:
                best = (key, sizes)
        if best is not None:
            return best[1]
    return [size]  # unreachable: n_players >= 2 * size always seats two tables of ``size``


# --------------------------------------------------------------------------------------------
# Internal bookkeeping of a history, for the players being paired


class _Stats:
    """Meetings, seat counts, byes and tables played of ``players`` (indices 0..n-1)."""

    def __init__(self, players: Sequence[Player], history: Sequence[Round], width: int) -> None:
        self.players = list(players)
        self.index = {p: i for i, p in enumerate(self.players)}
        n = len(self.players)
        width = max([width] + [len(t) for rnd in history for t in rnd.tables])
        self.meet = [[0] * n for _ in range(n)]
        self.seats = [[0] * width for _ in range(n)]
        self.byes = [0] * n
        self.played = [0] * n
        for rnd in history:
            self.add(rnd)

    def add(self, rnd: Round) -> None:
        index = self.index
        self.add_ids(
            [[index.get(p) for p in table] for table in rnd.tables],
            [index[p] for p in rnd.byes if p in index],
        )

    def add_ids(self, tables: Sequence[Sequence[int | None]], byes: Sequence[int]) -> None:
        """Count a round given by indices (``None`` for someone not among the players)."""
        for ids in tables:
            for row in self.seats:
                if len(row) < len(ids):
                    row.extend([0] * (len(ids) - len(row)))
            for pos, i in enumerate(ids):
                if i is not None:
                    self.seats[i][pos] += 1
                    self.played[i] += 1
            for a, b in itertools.combinations([i for i in ids if i is not None], 2):
                self.meet[a][b] += 1
                self.meet[b][a] += 1
        for i in byes:
            self.byes[i] += 1

    def seat_cost_matrix(self, members: Sequence[int]) -> list[list[int]]:
        """Cost of member i in seat j: squared excess of that seat's count over the member's
        least-used seat at a table of this size (0 when the seat is one of its least used)."""
        k = len(members)
        rows = []
        for i in members:
            counts = self.seats[i][:k]
            low = min(counts)
            rows.append([(c - low) * (c - low + 1) for c in counts])
        return rows


def _assign(cost: list[list[int]]) -> list[int]:
    """Hungarian method: a permutation ``col`` minimising ``sum(cost[i][col[i]])`` (square)."""
    n = len(cost)
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    match = [0] * (n + 1)  # match[j] = row (1-based) in column j
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = match[j0]
            delta = inf
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while True:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
            if j0 == 0:
                break
    col = [0] * n
    for j in range(1, n + 1):
        col[match[j] - 1] = j - 1
    return col


def _seat_order(stats: _Stats, members: list[int], rng: random.Random) -> list[int]:
    """Members in seat order, minimising the seat cost; ties fall to the seeded shuffle."""
    members = list(members)
    rng.shuffle(members)
    col = _assign(stats.seat_cost_matrix(members))
    order = [0] * len(members)
    for i, j in enumerate(col):
        order[j] = members[i]
    return order


def _local_search(groups: list[list[int]], cost) -> tuple[int, list[list[int]]]:
    """Swap players between tables while a swap lowers the total ``cost(table_no, members)``."""
    costs = [cost(t, frozenset(g)) for t, g in enumerate(groups)]
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            ga, gb = groups[a], groups[b]
            for ia, ib in itertools.product(range(len(ga)), range(len(gb))):
                x, y = ga[ia], gb[ib]
                na = frozenset(ga[:ia] + [y] + ga[ia + 1 :])
                nb = frozenset(gb[:ib] + [x] + gb[ib + 1 :])
                ca, cb = cost(a, na), cost(b, nb)
                if ca + cb < costs[a] + costs[b]:
                    ga[ia], gb[ib] = y, x
                    costs[a], costs[b] = ca, cb
                    improved = True
    return sum(costs), groups


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    groups, start = [], 0
    for s in sizes:
        groups.append(list(order[start : start + s]))
        start += s
    return groups


def _rng(seed, round_no: int, what: str) -> random.Random:
    return random.Random(f"hanseweb.leagues.pairing/{what}/{seed!r}/{round_no}")


# --------------------------------------------------------------------------------------------
# Round robin: byes and table sizes, then partitions (who meets whom), then seats


#: Byes: the most candidate sets of players tied for the last byes that are compared.
BYE_CHOICES = 5000


def _byes_and_sizes(stats, n, size, min_size, max_size, max_deviation, rng):
    """The table sizes and the players with a bye: the fewest byes so far first, then the most
    tables played; among players still tied, the set that leaves the seated players with the
    fewest earlier meetings (sum of squares over the seated pairs: in a division of one table
    the bye decides who meets whom), then by draw."""
    sizes = table_sizes(n, size, min_size, max_size, max_deviation=max_deviation)
    n_byes = n - sum(sizes)
    draw = list(range(n))
    rng.shuffle(draw)
    tiebreak = {i: k for k, i in enumerate(draw)}
    key = {i: (stats.byes[i], -stats.played[i]) for i in range(n)}
    by_priority = sorted(range(n), key=lambda i: (key[i], tiebreak[i]))
    if n_byes == 0:
        return sizes, []
    edge = key[by_priority[n_byes - 1]]
    sure = [i for i in by_priority if key[i] < edge]
    tied = [i for i in by_priority if key[i] == edge]
    need = n_byes - len(sure)
    if len(sizes) == 1 and 0 < need < len(tied):
        meet = stats.meet
        best = None
        for count, chosen in enumerate(itertools.combinations(tied, need)):
            if count >= BYE_CHOICES:
                break
            out = set(sure) | set(chosen)
            seated = [i for i in range(n) if i not in out]
            cost = sum(meet[a][b] ** 2 for a, b in itertools.combinations(seated, 2))
            if best is None or cost < best[0]:
                best = (cost, list(chosen))
        return sizes, sorted(sure + best[1])
    return sizes, sorted(by_priority[:n_byes])


def _even_squares(total: int, buckets: int) -> int:
    """The least sum of squares of ``buckets`` non-negative integers summing to ``total``."""
    if buckets <= 0:
        return 0
    q, r = divmod(total, buckets)
    return r * (q + 1) ** 2 + (buckets - r) * q * q


def _band_costs(total: int, buckets: int, top: int) -> list[int]:
    """Cost of a count 0..top when ``total`` is shared by ``buckets`` counts: its square plus
    ``OUTLIER_WEIGHT * (OUTLIER_BASE ** d - 1)``, d = its distance outside the band [q, q+1]
    (just q when ``total`` divides evenly) that the most even counts keep to. Convex; the
    square evens counts out, the exponential term pushes hardest on the extremes (the spread).
    The sum over all counts is least, ``_even_squares(total, buckets)``, exactly when every count
    is in the band, i.e. when the spread is at most 1."""
    q, r = divmod(total, max(buckets, 1))
    high = q + 1 if r else q
    costs = []
    for c in range(top + 1):
        d = q - c if c < q else max(c - high, 0)
        costs.append(c * c + OUTLIER_WEIGHT * (OUTLIER_BASE**d - 1))
    return costs


def _greedy_partition(meet, seated: list[int], sizes: list[int], rng, restarts: int) -> list[list[int]]:
    """One round's tables chosen on the meetings so far: local search (from seeded random
    starts) for the partition with the least sum of squared earlier meetings of co-table pairs."""
    if len(sizes) <= 1:
        return _cut(seated, sizes)
    memo: dict[frozenset, int] = {}

    def cost(_table_no: int, members: frozenset) -> int:
        value = memo.get(members)
        if value is None:
            ids = sorted(members)
            value = memo[members] = sum(meet[a][b] ** 2 for a, b in itertools.combinations(ids, 2))
        return value

    best: tuple[int, list[list[int]]] | None = None
    for _ in range(max(1, restarts)):
        order = list(seated)
        rng.shuffle(order)
        found = _local_search(_cut(order, sizes), cost)
        if best is None or found[0] < best[0]:
            best = found
    return best[1]


class _Spread:
    """The histogram of a set of counts, to follow their least (``lo``), largest (``hi``) and
    spread (``value``) as they change."""

    def __init__(self, counts: Iterable[int], top: int) -> None:
        self.hist = [0] * (top + 2)
        for c in counts:
            self.hist[c] += 1
        self.lo = next((c for c, h in enumerate(self.hist) if h), 0)
        self.hi = max((c for c, h in enumerate(self.hist) if h), default=0)

    def move(self, old: int, new: int) -> None:
        hist = self.hist
        hist[old] -= 1
        hist[new] += 1
        self.lo = min(self.lo, new)
        self.hi = max(self.hi, new)
        while not hist[self.lo]:
            self.lo += 1
        while not hist[self.hi]:
            self.hi -= 1

    @property
    def value(self) -> int:
        return self.hi - self.lo


def _improve_partitions(meet, plan: list[list[list[int]]], rng, iterations: int) -> list[list[list[int]]]:
    """Improve the partitions of all planned rounds together, by threshold accepting.

    The objective is ``SPREAD_WEIGHT`` times the spread of the meeting counts over all pairs
    (history and plan) plus the sum of their :func:`_band_costs`: first the spread, then the
    evenness. A move swaps two players of one planned round between their tables. ``meet`` must
    already count the plan; it is kept up to date (and ends counting the returned plan)."""
    n = len(meet)
    slots = [[(t, i) for t, table in enumerate(tables) for i in range(len(table))] for tables in plan]
    movable = [r for r, tables in enumerate(plan) if len(tables) >= 2]
    if not movable or iterations <= 0 or n < 2:
        return plan
    total = sum(map(sum, meet)) // 2
    pairs = n * (n - 1) // 2
    top = len(plan) + max(max(row) for row in meet) + 1
    cost = _band_costs(total, pairs, top)
    spread = _Spread((meet[a][b] for a in range(n) for b in range(a + 1, n)), top)
    bound = SPREAD_WEIGHT * (1 if total % pairs else 0) + _even_squares(total, pairs)
    current = SPREAD_WEIGHT * spread.value + sum(cost[meet[a][b]] for a in range(n) for b in range(a + 1, n))
    best, best_plan = current, [[list(t) for t in tables] for tables in plan]

    def swap(tables, ta, ia, tb, ib) -> None:
        x, y = tables[ta][ia], tables[tb][ib]
        mx, my = meet[x], meet[y]
        for z in tables[ta]:
            if z != x:
                spread.move(mx[z], mx[z] - 1)
                spread.move(my[z], my[z] + 1)
                mx[z] -= 1
                meet[z][x] -= 1
                my[z] += 1
                meet[z][y] += 1
        for w in tables[tb]:
            if w != y:
                spread.move(my[w], my[w] - 1)
                spread.move(mx[w], mx[w] + 1)
                my[w] -= 1
                meet[w][y] -= 1
                mx[w] += 1
                meet[w][x] += 1
        tables[ta][ia], tables[tb][ib] = y, x

    for it in range(iterations):
        if best <= bound:
            break
        threshold = PAIR_THRESHOLD * (iterations - 1 - it) // iterations
        r = movable[rng.randrange(len(movable))]
        slot = slots[r]
        (ta, ia), (tb, ib) = slot[rng.randrange(len(slot))], slot[rng.randrange(len(slot))]
        if ta == tb:
            continue
        tables = plan[r]
        x, y = tables[ta][ia], tables[tb][ib]
        mx, my = meet[x], meet[y]
        delta = 0
        for z in tables[ta]:
            if z != x:
                delta += cost[mx[z] - 1] - cost[mx[z]] + cost[my[z] + 1] - cost[my[z]]
        for w in tables[tb]:
            if w != y:
                delta += cost[my[w] - 1] - cost[my[w]] + cost[mx[w] + 1] - cost[mx[w]]
        if delta - 2 * SPREAD_WEIGHT > threshold:  # the spread moves by 2 at most
            continue
        before = spread.value
        swap(tables, ta, ia, tb, ib)
        delta += SPREAD_WEIGHT * (spread.value - before)
        if delta > threshold:
            swap(tables, ta, ia, tb, ib)  # undo: the same swap again (the players changed places)
            continue
        current += delta
        if current < best:
            best = current
            best_plan = [[list(t) for t in tabs] for tabs in plan]
    # ``meet`` follows the last accepted plan; make it count the best one.
    for tables, best_tables in zip(plan, best_plan):
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                meet[a][b] -= 1
                meet[b][a] -= 1
        for table in best_tables:
            for a, b in itertools.combinations(table, 2):
                meet[a][b] += 1
                meet[b][a] += 1
    return best_plan


def _colour_seats(plan: list[list[list[int]]], k: int, rng) -> list[list[list[int]]]:
    """Seats for a plan whose tables all have ``k`` players, by bipartite edge colouring.

    Each player's planned tables are cut into consecutive blocks of ``k``; the graph joining
    the planned tables to the player blocks has degree at most ``k``, so (König) its edges can
    be coloured with ``k`` colours, every table getting each colour once: colour = seat. Every
    block then holds distinct seats, so in the plan each player's count per seat differs by at
    most 1 after every round. (The history is left to :func:`_improve_seats`.)"""
    edges: list[tuple[int, int]] = []
    block_ids: dict[tuple[int, int], int] = {}
    player_of: list[int] = []
    seen: dict[int, int] = {}
    instances = []
    for tables in plan:
        for table in tables:
            left = len(instances)
            instances.append(table)
            for p in rng.sample(table, len(table)):  # ties between colourings by seeded draw
                block = block_ids.setdefault((p, seen.get(p, 0) // k), len(block_ids))
                if block == len(player_of):
                    player_of.append(p)
                seen[p] = seen.get(p, 0) + 1
                edges.append((left, block))
    at_left = [[-1] * k for _ in instances]
    at_right = [[-1] * k for _ in block_ids]
    colour = [-1] * len(edges)

    def put(e: int, c: int) -> None:
        colour[e] = c
        at_left[edges[e][0]][c] = e
        at_right[edges[e][1]][c] = e

    for e, (u, v) in enumerate(edges):
        a = at_left[u].index(-1)
        b = at_right[v].index(-1)
        if at_right[v][a] != -1:
            # Swap colours a and b along the a/b path from v; it cannot reach u (bipartite).
            path, node, on_right, c = [], v, True, a
            while True:
                e2 = (at_right if on_right else at_left)[node][c]
                if e2 == -1:
                    break
                path.append(e2)
                node = edges[e2][0] if on_right else edges[e2][1]
                on_right, c = not on_right, (b if c == a else a)
            for e2 in path:
                c2 = colour[e2]
                at_left[edges[e2][0]][c2] = -1
                at_right[edges[e2][1]][c2] = -1
            for e2 in path:
                put(e2, b if colour[e2] == a else a)
        put(e, a)
    seat_of = rng.sample(range(k), k)  # which colour is which seat, by seeded draw
    ordered = [[[None] * k for _ in tables] for tables in plan]
    instance = [(r, t) for r, tables in enumerate(plan) for t in range(len(tables))]
    for e, (left, block) in enumerate(edges):
        r, t = instance[left]
        ordered[r][t][seat_of[colour[e]]] = player_of[block]
    return ordered


def _greedy_seats(seats, plan: list[list[list[int]]], rng) -> list[list[list[int]]]:
    """Seats round by round: each table by the Hungarian method on the counts so far (a seat
    costs its squared excess over the player's least-used seat at a table of that size)."""
    seats = [list(row) for row in seats]
    ordered = []
    for tables in plan:
        round_tables = []
        for table in tables:
            members = list(table)
            rng.shuffle(members)
            matrix = []
            for i in members:
                counts = seats[i][: len(members)]
                low = min(counts)
                matrix.append([(c - low) * (c - low + 1) for c in counts])
            col = _assign(matrix)
            seated = [0] * len(members)
            for i, j in enumerate(col):
                seated[j] = members[i]
                seats[members[i]][j] += 1
            round_tables.append(seated)
        ordered.append(round_tables)
    return ordered


def _improve_seats(seats, plan: list[list[list[int]]], rng, iterations: int):
    """Improve the seats of all planned rounds together.

    The objective is a sum over players: ``SPREAD_WEIGHT * (4**s - 1) / 3`` for the player's
    seat spread s (over the positions all their tables have, 0..m-1 with m the smallest, as in
    :func:`seat_spreads`; steep, so one player at 2 weighs more than four at 1), plus the
    :func:`_band_costs` of their seat counts (history and plan). First threshold accepting with
    moves that swap the seats of two players at one planned table, then sweeps that re-seat one
    table at a time optimally (Hungarian method; exact, the objective being a sum over players)
    until no table improves. ``seats`` counts the history only.
    Returns (objective, plan, a lower bound of the objective)."""
    history = [list(row) for row in seats]
    seats = [list(row) for row in seats]
    smallest = [len(row) for row in seats]
    for tables in plan:
        for table in tables:
            for pos, p in enumerate(table):
                seats[p][pos] += 1
                smallest[p] = min(smallest[p], len(table))
    plan = [[list(t) for t in tables] for tables in plan]
    top = max([0] + [sum(row) for row in seats]) + 1
    band = [_band_costs(sum(row), len(row), top) for row in seats]
    spread_cost = [SPREAD_WEIGHT * (4**s - 1) // 3 for s in range(top + 1)]

    def player_cost(p: int) -> int:
        row = seats[p]
        head = row[: smallest[p]]
        return spread_cost[max(head) - min(head) if head else 0] + sum(band[p][c] for c in row)

    costs = [player_cost(p) for p in range(len(seats))]
    current = sum(costs)
    # A player whose tables all have every seat cannot do better than spread 1 when their
    # tables are not a multiple of the seats; the band costs cannot do better than even counts.
    bound = sum(
        spread_cost[int(smallest[p] == len(row) and sum(row) % len(row) != 0)]
        + _even_squares(sum(row), len(row))
        for p, row in enumerate(seats)
    )
    movable = [(r, t) for r, tables in enumerate(plan) for t, table in enumerate(tables) if len(table) >= 2]
    best, best_plan = current, [[list(t) for t in tables] for tables in plan]

    def swap(table, ia, ib) -> int:
        x, y = table[ia], table[ib]
        seats[x][ia] -= 1
        seats[x][ib] += 1
        seats[y][ib] -= 1
        seats[y][ia] += 1
        table[ia], table[ib] = y, x
        before = costs[x] + costs[y]
        costs[x], costs[y] = player_cost(x), player_cost(y)
        return costs[x] + costs[y] - before

    for it in range(iterations if movable else 0):
        if best <= bound:
            break
        threshold = SEAT_THRESHOLD * (iterations - 1 - it) // iterations
        r, t = movable[rng.randrange(len(movable))]
        table = plan[r][t]
        ia, ib = rng.randrange(len(table)), rng.randrange(len(table))
        if ia == ib:
            continue
        delta = swap(table, ia, ib)
        if delta > threshold:
            swap(table, ia, ib)  # undo
            continue
        current += delta
        if current < best:
            best = current
            best_plan = [[list(t) for t in tabs] for tabs in plan]

    # Sweeps from the best plan: re-seat each table optimally given all the others.
    if best > bound and movable:
        plan = best_plan
        for p, row in enumerate(seats):
            row[:] = history[p]
        for tables in plan:
            for table in tables:
                for pos, p in enumerate(table):
                    seats[p][pos] += 1
        costs[:] = [player_cost(p) for p in range(len(seats))]
        current = sum(costs)
        improved = True
        while improved and current > bound:
            improved = False
            for r, t in movable:
                table = plan[r][t]
                k = len(table)
                for pos, p in enumerate(table):
                    seats[p][pos] -= 1
                base = [player_cost(p) for p in table]
                matrix = []
                for i, p in enumerate(table):
                    row = []
                    for j in range(k):
                        seats[p][j] += 1
                        row.append(player_cost(p) - base[i])
                        seats[p][j] -= 1
                    matrix.append(row)
                col = _assign(matrix)
                new_value = sum(matrix[i][col[i]] for i in range(k))
                old_value = sum(matrix[i][i] for i in range(k))
                if new_value < old_value:
                    seated = [0] * k
                    for i, j in enumerate(col):
                        seated[j] = table[i]
                    table[:] = seated
                    improved = True
                for pos, p in enumerate(table):
                    seats[p][pos] += 1
                    costs[p] = player_cost(p)
            current = sum(costs)
        best, best_plan = current, plan
    return best, best_plan, bound


def round_robin(
    players: Iterable[Player],
    rounds: int,
    size: int,
    min_size: int | None = None,
    max_size: int | None = None,
    seed: object = 0,
    history: Sequence[Round] | None = None,
    *,
    max_deviation: int | None = 1,
    effort: int | None = None,
) -> list[Round]:
    """``rounds`` further rounds of a multiplayer round robin of ``players`` after ``history``.

    ``history`` holds the earlier rounds, possibly with players no longer taking part; their
    games still count for the others' meetings and seats. Returns only the new rounds.

    1. Round by round, the sizes of :func:`table_sizes`; byes (only when it leaves players over)
       to the players with the fewest byes so far, then the most tables played, then by draw.
    2. Who meets whom: a greedy partition per round, then all planned rounds improved together
       (:func:`_improve_partitions`) towards even meeting counts over all pairs.
    3. Seats: when every planned table has the same size, a bipartite edge colouring (seat
       spread at most 1 per player from the plan alone), and the greedy per-round Hungarian
       assignment; each improved against the history's counts (:func:`_improve_seats`), the better
       one kept.

    ``effort`` (default ``EFFORT``) scales the number of improvement moves per planned seat.
    """
    history = [_as_round(r) for r in (history or [])]
    min_size, max_size = _check_sizes(size, min_size, max_size)
    players = _canonical(players)
    stats = _Stats(players, history, max_size)
    rng = _rng(seed, len(history), "round-robin")
    effort = EFFORT if effort is None else effort
    n = len(players)
    history_seats = [list(row) for row in stats.seats]
    plan, byes = [], []
    for _ in range(rounds):
        sizes, bye_ids = _byes_and_sizes(stats, n, size, min_size, max_size, max_deviation, rng)
        seated = [i for i in range(n) if i not in set(bye_ids)]
        tables = _greedy_partition(stats.meet, seated, sizes, rng, GREEDY_RESTARTS)
        stats.add_ids(tables, bye_ids)
        plan.append(tables)
        byes.append(bye_ids)
    seats_in_plan = sum(len(t) for tables in plan for t in tables)
    plan = _improve_partitions(stats.meet, plan, rng, effort * seats_in_plan)

    sizes_used = {len(t) for tables in plan for t in tables}
    candidates = []
    if len(sizes_used) == 1:
        (k,) = sizes_used
        candidates.append(lambda: _colour_seats(plan, k, rng))
    candidates.append(lambda: _greedy_seats(history_seats, plan, rng))
    best = None
    for candidate in candidates:
        found = _improve_seats(history_seats, candidate(), rng, effort * seats_in_plan)
        if best is None or found[0] < best[0]:
            best = found
        if best[0] <= best[2]:
            break
    plan = best[1]
    return [
        Round(
            tables=tuple(tuple(players[i] for i in table) for table in tables),
            byes=tuple(players[i] for i in bye_ids),
        )
        for tables, bye_ids in zip(plan, byes)
    ]


def next_round(
    players: Iterable[Player],
    size: int,
    min_size: int | None = None,
    max_size: int | None = None,
    seed: object = 0,
    history: Sequence[Round] | None = None,
    *,
    rounds_left: int = 1,
    max_deviation: int | None = 1,
    effort: int | None = None,
) -> Round:
    """The next round-robin round after ``history``, for a round's start without a stored plan:
    the first round of :func:`round_robin` planning the ``rounds_left`` rounds still to play
    (this one included), so that it leaves room to balance the rounds after it."""
    return round_robin(
        players, rounds_left, size, min_size, max_size, seed, history,
        max_deviation=max_deviation, effort=effort,
    )[0]


def reform(
    schedule: Sequence[Round],
    dropped: Iterable[Player],
    played: int,
    size: int,
    min_size: int | None = None,
    max_size: int | None = None,
    seed: object = 0,
    *,
    players: Iterable[Player] | None = None,
    max_deviation: int | None = 1,
    effort: int | None = None,
) -> list[Round]:
    """The season ``schedule`` after ``dropped`` players leave once ``played`` rounds were played.

    The first ``played`` rounds are returned unchanged; the remaining ``len(schedule) - played``
    rounds are re-formed by :func:`round_robin` for the remaining players (``players``, default:
    everyone in ``schedule``), continuing from the played rounds (their meetings, seats and byes).
    """
    schedule = [_as_round(r) for r in schedule]
    if not 0 <= played <= len(schedule):
        raise ValueError(f"played must be within 0..{len(schedule)}")
    gone = set(dropped)
    everyone = players if players is not None else (p for rnd in schedule for p in rnd.players)
    remaining = [p for p in _canonical(everyone) if p not in gone]
    kept = schedule[:played]
    return kept + round_robin(
        remaining, len(schedule) - played, size, min_size, max_size, seed, kept,
        max_deviation=max_deviation, effort=effort,
    )


# --------------------------------------------------------------------------------------------
# Swiss


def swiss(
    standings: Mapping[Player, float] | Sequence[Player],
    history: Sequence[Round] | None,
    size: int,
    min_size: int | None = None,
    max_size: int | None = None,
    seed: object = 0,
    *,
    max_deviation: int | None = 1,
    repeat_weight: int | None = None,
    restarts: int = RESTARTS,
) -> Round:
    """A Swiss round: tables of players of similar standing, avoiding repeat meetings.

    ``standings`` is either a mapping player -> points (equal points are ordered by seeded draw)
    or a sequence of players already in standing order, best first (the caller's tie-breaks).
    Tables are consecutive slices of that order (table 0 the top table); the local search then
    swaps players between tables to lower ``repeat_weight`` (default: the number of players) per
    earlier meeting of co-table players plus, per player, how many ranks it sits outside its
    natural table's slice. So a repeat meeting is avoided whenever moving players by fewer than
    ``repeat_weight`` ranks in total avoids it. Byes (only when no split exists) go to the
    lowest-ranked players among those with the fewest byes. Seats are balanced as in round robin.
    """
    history = [_as_round(r) for r in (history or [])]
    min_size, max_size = _check_sizes(size, min_size, max_size)
    round_no = len(history)
    rng = _rng(seed, round_no, "swiss")
    if isinstance(standings, Mapping):
        draw = _canonical(standings)
        rng.shuffle(draw)
        position = {p: k for k, p in enumerate(draw)}
        order = sorted(draw, key=lambda p: (-standings[p], position[p]))
    else:
        order = list(dict.fromkeys(standings))
    n = len(order)
    stats = _Stats(order, history, max_size)  # index = rank
    sizes = table_sizes(n, size, min_size, max_size, max_deviation=max_deviation)
    n_byes = n - sum(sizes)
    bye_ids = set(sorted(range(n), key=lambda i: (stats.byes[i], -i))[:n_byes])
    seated = [i for i in range(n) if i not in bye_ids]  # by rank
    weight = n if repeat_weight is None else repeat_weight

    # The natural slice of ranks (positions among the seated) of each table.
    slices, start = [], 0
    for s in sizes:
        slices.append((start, start + s - 1))
        start += s
    place = {i: k for k, i in enumerate(seated)}
    memo: dict[tuple[int, frozenset], int] = {}

    def cost(table_no: int, members: frozenset) -> int:
        key = (table_no, members)
        value = memo.get(key)
        if value is None:
            lo, hi = slices[table_no]
            ids = sorted(members)
            repeats = sum(stats.meet[a][b] for a, b in itertools.combinations(ids, 2))
            displacement = sum(max(lo - place[i], 0, place[i] - hi) for i in ids)
            value = weight * repeats + displacement
            memo[key] = value
        return value

    best = _local_search(_cut(seated, sizes), cost)
    if len(sizes) > 1:
        for _ in range(max(0, restarts - 1)):
            if best[0] == 0:
                break
            shuffled = list(seated)
            rng.shuffle(shuffled)
            found = _local_search(_cut(shuffled, sizes), cost)
            if found[0] < best[0]:
                best = found
    tables = []
    for group in best[1]:
        tables.append(tuple(order[i] for i in _seat_order(stats, sorted(group), rng)))
    return Round(tables=tuple(tables), byes=tuple(order[i] for i in sorted(bye_ids)))


# --------------------------------------------------------------------------------------------
# Fairness figures


def _everyone(history: Sequence[Round], players: Iterable[Player] | None) -> list[Player]:
    if players is not None:
        return _canonical(players)
    return _canonical(p for rnd in history for p in rnd.players)


def pair_meetings(
    history: Sequence[Round], players: Iterable[Player] | None = None
) -> dict[frozenset, int]:
    """How often each pair sat at the same table. With ``players``, every pair of them is a key
    (0 if they never met) and no other pair; without, the pairs of everyone in ``history``."""
    history = [_as_round(r) for r in history]
    everyone = _everyone(history, players)
    counts = {frozenset(pair): 0 for pair in itertools.combinations(everyone, 2)}
    for rnd in history:
        for table in rnd.tables:
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                if key in counts:
                    counts[key] += 1
    return counts


def pair_spread(history: Sequence[Round], players: Iterable[Player] | None = None) -> int:
    """Most minus fewest meetings over all pairs (0 with fewer than two players)."""
    counts = pair_meetings(history, players).values()
    return max(counts) - min(counts) if counts else 0


def seat_counts(
    history: Sequence[Round], players: Iterable[Player] | None = None
) -> dict[Player, list[int]]:
    """Per player, how often they sat in seat position 0, 1, …; every list is as long as the
    largest table in ``history``."""
    history = [_as_round(r) for r in history]
    everyone = _everyone(history, players)
    width = max([0] + [len(t) for rnd in history for t in rnd.tables])
    counts = {p: [0] * width for p in everyone}
    for rnd in history:
        for table in rnd.tables:
            for pos, p in enumerate(table):
                if p in counts:
                    counts[p][pos] += 1
    return counts


def seat_spreads(
    history: Sequence[Round], players: Iterable[Player] | None = None
) -> dict[Player, int]:
    """Per player, most minus fewest times in a seat position, over the positions every one of
    their tables had (0..m-1, m = the smallest table they sat at): with tables of 3 and 4, the
    fourth seat is not a seat they could always have had. 0 for a player who never sat."""
    history = [_as_round(r) for r in history]
    counts = seat_counts(history, players)
    smallest: dict[Player, int] = {}
    for rnd in history:
        for table in rnd.tables:
            for p in table:
                if p in counts:
                    smallest[p] = min(smallest.get(p, len(table)), len(table))
    return {
        p: (max(c[: smallest[p]]) - min(c[: smallest[p]]) if p in smallest else 0)
        for p, c in counts.items()
    }


def seat_spread(history: Sequence[Round], players: Iterable[Player] | None = None) -> int:
    """The worst :func:`seat_spreads` over the players."""
    return max(seat_spreads(history, players).values(), default=0)


def bye_counts(
    history: Sequence[Round], players: Iterable[Player] | None = None
) -> dict[Player, int]:
    """Per player, how many rounds they had a bye."""
    history = [_as_round(r) for r in history]
    counts = dict.fromkeys(_everyone(history, players), 0)
    for rnd in history:
        for p in rnd.byes:
            if p in counts:
                counts[p] += 1
    return counts


def bye_spread(history: Sequence[Round], players: Iterable[Player] | None = None) -> int:
    """Most minus fewest byes over the players."""
    counts = bye_counts(history, players).values()
    return max(counts) - min(counts) if counts else 0


def fairness(history: Sequence[Round], players: Iterable[Player] | None = None) -> dict[str, int]:
    """The fairness figures of a history, for ``players`` (default: everyone in it)."""
    meetings = pair_meetings(history, players).values()
    byes = bye_counts(history, players).values()
    return {
        "pair_min": min(meetings, default=0),
        "pair_max": max(meetings, default=0),
        "pair_spread": pair_spread(history, players),
        "seat_spread": seat_spread(history, players),
        "byes_max": max(byes, default=0),
        "bye_spread": bye_spread(history, players),
    }
