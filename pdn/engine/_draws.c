/* The counts of the draw rules inside the built-in engine's search: the C twin of
 * pdn/engine/pysearch.py's table_key, EndgameRule, endgame_at, endgame_drawn and
 * _lone_on_diagonal. Included by pdn/engine/_search.c (one translation unit with the kernel).
 */

#define S_MAX_ENDGAME 8     /* endgame rules of a rule set, at most */
#define S_ENDGAME_COUNT 4095 /* pysearch.py: ENDGAME_COUNT */

/* pysearch.py's EndgameRule: strong, pieces (low, high: both sides with kings where high),
 * plies, main_diagonal, by_strong_side. */
typedef struct {
    uint64_t strong;
    int low, high, plies, main_diagonal, by_strong_side;
} EgRule;

typedef struct {
    EgRule rule[S_MAX_ENDGAME];
    int n, most; /* no rule counts with more than most pieces on the board */
    bb diagonal; /* the main diagonal's squares, where a rule needs them */
} EgRules;

/* pysearch.py's EndgameAt: the rules that count in a position, where its lone kings stand. */
typedef struct {
    const EgRule *rule[S_MAX_ENDGAME];
    int n, lone_white, lone_black, on_diagonal, tracked;
} EgAt;

/* A node's key in the transposition table (pysearch.py: table_key): the position's hash with
 * the moves rule's count, under the Frisian limit (runs not NULL) each side's idle king moves in
 * a row, and where an endgame rule counts (counts not NULL) its two counts and their skew. */
static uint64_t table_key(uint64_t h, int quiet, const int *runs, const int *counts) {
    uint64_t key = h ^ splitmix(4096 + (uint64_t)quiet);
    if (runs) {
        int w = runs[0] < S_KING_RUN ? runs[0] : S_KING_RUN;
        int b = runs[1] < S_KING_RUN ? runs[1] : S_KING_RUN;
        key ^= splitmix(8192 + (uint64_t)(4 * w + b));
    }
    if (counts) {
        uint64_t c = (uint64_t)(counts[0] < S_ENDGAME_COUNT ? counts[0] : S_ENDGAME_COUNT);
        uint64_t d = (uint64_t)(counts[1] < S_ENDGAME_COUNT ? counts[1] : S_ENDGAME_COUNT);
        key ^= splitmix(16384 + (c << 12 | d | (uint64_t)counts[2] << 24));
    }
    return key;
}

static int strong_has(const EgRule *g, int men, int kings) {
    return men < 4 && kings < 16 && (g->strong >> (16 * men + kings) & 1);
}

static int eg_applies(const EgRule *g, int wm, int wk, int bm, int bk) {
    if (g->high) {
        int n = wm + wk + bm + bk;
        return wk && bk && g->low <= n && n <= g->high;
    }
    return (bm == 0 && bk == 1 && strong_has(g, wm, wk)) ||
           (wm == 0 && wk == 1 && strong_has(g, bm, bk));
}

static int eg_rule_drawn(const EgRule *g, int count, int turn, int lone_white, int skew) {
    int strong = lone_white ? 1 : 0;
    int first = (count % 2 == 0 ? turn : !turn) ^ skew; /* who moved first in the count */
    return count >= g->plies - (g->by_strong_side && first == strong ? 1 : 0);
}

static int lone_on_diagonal(const Pos *p, int lone_white, int lone_black, bb diagonal) {
    bb none = {{0}};
    bb lone = bb_or(lone_white ? p->kings[0] : none, lone_black ? p->kings[1] : none);
    return bb_any(bb_and(lone, diagonal));
}

/* The rules of s that count in p (pysearch.py: endgame_at); 0 where none does. */
static int endgame_at(const EgRules *s, const Pos *p, EgAt *at) {
    int wm = bb_count(p->men[0]), wk = bb_count(p->kings[0]);
    int bm = bb_count(p->men[1]), bk = bb_count(p->kings[1]);
    if (wm + wk + bm + bk > s->most) return 0;
    at->n = at->tracked = 0;
    for (int i = 0; i < s->n; i++)
        if (eg_applies(&s->rule[i], wm, wk, bm, bk)) {
            at->rule[at->n++] = &s->rule[i];
            at->tracked |= s->rule[i].main_diagonal;
        }
    if (!at->n) return 0;
    at->lone_white = wm == 0 && wk == 1;
    at->lone_black = bm == 0 && bk == 1;
    at->on_diagonal = lone_on_diagonal(p, at->lone_white, at->lone_black, s->diagonal);
    return 1;
}

/* Whether an endgame rule draws the node (pysearch.py: endgame_drawn); c: the counts and
 * their skew (pysearch.py: endgame_counts). */
static int endgame_drawn(const EgAt *at, int turn, const int c[3]) {
    for (int i = 0; i < at->n; i++) {
        const EgRule *g = at->rule[i];
        if (g->main_diagonal) {
            if (at->on_diagonal && eg_rule_drawn(g, c[1], turn, at->lone_white, c[2] >> 1))
                return 1;
        } else if (eg_rule_drawn(g, c[0], turn, at->lone_white, c[2] & 1)) {
            return 1;
        }
    }
    return 0;
}

/* The counts after move m, played where at holds (ending: whether it does) with c, in child
 * (pysearch.py: child_counts). */
static void child_counts(const EgAt *at, int ending, const CMove *m, const Pos *child,
                         const int c[3], bb diagonal, int out[3]) {
    out[0] = out[1] = out[2] = 0;
    if (m->ncap || m->crowns) return;
    out[0] = c[0] + 1;
    out[1] = c[1] + 1;
    out[2] = c[2];
    if (ending && at->tracked &&
        lone_on_diagonal(child, at->lone_white, at->lone_black, diagonal) != at->on_diagonal) {
        out[1] = 0;
        out[2] = c[2] & 1;
    }
}

/* Read the search settings' endgame rules ((strong, low, high, plies, main_diagonal,
 * by_strong_side), ...), their most pieces and the main diagonal's squares. */
static int endgame_parse(PyObject *rules, int most, PyObject *diagonal, EgRules *out) {
    PyObject *fast = PySequence_Fast(rules, "endgame rules");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int ok = n <= S_MAX_ENDGAME;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        EgRule *g = &out->rule[i];
        unsigned long long strong;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "Kiiiii;endgame rule", &strong,
                              &g->low, &g->high, &g->plies, &g->main_diagonal,
                              &g->by_strong_side);
        g->strong = strong;
    }
    Py_DECREF(fast);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many endgame rules");
        return -1;
    }
    out->n = (int)n;
    out->most = most;
    return bb_from_int(diagonal, &out->diagonal);
}
