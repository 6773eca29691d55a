/* The compiled move kernel: the C twin of pdn/rules/position.py's move generation.
 *
 * Same inputs, same outputs as the pure-Python twin: the same Move values in the same order.
 * Squares are the bit indices of pdn/rules/geometry.py's Geometry (rows from a1 with ghost columns);
 * the geometry and the rule row come from Python at run time as tables (position.py,
 * _kernel_rules), so this file holds no geometry of its own. Bitboards have three 64-bit words,
 * enough for every board up to 12x12 with its ghost columns (156 bits).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h> /* PyMemberDef, in Python.h from 3.12 on */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NW 3
#define MAXSQ (64 * NW)
#define MAXDIR 8
#define MAXWORDS 8 /* the most words a packed bitboard takes (scan, line_rows): 512 squares */
#define MAXCAP 96 /* more pieces than any board holds: a move never takes more */
#define MAXRAY 16 /* longer than any line of a 12x12 board */

typedef struct {
    uint64_t w[NW];
} bb;

static inline int bb_test(const bb *b, int s) { return (int)((b->w[s >> 6] >> (s & 63)) & 1); }
static inline void bb_set(bb *b, int s) { b->w[s >> 6] |= (uint64_t)1 << (s & 63); }
static inline void bb_clear(bb *b, int s) { b->w[s >> 6] &= ~((uint64_t)1 << (s & 63)); }

static inline bb bb_and(bb a, bb b) {
    for (int i = 0; i < NW; i++) a.w[i] &= b.w[i];
    return a;
}
static inline bb bb_or(bb a, bb b) {
    for (int i = 0; i < NW; i++) a.w[i] |= b.w[i];
    return a;
}
static inline bb bb_andnot(bb a, bb b) {
    for (int i = 0; i < NW; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline int bb_any(bb a) {
    uint64_t x = 0;
    for (int i = 0; i < NW; i++) x |= a.w[i];
    return x != 0;
}
static inline int bb_count(bb a) {
    int n = 0;
    for (int i = 0; i < NW; i++) n += __builtin_popcountll(a.w[i]);
    return n;
}
/* a shifted towards higher squares by o (o > 0) or lower ones (o < 0); 0 < |o| < 64 */
static inline bb bb_shift(bb a, int o) {
    bb r;
    if (o > 0) {
        for (int i = NW - 1; i > 0; i--) r.w[i] = (a.w[i] << o) | (a.w[i - 1] >> (64 - o));
        r.w[0] = a.w[0] << o;
    } else {
        o = -o;
        for (int i = 0; i < NW - 1; i++) r.w[i] = (a.w[i] >> o) | (a.w[i + 1] << (64 - o));
        r.w[NW - 1] = a.w[NW - 1] >> o;
    }
    return r;
}

/* Iterate the squares of a bitboard in ascending order. */
#define FOR_BITS(sq, board, body)                                        \
    do {                                                                 \
        bb it_ = (board);                                                \
        for (int wi_ = 0; wi_ < NW; wi_++) {                             \
            uint64_t x_ = it_.w[wi_];                                    \
            while (x_) {                                                 \
                int sq = wi_ * 64 + __builtin_ctzll(x_);                 \
                x_ &= x_ - 1;                                            \
                body                                                     \
            }                                                            \
        }                                                                \
    } while (0)

enum { CROWN_STOP = 0, CROWN_CONTINUE = 1, CROWN_PASS = 2 };
enum { P_FREE = 0, P_MAJORITY, P_MAJORITY_KINGS, P_CZECH, P_ITALIAN, P_FRISIAN };
enum { DUP_DROP = 0, DUP_KEEP = 1, DUP_PATHS = 2 };

/* One variant's board and rule row. */
typedef struct {
    int size;
    int16_t step[MAXDIR][MAXSQ]; /* next square along each direction, or -1 */
    int offset[MAXDIR];          /* bit offset of one step */
    int reverse[MAXDIR];         /* index of the opposite direction, or -1 */
    int nking, king[MAXDIR];     /* king steps */
    int nkcap, kcap[MAXDIR];     /* king captures */
    int nman[2], man[2][MAXDIR]; /* man steps, per colour */
    int nmcap[2], mcap[2][MAXDIR];
    bb mask, crown[2];
    int flying, behind_only, at_once, no_reversal, crowning, precedence, men_take_kings;
    int optional;
} Rules;

typedef struct {
    bb men[2], kings[2];
    int turn;
} Pos;

typedef struct {
    uint8_t from, to, crowns, by_king, ncap, nland; /* nland: squares in the path */
    uint32_t extra; /* offset in the side buffer: the path, then the captured squares */
    bb capmask, kingmask;
} CMove;

typedef struct {
    CMove *mv;
    int n, cap;
    uint8_t *side;
    size_t nside, capside;
    int failed; /* out of memory */
} MoveList;

static void list_free(MoveList *l) {
    PyMem_RawFree(l->mv);
    PyMem_RawFree(l->side);
    memset(l, 0, sizeof(*l));
}

static CMove *list_push(MoveList *l) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        CMove *mv = PyMem_RawRealloc(l->mv, (size_t)cap * sizeof(CMove));
        if (!mv) {
            l->failed = 1;
            return NULL;
        }
        l->mv = mv;
        l->cap = cap;
    }
    return &l->mv[l->n++];
}

static uint8_t *list_side(MoveList *l, size_t n) {
    if (l->nside + n > l->capside) {
        size_t cap = l->capside ? 2 * l->capside : 1024;
        while (cap < l->nside + n) cap *= 2;
        uint8_t *side = PyMem_RawRealloc(l->side, cap);
        if (!side) {
            l->failed = 1;
            return NULL;
        }
        l->side = side;
        l->capside = cap;
    }
    uint8_t *out = l->side + l->nside;
    l->nside += n;
    return out;
}

static void add_quiet(MoveList *l, int from, int to, int crowns, int by_king) {
    CMove *m = list_push(l);
    if (!m) return;
    memset(m, 0, sizeof(*m));
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->crowns = (uint8_t)crowns;
    m->by_king = (uint8_t)by_king;
    m->nland = 2;
}

/* -- generation (position.py: _capturing_men, _quiet, _captures) ------------------------------ */

/* Men that have a short jump: an enemy next to them and an empty square behind it. */
static bb capturing_men(const Rules *r, int me, bb men, bb opp, bb empty) {
    bb found = {{0}};
    for (int i = 0; i < r->nmcap[me]; i++) {
        int o = r->offset[r->mcap[me][i]];
        found = bb_or(found, bb_and(men, bb_and(bb_shift(opp, -o), bb_shift(empty, -2 * o))));
    }
    return found;
}

static void quiet_moves(const Rules *r, int me, bb men, bb kings, bb occupied, MoveList *l) {
    bb empty = bb_andnot(r->mask, occupied);
    for (int i = 0; i < r->nman[me]; i++) {
        int o = r->offset[r->man[me][i]];
        FOR_BITS(t, bb_and(bb_shift(men, o), empty), {
            add_quiet(l, t - o, t, bb_test(&r->crown[me], t), 0);
        });
    }
    FOR_BITS(s, kings, {
        for (int i = 0; i < r->nking; i++) {
            const int16_t *step = r->step[r->king[i]];
            for (int t = step[s]; t >= 0 && !bb_test(&occupied, t); t = step[t]) {
                add_quiet(l, s, t, 0, 1);
                if (!r->flying) break;
            }
        }
    });
}

/* The empty squares a king on s could move to (also the engine's king mobility). */
static int king_quiet_moves(const Rules *r, bb occupied, int s) {
    int n = 0;
    for (int i = 0; i < r->nking; i++) {
        const int16_t *step = r->step[r->king[i]];
        for (int t = step[s]; t >= 0 && !bb_test(&occupied, t); t = step[t]) {
            n++;
            if (!r->flying) break;
        }
    }
    return n;
}

static int count_quiet_kings(const Rules *r, bb kings, bb occupied) {
    int n = 0;
    FOR_BITS(s, kings, { n += king_quiet_moves(r, occupied, s); });
    return n;
}

typedef struct {
    const Rules *r;
    int me, from_king, stops, promotes;
    bb opp_kings;
    uint8_t path[MAXCAP + 2];
    int plen;
    uint8_t taken[MAXCAP];
    int tlen;
    MoveList *out;
} Search;

static void emit(Search *c, int land, int king, bb cap) {
    MoveList *l = c->out;
    uint8_t *side = list_side(l, (size_t)(c->plen + 1 + c->tlen));
    if (!side) return;
    uint32_t extra = (uint32_t)(side - l->side);
    CMove *m = list_push(l);
    if (!m) return;
    memcpy(side, c->path, (size_t)c->plen);
    side[c->plen] = (uint8_t)land;
    memcpy(side + c->plen + 1, c->taken, (size_t)c->tlen);
    m->from = c->path[0];
    m->to = (uint8_t)land;
    m->crowns = (uint8_t)(!c->from_king && (king || bb_test(&c->r->crown[c->me], land)));
    m->by_king = (uint8_t)c->from_king;
    m->ncap = (uint8_t)c->tlen;
    m->nland = (uint8_t)(c->plen + 1);
    m->extra = extra;
    m->capmask = cap;
    m->kingmask = bb_and(cap, c->opp_kings);
}

/* Extend a capture from sq; record finished moves; 1 if any jump was possible. */
static int search(Search *c, int sq, int king, bb occ, bb alive, bb cap, int last) {
    const Rules *r = c->r;
    int any_jump = 0;
    int n = king ? r->nkcap : r->nmcap[c->me];
    const int *dirs = king ? r->kcap : r->mcap[c->me];
    for (int k = 0; k < n; k++) {
        int d = dirs[k];
        const int16_t *step = r->step[d];
        int landings[MAXRAY];
        int nland = 0, victim;
        if (r->no_reversal && last >= 0 && d == r->reverse[last]) continue;
        if (king && r->flying) {
            int t = step[sq];
            while (t >= 0 && !bb_test(&occ, t)) t = step[t];
            if (t < 0 || step[t] < 0) continue;
            victim = t;
            if (!bb_test(&alive, victim)) continue;
            for (int l = step[victim]; l >= 0 && !bb_test(&occ, l); l = step[l]) {
                landings[nland++] = l;
                if (r->behind_only) break;
            }
            if (!nland) continue;
        } else {
            victim = step[sq];
            if (victim < 0 || !bb_test(&alive, victim)) continue;
            if (!king && !r->men_take_kings && bb_test(&c->opp_kings, victim)) continue;
            int l = step[victim];
            if (l < 0 || bb_test(&occ, l)) continue;
            landings[nland++] = l;
        }
        any_jump = 1;
        bb n_occ = occ, n_alive = alive, n_cap = cap;
        if (r->at_once) bb_clear(&n_occ, victim);
        bb_clear(&n_alive, victim);
        bb_set(&n_cap, victim);
        c->taken[c->tlen++] = (uint8_t)victim;
        int ends[MAXRAY], nends = 0;
        for (int i = 0; i < nland; i++) {
            int land = landings[i], go_on;
            c->path[c->plen++] = (uint8_t)land;
            if (!king && c->promotes && bb_test(&r->crown[c->me], land))
                go_on = !c->stops && search(c, land, 1, n_occ, n_alive, n_cap, d);
            else
                go_on = search(c, land, king, n_occ, n_alive, n_cap, d);
            c->plen--;
            if (!go_on) ends[nends++] = land;
        }
        if (nends == nland) /* no landing square lets the capture go on */
            for (int i = 0; i < nends; i++) emit(c, ends[i], king, n_cap);
        c->tlen--;
    }
    return any_jump;
}

/* Rank comparison of two captures under the variant's precedence (position.py: _RANKS). */
static int cmp_int(int a, int b) { return (a > b) - (a < b); }

static int italian_first_kings(const MoveList *l, const CMove *m, int *out) {
    const uint8_t *cap = l->side + m->extra + m->nland;
    int n = 0;
    for (int i = 0; i < m->ncap; i++)
        if (bb_test(&m->kingmask, cap[i])) out[n++] = -i;
    return n;
}

static int rank_cmp(int rule, const MoveList *l, const CMove *a, const CMove *b) {
    int c, ka = 0, kb = 0;
    if (rule == P_MAJORITY_KINGS || rule == P_ITALIAN || rule == P_FRISIAN)
        ka = bb_count(a->kingmask), kb = bb_count(b->kingmask); /* the kings taken count */
    switch (rule) {
    case P_MAJORITY:
        return cmp_int(a->ncap, b->ncap);
    case P_MAJORITY_KINGS:
        if ((c = cmp_int(a->ncap, b->ncap))) return c;
        return cmp_int(ka, kb);
    case P_CZECH:
        return cmp_int(a->by_king, b->by_king);
    case P_ITALIAN: {
        if ((c = cmp_int(a->ncap, b->ncap))) return c;
        if ((c = cmp_int(a->by_king, b->by_king))) return c;
        if ((c = cmp_int(ka, kb))) return c;
        int fa[MAXCAP], fb[MAXCAP];
        int na = italian_first_kings(l, a, fa), nb = italian_first_kings(l, b, fb);
        for (int i = 0; i < na && i < nb; i++)
            if ((c = cmp_int(fa[i], fb[i]))) return c;
        return cmp_int(na, nb);
    }
    case P_FRISIAN:
        if ((c = cmp_int(a->ncap + ka, b->ncap + kb))) return c;
        if ((c = cmp_int(-ka, -kb))) return c;
        return cmp_int(a->by_king, b->by_king);
    default:
        return 0;
    }
}

static int same_key(const MoveList *l, const CMove *a, const CMove *b, int keep) {
    if (a->from != b->from || a->to != b->to) return 0;
    if (!keep) return memcmp(&a->capmask, &b->capmask, sizeof(bb)) == 0;
    if (a->ncap != b->ncap) return 0;
    return memcmp(l->side + a->extra + a->nland, l->side + b->extra + b->nland, a->ncap) == 0;
}

