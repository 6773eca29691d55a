/* The built-in engine's evaluation: the C twin of pdn/engine/evaluation.py (evaluate), on the
 * tables it makes (Tables.as_kernel), read once per geometry. Included by pdn/engine/_search.c.
 */

/* evaluation.py's Tables: per side and square, then the wings and the counts and weights */
typedef struct {
    int men[2][MAXSQ], men_end[2][MAXSQ], kings[2][MAXSQ], run[2][MAXSQ];
    bb cone[2][MAXSQ], left, right;
    int full, balance, mobility, drawish, drawish_div, tempo;
} EvalTables;

/* One side's value (evaluation.py: _side). */
static int side_value(const EvalTables *t, const Rules *r, const Pos *p, int c, bb occupied,
                      int phase) {
    bb enemy = bb_or(p->men[!c], p->kings[!c]);
    int enemy_kings = bb_any(p->kings[!c]);
    int mid = 0, end = 0, run = 0;
    FOR_BITS(s, p->men[c], {
        mid += t->men[c][s];
        end += t->men_end[c][s];
        if (t->run[c][s] && !enemy_kings && !bb_any(bb_and(t->cone[c][s], enemy)))
            run += t->run[c][s];
    });
    int value = (mid * phase + end * (t->full - phase)) / t->full + run;
    value -= t->balance * abs(bb_count(bb_and(p->men[c], t->left)) -
                              bb_count(bb_and(p->men[c], t->right)));
    /* king mobility: the kernel's king_quiet_moves (evaluation.py: _mobility) */
    FOR_BITS(s, p->kings[c],
             { value += t->kings[c][s] + t->mobility * king_quiet_moves(r, occupied, s); });
    return value;
}

static int evaluate(const EvalTables *t, const Rules *r, const Pos *p) {
    bb all[2] = {bb_or(p->men[0], p->kings[0]), bb_or(p->men[1], p->kings[1])};
    bb occupied = bb_or(all[0], all[1]);
    int phase = bb_count(occupied);
    if (phase > t->full) phase = t->full;
    int diff = side_value(t, r, p, 0, occupied, phase) - side_value(t, r, p, 1, occupied, phase);
    if (t->drawish) { /* C division truncates: as evaluation.py's floor of the positive lead */
        if (diff > 0 && bb_any(p->kings[1]) && bb_count(all[0]) <= t->drawish)
            diff /= t->drawish_div;
        else if (diff < 0 && bb_any(p->kings[0]) && bb_count(all[1]) <= t->drawish)
            diff /= t->drawish_div;
    }
    return (p->turn == 0 ? diff : -diff) + t->tempo;
}

static PyObject *E_tables_of; /* geo -> the evaluation tables (evaluation.py: Tables.as_kernel) */
static PyObject *E_cache;     /* geo -> capsule of EvalTables */

static void tables_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, "pdn.rules._kernel.EvalTables"));
}

static int table_row(PyObject *seq, int *out, const Rules *r) {
    int n = int_seq(seq, out, MAXSQ, "evaluation table");
    if (n < 0) return -1;
    if (n != r->size) {
        PyErr_SetString(PyExc_ValueError, "an evaluation table needs one value per square");
        return -1;
    }
    return 0;
}

static int mask_row(PyObject *seq, bb *out, const Rules *r) {
    PyObject *fast = PySequence_Fast(seq, "evaluation masks");
    if (!fast) return -1;
    int ok = PySequence_Fast_GET_SIZE(fast) == r->size;
    for (Py_ssize_t i = 0; ok && i < r->size; i++)
        ok = bb_from_int(PySequence_Fast_GET_ITEM(fast, i), &out[i]) == 0;
    Py_DECREF(fast);
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "an evaluation mask table needs one mask per square");
    return ok ? 0 : -1;
}

/* Parse evaluation.py's Tables.as_kernel(): men, men_end, kings, runaway (each White, Black),
 * cones (White, Black), left, right, (full, balance, mobility, drawish, drawish_div, tempo). */
static int tables_parse(PyObject *t, EvalTables *ev, const Rules *r) {
    PyObject *row[10], *left, *right, *counts;
    if (!PyArg_ParseTuple(t, "OOOOOOOOOOOOO;evaluation tables", &row[0], &row[1], &row[2],
                          &row[3], &row[4], &row[5], &row[6], &row[7], &row[8], &row[9], &left,
                          &right, &counts))
        return -1;
    int *ints[8] = {ev->men[0],   ev->men[1],   ev->men_end[0], ev->men_end[1],
                    ev->kings[0], ev->kings[1], ev->run[0],     ev->run[1]};
    for (int i = 0; i < 8; i++)
        if (table_row(row[i], ints[i], r) < 0) return -1;
    if (mask_row(row[8], ev->cone[0], r) < 0 || mask_row(row[9], ev->cone[1], r) < 0) return -1;
    if (bb_from_int(left, &ev->left) < 0 || bb_from_int(right, &ev->right) < 0) return -1;
    if (!PyArg_ParseTuple(counts, "iiiiii;evaluation counts", &ev->full, &ev->balance,
                          &ev->mobility, &ev->drawish, &ev->drawish_div, &ev->tempo))
        return -1;
    if (ev->full < 1 || ev->drawish_div < 1) {
        PyErr_SetString(PyExc_ValueError, "evaluation counts out of range");
        return -1;
    }
    return 0;
}

static const EvalTables *tables_for(PyObject *geo, const Rules *r) {
    PyObject *capsule = PyDict_GetItemWithError(E_cache, geo);
    if (capsule) return PyCapsule_GetPointer(capsule, "pdn.rules._kernel.EvalTables");
    if (PyErr_Occurred()) return NULL;
    PyObject *t = PyObject_CallOneArg(E_tables_of, geo);
    if (!t) return NULL;
    EvalTables *ev = PyMem_Calloc(1, sizeof(EvalTables));
    int ok = ev && tables_parse(t, ev, r) == 0;
    Py_DECREF(t);
    if (!ok) {
        PyMem_Free(ev);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    capsule = PyCapsule_New(ev, "pdn.rules._kernel.EvalTables", tables_free);
    if (!capsule) {
        PyMem_Free(ev);
        return NULL;
    }
    int err = PyDict_SetItem(E_cache, geo, capsule);
    Py_DECREF(capsule);
    return err < 0 ? NULL : ev;
}
