/* The built-in engine's search: the C twin of pdn/engine/pysearch.py, node for node.
 *
 * Included by pdn/rules/_kernel.c (one translation unit: it reuses the kernel's move generation,
 * play() and the Python conversions, and adds its functions to the kernel's module). The
 * algorithm, its constants and its integers are those of pysearch.py, whose docstring
 * describes them; read the two side by side. The search runs without the GIL; stop is a
 * bytearray whose first byte another thread sets.
 */
#include <time.h>

#define S_INF 32000
#define S_WIN 31000
#define S_MAX_PLY 120
#define S_KING_RUN 3
#define S_MAX_LINES 64
#define S_LMR_AFTER 3 /* late move reductions: pysearch.py's LMR_AFTER, LMR_DEPTH */
#define S_LMR_DEPTH 3
enum { TT_EXACT = 0, TT_LOWER = 1, TT_UPPER = 2 };

typedef struct {
    uint64_t key;
    int16_t score, move;
    int8_t depth;
    uint8_t flag;
} TTEntry;

typedef struct {
    uint8_t from, to;
    bb cap;
} PvMove;

static uint64_t ZOBRIST[4][256], BLACK_KEY;

static uint64_t splitmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

#include "_draws.c"    /* the counts of the draw rules: table_key, the endgame rules */
#include "_evaluate.c" /* the evaluation and its tables */

typedef struct {
    const Rules *r;
    const EvalTables *ev;
    int repetitions, quiet_limit, man_resets, king_run;
    EgRules eg; /* the endgame rules */
    uint64_t *keys;
    int nkeys, root_index;
    TTEntry *tt;
    uint64_t mask;
    int64_t (*history)[MAXSQ][MAXSQ];
    int killers[S_MAX_PLY + 1][2];
    PvMove pv[S_MAX_PLY + 2][S_MAX_PLY + 2];
    int pvlen[S_MAX_PLY + 2];
    MoveList lists[S_MAX_PLY + 1];
    int *ord[S_MAX_PLY + 1];
    int64_t *ordscore[S_MAX_PLY + 1];
    int ordcap[S_MAX_PLY + 1];
    PvMove excl[S_MAX_LINES];
    int nexcl;
    int root_score; /* the root's best score so far in the iteration running */
    uint64_t nodes, max_nodes;
    double deadline;
    const volatile char *stop;
    int timed, aborted, failed, own_tt; /* own_tt: the table is freed with the engine */
} Engine;

static void zobrist_init(void) {
    for (int p = 0; p < 4; p++)
        for (int s = 0; s < 256; s++) ZOBRIST[p][s] = splitmix((uint64_t)(p * 256 + s + 1));
    BLACK_KEY = splitmix(1024 + 1);
}