/* Append the captures the rules allow to l (precedence applied, duplicates as asked). */
static void captures(const Rules *r, const Pos *p, int dup, MoveList *l) {
    int me = p->turn;
    bb men = p->men[me], kings = p->kings[me];
    bb opp = bb_or(p->men[!me], p->kings[!me]);
    bb occupied = bb_or(bb_or(men, kings), opp);
    bb jumpers = capturing_men(r, me, men, opp, bb_andnot(r->mask, occupied));
    if (!bb_any(jumpers) && !bb_any(kings)) return;
    int base = l->n;
    Search c;
    c.r = r;
    c.me = me;
    c.stops = r->crowning == CROWN_STOP;
    c.promotes = r->crowning != CROWN_PASS;
    c.opp_kings = p->kings[!me];
    c.out = l;
    bb zero = {{0}};
    for (int king = 0; king < 2; king++) {
        c.from_king = king;
        FOR_BITS(s, king ? kings : jumpers, {
            bb occ = occupied;
            bb_clear(&occ, s);
            c.path[0] = (uint8_t)s;
            c.plen = 1;
            c.tlen = 0;
            search(&c, s, king, occ, opp, zero, -1);
        });
    }
    if (l->failed || l->n == base) return;
    if (r->precedence != P_FREE) {
        int best = base;
        for (int i = base + 1; i < l->n; i++)
            if (rank_cmp(r->precedence, l, &l->mv[i], &l->mv[best]) > 0) best = i;
        CMove top = l->mv[best];
        int kept = base;
        for (int i = base; i < l->n; i++)
            if (rank_cmp(r->precedence, l, &l->mv[i], &top) == 0) l->mv[kept++] = l->mv[i];
        l->n = kept;
    }
    if (dup == DUP_PATHS) return; /* a path and its landing squares determine its victims */
    int kept = base;
    for (int i = base; i < l->n; i++) {
        int seen = 0;
        for (int j = base; j < kept && !seen; j++)
            seen = same_key(l, &l->mv[j], &l->mv[i], dup == DUP_KEEP);
        if (!seen) l->mv[kept++] = l->mv[i];
    }
    l->n = kept;
}

static void generate(const Rules *r, const Pos *p, int dup, MoveList *l) {
    int me = p->turn;
    captures(r, p, dup, l);
    if (l->n && !r->optional) return;
    bb occupied = bb_or(bb_or(p->men[0], p->kings[0]), bb_or(p->men[1], p->kings[1]));
    quiet_moves(r, me, p->men[me], p->kings[me], occupied, l);
}

/* len(generate()), counting quiet moves without building them; l is scratch space. */
static long count_moves(const Rules *r, const Pos *p, int dup, MoveList *l) {
    int me = p->turn;
    bb men = p->men[me], kings = p->kings[me];
    bb opp = bb_or(p->men[!me], p->kings[!me]);
    bb occupied = bb_or(bb_or(men, kings), opp);
    bb empty = bb_andnot(r->mask, occupied);
    long n = 0;
    if (bb_any(kings) || bb_any(capturing_men(r, me, men, opp, empty))) {
        l->n = 0;
        l->nside = 0;
        captures(r, p, dup, l);
        n = l->n;
        if (n && !r->optional) return n;
        if (bb_any(kings)) n += count_quiet_kings(r, kings, occupied);
    }
    for (int i = 0; i < r->nman[me]; i++)
        n += bb_count(bb_and(bb_shift(men, r->offset[r->man[me][i]]), empty));
    return n;
}

static void play(const Pos *p, const CMove *m, Pos *out) {
    int me = p->turn;
    *out = *p;
    bb *men = &out->men[me], *kings = &out->kings[me];
    if (bb_test(kings, m->from)) {
        bb_clear(kings, m->from);
        bb_set(kings, m->to);
    } else {
        bb_clear(men, m->from);
        if (m->crowns)
            bb_set(kings, m->to);
        else
            bb_set(men, m->to);
    }
    out->men[!me] = bb_andnot(out->men[!me], m->capmask);
    out->kings[!me] = bb_andnot(out->kings[!me], m->capmask);
    out->turn = !me;
}

static uint64_t perft_rec(const Rules *r, const Pos *p, int depth, int dup, MoveList *lists) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)count_moves(r, p, dup, &lists[0]);
    MoveList *l = &lists[depth - 1];
    l->n = 0;
    l->nside = 0;
    generate(r, p, dup, l);
    uint64_t total = 0;
    int n = l->n;
    for (int i = 0; i < n && !l->failed; i++) {
        Pos child;
        play(p, &l->mv[i], &child);
        total += perft_rec(r, &child, depth - 1, dup, lists);
    }
    return total;
}

/* -- Python objects in and out -------------------------------------------------------------- */

typedef struct {
    PyObject *move_type;     /* pdn.rules.position.Move */
    PyObject *position_type; /* pdn.rules.position.Position */
    PyObject *keep, *paths;  /* Duplicates.KEEP and Duplicates.PATHS */
    PyObject *rules_of;      /* geo -> the rule tables (position.py: _kernel_rules) */
    PyObject *cache;         /* geo -> capsule of Rules */
    PyObject *empty;         /* () */
    PyObject *names[7];        /* Position's fields, in the order of enum Field */
    PyObject *s_name;          /* "name" (of a Variant) */
    Py_ssize_t offsets[7];     /* their slot offsets in a Position, or -1: use getattr */
} State;

enum Field { F_WHITE_MEN, F_WHITE_KINGS, F_BLACK_MEN, F_BLACK_KINGS, F_TURN, F_GEO, F_VARIANT };
static const char *FIELD_NAMES[7] = {"white_men", "white_kings", "black_men", "black_kings",
                                     "turn", "geometry", "variant"};

static State S;

static int bb_from_int(PyObject *v, bb *out) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard must be an int");
        return -1;
    }
#if PY_VERSION_HEX < 0x030E0000 /* read the int's digits in place */
#if PY_VERSION_HEX < 0x030C0000
    Py_ssize_t n = Py_SIZE(v);
    const digit *d = ((PyLongObject *)v)->ob_digit;
    int negative = n < 0;
#else
    uintptr_t tag = ((PyLongObject *)v)->long_value.lv_tag;
    Py_ssize_t n = (Py_ssize_t)(tag >> 3);
    const digit *d = ((PyLongObject *)v)->long_value.ob_digit;
    int negative = (tag & 3) == 2;
#endif
    if (negative) {
        PyErr_SetString(PyExc_ValueError, "a bitboard cannot be negative");
        return -1;
    }
    memset(out, 0, sizeof(*out));
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t x = d[i];
        int bit = (int)i * PyLong_SHIFT;
        if (bit >= MAXSQ || (bit + PyLong_SHIFT > MAXSQ && x >> (MAXSQ - bit))) {
            if (x) goto wide;
            continue;
        }
        int w = bit >> 6, b = bit & 63;
        out->w[w] |= x << b;
        if (b + PyLong_SHIFT > 64 && w + 1 < NW) out->w[w + 1] |= x >> (64 - b);
    }
    return 0;
wide:
    PyErr_SetString(PyExc_OverflowError, "bitboard wider than the kernel's boards");
    return -1;
#else
    unsigned char buf[8 * NW];
    Py_ssize_t need = PyLong_AsNativeBytes(
        v, buf, sizeof(buf),
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) return -1;
    if ((size_t)need > sizeof(buf)) {
        PyErr_SetString(PyExc_OverflowError, "bitboard wider than the kernel's boards");
        return -1;
    }
    for (int i = 0; i < NW; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) w = (w << 8) | buf[8 * i + b];
        out->w[i] = w;
    }
    return 0;
#endif
}

static PyObject *int_from_bb(const bb *b) {
    int high = 0;
    for (int i = 1; i < NW; i++) high |= b->w[i] != 0;
    if (!high) return PyLong_FromUnsignedLongLong(b->w[0]);
    unsigned char buf[8 * NW];
    for (int i = 0; i < NW; i++)
        for (int k = 0; k < 8; k++) buf[8 * i + k] = (unsigned char)(b->w[i] >> (8 * k));
#if PY_VERSION_HEX >= 0x030E0000
    return PyLong_FromUnsignedNativeBytes(buf, sizeof(buf), Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, sizeof(buf), 1, 0);
#endif
}

/* -- rule tables from Python -- */

static int int_seq(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many items in %s", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static void rules_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, "pdn.rules._kernel.Rules"));
}

/* Parse (size, steps, offsets, reverse, king, kcap, (man W, man B), (mcap W, mcap B), mask,
 * (crown W, crown B), flags) as made by position.py's _kernel_rules. */
static Rules *rules_parse(PyObject *t) {
    PyObject *steps, *offsets, *reverse, *king, *kcap, *man, *mcap, *mask, *crown, *flags;
    int size;
    if (!PyArg_ParseTuple(t, "iOOOOOOOOOO;rule tables", &size, &steps, &offsets, &reverse, &king,
                          &kcap, &man, &mcap, &mask, &crown, &flags))
        return NULL;
    Rules *r = PyMem_Calloc(1, sizeof(Rules));
    if (!r) return (Rules *)PyErr_NoMemory();
    int f[8];
    if (size <= 0 || size > MAXSQ) {
        PyErr_SetString(PyExc_ValueError, "board too large for the kernel");
        goto fail;
    }
    r->size = size;
    int nd = int_seq(offsets, r->offset, MAXDIR, "offsets");
    if (nd < 0 || int_seq(reverse, r->reverse, MAXDIR, "reverse") != nd) goto bad;
    for (int d = 0; d < nd; d++)
        if (r->offset[d] == 0 || 2 * abs(r->offset[d]) >= 64) goto bad;
    PyObject *fast = PySequence_Fast(steps, "steps");
    if (!fast) goto fail;
    if (PySequence_Fast_GET_SIZE(fast) != nd) {
        Py_DECREF(fast);
        goto bad;
    }
    for (int d = 0; d < nd; d++) {
        int tmp[MAXSQ];
        int n = int_seq(PySequence_Fast_GET_ITEM(fast, d), tmp, MAXSQ, "step");
        if (n != size) {
            Py_DECREF(fast);
            goto bad;
        }
        for (int s = 0; s < MAXSQ; s++) r->step[d][s] = (int16_t)(s < size ? tmp[s] : -1);
    }
    Py_DECREF(fast);
    if ((r->nking = int_seq(king, r->king, MAXDIR, "king")) < 0) goto bad;
    if ((r->nkcap = int_seq(kcap, r->kcap, MAXDIR, "kcap")) < 0) goto bad;
    PyObject *a, *b, *c, *e;
    if (!PyArg_ParseTuple(man, "OO", &a, &b) || !PyArg_ParseTuple(mcap, "OO", &c, &e)) goto fail;
    if ((r->nman[0] = int_seq(a, r->man[0], MAXDIR, "man")) < 0) goto bad;
    if ((r->nman[1] = int_seq(b, r->man[1], MAXDIR, "man")) < 0) goto bad;
    if ((r->nmcap[0] = int_seq(c, r->mcap[0], MAXDIR, "mcap")) < 0) goto bad;
    if ((r->nmcap[1] = int_seq(e, r->mcap[1], MAXDIR, "mcap")) < 0) goto bad;
    if (bb_from_int(mask, &r->mask) < 0) goto fail;
    if (!PyArg_ParseTuple(crown, "OO", &a, &b)) goto fail;
    if (bb_from_int(a, &r->crown[0]) < 0 || bb_from_int(b, &r->crown[1]) < 0) goto fail;
    if (int_seq(flags, f, 8, "flags") != 8) goto bad;
    r->flying = f[0];
    r->behind_only = f[1];
    r->at_once = f[2];
    r->no_reversal = f[3];
    r->crowning = f[4];
    r->precedence = f[5];
    r->men_take_kings = f[6];
    r->optional = f[7];
    return r;
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "malformed rule tables");
fail:
    PyMem_Free(r);
    return NULL;
}

static const Rules *rules_for(PyObject *geo) {
    PyObject *capsule = PyDict_GetItemWithError(S.cache, geo);
    if (!capsule) {
        if (PyErr_Occurred()) return NULL;
        if (!S.rules_of) {
            PyErr_SetString(PyExc_RuntimeError, "pdn.rules._kernel.setup() was not called");
            return NULL;
        }
        PyObject *t = PyObject_CallOneArg(S.rules_of, geo);
        if (!t) return NULL;
        Rules *r = rules_parse(t);
        Py_DECREF(t);
        if (!r) return NULL;
        capsule = PyCapsule_New(r, "pdn.rules._kernel.Rules", rules_free);
        if (!capsule) {
            PyMem_Free(r);
            return NULL;
        }
        int err = PyDict_SetItem(S.cache, geo, capsule);
        Py_DECREF(capsule);
        if (err < 0) return NULL;
    }
    return PyCapsule_GetPointer(capsule, "pdn.rules._kernel.Rules");
}

/* A field of a Position (a new reference): read from its slot where Position has slots. */
static PyObject *field(PyObject *obj, int f) {
    Py_ssize_t off = S.offsets[f];
    if (off < 0 || !PyObject_TypeCheck(obj, (PyTypeObject *)S.position_type))
        return PyObject_GetAttr(obj, S.names[f]);
    PyObject *v = *(PyObject **)((char *)obj + off);
    if (!v) return PyErr_Format(PyExc_AttributeError, "Position has no %s", FIELD_NAMES[f]);
    return Py_NewRef(v);
}

static int field_bb(PyObject *obj, int f, bb *out) {
    PyObject *v = field(obj, f);
    if (!v) return -1;
    int err = bb_from_int(v, out);
    Py_DECREF(v);
    return err;
}

/* The Pos and Rules of a pdn.rules.position.Position. */
static int read_position(PyObject *obj, Pos *p, const Rules **r) {
    PyObject *geo = field(obj, F_GEO);
    if (!geo) return -1;
    *r = rules_for(geo);
    Py_DECREF(geo);
    if (!*r) return -1;
    if (field_bb(obj, F_WHITE_MEN, &p->men[0]) < 0 || field_bb(obj, F_WHITE_KINGS, &p->kings[0]) < 0 ||
        field_bb(obj, F_BLACK_MEN, &p->men[1]) < 0 || field_bb(obj, F_BLACK_KINGS, &p->kings[1]) < 0)
        return -1;
    PyObject *turn = field(obj, F_TURN);
    if (!turn) return -1;
    long t = PyLong_AsLong(turn);
    Py_DECREF(turn);
    if (t == -1 && PyErr_Occurred()) return -1;
    if (t != 0 && t != 1) {
        PyErr_SetString(PyExc_ValueError, "turn must be 0 (White) or 1 (Black)");
        return -1;
    }
    p->turn = (int)t;
    bb all = bb_or(bb_or(p->men[0], p->kings[0]), bb_or(p->men[1], p->kings[1]));
    if (bb_any(bb_andnot(all, (*r)->mask))) {
        PyErr_SetString(PyExc_ValueError, "a piece stands off the board's playing squares");
        return -1;
    }
    return 0;
}

static int dup_mode(PyObject *d) {
    if (d == S.paths) return DUP_PATHS;
    if (d == S.keep) return DUP_KEEP;
    return DUP_DROP;
}

static PyObject *squares_tuple(const uint8_t *sq, int n) {
    if (!n) return Py_NewRef(S.empty);
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(sq[i]));
    return t;
}

static PyObject *move_object(const MoveList *l, const CMove *m) {
    PyObject *path, *captured;
    if (m->ncap) {
        const uint8_t *side = l->side + m->extra;
        path = squares_tuple(side, m->nland);
        captured = squares_tuple(side + m->nland, m->ncap);
    } else {
        uint8_t two[2] = {m->from, m->to};
        path = squares_tuple(two, 2);
        captured = Py_NewRef(S.empty);
    }
    PyObject *capmask = int_from_bb(&m->capmask), *kingmask = int_from_bb(&m->kingmask);
    PyTypeObject *type = (PyTypeObject *)S.move_type;
    PyObject *move = type->tp_alloc(type, 6);
    if (!path || !captured || !capmask || !kingmask || !move) {
        Py_XDECREF(path);
        Py_XDECREF(captured);
        Py_XDECREF(capmask);
        Py_XDECREF(kingmask);
        Py_XDECREF(move);
        return NULL;
    }
    PyTuple_SET_ITEM(move, 0, path);
    PyTuple_SET_ITEM(move, 1, captured);
    PyTuple_SET_ITEM(move, 2, PyBool_FromLong(m->crowns));
    PyTuple_SET_ITEM(move, 3, PyBool_FromLong(m->by_king));
    PyTuple_SET_ITEM(move, 4, capmask);
    PyTuple_SET_ITEM(move, 5, kingmask);
    return move;
}

static PyObject *move_list(MoveList *l) {
    if (l->failed) {
        list_free(l);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(l->n);
    if (out) {
        for (int i = 0; i < l->n; i++) {
            PyObject *m = move_object(l, &l->mv[i]);
            if (!m) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, m);
        }
    }
    list_free(l);
    return out;
}

/* A Move (or any object with its fields) read back into a CMove for play(). */
static int read_move(PyObject *move, CMove *m) {
    memset(m, 0, sizeof(*m));
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) < 6) {
        PyErr_SetString(PyExc_TypeError, "play() needs a Move");
        return -1;
    }
    PyObject *path = PyTuple_GET_ITEM(move, 0);
    if (!PyTuple_Check(path) || PyTuple_GET_SIZE(path) < 1) {
        PyErr_SetString(PyExc_ValueError, "a move's path needs its start and end");
        return -1;
    }
    long a = PyLong_AsLong(PyTuple_GET_ITEM(path, 0));
    long b = PyLong_AsLong(PyTuple_GET_ITEM(path, PyTuple_GET_SIZE(path) - 1));
    if (PyErr_Occurred()) return -1;
    if (a < 0 || a >= MAXSQ || b < 0 || b >= MAXSQ) {
        PyErr_SetString(PyExc_ValueError, "a move's square is off the board");
        return -1;
    }
    m->from = (uint8_t)a;
    m->to = (uint8_t)b;
    int crowns = PyObject_IsTrue(PyTuple_GET_ITEM(move, 2));
    if (crowns < 0) return -1;
    m->crowns = (uint8_t)crowns;
    return bb_from_int(PyTuple_GET_ITEM(move, 4), &m->capmask);
}

/* A new Position of like's variant and geometry holding p. */
static PyObject *position_object(PyObject *like, const Pos *p) {
    PyTypeObject *type = (PyTypeObject *)S.position_type;
    PyObject *vals[7] = {int_from_bb(&p->men[0]), int_from_bb(&p->kings[0]),
                         int_from_bb(&p->men[1]), int_from_bb(&p->kings[1]),
                         PyLong_FromLong(p->turn), field(like, F_GEO), field(like, F_VARIANT)};
    PyObject *obj = NULL;
    int ok = 1;
    for (int f = 0; f < 7; f++) ok = ok && vals[f];
    if (ok) obj = type->tp_alloc(type, 0);
    for (int f = 0; f < 7; f++) {
        if (obj && S.offsets[f] >= 0) { /* the new object's slot takes the reference */
            *(PyObject **)((char *)obj + S.offsets[f]) = vals[f];
            continue;
        }
        if (obj && PyObject_SetAttr(obj, S.names[f], vals[f]) < 0) Py_CLEAR(obj);
        Py_XDECREF(vals[f]);
    }
    return obj;
}

/* -- the stable digest (position.py: Position.digest) --------------------------------------- */

/* BLAKE2b (RFC 7693), unkeyed, for an 8-byte digest as hashlib.blake2b(digest_size=8). */
static const uint64_t B2B_IV[8] = {
    0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
    0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL};

static const uint8_t B2B_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

/* One round: the G function on the columns, then on the diagonals, message words as sigma
 * row i orders them (constant indices, so that the state stays in registers). */
#define B2B_G(a, b, c, d, x, y)            \
    do {                                   \
        a = a + b + (x);                   \
        d = rotr64(d ^ a, 32);             \
        c = c + d;                         \
        b = rotr64(b ^ c, 24);             \
        a = a + b + (y);                   \
        d = rotr64(d ^ a, 16);             \
        c = c + d;                         \
        b = rotr64(b ^ c, 63);             \
    } while (0)
#define B2B_ROUND(i)                                                     \
    do {                                                                 \
        const uint8_t *s = B2B_SIGMA[i];                                 \
        B2B_G(v0, v4, v8, v12, m[s[0]], m[s[1]]);                        \
        B2B_G(v1, v5, v9, v13, m[s[2]], m[s[3]]);                        \
        B2B_G(v2, v6, v10, v14, m[s[4]], m[s[5]]);                       \
        B2B_G(v3, v7, v11, v15, m[s[6]], m[s[7]]);                       \
        B2B_G(v0, v5, v10, v15, m[s[8]], m[s[9]]);                       \
        B2B_G(v1, v6, v11, v12, m[s[10]], m[s[11]]);                     \
        B2B_G(v2, v7, v8, v13, m[s[12]], m[s[13]]);                      \
        B2B_G(v3, v4, v9, v14, m[s[14]], m[s[15]]);                      \
    } while (0)

static void b2b_compress(uint64_t h[8], const uint8_t block[128], uint64_t t, int last) {
    uint64_t m[16];
    for (int i = 0; i < 16; i++) {
        uint64_t x = 0;
        for (int b = 7; b >= 0; b--) x = (x << 8) | block[8 * i + b];
        m[i] = x;
    }
    uint64_t v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5], v6 = h[6];
    uint64_t v7 = h[7], v8 = B2B_IV[0], v9 = B2B_IV[1], v10 = B2B_IV[2], v11 = B2B_IV[3];
    uint64_t v12 = B2B_IV[4] ^ t; /* the byte counter's high word stays 0: texts are short */
    uint64_t v13 = B2B_IV[5], v14 = last ? ~B2B_IV[6] : B2B_IV[6], v15 = B2B_IV[7];
    B2B_ROUND(0);
    B2B_ROUND(1);
    B2B_ROUND(2);
    B2B_ROUND(3);
    B2B_ROUND(4);
    B2B_ROUND(5);
    B2B_ROUND(6);
    B2B_ROUND(7);
    B2B_ROUND(8);
    B2B_ROUND(9);
    B2B_ROUND(10);
    B2B_ROUND(11);
    h[0] ^= v0 ^ v8;
    h[1] ^= v1 ^ v9;
    h[2] ^= v2 ^ v10;
    h[3] ^= v3 ^ v11;
    h[4] ^= v4 ^ v12;
    h[5] ^= v5 ^ v13;
    h[6] ^= v6 ^ v14;
    h[7] ^= v7 ^ v15;
}
#undef B2B_ROUND
#undef B2B_G

/* The first 8 bytes of BLAKE2b-64 of data, read big-endian and signed, as position.py does. */
static int64_t blake2b_64(const uint8_t *data, size_t len) {
    uint64_t h[8];
    uint8_t block[128];
    uint64_t t = 0;
    memcpy(h, B2B_IV, sizeof(h));
    h[0] ^= 0x01010000ULL ^ 8; /* fanout 1, depth 1, no key, 8-byte digest */
    while (len > 128) {
        t += 128;
        b2b_compress(h, data, t, 0);
        data += 128;
        len -= 128;
    }
    memset(block, 0, sizeof(block));
    memcpy(block, data, len);
    t += len;
    b2b_compress(h, block, t, 1);
    uint64_t big = 0; /* h[0]'s bytes are the digest, in little-endian order */
    for (int i = 0; i < 8; i++) big = (big << 8) | ((h[0] >> (8 * i)) & 0xFF);
    return (int64_t)big;
}

/* Four one-block messages hashed at once, a lane of AVX2 registers each (x86-64 machines that
 * have it, checked when the module loads): blake2b_64 of each, as if called four times. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define B2B_LANES 4

__attribute__((target("avx2"))) static void blake2b_64x4(const uint8_t blocks[][128],
                                                        const size_t len[4], int64_t out[4]) {
    const __m256i r24 = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
                                         3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
    const __m256i r16 = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9,
                                         2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9);
    __m256i m[16];
    for (int i = 0; i < 16; i++) { /* message word i of each block (x86 is little-endian) */
        long long w[4];
        for (int l = 0; l < 4; l++) memcpy(&w[l], blocks[l] + 8 * i, 8);
        m[i] = _mm256_setr_epi64x(w[0], w[1], w[2], w[3]);
    }
#define SPLAT(x) _mm256_set1_epi64x((long long)(x))
    const uint64_t h0 = B2B_IV[0] ^ 0x01010000ULL ^ 8; /* as blake2b_64 sets it */
    __m256i v0 = SPLAT(h0), v1 = SPLAT(B2B_IV[1]), v2 = SPLAT(B2B_IV[2]), v3 = SPLAT(B2B_IV[3]);
    __m256i v4 = SPLAT(B2B_IV[4]), v5 = SPLAT(B2B_IV[5]), v6 = SPLAT(B2B_IV[6]);
    __m256i v7 = SPLAT(B2B_IV[7]), v8 = SPLAT(B2B_IV[0]), v9 = v1, v10 = v2, v11 = v3;
    __m256i v12 = _mm256_xor_si256(v4, _mm256_setr_epi64x((long long)len[0], (long long)len[1],
                                                          (long long)len[2], (long long)len[3]));
    __m256i v13 = v5, v14 = _mm256_xor_si256(v6, SPLAT(~0ULL)), v15 = v7;
#undef SPLAT
#define ADD _mm256_add_epi64
#define XOR _mm256_xor_si256
#define G4(a, b, c, d, x, y)                                                                 \
    do {                                                                                     \
        a = ADD(ADD(a, b), x);                                                               \
        d = _mm256_shuffle_epi32(XOR(d, a), _MM_SHUFFLE(2, 3, 0, 1));                        \
        c = ADD(c, d);                                                                       \
        b = _mm256_shuffle_epi8(XOR(b, c), r24);                                             \
        a = ADD(ADD(a, b), y);                                                               \
        d = _mm256_shuffle_epi8(XOR(d, a), r16);                                             \
        c = ADD(c, d);                                                                       \
        b = XOR(b, c);                                                                       \
        b = _mm256_or_si256(_mm256_srli_epi64(b, 63), ADD(b, b));                            \
    } while (0)
    for (int i = 0; i < 12; i++) {
        const uint8_t *s = B2B_SIGMA[i];
        G4(v0, v4, v8, v12, m[s[0]], m[s[1]]);
        G4(v1, v5, v9, v13, m[s[2]], m[s[3]]);
        G4(v2, v6, v10, v14, m[s[4]], m[s[5]]);
        G4(v3, v7, v11, v15, m[s[6]], m[s[7]]);
        G4(v0, v5, v10, v15, m[s[8]], m[s[9]]);
        G4(v1, v6, v11, v12, m[s[10]], m[s[11]]);
        G4(v2, v7, v8, v13, m[s[12]], m[s[13]]);
        G4(v3, v4, v9, v14, m[s[14]], m[s[15]]);
    }
#undef G4
#undef XOR
#undef ADD
    uint64_t h[4];
    _mm256_storeu_si256((__m256i *)h, _mm256_xor_si256(_mm256_xor_si256(v0, v8),
                                                       _mm256_set1_epi64x((long long)h0)));
    for (int l = 0; l < 4; l++) {
        uint64_t big = 0; /* the digest's bytes, in little-endian order */
        for (int i = 0; i < 8; i++) big = (big << 8) | ((h[l] >> (8 * i)) & 0xFF);
        out[l] = (int64_t)big;
    }
}

static int have_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
#define B2B_LANES 1
static void blake2b_64x4(const uint8_t blocks[][128], const size_t len[4], int64_t out[4]) {
    (void)blocks, (void)len, (void)out;
}
static int have_avx2(void) { return 0; }
#endif

static const char DIGIT_PAIRS[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";

static const uint64_t POWERS_OF_TEN[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL};

/* The decimal digits of x into out, *width* of them at least (zeros in front); their number. */
static int decimal64(uint64_t x, char *out, int width) {
    int n = 1;
    while (n < 20 && x >= POWERS_OF_TEN[n]) n++;
    if (n < width) n = width;
    char *w = out + n;
    while (x >= 100) {
        unsigned r = (unsigned)(x % 100);
        x /= 100;
        w -= 2;
        memcpy(w, DIGIT_PAIRS + 2 * r, 2);
    }
    if (x >= 10) {
        w -= 2;
        memcpy(w, DIGIT_PAIRS + 2 * x, 2);
    } else {
        *--w = (char)('0' + x);
    }
    while (w > out) *--w = '0';
    return n;
}

/* The decimal digits of b, as str(int) writes them; returns their number. */
static int decimal(const bb *b, char *out) {
    int high = 0;
    for (int i = 2; i < NW; i++) high |= b->w[i] != 0;
    if (!high && !b->w[1]) return decimal64(b->w[0], out, 0);
    uint32_t limb[2 * NW], chunk[8 * NW / 3 + 1]; /* base 2**32, then base 10**9 from below */
    for (int i = 0; i < NW; i++) {
        limb[2 * i] = (uint32_t)b->w[i];
        limb[2 * i + 1] = (uint32_t)(b->w[i] >> 32);
    }
    int n = 2 * NW, k = 0;
    while (n && !limb[n - 1]) n--;
    while (n) {
        uint64_t rem = 0;
        for (int i = n - 1; i >= 0; i--) {
            uint64_t cur = (rem << 32) | limb[i];
            limb[i] = (uint32_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        chunk[k++] = (uint32_t)rem;
        while (n && !limb[n - 1]) n--;
    }
    int len = decimal64(chunk[k - 1], out, 0);
    for (int i = k - 2; i >= 0; i--) len += decimal64(chunk[i], out + len, 9);
    return len;
}

/* -- module functions ------------------------------------------------------------------------ */

static PyObject *k_setup(PyObject *self, PyObject *args) {
    PyObject *move_type, *position_type, *keep, *paths, *rules_of;
    if (!PyArg_ParseTuple(args, "O!O!OOO", &PyType_Type, &move_type, &PyType_Type,
                          &position_type, &keep, &paths, &rules_of))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)move_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Move must be a tuple type");
        return NULL;
    }
    Py_XSETREF(S.move_type, Py_NewRef(move_type));
    Py_XSETREF(S.position_type, Py_NewRef(position_type));
    Py_XSETREF(S.keep, Py_NewRef(keep));
    Py_XSETREF(S.paths, Py_NewRef(paths));
    Py_XSETREF(S.rules_of, Py_NewRef(rules_of));
    PyDict_Clear(S.cache);
    for (int f = 0; f < 7; f++) { /* __slots__ members: read and written in place */
        PyObject *d = PyDict_GetItemWithError(((PyTypeObject *)position_type)->tp_dict, S.names[f]);
        if (!d && PyErr_Occurred()) return NULL;
        S.offsets[f] = d && Py_IS_TYPE(d, &PyMemberDescr_Type)
                           ? ((PyMemberDescrObject *)d)->d_member->offset
                           : -1;
    }
    Py_RETURN_NONE;
}

#define POSITION_ARG(obj)                                \
    Pos p;                                               \
    const Rules *r;                                      \
    if (read_position((obj), &p, &r) < 0) return NULL;

static PyObject *k_generate(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n < 1 || n > 2) return PyErr_Format(PyExc_TypeError, "generate(pos, duplicates)");
    POSITION_ARG(args[0]);
    MoveList l = {0};
    generate(r, &p, n > 1 ? dup_mode(args[1]) : DUP_DROP, &l);
    return move_list(&l);
}