static uint64_t zobrist(const Pos *p) {
    uint64_t h = p->turn ? BLACK_KEY : 0;
    const bb boards[4] = {p->men[0], p->kings[0], p->men[1], p->kings[1]};
    for (int i = 0; i < 4; i++) FOR_BITS(s, boards[i], { h ^= ZOBRIST[i][s]; });
    return h;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Whether the side to move has any legal move (pykernel.py: has_moves). */
static int any_move(const Rules *r, const Pos *p) {
    int me = p->turn;
    bb occupied = bb_or(bb_or(p->men[0], p->kings[0]), bb_or(p->men[1], p->kings[1]));
    bb empty = bb_andnot(r->mask, occupied);
    for (int i = 0; i < r->nman[me]; i++)
        if (bb_any(bb_and(bb_shift(p->men[me], r->offset[r->man[me][i]]), empty))) return 1;
    FOR_BITS(s, p->kings[me], {
        for (int i = 0; i < r->nking; i++) {
            int t = r->step[r->king[i]][s];
            if (t >= 0 && bb_test(&empty, t)) return 1;
        }
    });
    return can_capture(r, p);
}

/* One more node; 1 when the search must end (stopped, out of nodes or time). */
static int tick(Engine *e) {
    e->nodes++;
    if (__atomic_load_n(e->stop, __ATOMIC_RELAXED)) return e->aborted = 1;
    if (e->timed) {
        if (e->max_nodes && e->nodes >= e->max_nodes) return e->aborted = 1;
        if (e->deadline > 0 && !(e->nodes & 255) && now() >= e->deadline) return e->aborted = 1;
    }
    return 0;
}

static int drawn(const Engine *e, uint64_t h, int quiet, int rev) {
    if (quiet >= e->quiet_limit) return 1;
    int n = e->nkeys, seen = 0;
    for (int i = n - 2; i >= 0 && n - i <= rev; i -= 2)
        if (e->keys[i] == h) {
            if (i >= e->root_index) return 1;
            seen++;
        }
    return seen + 1 >= e->repetitions;
}

static int same_move(const CMove *m, const PvMove *x) {
    return m->from == x->from && m->to == x->to && !memcmp(&m->capmask, &x->cap, sizeof(bb));
}

static int order_room(Engine *e, int ply, int n) {
    if (n <= e->ordcap[ply]) return 0;
    int cap = n < 64 ? 64 : 2 * n;
    int *o = PyMem_RawRealloc(e->ord[ply], (size_t)cap * sizeof(int));
    if (!o) return -1;
    e->ord[ply] = o;
    int64_t *s = PyMem_RawRealloc(e->ordscore[ply], (size_t)cap * sizeof(int64_t));
    if (!s) return -1;
    e->ordscore[ply] = s;
    e->ordcap[ply] = cap;
    return 0;
}

/* The move order (pysearch.py: _Search.order): a stable sort by score, highest first. */
static int *order(Engine *e, const MoveList *l, int tt_move, int ply, int turn) {
    int n = l->n;
    if (order_room(e, ply, n) < 0) return NULL;
    int *idx = e->ord[ply];
    int64_t *sc = e->ordscore[ply];
    const int *killers = e->killers[ply];
    for (int i = 0; i < n; i++) {
        const CMove *m = &l->mv[i];
        if (i == tt_move)
            sc[i] = (int64_t)1 << 30;
        else if (m->ncap)
            sc[i] = ((int64_t)1 << 20) + m->ncap;
        else {
            int k = (m->from << 8 | m->to) + 1;
            if (k == killers[0])
                sc[i] = (int64_t)1 << 19;
            else if (k == killers[1])
                sc[i] = (int64_t)1 << 18;
            else
                sc[i] = e->history[turn][m->from][m->to];
        }
        int j = i;
        while (j > 0 && sc[idx[j - 1]] < sc[i]) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    return idx;
}

static void cutoff(Engine *e, const CMove *m, int depth, int ply, int turn) {
    int k = (m->from << 8 | m->to) + 1;
    int *killers = e->killers[ply];
    if (k != killers[0]) {
        killers[1] = killers[0];
        killers[0] = k;
    }
    e->history[turn][m->from][m->to] += (int64_t)depth * depth;
}

/* Leave out the quiet king moves where the Frisian limit bars them (pysearch.py: _moves). */
static void bar_idle_kings(const Engine *e, const Pos *p, const int runs[2], MoveList *l) {
    if (!e->king_run || runs[p->turn] < S_KING_RUN || !bb_any(p->men[p->turn])) return;
    int kept = 0;
    for (int i = 0; i < l->n; i++)
        if (!(l->mv[i].by_king && !l->mv[i].ncap)) l->mv[kept++] = l->mv[i];
    l->n = kept;
}

/* egc: the endgame counts and their skew (pysearch.py: endgame_counts) */
static int node(Engine *e, const Pos *p, int depth, int alpha, int beta, int ply, int quiet,
                int rev, const int runs[2], const int egc[3]) {
    if (tick(e)) return 0;
    const Rules *r = e->r;
    e->pvlen[ply] = 0;
    uint64_t h = zobrist(p);
    EgAt eg;
    int ending = e->eg.n && endgame_at(&e->eg, p, &eg);
    if (ply && drawn(e, h, quiet, rev)) return 0;
    if (ply && ending && endgame_drawn(&eg, p->turn, egc)) return 0;
    if (ply >= S_MAX_PLY) return evaluate(e->ev, r, p);
    int tt_move = -1, best = -S_INF, threat = 0;
    uint64_t key = 0; /* the node's in the table, where depth > 0 */
    MoveList *l = &e->lists[ply];
    l->n = 0;
    l->nside = 0;
    if (depth <= 0) {
        captures(r, p, DUP_DROP, l);
        if (l->failed) return e->failed = e->aborted = 1, 0;
        if (!l->n) {
            Pos other = *p;
            other.turn = !p->turn;
            if (depth < 0 || !can_capture(r, &other))
                return any_move(r, p) ? evaluate(e->ev, r, p) : ply - S_WIN;
            l->nside = 0; /* threatened: every move, one ply more */
            generate(r, p, DUP_DROP, l);
            if (l->failed) return e->failed = e->aborted = 1, 0;
            bar_idle_kings(e, p, runs, l);
            if (!l->n) return ply - S_WIN;
            threat = 1;
        } else if (r->optional) { /* the side to move may stand instead of capturing */
            best = evaluate(e->ev, r, p);
            if (best >= beta) return best;
            if (best > alpha) alpha = best;
        }
        depth = 0;
    } else {
        generate(r, p, DUP_DROP, l);
        if (l->failed) return e->failed = e->aborted = 1, 0;
        bar_idle_kings(e, p, runs, l);
        if (!l->n) return ply - S_WIN;
        int on = ending && eg.tracked && eg.on_diagonal;
        int keyed[3] = {egc[0], on ? egc[1] : 0, on ? egc[2] : egc[2] & 1};
        key = table_key(h, quiet, e->king_run ? runs : NULL, ending ? keyed : NULL);
        const TTEntry *t = &e->tt[key & e->mask];
        if (t->key == key) {
            tt_move = t->move;
            if (beta - alpha == 1 && t->depth >= depth) {
                int score = t->score;
                if (score > S_WIN - S_MAX_PLY)
                    score -= ply;
                else if (score < S_MAX_PLY - S_WIN)
                    score += ply;
                if (t->flag == TT_EXACT || (t->flag == TT_LOWER && score >= beta) ||
                    (t->flag == TT_UPPER && score <= alpha))
                    return score;
            }
        }
    }
    int *idx = order(e, l, tt_move, ply, p->turn);
    if (!idx) return e->failed = e->aborted = 1, 0;
    int best_i = -1, flag = TT_UPPER, searched = 0, n = l->n;
    e->keys[e->nkeys++] = h;
    for (int k = 0; k < n; k++) {
        int i = idx[k];
        const CMove *m = &l->mv[i];
        if (ply == 0) {
            int skip = 0;
            for (int x = 0; x < e->nexcl && !skip; x++) skip = same_move(m, &e->excl[x]);
            if (skip) continue;
        }
        Pos child;
        play(p, m, &child);
        int irreversible = m->ncap || !m->by_king;
        int c_quiet = (m->ncap || m->crowns || (e->man_resets && !m->by_king)) ? 0 : quiet + 1;
        int c_rev = irreversible ? 0 : rev + 1;
        int c_runs[2] = {runs[0], runs[1]};
        c_runs[p->turn] = m->by_king && !m->ncap ? runs[p->turn] + 1 : 0;
        int c_egc[3];
        child_counts(&eg, ending, m, &child, egc, e->eg.diagonal, c_egc);
        int d = threat ? -1 : n > 1 ? depth - 1 : depth, score; /* forced: no depth */
        if (!searched) {
            score = -node(e, &child, d, -beta, -alpha, ply + 1, c_quiet, c_rev, c_runs, c_egc);
        } else {
            int cut = searched >= S_LMR_AFTER && depth >= S_LMR_DEPTH && !m->ncap && !m->crowns;
            score = -node(e, &child, d - cut, -alpha - 1, -alpha,
                          ply + 1, c_quiet, c_rev, c_runs, c_egc);
            if (!e->aborted && cut && score > alpha)
                score = -node(e, &child, d, -alpha - 1, -alpha,
                              ply + 1, c_quiet, c_rev, c_runs, c_egc);
            if (!e->aborted && alpha < score && score < beta)
                score = -node(e, &child, d, -beta, -alpha, ply + 1, c_quiet, c_rev, c_runs, c_egc);
        }
        searched++;
        if (e->aborted) return 0;
        if (score > best) {
            best = score;
            best_i = i;
            if (score > alpha) {
                alpha = score;
                flag = TT_EXACT;
                PvMove *line = e->pv[ply];
                line[0].from = m->from;
                line[0].to = m->to;
                line[0].cap = m->capmask;
                memcpy(line + 1, e->pv[ply + 1], (size_t)e->pvlen[ply + 1] * sizeof(PvMove));
                e->pvlen[ply] = 1 + e->pvlen[ply + 1];
                if (!ply) e->root_score = score;
                if (alpha >= beta) {
                    flag = TT_LOWER;
                    if (!m->ncap) cutoff(e, m, depth, ply, p->turn);
                    break;
                }
            }
        }
    }
    e->nkeys--;
    if (depth > 0 && !(ply == 0 && e->nexcl)) {
        int stored = best;
        if (stored > S_WIN - S_MAX_PLY)
            stored += ply;
        else if (stored < S_MAX_PLY - S_WIN)
            stored -= ply;
        TTEntry *t = &e->tt[key & e->mask];
        t->key = key;
        t->depth = (int8_t)depth;
        t->flag = (uint8_t)flag;
        t->score = (int16_t)stored;
        t->move = (int16_t)best_i;
    }
    return best;
}

typedef struct {
    int score;
    PvMove pv[S_MAX_PLY + 2];
    int len;
} SLine;

/* Iterative deepening (pysearch.py: search); the lines of the last iteration completed, or
 * for one line, the root's best move of an iteration cut short once it has one. */
static int deepen(Engine *e, const Pos *root, int quiet, int rev, const int runs[2],
                  const int counts[3], int target, int nlines, SLine *done) {
    int reached = 0;
    SLine *found = PyMem_RawMalloc((size_t)nlines * sizeof(SLine));
    if (!found) return e->failed = 1, 0;
    for (int d = 1; d <= target; d++) {
        e->nexcl = 0;
        for (int k = 0; k < nlines; k++) {
            int score = node(e, root, d, -S_INF, S_INF, 0, quiet, rev, runs, counts);
            if (e->aborted) break;
            found[k].score = score;
            found[k].len = e->pvlen[0];
            memcpy(found[k].pv, e->pv[0], (size_t)e->pvlen[0] * sizeof(PvMove));
            if (e->pvlen[0]) e->excl[e->nexcl++] = e->pv[0][0];
        }
        if (e->aborted) {
            if (nlines == 1 && reached && e->pvlen[0]) {
                done[0].score = e->root_score;
                done[0].len = e->pvlen[0];
                memcpy(done[0].pv, e->pv[0], (size_t)e->pvlen[0] * sizeof(PvMove));
            }
            break;
        }
        for (int k = 1; k < nlines; k++) /* stable: a later line may score higher */
            for (int j = k; j > 0 && found[j - 1].score < found[j].score; j--) {
                SLine t = found[j];
                found[j] = found[j - 1];
                found[j - 1] = t;
            }
        memcpy(done, found, (size_t)nlines * sizeof(SLine));
        reached = d;
        e->timed = 1;
        int proved = 1;
        for (int k = 0; k < nlines; k++) {
            int a = abs(done[k].score);
            proved = proved && a > S_WIN - S_MAX_PLY && S_WIN - a <= d;
        }
        if (proved) break;
    }
    PyMem_RawFree(found);
    return reached;
}

/* -- Python side -------------------------------------------------------------------------- */

static PyObject *k_search_setup(PyObject *self, PyObject *tables_of) {
    if (!E_cache && !(E_cache = PyDict_New())) return NULL;
    PyDict_Clear(E_cache);
    Py_XSETREF(E_tables_of, Py_NewRef(tables_of));
    if (!BLACK_KEY) zobrist_init();
    Py_RETURN_NONE;
}

static PyObject *k_zobrist(PyObject *self, PyObject *pos) {
    POSITION_ARG(pos);
    if (!BLACK_KEY) zobrist_init();
    return PyLong_FromUnsignedLongLong(zobrist(&p));
}

static PyObject *k_evaluate(PyObject *self, PyObject *pos) {
    POSITION_ARG(pos);
    if (!E_tables_of) return PyErr_Format(PyExc_RuntimeError, "search_setup() was not called");
    PyObject *geo = field(pos, F_GEO);
    if (!geo) return NULL;
    const EvalTables *ev = tables_for(geo, r);
    Py_DECREF(geo);
    if (!ev) return NULL;
    return PyLong_FromLong(evaluate(ev, r, &p));
}

/* A line's moves as Move objects: each found again among the legal moves of its position. */
static PyObject *pv_moves(const Rules *r, const Pos *root, const SLine *line) {
    PyObject *out = PyList_New(0);
    MoveList l = {0};
    Pos p = *root;
    for (int k = 0; out && k < line->len; k++) {
        l.n = 0;
        l.nside = 0;
        generate(r, &p, DUP_DROP, &l);
        if (l.failed) {
            Py_CLEAR(out);
            PyErr_NoMemory();
            break;
        }
        int found = -1;
        for (int i = 0; i < l.n && found < 0; i++)
            if (same_move(&l.mv[i], &line->pv[k])) found = i;
        if (found < 0) break; /* cannot happen: the line was played from here */
        if (append_move(out, &l, &l.mv[found]) < 0) Py_CLEAR(out);
        Pos child;
        play(&p, &l.mv[found], &child);
        p = child;
    }
    list_free(&l);
    return out;
}

static void engine_free(Engine *e) {
    if (!e) return;
    PyMem_RawFree(e->keys);
    if (e->own_tt) PyMem_RawFree(e->tt);
    PyMem_RawFree(e->history);
    for (int i = 0; i <= S_MAX_PLY; i++) {
        list_free(&e->lists[i]);
        PyMem_RawFree(e->ord[i]);
        PyMem_RawFree(e->ordscore[i]);
    }
    PyMem_RawFree(e);
}

/* A transposition table kept between searches (search_table()), in a capsule. */
typedef struct {
    long bits;
    TTEntry *tt;
} KeptTable;

static void kept_free(PyObject *capsule) {
    KeptTable *k = PyCapsule_GetPointer(capsule, "pdn.rules._kernel.Table");
    if (!k) return;
    PyMem_RawFree(k->tt);
    PyMem_RawFree(k);
}

static PyObject *k_search_table(PyObject *self, PyObject *arg) {
    long bits = PyLong_AsLong(arg);
    if (bits == -1 && PyErr_Occurred()) return NULL;
    if (bits < 1 || bits > 30) return PyErr_Format(PyExc_ValueError, "tt_bits out of range");
    KeptTable *k = PyMem_RawMalloc(sizeof(KeptTable));
    if (!k) return PyErr_NoMemory();
    k->bits = bits;
    k->tt = PyMem_RawCalloc((size_t)1 << bits, sizeof(TTEntry)); /* pages zeroed as touched */
    if (!k->tt) {
        PyMem_RawFree(k);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(k, "pdn.rules._kernel.Table", kept_free);
    if (!capsule) {
        PyMem_RawFree(k->tt);
        PyMem_RawFree(k);
    }
    return capsule;
}

/* search(pos, history, settings, depth, nodes, seconds, stop, multipv, tt_bits, table):
 * (depth reached, nodes, seconds, [(score, [Move, ...]), ...]) as pysearch.search; table: one
 * of search_table(tt_bits), kept between searches, or None for a fresh one. */
static PyObject *k_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10)
        return PyErr_Format(PyExc_TypeError,
                            "search(pos, history, settings, depth, nodes, seconds, stop, "
                            "multipv, tt_bits, table)");
    if (!E_tables_of) return PyErr_Format(PyExc_RuntimeError, "search_setup() was not called");
    POSITION_ARG(args[0]);
    int reps, qlimit, man_resets, king_run, quiet, rev, runs[2], most, counts[3];
    PyObject *eg_rules, *diagonal;
    if (!PyArg_ParseTuple(args[2], "iiiiii(ii)OiO(iii);settings", &reps, &qlimit,
                          &man_resets, &king_run, &quiet, &rev, &runs[0], &runs[1], &eg_rules,
                          &most, &diagonal, &counts[0], &counts[1], &counts[2]))
        return NULL;
    EgRules eg;
    if (endgame_parse(eg_rules, most, diagonal, &eg) < 0) return NULL;
    long depth = args[3] == Py_None ? 0 : PyLong_AsLong(args[3]);
    long long max_nodes = args[4] == Py_None ? 0 : PyLong_AsLongLong(args[4]);
    double seconds = args[5] == Py_None ? -1.0 : PyFloat_AsDouble(args[5]);
    long multipv = PyLong_AsLong(args[7]), tt_bits = PyLong_AsLong(args[8]);
    if (PyErr_Occurred()) return NULL;
    if (!PyByteArray_Check(args[6]) || PyByteArray_GET_SIZE(args[6]) < 1)
        return PyErr_Format(PyExc_TypeError, "stop must be a bytearray");
    if (tt_bits < 1 || tt_bits > 30) return PyErr_Format(PyExc_ValueError, "tt_bits out of range");
    TTEntry *kept = NULL;
    if (args[9] != Py_None) {
        KeptTable *k = PyCapsule_GetPointer(args[9], "pdn.rules._kernel.Table");
        if (!k) return NULL;
        if (k->bits != tt_bits) return PyErr_Format(PyExc_ValueError, "table of another size");
        kept = k->tt;
    }
    PyObject *geo = field(args[0], F_GEO);
    if (!geo) return NULL;
    const EvalTables *ev = tables_for(geo, r);
    Py_DECREF(geo);
    if (!ev) return NULL;
    PyObject *hist = PySequence_Fast(args[1], "history must be a sequence of positions");
    if (!hist) return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(hist);
    Engine *e = PyMem_RawCalloc(1, sizeof(Engine));
    if (e) {
        e->keys = PyMem_RawMalloc((size_t)(nh + S_MAX_PLY + 2) * sizeof(uint64_t));
        e->own_tt = !kept;
        e->tt = kept ? kept : PyMem_RawCalloc((size_t)1 << tt_bits, sizeof(TTEntry));
        e->history = PyMem_RawCalloc(2, sizeof(*e->history));
    }
    if (!e || !e->keys || !e->tt || !e->history) {
        Py_DECREF(hist);
        engine_free(e);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        Pos q;
        const Rules *rq;
        if (read_position(PySequence_Fast_GET_ITEM(hist, i), &q, &rq) < 0) {
            Py_DECREF(hist);
            engine_free(e);
            return NULL;
        }
        e->keys[i] = zobrist(&q);
    }
    Py_DECREF(hist);
    e->r = r;
    e->ev = ev;
    e->repetitions = reps;
    e->quiet_limit = qlimit;
    e->man_resets = man_resets;
    e->king_run = king_run;
    e->eg = eg;
    e->nkeys = e->root_index = (int)nh;
    e->mask = ((uint64_t)1 << tt_bits) - 1;
    e->max_nodes = max_nodes > 0 ? (uint64_t)max_nodes : 0;
    e->stop = PyByteArray_AS_STRING(args[6]);
    double start = now();
    e->deadline = seconds >= 0 ? start + seconds : 0.0;
    /* the number of lines: as many as asked and the root has moves (one for a game over) */
    MoveList *l0 = &e->lists[0];
    generate(r, &p, DUP_DROP, l0);
    bar_idle_kings(e, &p, runs, l0);
    int nlines = (int)(multipv < l0->n ? multipv : l0->n);
    if (nlines > S_MAX_LINES) nlines = S_MAX_LINES;
    if (nlines < 1) nlines = 1;
    int target = depth > 0 && depth < S_MAX_PLY ? (int)depth : S_MAX_PLY;
    SLine *done = PyMem_RawMalloc((size_t)nlines * sizeof(SLine));
    if (!done || l0->failed) {
        PyMem_RawFree(done);
        engine_free(e);
        return PyErr_NoMemory();
    }
    int reached;
    Py_BEGIN_ALLOW_THREADS
    reached = deepen(e, &p, quiet, rev, runs, counts, target, nlines, done);
    Py_END_ALLOW_THREADS
    double elapsed = now() - start;
    unsigned long long nodes = e->nodes;
    int failed = e->failed;
    engine_free(e);
    if (failed) {
        PyMem_RawFree(done);
        return PyErr_NoMemory();
    }
    PyObject *lines = PyList_New(0);
    for (int k = 0; lines && reached && k < nlines; k++) {
        PyObject *pv = pv_moves(r, &p, &done[k]);
        PyObject *item = pv ? Py_BuildValue("(iN)", done[k].score, pv) : NULL;
        if (!item || PyList_Append(lines, item) < 0) Py_CLEAR(lines);
        Py_XDECREF(item);
    }
    PyMem_RawFree(done);
    if (!lines) return NULL;
    return Py_BuildValue("(iKdN)", reached, nodes, elapsed, lines);
}

#define SEARCH_METHODS                                                                            \
    {"search_setup", k_search_setup, METH_O,                                                      \
     "search_setup(tables_of): the maker of a geometry's evaluation tables."},                    \
        {"search", (PyCFunction)(void (*)(void))k_search, METH_FASTCALL,                          \
         "search(pos, history, settings, depth, nodes, seconds, stop, multipv, tt_bits, table): " \
         "the built-in engine's search (pdn/engine/pysearch.py)."},                               \
        {"search_table", k_search_table, METH_O,                                                  \
         "search_table(tt_bits): a transposition table to keep between searches."},               \
        {"zobrist", k_zobrist, METH_O, "zobrist(pos): the search's 64-bit hash of pos."},         \
        {"evaluate", k_evaluate, METH_O, "evaluate(pos): the search's evaluation of pos."},