static PyObject *k_captures(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n < 1 || n > 2) return PyErr_Format(PyExc_TypeError, "captures(pos, duplicates)");
    POSITION_ARG(args[0]);
    MoveList l = {0};
    captures(r, &p, n > 1 ? dup_mode(args[1]) : DUP_DROP, &l);
    return move_list(&l);
}

static PyObject *k_count_moves(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n < 1 || n > 2) return PyErr_Format(PyExc_TypeError, "count_moves(pos, duplicates)");
    POSITION_ARG(args[0]);
    MoveList l = {0};
    long count = count_moves(r, &p, n > 1 ? dup_mode(args[1]) : DUP_DROP, &l);
    int failed = l.failed;
    list_free(&l);
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLong(count);
}

static PyObject *k_perft(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n < 2 || n > 3) return PyErr_Format(PyExc_TypeError, "perft(pos, depth, duplicates)");
    POSITION_ARG(args[0]);
    long depth = PyLong_AsLong(args[1]);
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth <= 0) return PyLong_FromLong(1);
    int dup = n > 2 ? dup_mode(args[2]) : DUP_DROP;
    MoveList *lists = PyMem_Calloc((size_t)depth, sizeof(MoveList));
    if (!lists) return PyErr_NoMemory();
    uint64_t total;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    total = perft_rec(r, &p, (int)depth, dup, lists);
    Py_END_ALLOW_THREADS
    for (long i = 0; i < depth; i++) {
        failed |= lists[i].failed;
        list_free(&lists[i]);
    }
    PyMem_Free(lists);
    if (failed) return PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(total);
}

/* Whether the side to move can capture: exactly captures() != [], without building a move. */
static int can_capture(const Rules *r, const Pos *p) {
    int me = p->turn;
    bb men = p->men[me], kings = p->kings[me];
    bb opp = bb_or(p->men[!me], p->kings[!me]);
    bb occupied = bb_or(bb_or(men, kings), opp);
    bb empty = bb_andnot(r->mask, occupied);
    bb prey = r->men_take_kings ? opp : p->men[!me];
    if (bb_any(capturing_men(r, me, men, prey, empty))) return 1;
    FOR_BITS(s, kings, {
        for (int i = 0; i < r->nkcap; i++) {
            const int16_t *step = r->step[r->kcap[i]];
            int t = step[s];
            if (r->flying)
                while (t >= 0 && !bb_test(&occupied, t)) t = step[t];
            if (t >= 0 && bb_test(&opp, t) && step[t] >= 0 && bb_test(&empty, step[t])) return 1;
        }
    });
    return 0;
}

static PyObject *k_has_moves(PyObject *self, PyObject *pos) {
    POSITION_ARG(pos);
    int me = p.turn;
    bb men = p.men[me], kings = p.kings[me];
    bb occupied = bb_or(bb_or(p.men[0], p.kings[0]), bb_or(p.men[1], p.kings[1]));
    bb empty = bb_andnot(r->mask, occupied);
    for (int i = 0; i < r->nman[me]; i++)
        if (bb_any(bb_and(bb_shift(men, r->offset[r->man[me][i]]), empty))) Py_RETURN_TRUE;
    FOR_BITS(s, kings, {
        for (int i = 0; i < r->nking; i++) {
            int t = r->step[r->king[i]][s];
            if (t >= 0 && bb_test(&empty, t)) Py_RETURN_TRUE;
        }
    });
    return PyBool_FromLong(can_capture(r, &p));
}

/* A growing text buffer. */
typedef struct {
    char *text;
    size_t len, cap;
    char small[256];
} Text;

/* Room for n more bytes in t. */
static int text_room(Text *t, size_t n) {
    if (t->len + n > t->cap) {
        size_t cap = 2 * (t->len + n);
        char *bigger = PyMem_Malloc(cap);
        if (!bigger) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(bigger, t->text, t->len);
        if (t->text != t->small) PyMem_Free(t->text);
        t->text = bigger;
        t->cap = cap;
    }
    return 0;
}

static int text_add(Text *t, const char *s, size_t n) {
    if (text_room(t, n) < 0) return -1;
    memcpy(t->text + t->len, s, n);
    t->len += n;
    return 0;
}

/* Append str(obj) (repr(obj) when repr is set). */
static int text_add_object(Text *t, PyObject *obj, int repr) {
    PyObject *s = repr ? PyObject_Repr(obj) : PyObject_Str(obj);
    if (!s) return -1;
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    int err = u ? text_add(t, u, (size_t)n) : -1;
    Py_DECREF(s);
    return err;
}

static const int KEY_FIELDS[5] = {F_WHITE_MEN, F_WHITE_KINGS, F_BLACK_MEN, F_BLACK_KINGS, F_TURN};

/* The start of the text a digest hashes, f"{variant.name}:(", in t. It stays there while
 * positions of one variant follow: *variant holds the variant it was written for (a reference,
 * or NULL), *prefix its length. */
static int digest_prefix(PyObject *pos, Text *t, PyObject **variant, size_t *prefix) {
    PyObject *v = field(pos, F_VARIANT);
    if (!v) return -1;
    if (v != *variant) {
        PyObject *name = PyObject_GetAttr(v, S.s_name);
        t->len = 0;
        int err = !name || text_add_object(t, name, 0) < 0 || text_add(t, ":(", 2) < 0;
        Py_XDECREF(name);
        Py_XSETREF(*variant, v);
        if (err) {
            Py_CLEAR(*variant);
            return -1;
        }
        *prefix = t->len;
    } else {
        Py_DECREF(v);
    }
    t->len = *prefix;
    return 0;
}

/* The rest of the text, f"{white_men}, ..., {turn})" from the fields of the key (KEY_FIELDS). */
static int digest_fields(Text *t, PyObject *const *fields) {
    for (int i = 0; i < 5; i++) {
        PyObject *x = fields[i];
        bb b;
        int err = text_room(t, 8 * NW * 3 + 2);
        if (!err && PyLong_CheckExact(x) && bb_from_int(x, &b) == 0) {
            t->len += (size_t)decimal(&b, t->text + t->len); /* written in place */
        } else if (!err) { /* not a plain int that fits a board: as the tuple's repr writes it */
            PyErr_Clear();
            err = text_add_object(t, x, 1) < 0 || text_room(t, 2) < 0;
        }
        if (err) return -1;
        t->text[t->len++] = i < 4 ? ',' : ')';
        if (i < 4) t->text[t->len++] = ' ';
    }
    return 0;
}

/* The text a digest hashes, f"{variant.name}:{hash_key()}", into t (see digest_prefix). */
static int digest_text(PyObject *pos, Text *t, PyObject **variant, size_t *prefix) {
    PyObject *x[5];
    int f = 0, err = digest_prefix(pos, t, variant, prefix) < 0;
    for (; f < 5 && !err; f++) err = !(x[f] = field(pos, KEY_FIELDS[f]));
    if (err && f) f--; /* x[0..f) hold references */
    err = err || digest_fields(t, x) < 0;
    for (int k = 0; k < f; k++) Py_DECREF(x[k]);
    return err ? -1 : 0;
}

static void text_init(Text *t) {
    t->text = t->small;
    t->len = 0;
    t->cap = sizeof(t->small);
}

static void text_free(Text *t) {
    if (t->text != t->small) PyMem_Free(t->text);
}

/* digest(pos): blake2b-64 of f"{variant.name}:{hash_key()}", as Position.digest computes it. */
static PyObject *k_digest(PyObject *self, PyObject *pos) {
    PyObject *variant = NULL, *out = NULL;
    size_t prefix = 0;
    Text t;
    text_init(&t);
    if (digest_text(pos, &t, &variant, &prefix) == 0)
        out = PyLong_FromLongLong(blake2b_64((const uint8_t *)t.text, t.len));
    text_free(&t);
    Py_XDECREF(variant);
    return out;
}

/* -- a game's positions and moves at once (position.py: _py_scan, _py_move_texts) ------------- */

static int AVX2; /* whether blake2b_64x4 may run here (set when the module loads) */

/* (first, length, (white men, white kings, black men, black kings)) */
static PyObject *run_tuple(Py_ssize_t first, Py_ssize_t length, const long counts[4]) {
    PyObject *c = PyTuple_New(4), *run = PyTuple_New(3);
    if (!c || !run) goto fail;
    for (int f = 0; f < 4; f++) {
        PyObject *n = PyLong_FromLong(counts[f]);
        if (!n) goto fail;
        PyTuple_SET_ITEM(c, f, n);
    }
    PyObject *a = PyLong_FromSsize_t(first), *b = a ? PyLong_FromSsize_t(length) : NULL;
    if (!b) {
        Py_XDECREF(a);
        goto fail;
    }
    PyTuple_SET_ITEM(run, 0, a);
    PyTuple_SET_ITEM(run, 1, b);
    PyTuple_SET_ITEM(run, 2, c);
    return run;
fail:
    Py_XDECREF(c);
    Py_XDECREF(run);
    return NULL;
}

/* What scan() is making: its three results, the digests waiting for a group of lanes, and the
 * bitboards of the position before with their decimal digits and their counts (a move leaves
 * most of them as they were). */
typedef struct {
    PyObject *digests, *boards, *runs;
    uint8_t blocks[4][128];
    size_t len[4];
    Py_ssize_t at[4];
    int lanes;
    bb last[4];
    char digits[4][8 * NW * 3];
    int ndigits[4]; /* -1: not written yet */
    long counts[4];
    bb packed[4]; /* the bitboards packed last (scan_pack_side), XORed with the next */
} Scan;

/* The digest text of a position whose key fields x are plain ints (boards: the first four read):
 * as digest_fields writes it, the digits of a bitboard unchanged since the position before
 * copied. */
static int scan_text_bb(Scan *sc, Text *t, const bb boards[4], long turn);

static int scan_text(Scan *sc, Text *t, PyObject *const *x, const bb boards[4]) {
    long turn = PyLong_AsLong(x[4]);
    if (!PyLong_CheckExact(x[4]) || turn < 0) {
        PyErr_Clear();
        return digest_fields(t, x);
    }
    for (int f = 0; f < 4; f++)
        if (!PyLong_CheckExact(x[f])) return digest_fields(t, x);
    return scan_text_bb(sc, t, boards, turn);
}

/* The rest of the digest text of bitboards and a side to move (scan_text's way). */
static int scan_text_bb(Scan *sc, Text *t, const bb boards[4], long turn) {
    if (text_room(t, 4 * (8 * NW * 3 + 2) + 21) < 0) return -1;
    char *w = t->text + t->len;
    for (int f = 0; f < 4; f++) {
        if (sc->ndigits[f] < 0 || memcmp(&boards[f], &sc->last[f], sizeof(bb))) {
            sc->ndigits[f] = decimal(&boards[f], sc->digits[f]);
            sc->last[f] = boards[f];
        }
        memcpy(w, sc->digits[f], (size_t)sc->ndigits[f]);
        w += sc->ndigits[f];
        *w++ = ',';
        *w++ = ' ';
    }
    w += decimal64((uint64_t)turn, w, 0);
    *w++ = ')';
    t->len = (size_t)(w - t->text);
    return 0;
}

/* Hash the texts waiting in the lanes (the lanes left over unused) into their digests. */
static int scan_flush(Scan *sc) {
    int64_t digest[4];
    if (!sc->lanes) return 0;
    for (int l = sc->lanes; l < 4; l++) {
        memset(sc->blocks[l], 0, 128);
        sc->len[l] = 0;
    }
    blake2b_64x4(sc->blocks, sc->len, digest);
    for (int l = 0; l < sc->lanes; l++) {
        PyObject *d = PyLong_FromLongLong(digest[l]);
        if (!d) return -1;
        PyList_SET_ITEM(sc->digests, sc->at[l], d);
    }
    sc->lanes = 0;
    return 0;
}

/* The digest of the text in t for position i: now, or in a lane (one-block texts, AVX2). */
static int scan_digest(Scan *sc, const Text *t, Py_ssize_t i) {
    if (!AVX2 || t->len > 128) {
        PyObject *d = PyLong_FromLongLong(blake2b_64((const uint8_t *)t->text, t->len));
        if (!d) return -1;
        PyList_SET_ITEM(sc->digests, i, d);
        return 0;
    }
    memcpy(sc->blocks[sc->lanes], t->text, t->len);
    memset(sc->blocks[sc->lanes] + t->len, 0, 128 - t->len);
    sc->len[sc->lanes] = t->len;
    sc->at[sc->lanes++] = i;
    return sc->lanes == 4 ? scan_flush(sc) : 0;
}

/* Position i's bitboards and side to move into the packed boards (n positions, words each): as
 * pykernel.scan packs them, each word a column over the positions, XORed with the word before. */
static int scan_pack_side(Scan *sc, const bb boards[4], long side, Py_ssize_t i, Py_ssize_t n,
                          long words);

static int scan_pack(Scan *sc, const bb boards[4], PyObject *turn, Py_ssize_t i, Py_ssize_t n,
                     long words) {
    long side = PyLong_AsLong(turn);
    if (side == -1 && PyErr_Occurred()) return -1;
    return scan_pack_side(sc, boards, side, i, n, words);
}

static int scan_pack_side(Scan *sc, const bb boards[4], long side, Py_ssize_t i, Py_ssize_t n,
                          long words) {
    if (side < 0 || side > 255) {
        PyErr_SetString(PyExc_ValueError, "bytes must be in range(0, 256)");
        return -1;
    }
    uint8_t *data = (uint8_t *)PyBytes_AS_STRING(sc->boards);
    data[32 * words * n + i] = (uint8_t)side;
    for (int f = 0; f < 4; f++)
        for (long w = 0; w < words || w < NW; w++) {
            uint64_t x = w < NW ? boards[f].w[w] : 0;
            if (w >= words) {
                if (x) {
                    PyErr_SetString(PyExc_OverflowError, "int too big to convert");
                    return -1;
                }
                continue;
            }
            uint64_t delta = x ^ sc->packed[f].w[w];
            uint8_t *at = data + 8 * ((f * words + w) * n + i);
            for (int k = 0; k < 8; k++) at[k] = (uint8_t)(delta >> (8 * k));
            sc->packed[f].w[w] = x;
        }
    return 0;
}

/* The runs of equal material scan() is making: the counts of the run going on (those of the
 * position before), the bitboards of the position before, the union of each bitboard so far,
 * and where the run began. */
typedef struct {
    long counts[4];
    bb last[4], reached[4];
    Py_ssize_t first;
} Runs;

static int runs_end(Scan *sc, Runs *u, Py_ssize_t n);

/* Position i's bitboards into the runs: the run going on ends before it where its counts
 * differ. */
static int runs_step(Scan *sc, Runs *u, const bb boards[4], Py_ssize_t i) {
    long c[4];
    for (int k = 0; k < 4; k++) {
        for (int w = 0; w < NW; w++) u->reached[k].w[w] |= boards[k].w[w];
        c[k] = i && !memcmp(&boards[k], &u->last[k], sizeof(bb)) ? u->counts[k] : bb_count(boards[k]);
    }
    memcpy(u->last, boards, sizeof(u->last));
    if (i && !memcmp(c, u->counts, sizeof(c))) return 0;
    if (i && runs_end(sc, u, i) < 0) return -1;
    u->first = i;
    memcpy(u->counts, c, sizeof(c));
    return 0;
}

/* The run going on ends before position n. */
static int runs_end(Scan *sc, Runs *u, Py_ssize_t n) {
    PyObject *run = run_tuple(u->first, n - u->first, u->counts);
    int err = !run || PyList_Append(sc->runs, run) < 0;
    Py_XDECREF(run);
    return err ? -1 : 0;
}

/* The union of each bitboard as a tuple of four ints. */
static PyObject *squares_reached(const Runs *u) {
    PyObject *squares = PyTuple_New(4);
    for (int k = 0; squares && k < 4; k++) {
        PyObject *b = int_from_bb(&u->reached[k]);
        if (!b) Py_CLEAR(squares);
        else PyTuple_SET_ITEM(squares, k, b);
    }
    return squares;
}

/* scan(positions, words, digests): a game's positions as the database stores them, in one pass:
 * their digests (where asked, else []), their packed boards (per position its white men, white
 * kings, black men and black kings as *words* little-endian 64-bit words each, then one byte per
 * position for the side to move; b"" for 0 words), their runs of equal material, and the squares
 * each of the four ever stood on (the union of its bitboards). */
static PyObject *k_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "scan(positions, words, digests)");
    long words = PyLong_AsLong(args[1]);
    if (words == -1 && PyErr_Occurred()) return NULL;
    if (words < 0 || words > MAXWORDS)
        return PyErr_Format(PyExc_ValueError, "words must be 0 to %d", MAXWORDS);
    int want = PyObject_IsTrue(args[2]);
    if (want < 0) return NULL;
    PyObject *fast = PySequence_Fast(args[0], "scan() needs a sequence of positions");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    Scan sc = {NULL};
    for (int f = 0; f < 4; f++) sc.ndigits[f] = -1;
    sc.digests = PyList_New(want ? n : 0);
    sc.boards = PyBytes_FromStringAndSize(NULL, words ? (32 * words + 1) * n : 0);
    sc.runs = PyList_New(0);
    PyObject *variant = NULL, *out = NULL;
    size_t prefix = 0;
    Text t;
    text_init(&t);
    Runs u;
    memset(&u, 0, sizeof(u));
    if (!sc.digests || !sc.boards || !sc.runs) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x[5];
        bb boards[4];
        int f = 0, err = 0;
        for (; f < 5 && !err; f++) err = !(x[f] = field(items[i], KEY_FIELDS[f]));
        if (err) f--; /* x[0..f) hold references */
        for (int k = 0; k < 4 && !err; k++) err = bb_from_int(x[k], &boards[k]) < 0;
        if (!err && words) err = scan_pack(&sc, boards, x[4], i, n, words) < 0;
        if (!err && want)
            err = digest_prefix(items[i], &t, &variant, &prefix) < 0 ||
                  scan_text(&sc, &t, x, boards) < 0 || scan_digest(&sc, &t, i) < 0;
        for (int k = 0; k < f; k++) Py_DECREF(x[k]);
        if (err || runs_step(&sc, &u, boards, i) < 0) goto done;
    }
    if ((!n || runs_end(&sc, &u, n) == 0) && scan_flush(&sc) == 0) {
        PyObject *squares = squares_reached(&u);
        if (squares) out = PyTuple_Pack(4, sc.digests, sc.boards, sc.runs, squares);
        Py_XDECREF(squares);
    }
done:
    text_free(&t);
    Py_XDECREF(variant);
    Py_XDECREF(sc.digests);
    Py_XDECREF(sc.boards);
    Py_XDECREF(sc.runs);
    Py_DECREF(fast);
    return out;
}

/* The direction (of r's numbering) in which b lies from a on one line, or -1. */
static int direction_to(const Rules *r, int a, int b) {
    for (int i = 0; i < r->nkcap; i++) {
        const int16_t *step = r->step[r->kcap[i]];
        for (int t = step[a]; t >= 0; t = step[t])
            if (t == b) return r->kcap[i];
    }
    return -1;
}

/* The squares PDN 3.0 writes for a capture (notation.py: pdn_path): the start; per landing
 * square but the last, the square itself where the path turns there, else the square behind
 * the piece taken before it; the end. Returns their number, or -1 (an error set). */
static int long_form(const Rules *r, const long *path, int npath, const long *taken, int ntaken,
                     long *out) {
    int n = 0;
    out[n++] = path[0];
    for (int i = 1; i < npath - 1; i++) {
        int here = direction_to(r, (int)path[i - 1], (int)path[i]);
        int next = direction_to(r, (int)path[i], (int)path[i + 1]);
        if (here < 0 || next < 0 || i - 1 >= ntaken) {
            PyErr_SetString(PyExc_ValueError, "a capture's path leaves the board's lines");
            return -1;
        }
        out[n++] = here == next ? r->step[here][taken[i - 1]] : path[i];
    }
    out[n++] = path[npath - 1];
    return n;
}

/* The squares of a tuple of ints (a move's path or the pieces it takes); -1 on error. */
static int read_squares(PyObject *t, long *out, int max, const char *what) {
    if (!PyTuple_Check(t)) {
        PyErr_Format(PyExc_TypeError, "a move's %s must be a tuple", what);
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "a move's %s is too long", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long s = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (s == -1 && PyErr_Occurred()) return -1;
        if (s < 0 || s >= MAXSQ) {
            PyErr_SetString(PyExc_ValueError, "a move's square is off the board");
            return -1;
        }
        out[i] = s;
    }
    return (int)n;
}

/* Append labels[s] (a str) to t. */
static int add_label(Text *t, PyObject *labels, long s) {
    PyObject *label = s >= 0 && s < PySequence_Fast_GET_SIZE(labels)
                          ? PySequence_Fast_GET_ITEM(labels, s)
                          : NULL;
    if (!label || !PyUnicode_Check(label)) {
        PyErr_Format(PyExc_KeyError, "no label for square %ld", s);
        return -1;
    }
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(label, &n);
    return u ? text_add(t, u, (size_t)n) : -1;
}

/* Whether a capture the rules allow in p other than the one taking *taken goes from a to b
 * (what makes a capture written from a to b ambiguous). */
static int rival_capture(const Rules *r, const Pos *p, long a, long b, const bb *taken) {
    MoveList l = {0};
    captures(r, p, DUP_DROP, &l);
    int found = l.failed ? -1 : 0;
    for (int i = 0; i < l.n && !found; i++) {
        const CMove *m = &l.mv[i];
        found = m->from == a && m->to == b && memcmp(&m->capmask, taken, sizeof(bb)) != 0;
    }
    list_free(&l);
    if (found < 0) PyErr_NoMemory();
    return found;
}

/* A move's PDN 3.0 short form into t: its path (npath squares, the start first) and the pieces it
 * takes (ntaken, capmask *mask*: read only for a capture, as are r and p, the position it is
 * played in), written with labels (a sequence of str by bit index) and sep between the squares
 * of a capture (position.py: _py_move_texts). */
static int move_text(Text *t, const Rules *r, const Pos *p, const long *path, int npath,
                     const long *taken, int ntaken, const bb *mask, PyObject *labels,
                     const char *sep, Py_ssize_t nsep) {
    if (npath < 1) {
        PyErr_SetString(PyExc_ValueError, "a move's path needs its start and end");
        return -1;
    }
    long a = path[0], b = path[npath - 1], written[MAXCAP + 2];
    written[0] = a, written[1] = b;
    int nwritten = 2, rival;
    const char *between = "-";
    Py_ssize_t nbetween = 1;
    if (ntaken) {
        between = sep;
        nbetween = nsep;
        if ((rival = rival_capture(r, p, a, b, mask)) < 0) return -1;
        if (rival && (nwritten = long_form(r, path, npath, taken, ntaken, written)) < 0) return -1;
    }
    for (int k = 0; k < nwritten; k++)
        if ((k && text_add(t, between, (size_t)nbetween) < 0) || add_label(t, labels, written[k]) < 0)
            return -1;
    return 0;
}

/* move_texts(positions, moves, labels, separator): each move played in the position before it
 * in its PDN 3.0 short form (position.py: _py_move_texts). */
static PyObject *k_move_texts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "move_texts(positions, moves, labels, "
                                                         "separator)");
    PyObject *positions = PySequence_Fast(args[0], "move_texts() needs a sequence of positions");
    PyObject *moves = positions ? PySequence_Fast(args[1], "move_texts() needs moves") : NULL;
    PyObject *labels = moves ? PySequence_Fast(args[2], "move_texts() needs labels") : NULL;
    PyObject *out = NULL;
    Py_ssize_t nsep = 0;
    const char *sep = labels ? PyUnicode_AsUTF8AndSize(args[3], &nsep) : NULL;
    Text t;
    text_init(&t);
    if (!sep) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(positions);
    if (PySequence_Fast_GET_SIZE(moves) < n) n = PySequence_Fast_GET_SIZE(moves);
    if (!(out = PyList_New(n))) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *move = PySequence_Fast_GET_ITEM(moves, i);
        if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) < 6) {
            PyErr_SetString(PyExc_TypeError, "move_texts() needs Moves");
            goto fail;
        }
        long path[MAXCAP + 2], taken[MAXCAP];
        int npath = read_squares(PyTuple_GET_ITEM(move, 0), path, MAXCAP + 2, "path");
        int ntaken = npath < 0 ? -1 : read_squares(PyTuple_GET_ITEM(move, 1), taken, MAXCAP,
                                                   "captured");
        if (ntaken < 0) goto fail;
        Pos p;
        const Rules *r = NULL;
        bb mask;
        if (ntaken && (read_position(PySequence_Fast_GET_ITEM(positions, i), &p, &r) < 0 ||
                       bb_from_int(PyTuple_GET_ITEM(move, 4), &mask) < 0))
            goto fail;
        t.len = 0;
        if (move_text(&t, r, &p, path, npath, taken, ntaken, &mask, labels, sep, nsep) < 0)
            goto fail;
        PyObject *text = PyUnicode_FromStringAndSize(t.text, (Py_ssize_t)t.len);
        if (!text) goto fail;
        PyList_SET_ITEM(out, i, text);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    text_free(&t);
    Py_XDECREF(positions);
    Py_XDECREF(moves);
    Py_XDECREF(labels);
    return out;
}

static PyObject *k_has_captures(PyObject *self, PyObject *pos) {
    POSITION_ARG(pos);
    return PyBool_FromLong(can_capture(r, &p));
}

/* Add the non-capturing move from start to end to l, if the piece there may make it. */
static void quiet_between(const Rules *r, const Pos *p, int start, int end, MoveList *l) {
    int me = p->turn;
    bb occupied = bb_or(bb_or(p->men[0], p->kings[0]), bb_or(p->men[1], p->kings[1]));
    if (end >= r->size || start >= r->size || bb_test(&occupied, end) || !bb_test(&r->mask, end))
        return;
    if (bb_test(&p->men[me], start)) {
        for (int i = 0; i < r->nman[me]; i++)
            if (end - start == r->offset[r->man[me][i]]) {
                add_quiet(l, start, end, bb_test(&r->crown[me], end), 0);
                return;
            }
    } else if (bb_test(&p->kings[me], start)) {
        for (int i = 0; i < r->nking; i++) {
            const int16_t *step = r->step[r->king[i]];
            for (int t = step[start]; t >= 0 && !bb_test(&occupied, t); t = step[t]) {
                if (t == end) {
                    add_quiet(l, start, end, 0, 1);
                    return;
                }
                if (!r->flying) break;
            }
        }
    }
}

/* The two squares of quiet_move() and moves_between(); negative ones as Python's shifts refuse. */
static int two_squares(PyObject *a, PyObject *b, long *start, long *end) {
    *start = PyLong_AsLong(a);
    *end = PyLong_AsLong(b);
    return PyErr_Occurred() ? -1 : 0;
}

static int append_move(PyObject *list, const MoveList *l, const CMove *m) {
    PyObject *move = move_object(l, m);
    int err = move ? PyList_Append(list, move) : -1;
    Py_XDECREF(move);
    return err;
}

/* Add the quiet move from start to end to l (as quiet_between), refusing negative squares. */
static int quiet_checked(const Rules *r, const Pos *p, long start, long end, MoveList *l) {
    if (start < 0 || end < 0) {
        PyErr_SetString(PyExc_ValueError, "negative shift count");
        return -1;
    }
    quiet_between(r, p, (int)(start < MAXSQ ? start : MAXSQ), (int)(end < MAXSQ ? end : MAXSQ), l);
    if (l->failed) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *k_quiet_move(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 3) return PyErr_Format(PyExc_TypeError, "quiet_move(pos, start, end)");
    POSITION_ARG(args[0]);
    long start, end;
    MoveList l = {0};
    PyObject *out = NULL;
    if (two_squares(args[1], args[2], &start, &end) == 0 &&
        quiet_checked(r, &p, start, end, &l) == 0)
        out = l.n ? move_object(&l, &l.mv[0]) : Py_NewRef(Py_None);
    list_free(&l);
    return out;
}

/* moves_between(pos, start, end): the captures from start to end the rules allow, then the
 * quiet move from start to end where capturing is not compulsory: what "a-b" or "axb" means. */
static PyObject *k_moves_between(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 3) return PyErr_Format(PyExc_TypeError, "moves_between(pos, start, end)");
    POSITION_ARG(args[0]);
    long start, end;
    if (two_squares(args[1], args[2], &start, &end) < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    MoveList l = {0};
    if (can_capture(r, &p)) captures(r, &p, DUP_DROP, &l);
    if (l.failed) {
        PyErr_NoMemory();
        goto fail;
    }
    int found = l.n;
    for (int i = 0; i < found; i++)
        if (l.mv[i].from == start && l.mv[i].to == end && append_move(out, &l, &l.mv[i]) < 0)
            goto fail;
    if (!found || r->optional) {
        if (quiet_checked(r, &p, start, end, &l) < 0) goto fail;
        if (l.n > found && append_move(out, &l, &l.mv[found]) < 0) goto fail;
    }
    list_free(&l);
    return out;
fail:
    list_free(&l);
    Py_DECREF(out);
    return NULL;
}

static PyObject *k_play(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 2) return PyErr_Format(PyExc_TypeError, "play(pos, move)");
    POSITION_ARG(args[0]);
    CMove m;
    if (read_move(args[1], &m) < 0) return NULL;
    Pos child;
    play(&p, &m, &child);
    return position_object(args[0], &child);
}

/* The bit index *names* gives a written square (item i of a 2-item tuple or list), or -1. */
static long named_square(PyObject *names, PyObject *squares, int i) {
    PyObject *sq = PyTuple_Check(squares) ? PyTuple_GET_ITEM(squares, i) : PyList_GET_ITEM(squares, i);
    PyObject *v = PyDict_GetItemWithError(names, sq);
    if (!v) return PyErr_Occurred() ? -2 : -1;
    long s = PyLong_AsLong(v);
    if (s == -1 && PyErr_Occurred()) return -2;
    return s < 0 || s >= MAXSQ ? -1 : s;
}

/* The one legal move from start to end (what moves_between() finds), copied to *out; 0 when
 * there is none or several, -1 on error. */
static int one_between(const Rules *r, const Pos *p, long start, long end, MoveList *l) {
    l->n = 0;
    l->nside = 0;
    if (can_capture(r, p)) captures(r, p, DUP_DROP, l);
    if (l->failed) {
        PyErr_NoMemory();
        return -1;
    }
    int found = l->n, at = -1, count = 0;
    for (int i = 0; i < found; i++)
        if (l->mv[i].from == start && l->mv[i].to == end) at = i, count++;
    if (!found || r->optional) {
        if (quiet_checked(r, p, start, end, l) < 0) return -1;
        if (l->n > found) at = found, count++;
    }
    return count == 1 ? at + 1 : 0;
}

/* push_plain(pos, moves, i, names, stack, history, quiet, ended, runs, settings): the loop of
 * Board.push_written (see position.py, _py_push_plain, its twin). */
static PyObject *k_push_plain(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 8)
        return PyErr_Format(PyExc_TypeError, "push_plain(pos, moves, i, names, history, quiet, "
                                             "watch, settings)");
    PyObject *moves = args[1], *names = args[3], *history = args[4], *settings = args[7];
    if (!PyList_Check(moves) || !PyDict_Check(names) || !PyDict_Check(history) ||
        !PyTuple_Check(settings) || PyTuple_GET_SIZE(settings) != 3)
        return PyErr_Format(PyExc_TypeError, "push_plain: wrong argument types");
    Py_ssize_t i = PyLong_AsSsize_t(args[2]);
    long quiet = PyLong_AsLong(args[5]);
    int watch = PyObject_IsTrue(args[6]);
    int man_resets = PyObject_IsTrue(PyTuple_GET_ITEM(settings, 0));
    long repetitions = PyLong_AsLong(PyTuple_GET_ITEM(settings, 1));
    long quiet_limit = PyLong_AsLong(PyTuple_GET_ITEM(settings, 2));
    if (PyErr_Occurred() || man_resets < 0 || watch < 0) return NULL;
    PyObject *records = PyList_New(0); /* (move, position before, quiet plies before, key after) */
    if (!records) return NULL;
    PyObject *pos = Py_NewRef(args[0]);
    Pos p;
    const Rules *r;
    if (read_position(pos, &p, &r) < 0) {
        Py_DECREF(pos);
        Py_DECREF(records);
        return NULL;
    }
    MoveList l = {0};
    int draw = 0, failed = 0;
    Py_ssize_t total = PyList_GET_SIZE(moves);
    while (i < total && !draw) {
        PyObject *squares = PyList_GET_ITEM(moves, i);
        if (!((PyTuple_Check(squares) && PyTuple_GET_SIZE(squares) == 2) ||
              (PyList_Check(squares) && PyList_GET_SIZE(squares) == 2)))
            break;
        long start = named_square(names, squares, 0);
        long end = start >= 0 ? named_square(names, squares, 1) : start;
        if (start == -2 || end == -2) {
            failed = 1;
            break;
        }
        if (start < 0 || end < 0) break;
        int at = one_between(r, &p, start, end, &l);
        if (at < 0) {
            failed = 1;
            break;
        }
        if (!at) break;
        const CMove *m = &l.mv[at - 1];
        Pos child;
        play(&p, m, &child);
        PyObject *move = move_object(&l, m);
        PyObject *after = move ? position_object(pos, &child) : NULL;
        PyObject *key = after ? PyTuple_New(5) : NULL;
        if (!key) {
            Py_XDECREF(move);
            Py_XDECREF(after);
            failed = 1;
            break;
        }
        for (int f = 0; f < 5; f++) PyTuple_SET_ITEM(key, f, field(after, f));
        PyObject *quiet_before = PyLong_FromLong(quiet);
        PyObject *entry = quiet_before ? PyTuple_Pack(4, move, pos, quiet_before, key) : NULL;
        Py_XDECREF(quiet_before);
        Py_DECREF(move);
        int reset = bb_any(m->capmask) || m->crowns || (man_resets && bb_test(&p.men[p.turn], m->from));
        quiet = reset ? 0 : quiet + 1;
        Py_hash_t hash = entry ? PyObject_Hash(key) : -1; /* a tuple's hash is not kept: once */
        PyObject *old = hash != -1 ? _PyDict_GetItem_KnownHash(history, key, hash) : NULL;
        long seen = old ? PyLong_AsLong(old) + 1 : 1;
        PyObject *count = hash != -1 && !PyErr_Occurred() ? PyLong_FromLong(seen) : NULL;
        int err = !count || PyList_Append(records, entry) < 0 ||
                  _PyDict_SetItem_KnownHash(history, key, count, hash) < 0;
        Py_XDECREF(entry);
        Py_XDECREF(count);
        Py_DECREF(key);
        Py_SETREF(pos, after);
        if (err) {
            failed = 1;
            break;
        }
        p = child;
        i++;
        draw = watch && (seen >= repetitions || quiet >= quiet_limit);
    }
    list_free(&l);
    if (failed) {
        Py_DECREF(pos);
        Py_DECREF(records);
        return NULL;
    }
    return Py_BuildValue("(NnlON)", pos, i, quiet, draw ? Py_True : Py_False, records);
}

/* Whether two positions hold the same pieces and side to move (as their hash keys compare). */
static int same_pos(const Pos *a, const Pos *b) {
    if (a->turn != b->turn) return 0;
    for (int c = 0; c < 2; c++)
        for (int w = 0; w < NW; w++)
            if (a->men[c].w[w] != b->men[c].w[w] || a->kings[c].w[w] != b->kings[c].w[w]) return 0;
    return 1;
}

/* The written moves check_plain and check_runs read: the squares of move i as bit indices
 * (-1 where it is not a two-square move the names know; -2 on error), and its squares as
 * Python objects for resolve (a new reference). */
typedef struct {
    PyObject *names;
    PyObject *moves; /* check_plain: a list of squares */
    PyObject **tokens; /* check_runs: each move's token, where its word starts and ends, and */
    Py_ssize_t *word;  /* where its one "-" or "x" stands (-1: none; -2: several): 3 per move */
    long table[100];   /* check_runs: the bit index of the label "1" to "99", -3 until looked up */
} Written;

/* The label n, "1" to "99", from a table made once (a new reference). */
static PyObject *number_label(long n) {
    static PyObject *labels[100];
    if (!labels[n] && !(labels[n] = PyUnicode_FromFormat("%ld", n))) return NULL;
    return Py_NewRef(labels[n]);
}

/* The bit index w->names gives token[a:b] (-1: none or out of range; -2 on error); a number
 * "1" to "99" looked up once per call. */
static long label_square(Written *w, PyObject *token, Py_ssize_t a, Py_ssize_t b) {
    int kind = PyUnicode_KIND(token);
    const void *data = PyUnicode_DATA(token);
    Py_UCS4 c0 = b > a ? PyUnicode_READ(kind, data, a) : 0;
    Py_UCS4 c1 = b - a == 2 ? PyUnicode_READ(kind, data, a + 1) : '0';
    long n = -1;
    if ((b - a == 1 || b - a == 2) && c0 >= '1' && c0 <= '9' && c1 >= '0' && c1 <= '9') {
        n = b - a == 1 ? (long)(c0 - '0') : (long)(c0 - '0') * 10 + (long)(c1 - '0');
        if (w->table[n] != -3) return w->table[n];
    }
    PyObject *key = n >= 0 ? number_label(n) : PyUnicode_Substring(token, a, b);
    if (!key) return -2;
    PyObject *v = PyDict_GetItemWithError(w->names, key);
    Py_DECREF(key);
    long sq = v ? PyLong_AsLong(v) : -1;
    if ((!v || sq == -1) && PyErr_Occurred()) return -2;
    sq = sq < 0 || sq >= MAXSQ ? -1 : sq;
    if (n >= 0) w->table[n] = sq;
    return sq;
}

static void written_ends(Written *w, Py_ssize_t i, long *start, long *end) {
    if (w->moves) {
        PyObject *squares = PyList_GET_ITEM(w->moves, i);
        *start = *end = -1;
        if ((PyTuple_Check(squares) && PyTuple_GET_SIZE(squares) == 2) ||
            (PyList_Check(squares) && PyList_GET_SIZE(squares) == 2)) {
            *start = named_square(w->names, squares, 0);
            *end = *start >= 0 ? named_square(w->names, squares, 1) : *start;
        }
        return;
    }
    PyObject *token = w->tokens[i];
    Py_ssize_t a = w->word[3 * i], b = w->word[3 * i + 1], cut = w->word[3 * i + 2];
    *start = *end = -1;
    if (cut < 0) return; /* three squares or more: for resolve */
    long s = label_square(w, token, a, cut);
    long e = s >= 0 ? label_square(w, token, cut + 1, b) : s;
    if (s == -2 || e == -2)
        *start = *end = -2;
    else if (s >= 0 && e >= 0)
        *start = s, *end = e;
}

static PyObject *written_squares(Written *w, Py_ssize_t i) {
    if (w->moves) return Py_NewRef(PyList_GET_ITEM(w->moves, i));
    PyObject *token = w->tokens[i];
    Py_ssize_t a = w->word[3 * i], b = w->word[3 * i + 1];
    PyObject *out = PyList_New(0);
    for (Py_ssize_t k = a, from = a; out && k <= b; k++) {
        Py_UCS4 c = k < b ? PyUnicode_READ_CHAR(token, k) : '-';
        if (c != '-' && c != 'x') continue;
        PyObject *part = PyUnicode_Substring(token, from, k);
        if (!part || PyList_Append(out, part) < 0) Py_CLEAR(out);
        Py_XDECREF(part);
        from = k + 1;
    }
    if (!out) return NULL;
    Py_SETREF(out, PyList_AsTuple(out));
    return out;
}

/* The one legal capture whose whole path (its start, then every landing square) move i of w
 * writes, where it writes three squares or more, all the board's (PDN's full form, which
 * written_moves reads first): its index in l, plus one; 0 where there is not one such capture,
 * -1 on error. */
static int full_path(const Rules *r, const Pos *p, Written *w, Py_ssize_t i, MoveList *l) {
    long sq[MAXCAP + 2];
    int n = 0;
    if (w->moves) {
        PyObject *squares = PyList_GET_ITEM(w->moves, i);
        Py_ssize_t size = PyTuple_Check(squares)  ? PyTuple_GET_SIZE(squares)
                          : PyList_Check(squares) ? PyList_GET_SIZE(squares)
                                                  : 0;
        if (size < 3 || size > MAXCAP + 2) return 0;
        for (; n < size; n++) {
            long s = sq[n] = named_square(w->names, squares, n);
            if (s < 0) return s == -2 ? -1 : 0;
        }
    } else {
        PyObject *token = w->tokens[i];
        Py_ssize_t a = w->word[3 * i], b = w->word[3 * i + 1];
        if (w->word[3 * i + 2] != -2) return 0; /* fewer than two "-" or "x" */
        for (Py_ssize_t k = a, from = a; k <= b; k++) {
            Py_UCS4 c = k < b ? PyUnicode_READ_CHAR(token, k) : '-';
            if (c != '-' && c != 'x') continue;
            if (n == MAXCAP + 2) return 0;
            long s = sq[n++] = label_square(w, token, from, k);
            if (s < 0) return s == -2 ? -1 : 0;
            from = k + 1;
        }
    }
    l->n = 0;
    l->nside = 0;
    if (can_capture(r, p)) captures(r, p, DUP_DROP, l);
    if (l->failed) {
        PyErr_NoMemory();
        return -1;
    }
    int at = 0, count = 0;
    for (int j = 0; j < l->n; j++) {
        const CMove *m = &l->mv[j];
        const uint8_t *path = l->side + m->extra;
        int k = 0;
        while (m->ncap && m->nland == n && k < n && path[k] == sq[k]) k++;
        if (k == n) at = j + 1, count++;
    }
    return count == 1 ? at : 0;
}

/* The move written move i of w means in p, as Board.push_written reads it: the one legal move
 * between its two squares, or along its full path (in l), else the one resolve(position,
 * squares) gives, read into *given (*move: that Move, a new reference, else NULL). Returns 1
 * with *m set; 0 where resolve gives None (no single move: the line stops there); -1 on
 * error. */
static int written_move(PyObject *like, const Pos *p, const Rules *r, Written *w, Py_ssize_t i,
                        PyObject *resolve, MoveList *l, CMove *given, const CMove **m,
                        PyObject **move) {
    long start, end;
    int at = 0;
    *move = NULL;
    written_ends(w, i, &start, &end);
    if (start == -2 || end == -2 ||
        (start >= 0 && end >= 0 && (at = one_between(r, p, start, end, l)) < 0))
        return -1;
    if (!at && start == -1 && (at = full_path(r, p, w, i, l)) < 0) return -1;
    if (at) {
        *m = &l->mv[at - 1];
        return 1;
    }
    /* another written form, or no single legal move: as push_written reads it */
    PyObject *squares = written_squares(w, i);
    PyObject *here = squares ? position_object(like, p) : NULL;
    PyObject *found = here ? PyObject_CallFunctionObjArgs(resolve, here, squares, NULL) : NULL;
    Py_XDECREF(here);
    Py_XDECREF(squares);
    if (!found) return -1;
    if (found == Py_None) {
        Py_DECREF(found);
        return 0;
    }
    *move = found;
    *m = given;
    return read_move(found, given) < 0 ? -1 : 1;
}

/* Board.push_written's loop from a new board at p over the total moves of w, keeping no record:
 * a move the kernel does not play is handed to resolve(position, squares), which gives the one
 * legal move it means or None. A position can only recur since the last capture or crowning
 * (pieces are never added, men never made), so the count of the position reached is looked for
 * among the positions since then. Returns (position, plies, quiet, draw ply, its count). */
static PyObject *check_written(PyObject *like, Pos p, const Rules *r, Written *w, Py_ssize_t total,
                               PyObject *settings, PyObject *resolve) {
    if (!PyTuple_Check(settings) || PyTuple_GET_SIZE(settings) != 3 || !PyCallable_Check(resolve))
        return PyErr_Format(PyExc_TypeError, "check: wrong argument types");
    int man_resets = PyObject_IsTrue(PyTuple_GET_ITEM(settings, 0));
    long repetitions = PyLong_AsLong(PyTuple_GET_ITEM(settings, 1));
    long quiet_limit = PyLong_AsLong(PyTuple_GET_ITEM(settings, 2));
    if (PyErr_Occurred() || man_resets < 0) return NULL;
    Py_ssize_t i = 0, since = 0;
    Pos *seen_at = PyMem_Malloc((size_t)(total + 1) * sizeof(Pos)); /* the position after each ply */
    if (!seen_at) return PyErr_NoMemory();
    seen_at[0] = p;
    MoveList l = {0};
    long quiet = 0, draw = 0, draw_seen = 0;
    int failed = 0;
    while (i < total && (!w->moves || i < PyList_GET_SIZE(w->moves))) { /* resolve may cut it */
        CMove given;
        const CMove *m;
        PyObject *move;
        int found = written_move(like, &p, r, w, i, resolve, &l, &given, &m, &move);
        Py_XDECREF(move);
        if (found < 0) failed = 1;
        if (found <= 0) break;
        int taken = bb_any(m->capmask);
        int reset = taken || m->crowns || (man_resets && bb_test(&p.men[p.turn], m->from));
        quiet = reset ? 0 : quiet + 1;
        Pos child;
        play(&p, m, &child);
        i++;
        if (taken || m->crowns) since = i;
        seen_at[i] = child;
        long seen = 1;
        for (Py_ssize_t k = i - 2; k >= since; k -= 2) /* every ply passes the turn */
            seen += same_pos(&seen_at[k], &child);
        if (!draw && (seen >= repetitions || quiet >= quiet_limit)) draw = (long)i, draw_seen = seen;
        p = child;
    }
    list_free(&l);
    PyMem_Free(seen_at);
    if (failed) return NULL;
    PyObject *after = position_object(like, &p);
    if (!after) return NULL;
    return Py_BuildValue("(Nnlll)", after, i, quiet, draw, draw_seen);
}

/* check_plain(pos, moves, names, settings, resolve): check_written over a list of squares (see
 * pykernel.check_plain, its twin). */
static PyObject *k_check_plain(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 5)
        return PyErr_Format(PyExc_TypeError, "check_plain(pos, moves, names, settings, resolve)");
    if (!PyList_Check(args[1]) || !PyDict_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "check_plain: wrong argument types");
    POSITION_ARG(args[0]);
    Written w = {args[2], args[1], NULL, NULL, {0}};
    return check_written(args[0], p, r, &w, PyList_GET_SIZE(args[1]), args[3], args[4]);
}

/* The squares of a move line_rows plays (path, then taken) into path and taken: from the move
 * list's side buffer, or from the Move resolve gave (NULL: the list's). Returns 0, or -1. */
static int move_squares(const MoveList *l, const CMove *m, PyObject *move, long *path, int *npath,
                        long *taken, int *ntaken) {
    if (move) {
        *npath = read_squares(PyTuple_GET_ITEM(move, 0), path, MAXCAP + 2, "path");
        *ntaken = *npath < 0 ? -1 : read_squares(PyTuple_GET_ITEM(move, 1), taken, MAXCAP, "captured");
        return *ntaken < 0 ? -1 : 0;
    }
    *npath = m->ncap ? m->nland : 2;
    *ntaken = m->ncap;
    if (!m->ncap) {
        path[0] = m->from, path[1] = m->to;
        return 0;
    }
    const uint8_t *side = l->side + m->extra;
    for (int k = 0; k < m->nland; k++) path[k] = side[k];
    for (int k = 0; k < m->ncap; k++) taken[k] = side[m->nland + k];
    return 0;
}

/* Play the first count written moves of w from *p (as check_written reads them: written_move),
 * each move's short form appended to texts; line[0..] the positions, the start first. Returns
 * the plies played, or -1. */
static Py_ssize_t play_line(PyObject *like, Pos p, const Rules *r, Written *w, Py_ssize_t count,
                            PyObject *resolve, PyObject *labels, const char *sep, Py_ssize_t nsep,
                            PyObject *texts, Pos *line) {
    MoveList l = {0};
    Text t;
    text_init(&t);
    Py_ssize_t i = 0;
    int failed = 0;
    line[0] = p;
    while (i < count && (!w->moves || i < PyList_GET_SIZE(w->moves))) { /* resolve may cut it */
        long path[MAXCAP + 2], taken[MAXCAP];
        int npath, ntaken;
        CMove given;
        const CMove *m;
        PyObject *move, *text = NULL;
        int found = written_move(like, &p, r, w, i, resolve, &l, &given, &m, &move);
        t.len = 0;
        failed = found < 0 ||
                 (found && (move_squares(&l, m, move, path, &npath, taken, &ntaken) < 0 ||
                            move_text(&t, r, &p, path, npath, taken, ntaken, &m->capmask, labels,
                                      sep, nsep) < 0 ||
                            !(text = PyUnicode_FromStringAndSize(t.text, (Py_ssize_t)t.len)) ||
                            PyList_Append(texts, text) < 0));
        Py_XDECREF(text);
        Py_XDECREF(move);
        if (failed || !found) break;
        play(&p, m, &line[i + 1]);
        p = line[++i];
    }
    list_free(&l);
    text_free(&t);
    return failed ? -1 : i;
}

static Py_ssize_t read_runs(PyObject *runs, const char *who, Written *w);
static void free_runs(Written *w);

/* line_rows(pos, moves, names, resolve, count, words, labels, separator, keep): the first count
 * moves of a checked main line (a list of squares, as check_plain reads them; with runs, runs of
 * plain moves, as check_runs reads them) played from pos and what the database stores of them at
 * once, no object made for a ply: the moves' short forms (move_texts), then scan(positions,
 * words, True) of the positions, then the first keep positions (see pykernel.line_rows and
 * line_rows_runs, their twins). */
static PyObject *line_rows_of(PyObject *const *args, Py_ssize_t nargs, int runs) {
    const char *who = runs ? "line_rows_runs" : "line_rows";
    if (nargs != 9)
        return PyErr_Format(PyExc_TypeError, "%s(pos, %s, names, resolve, count, words, labels, "
                            "separator, keep)", who, runs ? "runs" : "moves");
    if (!PyList_Check(args[1]) || !PyDict_Check(args[2]) || !PyCallable_Check(args[3]))
        return PyErr_Format(PyExc_TypeError, "%s: wrong argument types", who);
    Py_ssize_t count = PyLong_AsSsize_t(args[4]);
    if (count == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t keep = PyLong_AsSsize_t(args[8]);
    if (keep == -1 && PyErr_Occurred()) return NULL;
    long words = PyLong_AsLong(args[5]);
    if (words == -1 && PyErr_Occurred()) return NULL;
    if (count < 0 || keep < 0)
        return PyErr_Format(PyExc_ValueError, "line_rows: count and keep cannot be negative");
    if (words < 0 || words > MAXWORDS)
        return PyErr_Format(PyExc_ValueError, "words must be 0 to %d", MAXWORDS);
    POSITION_ARG(args[0]);
    Written w = {args[2], runs ? NULL : args[1], NULL, NULL, {0}};
    Py_ssize_t total = runs ? read_runs(args[1], who, &w) : PyList_GET_SIZE(args[1]);
    if (total < 0) {
        free_runs(&w);
        return NULL;
    }
    if (count > total) count = total;
    PyObject *labels = PySequence_Fast(args[6], "line_rows() needs labels");
    Py_ssize_t nsep = 0;
    const char *sep = labels ? PyUnicode_AsUTF8AndSize(args[7], &nsep) : NULL;
    Pos *line = sep ? PyMem_Malloc((size_t)(count + 1) * sizeof(Pos)) : NULL;
    Scan sc = {NULL};
    for (int f = 0; f < 4; f++) sc.ndigits[f] = -1;
    PyObject *texts = line ? PyList_New(0) : NULL, *variant = NULL, *kept = NULL, *out = NULL;
    Text t;
    text_init(&t);
    Runs u;
    memset(&u, 0, sizeof(u));
    if (sep && !line) PyErr_NoMemory();
    if (!texts) goto done;
    Py_ssize_t plies = play_line(args[0], p, r, &w, count, args[3], labels, sep, nsep, texts, line);
    if (plies < 0) goto done;
    Py_ssize_t n = plies + 1;
    size_t prefix = 0;
    sc.digests = PyList_New(n);
    sc.boards = PyBytes_FromStringAndSize(NULL, words ? (32 * words + 1) * n : 0);
    sc.runs = PyList_New(0);
    kept = PyList_New(0);
    if (!sc.digests || !sc.boards || !sc.runs || !kept) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Pos *q = &line[i];
        bb boards[4] = {q->men[0], q->kings[0], q->men[1], q->kings[1]};
        if ((words && scan_pack_side(&sc, boards, q->turn, i, n, words) < 0) ||
            digest_prefix(args[0], &t, &variant, &prefix) < 0 ||
            scan_text_bb(&sc, &t, boards, q->turn) < 0 || scan_digest(&sc, &t, i) < 0 ||
            runs_step(&sc, &u, boards, i) < 0)
            goto done;
        if (i < keep) {
            PyObject *pos = position_object(args[0], q);
            int err = !pos || PyList_Append(kept, pos) < 0;
            Py_XDECREF(pos);
            if (err) goto done;
        }
    }
    if (runs_end(&sc, &u, n) == 0 && scan_flush(&sc) == 0) {
        PyObject *squares = squares_reached(&u);
        if (squares)
            out = PyTuple_Pack(6, texts, sc.digests, sc.boards, sc.runs, squares, kept);
        Py_XDECREF(squares);
    }
done:
    text_free(&t);
    PyMem_Free(line);
    Py_XDECREF(labels);
    Py_XDECREF(texts);
    Py_XDECREF(variant);
    Py_XDECREF(sc.digests);
    Py_XDECREF(sc.boards);
    Py_XDECREF(sc.runs);
    Py_XDECREF(kept);
    free_runs(&w);
    return out;
}

static PyObject *k_line_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return line_rows_of(args, nargs, 0);
}

static PyObject *k_line_rows_runs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return line_rows_of(args, nargs, 1);
}

/* The moves of runs (a list of str) into w (tokens and word, allocated: free them with
 * free_runs), as check_runs reads them: words of digits joined by "-" or "x" (moves) or ending
 * with "." (move numbers, left out), between spaces, tabs and line ends. Returns the number of
 * moves, or -1 (the errors name who). */
static Py_ssize_t read_runs(PyObject *runs, const char *who, Written *w) {
    Py_ssize_t total = 0, room = 128;
    PyObject **tokens = w->tokens = PyMem_Malloc(room * sizeof(PyObject *));
    Py_ssize_t *word = w->word = PyMem_Malloc(3 * room * sizeof(Py_ssize_t));
    if (!tokens || !word) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(runs); t++) {
        PyObject *token = PyList_GET_ITEM(runs, t);
        if (!PyUnicode_Check(token)) {
            PyErr_Format(PyExc_TypeError, "%s: a run is a str", who);
            return -1;
        }
        int kind = PyUnicode_KIND(token);
        const void *data = PyUnicode_DATA(token);
        Py_ssize_t len = PyUnicode_GET_LENGTH(token), k = 0;
        while (k < len) {
            Py_UCS4 c = PyUnicode_READ(kind, data, k);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                k++;
                continue;
            }
            Py_ssize_t a = k, cut = -1;
            for (; k < len; k++) {
                c = PyUnicode_READ(kind, data, k);
                if (c == ' ' || c == '\t' || c == '\r' || c == '\n') break;
                if (c == '-' || c == 'x')
                    cut = cut == -1 ? k : -2;
                else if (!((c >= '0' && c <= '9') || c == '.')) {
                    PyErr_Format(PyExc_ValueError, "%s: not a run of plain moves", who);
                    return -1;
                }
            }
            if (PyUnicode_READ(kind, data, k - 1) == '.') continue; /* a move number */
            if (total == room) {
                room *= 2;
                PyObject **more = PyMem_Realloc(tokens, room * sizeof(PyObject *));
                if (more) tokens = w->tokens = more;
                Py_ssize_t *wider = more ? PyMem_Realloc(word, 3 * room * sizeof(Py_ssize_t)) : NULL;
                if (!wider) {
                    PyErr_NoMemory();
                    return -1;
                }
                word = w->word = wider;
            }
            tokens[total] = token;
            word[3 * total] = a;
            word[3 * total + 1] = k;
            word[3 * total + 2] = cut;
            total++;
        }
    }
    for (int i = 0; i < 100; i++) w->table[i] = -3;
    return total;
}

static void free_runs(Written *w) {
    PyMem_Free(w->tokens);
    PyMem_Free(w->word);
}

/* check_runs(pos, runs, names, settings, resolve): check_written over the moves of runs (see
 * read_runs, and pykernel.check_runs, its twin); its result, then the number of moves. */
static PyObject *k_check_runs(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 5)
        return PyErr_Format(PyExc_TypeError, "check_runs(pos, runs, names, settings, resolve)");
    if (!PyList_Check(args[1]) || !PyDict_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "check_runs: wrong argument types");
    POSITION_ARG(args[0]);
    Written w = {args[2], NULL, NULL, NULL, {0}};
    Py_ssize_t total = read_runs(args[1], "check_runs", &w);
    PyObject *out = NULL;
    PyObject *checked = total < 0 ? NULL : check_written(args[0], p, r, &w, total, args[3], args[4]);
    if (checked) {
        out = Py_BuildValue("(OOOOOn)", PyTuple_GET_ITEM(checked, 0), PyTuple_GET_ITEM(checked, 1),
                            PyTuple_GET_ITEM(checked, 2), PyTuple_GET_ITEM(checked, 3),
                            PyTuple_GET_ITEM(checked, 4), total);
        Py_DECREF(checked);
    }
    free_runs(&w);
    return out;
}

/* top_square(runs): the largest square number the moves of runs write (read_runs: their squares
 * joined by "-" or "x"), counting the squares of digits alone, one past 99 as 100; 0 where there
 * is none (see pykernel.top_square, its twin). */
static PyObject *k_top_square(PyObject *self, PyObject *runs) {
    if (!PyList_Check(runs)) return PyErr_Format(PyExc_TypeError, "top_square(runs)");
    Written w = {NULL, NULL, NULL, NULL, {0}};
    Py_ssize_t total = read_runs(runs, "top_square", &w);
    long top = 0;
    for (Py_ssize_t i = 0; i < total; i++) {
        PyObject *token = w.tokens[i];
        int kind = PyUnicode_KIND(token);
        const void *data = PyUnicode_DATA(token);
        long number = 0;
        int digits = 0, other = 0; /* the square so far: its digits, and a "." in it */
        for (Py_ssize_t k = w.word[3 * i]; k <= w.word[3 * i + 1]; k++) {
            Py_UCS4 c = k < w.word[3 * i + 1] ? PyUnicode_READ(kind, data, k) : '-';
            if (c >= '0' && c <= '9') {
                number = number < 100 ? 10 * number + (long)(c - '0') : number;
                digits = 1;
            } else if (c == '.')
                other = 1;
            else { /* "-" or "x", or the word's end */
                if (digits && !other && number > top) top = number;
                number = digits = other = 0;
            }
        }
    }
    free_runs(&w);
    return total < 0 ? NULL : PyLong_FromLong(top > 100 ? 100 : top);
}

/* -- the reader's PLAIN_RUN token (pdn/read/tokens.py: TOKEN_PATTERN) ------------------------ */

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
} Chars;

static inline Py_UCS4 char_at(const Chars *t, Py_ssize_t i) {
    return i < t->n ? PyUnicode_READ(t->kind, t->data, i) : 0;
}
static inline int run_space(Py_UCS4 c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static inline int nonzero_digit(Py_UCS4 c) { return c >= '1' && c <= '9'; }
static inline int is_decimal(Py_UCS4 c) { /* regex \d */
    return c < 128 ? c >= '0' && c <= '9' : Py_UNICODE_ISDECIMAL(c);
}
static inline int one_of(Py_UCS4 c, const char *set) { return c && c < 128 && strchr(set, (int)c); }

/* The end of a plain word at i (PLAIN_WORD: a move of numbers joined by "-" or "x" that is not
 * the result 1-1, or a move number), or -1. */
static Py_ssize_t plain_word(const Chars *t, Py_ssize_t i) {
    Py_UCS4 c3 = char_at(t, i + 3);
    int result = char_at(t, i) == '1' && char_at(t, i + 1) == '-' && char_at(t, i + 2) == '1' &&
                 !(is_decimal(c3) || one_of(c3, "/.:-"));
    if (!result && nonzero_digit(char_at(t, i))) { /* [1-9]\d?+(?:[-x][1-9]\d?+)++ */
        Py_ssize_t k = i + 1, steps = 0;
        if (is_decimal(char_at(t, k))) k++;
        for (;;) {
            Py_UCS4 c = char_at(t, k);
            if (!((c == '-' || c == 'x') && nonzero_digit(char_at(t, k + 1)))) break;
            k += 2;
            if (is_decimal(char_at(t, k))) k++;
            steps++;
        }
        if (steps) return k;
    }
    Py_ssize_t k = i; /* \d++\. */
    while (is_decimal(char_at(t, k))) k++;
    return k > i && char_at(t, k) == '.' ? k + 1 : -1;
}

/* Whether RESULT (a result, nothing of a number after it) matches at i. */
static int result_at(const Chars *t, Py_ssize_t i) {
    static const char *const results[] = {"1/2-1/2", "1/2:1/2", "\xbd-\xbd", "0.5-0.5", "1-0",
                                          "0-1", "2-0", "0-2", "1-1", "0-0", "1:0", "0:1", "0:0"};
    for (size_t r = 0; r < sizeof(results) / sizeof(*results); r++) {
        const unsigned char *s = (const unsigned char *)results[r];
        Py_ssize_t k = 0;
        while (s[k] && char_at(t, i + k) == s[k]) k++;
        if (s[k]) continue;
        Py_UCS4 c = char_at(t, i + k);
        if (!(is_decimal(c) || one_of(c, "/.:-"))) return 1;
    }
    return 0;
}

/* plain_run(text, pos): where the lexer's token at pos starts and ends when it is PLAIN_RUN
 * (the lexer's spaces, then plain words between spaces, tabs and line ends, then nothing RUN
 * would read on), else None (see pyreader.plain_run, its twin). */
static PyObject *k_plain_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyUnicode_Check(args[0]))
        return PyErr_Format(PyExc_TypeError, "plain_run(text, pos)");
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred()) return NULL;
    Chars t = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), PyUnicode_GET_LENGTH(args[0])};
    if (pos < 0 || pos > t.n) Py_RETURN_NONE;
    Py_ssize_t start = pos;
    for (;; start++) {
        Py_UCS4 c = char_at(&t, start);
        if (!(run_space(c) || c == '\f' || c == 0xa0 || c == 0xfeff) || start >= t.n) break;
    }
    Py_ssize_t end = plain_word(&t, start);
    if (end < 0) Py_RETURN_NONE;
    for (;;) { /* (?:[ \t\r\n]++ WORD)*+ */
        Py_ssize_t k = end;
        while (k < t.n && run_space(char_at(&t, k))) k++;
        Py_ssize_t next = k > end ? plain_word(&t, k) : -1;
        if (next < 0) break;
        end = next;
    }
    Py_UCS4 c = char_at(&t, end); /* the closing lookahead */
    if (end < t.n && (is_decimal(c) || one_of(c, "!?*(.-xX:"))) Py_RETURN_NONE;
    Py_ssize_t k = end;
    while (k < t.n && run_space(char_at(&t, k))) k++;
    c = char_at(&t, k);
    if (k < t.n && !result_at(&t, k) &&
        ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'l') || (c >= 'A' && c <= 'L') ||
         one_of(c, ".-xX:")))
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", start, end);
}

/* The chunker's results and spaces (pyreader.GAME_ENDS, BYTE_SPACES). */
static const char *const GAME_ENDS[] = {"1/2-1/2", "1-0", "0-1", "2-0", "0-2",
                                        "1-1", "0-0", "1:0", "0:1", "*"};

static int byte_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* Whether t[0..n) (stripped) ends with a result after a space or at its start; alone: whether
 * it is one (see pyreader.game_end). */
static int game_end(const char *t, Py_ssize_t n, int alone) {
    for (size_t k = 0; k < sizeof(GAME_ENDS) / sizeof(*GAME_ENDS); k++) {
        Py_ssize_t m = (Py_ssize_t)strlen(GAME_ENDS[k]);
        if (m > n || memcmp(t + n - m, GAME_ENDS[k], (size_t)m)) continue;
        if (m == n || (!alone && byte_space((unsigned char)t[n - m - 1]))) return 1;
    }
    return 0;
}

/* plain_lines(lines, odd, i, movetext, ended, size, limit): how far from line i the chunker
 * adds lines to a game's chunk as they are, and movetext, ended and size after them (see
 * pyreader.plain_lines, its twin). */
static PyObject *k_plain_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7 || !PyList_Check(args[0]))
        return PyErr_Format(PyExc_TypeError,
                            "plain_lines(lines, odd, i, movetext, ended, size, limit)");
    Py_ssize_t i = PyLong_AsSsize_t(args[2]);
    int movetext = PyObject_IsTrue(args[3]), ended = PyObject_IsTrue(args[4]);
    long long size = PyLong_AsLongLong(args[5]), limit = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred() || movetext < 0 || ended < 0) return NULL;
    if (i < 0) return PyErr_Format(PyExc_ValueError, "plain_lines: i cannot be negative");
    Py_buffer odd;
    if (PyObject_GetBuffer(args[1], &odd, PyBUF_SIMPLE) < 0) return NULL;
    const char *marks = odd.buf;
    Py_ssize_t end = PyList_GET_SIZE(args[0]);
    if (odd.len < end) end = odd.len;
    for (; i < end; i++) {
        PyObject *line = PyList_GET_ITEM(args[0], i);
        if (!PyBytes_Check(line)) {
            PyBuffer_Release(&odd);
            return PyErr_Format(PyExc_TypeError, "plain_lines: lines must be bytes");
        }
        const char *s = PyBytes_AS_STRING(line);
        Py_ssize_t n = PyBytes_GET_SIZE(line), a = 0, b = n;
        if (size + n + 1 > limit) break;
        while (a < b && byte_space((unsigned char)s[a])) a++;
        while (b > a && byte_space((unsigned char)s[b - 1])) b--;
        const char *t = s + a;
        Py_ssize_t m = b - a;
        if (m && t[0] == '[') {
            if (movetext || t[m - 1] != ']' || memchr(t + 1, '[', (size_t)m - 1)) break;
            ended = 0;
        } else if (m) {
            if (marks[i] || t[m - 1] == ']' || memchr(t, '[', (size_t)m)) break;
            if (ended && !game_end(t, m, 1)) break;
            movetext = 1;
            ended = game_end(t, m, 0);
        }
        size += n + 1;
    }
    PyBuffer_Release(&odd);
    return Py_BuildValue("(nNNL)", i, PyBool_FromLong(movetext), PyBool_FromLong(ended), size);
}

#include "../engine/_search.c" /* the built-in engine's search, on this kernel */

static PyMethodDef methods[] = {
    {"setup", k_setup, METH_VARARGS,
     "setup(Move, Position, KEEP, PATHS, rules_of): the Python types and the rule-table maker."},
    {"generate", (PyCFunction)(void (*)(void))k_generate, METH_FASTCALL,
     "generate(pos, duplicates): every legal move."},
    {"captures", (PyCFunction)(void (*)(void))k_captures, METH_FASTCALL,
     "captures(pos, duplicates): the captures the rules allow."},
    {"count_moves", (PyCFunction)(void (*)(void))k_count_moves, METH_FASTCALL,
     "count_moves(pos, duplicates): the number of legal moves."},
    {"perft", (PyCFunction)(void (*)(void))k_perft, METH_FASTCALL,
     "perft(pos, depth, duplicates): move sequences of length depth."},
    {"has_moves", k_has_moves, METH_O, "has_moves(pos): whether the side to move can move."},
    {"digest", k_digest, METH_O, "digest(pos): the position's stable signed 64-bit hash."},
    {"scan", (PyCFunction)(void (*)(void))k_scan, METH_FASTCALL,
     "scan(positions, words, digests): digests, packed boards and material runs of positions."},
    {"move_texts", (PyCFunction)(void (*)(void))k_move_texts, METH_FASTCALL,
     "move_texts(positions, moves, labels, separator): each move in its PDN 3.0 short form."},
    {"has_captures", k_has_captures, METH_O,
     "has_captures(pos): whether the side to move can capture."},
    {"quiet_move", (PyCFunction)(void (*)(void))k_quiet_move, METH_FASTCALL,
     "quiet_move(pos, start, end): the non-capturing move from start to end, or None."},
    {"push_plain", (PyCFunction)(void (*)(void))k_push_plain, METH_FASTCALL,
     "push_plain(pos, moves, i, names, history, quiet, watch, settings): "
     "Board.push_written's loop."},
    {"check_plain", (PyCFunction)(void (*)(void))k_check_plain, METH_FASTCALL,
     "check_plain(pos, moves, names, settings, resolve): push_written's loop, no records."},
    {"check_runs", (PyCFunction)(void (*)(void))k_check_runs, METH_FASTCALL,
     "check_runs(pos, runs, names, settings, resolve): check_plain over runs of plain moves."},
    {"line_rows", (PyCFunction)(void (*)(void))k_line_rows, METH_FASTCALL,
     "line_rows(pos, moves, names, resolve, count, words, labels, separator, keep): a checked "
     "main line played, its texts, scan and first positions."},
    {"line_rows_runs", (PyCFunction)(void (*)(void))k_line_rows_runs, METH_FASTCALL,
     "line_rows_runs(pos, runs, names, resolve, count, words, labels, separator, keep): "
     "line_rows over runs of plain moves."},
    {"moves_between", (PyCFunction)(void (*)(void))k_moves_between, METH_FASTCALL,
     "moves_between(pos, start, end): the legal moves from start to end."},
    {"play", (PyCFunction)(void (*)(void))k_play, METH_FASTCALL,
     "play(pos, move): the position after move."},
    {"top_square", k_top_square, METH_O,
     "top_square(runs): the largest square number the moves of runs write (past 99: 100)."},
    {"plain_run", (PyCFunction)(void (*)(void))k_plain_run, METH_FASTCALL,
     "plain_run(text, pos): where the lexer's PLAIN_RUN token at pos starts and ends, or None."},
    {"plain_lines", (PyCFunction)(void (*)(void))k_plain_lines, METH_FASTCALL,
     "plain_lines(lines, odd, i, movetext, ended, size, limit): how far the chunker adds lines "
     "as they are."},
    SEARCH_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pdn.rules._kernel",
    .m_doc = "The compiled move kernel (pdn.rules.kernel.Kernel); its twin is pdn.rules.pykernel.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    S.cache = PyDict_New();
    S.empty = PyTuple_New(0);
    S.s_name = PyUnicode_InternFromString("name");
    if (!S.cache || !S.empty || !S.s_name) return NULL;
    for (int f = 0; f < 7; f++) {
        S.offsets[f] = -1;
        if (!(S.names[f] = PyUnicode_InternFromString(FIELD_NAMES[f]))) return NULL;
    }
    AVX2 = B2B_LANES == 4 && have_avx2();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* the attributes of pdn.rules.kernel.Kernel, as pdn/rules/pykernel.py has them */
    if (PyModule_AddStringConstant(m, "name", "c") < 0 ||
        PyModule_AddStringConstant(m, "title", "C kernel") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
