/*
 * The batch replay's whole event loop in C: FCFS, EASY and conservative backfilling
 * under the fcfs, wfp and sjf queue orders, either convention profile.
 *
 * This is a second implementation of what simulators/core/engine.py does with one
 * Machine and one of the built-in policies (fcfs.py, easy.py, conservative.py) and
 * orders (order.py).  Those modules stay the readable reference; the tests compare
 * both paths job for job.  Everything that decides a schedule is mirrored, including
 * the order in which sequence numbers are drawn (they order equal-time terminations)
 * and the availability profile of simulators/core/profile.py.
 *
 * Events are keyed (time, rank, tie, sequence) as in the engine.  Submissions are not
 * pushed on the heap: jobs arrive sorted and hold sequence numbers 1..n, so they are
 * merged from a cursor and the heap holds only running jobs and planned starts.
 *
 * Closed loop (simulators/batch/feedback.py is the reference): the jobs of dependent
 * sessions are held back from the cursor; when the last job of a session's last
 * predecessor ends, the session's jobs are pushed on the heap as submissions, the first
 * its think time after that end, the others at their offsets from it, each under a new
 * sequence number as the engine draws them.
 *
 * Python calls run(...) once per replay (see simulators/batch/compiled.py); the GIL is
 * released while the loop runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { POLICY_FCFS, POLICY_EASY, POLICY_CONSERVATIVE };
enum { ORDER_ARRIVAL, ORDER_WFP, ORDER_SJF, ORDER_KEY };
enum { EVENT_SUBMIT, EVENT_TERMINATE, EVENT_START };
enum { DONE, OVER_COMMIT, OVER_RELEASE, COMPRESSION_MOVED_LATER, OUT_OF_MEMORY };
static const double START_RANK = 2.0;

/* ---- availability profile: free processors as a step function of time ---- */

typedef struct {
    double *times;
    int64_t *free;
    int64_t n, size, capacity, compact_at;
} Profile;

static int64_t segment(const Profile *p, double t) {
    int64_t lo = 0, hi = p->n;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (p->times[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

static int64_t split(Profile *p, double t) {
    int64_t k = segment(p, t);
    if (p->times[k] == t) return k;
    memmove(p->times + k + 2, p->times + k + 1, (size_t)(p->n - k - 1) * sizeof(double));
    memmove(p->free + k + 2, p->free + k + 1, (size_t)(p->n - k - 1) * sizeof(int64_t));
    p->times[k + 1] = t;
    p->free[k + 1] = p->free[k];
    p->n += 1;
    return k + 1;
}

/* Add delta free processors over [start, end); 0, or 1 (undone) if a bound would break, -1 out of memory. */
static int add(Profile *p, double start, double end, int64_t delta) {
    if (end <= start) return 0;
    if (p->n + 2 > p->size) {
        int64_t size = 2 * p->size;
        double *times = realloc(p->times, (size_t)size * sizeof(double));
        if (!times) return -1;
        p->times = times;
        int64_t *free_ = realloc(p->free, (size_t)size * sizeof(int64_t));
        if (!free_) return -1;
        p->free = free_;
        p->size = size;
    }
    int64_t i = split(p, start), j = split(p, end);
    int broken = 0;
    for (int64_t k = i; k < j; k++) {
        p->free[k] += delta;
        if (p->free[k] < 0 || p->free[k] > p->capacity) broken = 1;
    }
    if (broken)
        for (int64_t k = i; k < j; k++) p->free[k] -= delta;
    return broken;
}

static int64_t free_at(const Profile *p, double t) { return p->free[segment(p, t)]; }

static int64_t min_free(const Profile *p, double start, double end) {
    int64_t k = segment(p, start);
    int64_t low = p->free[k];
    for (k += 1; k < p->n && p->times[k] < end; k++)
        if (p->free[k] < low) low = p->free[k];
    return low;
}

static double earliest_start(const Profile *p, double after, double duration, int64_t procs) {
    int64_t k = segment(p, after);
    for (;;) {
        while (p->free[k] < procs) k++;
        double start = after > p->times[k] ? after : p->times[k];
        double end = start + duration;
        int64_t j = k + 1;
        while (j < p->n && p->times[j] < end && p->free[j] >= procs) j++;
        if (j == p->n || p->times[j] >= end) return start;
        k = j;
    }
}

/* Does procs fit over [start, end) once held_procs are set aside over [held_start, held_end)? */
static int fits_beside(const Profile *p, double start, double end, int64_t procs, double held_start,
                       double held_end, int64_t held_procs) {
    for (int64_t k = segment(p, start); k < p->n && p->times[k] < end; k++) {
        double segment_start = p->times[k] > start ? p->times[k] : start;
        double segment_end = k + 1 < p->n ? p->times[k + 1] : INFINITY;
        if (end < segment_end) segment_end = end;
        int64_t available = p->free[k];
        if (segment_start < held_end && held_start < segment_end) available -= held_procs;
        if (available < procs) return 0;
    }
    return 1;
}

/* Drop segments that end before t and merge equal neighbours, once the profile has doubled. */
static void tidy(Profile *p, double t) {
    if (p->n < p->compact_at) return;
    int64_t first = segment(p, t), m = 0;
    for (int64_t k = first; k < p->n; k++) {
        if (m > 0 && p->free[k] == p->free[m - 1]) continue;
        p->times[m] = p->times[k];
        p->free[m] = p->free[k];
        m++;
    }
    p->n = m;
    p->compact_at = 2 * m > 64 ? 2 * m : 64;
}

/* ---- event heap ---- */

typedef struct {
    double t, rank, tie;
    int64_t seq, job;
    int kind;
} Event;

typedef struct {
    Event *events;
    int64_t size, capacity;
} Heap;

static int before(const Event *a, const Event *b) {
    if (a->t != b->t) return a->t < b->t;
    if (a->rank != b->rank) return a->rank < b->rank;
    if (a->tie != b->tie) return a->tie < b->tie;
    return a->seq < b->seq;
}

static int push(Heap *h, Event event) {
    if (h->size == h->capacity) {
        int64_t capacity = 2 * h->capacity;
        Event *events = realloc(h->events, (size_t)capacity * sizeof(Event));
        if (!events) return -1;
        h->events = events;
        h->capacity = capacity;
    }
    int64_t child = h->size++;
    while (child > 0) {
        int64_t parent = (child - 1) / 2;
        if (!before(&event, &h->events[parent])) break;
        h->events[child] = h->events[parent];
        child = parent;
    }
    h->events[child] = event;
    return 0;
}

static Event pop(Heap *h) {
    Event top = h->events[0], last = h->events[--h->size];
    int64_t parent = 0;
    for (;;) {
        int64_t child = 2 * parent + 1;
        if (child >= h->size) break;
        if (child + 1 < h->size && before(&h->events[child + 1], &h->events[child])) child++;
        if (!before(&h->events[child], &last)) break;
        h->events[parent] = h->events[child];
        parent = child;
    }
    if (h->size > 0) h->events[parent] = last;
    return top;
}

/* ---- queue orders ---- */

typedef struct {
    double key;
    int64_t position, job;
} Ranked;

static int by_key_then_position(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->position < y->position ? -1 : (x->position > y->position);
}

/* The waiting jobs in the order a policy considers them; ties keep arrival order.  ORDER_KEY: a
 * priority fixed per job (simulators/batch/priority.py), lowest first. */
static void order_queue(const int64_t *queue, int64_t length, int order, double t, const double *submit,
                        const double *estimate, const int64_t *procs, const double *keys, int64_t *ordered,
                        Ranked *scratch) {
    if (order == ORDER_ARRIVAL || length < 2) {
        memcpy(ordered, queue, (size_t)length * sizeof(int64_t));
        return;
    }
    for (int64_t i = 0; i < length; i++) {
        int64_t job = queue[i];
        scratch[i].position = i;
        scratch[i].job = job;
        scratch[i].key = order == ORDER_WFP   ? -pow((t - submit[job]) / estimate[job], 3.0) * (double)procs[job]
                         : order == ORDER_KEY ? keys[job]
                                              : estimate[job];
    }
    qsort(scratch, (size_t)length, sizeof(Ranked), by_key_then_position);
    for (int64_t i = 0; i < length; i++) ordered[i] = scratch[i].job;
}

static int64_t dequeue(int64_t *queue, int64_t length, int64_t job) {
    for (int64_t i = 0; i < length; i++)
        if (queue[i] == job) {
            memmove(queue + i, queue + i + 1, (size_t)(length - i - 1) * sizeof(int64_t));
            return length - 1;
        }
    return length;
}

/* Conservative: job will start at start (already booked in the profile) under a new decision
 * number; an older planned start of it becomes stale.  0, or -1 out of memory. */
static int plan_start(Heap *heap, int64_t *sequence, double *planned_time, int64_t *planned_seq, double *promised,
                      int64_t job, double start) {
    *sequence += 1;
    planned_time[job] = start;
    planned_seq[job] = *sequence;
    if (start < promised[job]) promised[job] = start;
    return push(heap, (Event){start, START_RANK, 0.0, *sequence, job, EVENT_START});
}

/* ---- closed-loop sessions ---- */

typedef struct {
    int64_t count;
    const int64_t *job_session;    /* per job: its session, or -1 */
    const int64_t *held;           /* per job: 1 if its submission waits for the simulation */
    const int64_t *member_start;   /* per session: where its jobs begin in members (count + 1 values) */
    const int64_t *members;        /* job indices, session by session, in submit order */
    const double *member_offsets;  /* each job's offset from its session's first submission */
    const int64_t *dependent_start;/* per session: where its dependents begin in dependents (count + 1) */
    const int64_t *dependents;
    const double *think;           /* per session: NaN for a session that does not wait */
    const double *time_of_day;     /* per session: logged time of day of its first job, or NaN */
    double day_clock;              /* NaN unless sessions keep their time of day */
    int64_t *running, *waiting;    /* per session: jobs not yet ended; predecessors not yet ended */
    double *ready, *ended;         /* per session: latest end of its predecessors; of its own jobs */
} Sessions;

static const double DAY = 86400.0;

/* Python's float %: the remainder takes the divisor's sign. */
static double python_mod(double x, double y) {
    double mod = fmod(x, y);
    if (mod != 0.0) {
        if ((y < 0) != (mod < 0)) mod += y;
    } else {
        mod = copysign(0.0, y);
    }
    return mod;
}

/* A ready session's first arrival: moved on to its logged time of day when sessions keep it. */
static double first_arrival(const Sessions *s, int64_t session, double ready) {
    if (isnan(s->day_clock)) return ready;
    double clock = python_mod(ready + s->day_clock, DAY);
    double later = s->time_of_day[session] - clock;
    return ready + (later > 0.0 ? later : 0.0);
}

/* Push the session's jobs as submissions (0, or -1 out of memory). */
static int release(const Sessions *s, int64_t session, double first, double now, double rank_submit, double *submit,
                   Heap *heap, int64_t *sequence) {
    for (int64_t m = s->member_start[session]; m < s->member_start[session + 1]; m++) {
        int64_t job = s->members[m];
        double arrival = first + s->member_offsets[m];
        if (now > arrival) arrival = now;
        submit[job] = arrival;
        *sequence += 1;
        if (push(heap, (Event){arrival, rank_submit, 0.0, *sequence, job, EVENT_SUBMIT})) return -1;
    }
    return 0;
}

/* A job ended at t: release the sessions this completes (0, or -1 out of memory). */
static int job_ended(const Sessions *s, int64_t job, double t, double rank_submit, double *submit, Heap *heap,
                     int64_t *sequence) {
    int64_t session = s->job_session[job];
    if (session < 0) return 0;
    if (t > s->ended[session]) s->ended[session] = t;
    if (--s->running[session] > 0) return 0;
    for (int64_t d = s->dependent_start[session]; d < s->dependent_start[session + 1]; d++) {
        int64_t dependent = s->dependents[d];
        if (s->ended[session] > s->ready[dependent]) s->ready[dependent] = s->ended[session];
        if (--s->waiting[dependent] > 0) continue;
        double first = first_arrival(s, dependent, s->ready[dependent] + s->think[dependent]);
        if (release(s, dependent, first, t, rank_submit, submit, heap, sequence)) return -1;
    }
    return 0;
}

/* ---- the loop ---- */

typedef struct {
    double t;
    int64_t queue_length, busy;
} Sample;

typedef struct {
    int64_t n, capacity;
    int policy, order, submissions_first, per_event;
    double *submit; /* written where closed loop decides an arrival */
    const double *estimate, *actual;
    const int64_t *procs;
    double *start_time, *promised;
    const Sessions *sessions; /* NULL: open loop */
    const double *keys;       /* per job under ORDER_KEY, else NULL */
    volatile int64_t *finished; /* jobs ended so far, read by another thread to show progress */
    /* outputs */
    Sample *series;
    int64_t recorded;
    int64_t failed_job;
} Run;

#define FAIL(code, job)            \
    do {                           \
        run->failed_job = (job);   \
        status = (code);           \
        goto finish;               \
    } while (0)
#define CHECK(call, code, job)                         \
    do {                                               \
        int outcome_ = (call);                         \
        if (outcome_ < 0) FAIL(OUT_OF_MEMORY, job);    \
        if (outcome_ > 0) FAIL(code, job);             \
    } while (0)

static int simulate(Run *run) {
    const int64_t n = run->n;
    double *submit = run->submit;
    const double *estimate = run->estimate, *actual = run->actual;
    const Sessions *sessions = run->sessions;
    const int64_t *procs = run->procs;
    double *start_time = run->start_time, *promised = run->promised;
    const double rank_submit = run->submissions_first ? 0.0 : 1.0;
    const double rank_terminate = run->submissions_first ? 1.0 : 0.0;
    const int64_t slots = n > 0 ? n : 1;
    int status = DONE;

    Profile profile = {malloc(64 * sizeof(double)), malloc(64 * sizeof(int64_t)), 1, 64, run->capacity, 64};
    Heap heap = {malloc(64 * sizeof(Event)), 0, 64};
    int64_t *queue = malloc((size_t)slots * sizeof(int64_t));
    int64_t *ordered = malloc((size_t)slots * sizeof(int64_t));
    int64_t *submitted = malloc((size_t)slots * sizeof(int64_t));
    Ranked *scratch = malloc((size_t)slots * sizeof(Ranked));
    double *planned_time = malloc((size_t)slots * sizeof(double));
    int64_t *planned_seq = malloc((size_t)slots * sizeof(int64_t));
    int64_t series_capacity = 2 * slots;
    run->series = malloc((size_t)series_capacity * sizeof(Sample));
    run->recorded = 0;
    run->failed_job = -1;
    if (!profile.times || !profile.free || !heap.events || !queue || !ordered || !submitted || !scratch ||
        !planned_time || !planned_seq || !run->series)
        FAIL(OUT_OF_MEMORY, -1);
    profile.times[0] = -INFINITY;
    profile.free[0] = run->capacity;
    for (int64_t j = 0; j < n; j++) {
        start_time[j] = NAN;
        promised[j] = INFINITY;
        planned_seq[j] = -1;
    }

    int64_t queue_length = 0, busy = 0, sequence = n, cursor = 0, submitted_count = 0, ended_count = 0;
    int64_t protected_head = -1;
    double now = -INFINITY;
    if (sessions) {
        while (cursor < n && sessions->held[cursor]) cursor++;
        for (int64_t session = 0; session < sessions->count; session++)
            if (!isnan(sessions->think[session]) && sessions->waiting[session] == 0 &&
                release(sessions, session,
                        first_arrival(sessions, session, sessions->ready[session] + sessions->think[session]), now,
                        rank_submit, submit, &heap, &sequence))
                FAIL(OUT_OF_MEMORY, -1);
    }

    while (cursor < n || heap.size > 0) {
        Event event;
        int take_submission = cursor < n;
        if (take_submission && heap.size > 0) {
            Event candidate = {submit[cursor], rank_submit, 0.0, cursor + 1, cursor, EVENT_SUBMIT};
            take_submission = before(&candidate, &heap.events[0]);
        }
        if (take_submission) {
            event = (Event){submit[cursor], rank_submit, 0.0, cursor + 1, cursor, EVENT_SUBMIT};
            cursor++;
            if (sessions)
                while (cursor < n && sessions->held[cursor]) cursor++;
        } else {
            event = pop(&heap);
        }
        const double t = event.t;
        const int64_t job = event.job;

        if (t != now) {
            if (now != -INFINITY) {
                if (run->recorded == series_capacity) {
                    series_capacity *= 2;
                    Sample *series = realloc(run->series, (size_t)series_capacity * sizeof(Sample));
                    if (!series) FAIL(OUT_OF_MEMORY, -1);
                    run->series = series;
                }
                run->series[run->recorded++] = (Sample){now, queue_length, busy};
                tidy(&profile, now);
            }
            now = t;
        }

        if (event.kind == EVENT_START) {
            if (planned_seq[job] != event.seq || planned_time[job] != t) continue; /* left by a compression */
            planned_seq[job] = -1;
            queue_length = dequeue(queue, queue_length, job);
            start_time[job] = t;
            busy += procs[job];
            if (push(&heap, (Event){t + actual[job], rank_terminate, t, event.seq, job, EVENT_TERMINATE}))
                FAIL(OUT_OF_MEMORY, job);
            continue;
        }
        if (event.kind == EVENT_SUBMIT) {
            queue[queue_length++] = job;
        } else {
            CHECK(add(&profile, t, start_time[job] + estimate[job], procs[job]), OVER_RELEASE, job);
            busy -= procs[job];
            *run->finished += 1;
            if (sessions && job_ended(sessions, job, t, rank_submit, submit, &heap, &sequence))
                FAIL(OUT_OF_MEMORY, job);
        }

        if (event.kind == EVENT_SUBMIT)
            submitted[submitted_count++] = job;
        else
            ended_count++;
        if (!run->per_event) {
            /* The pass waits for every submission and termination at this time. */
            if (cursor < n && submit[cursor] == t) continue;
            if (heap.size > 0 && heap.events[0].t == t && heap.events[0].rank < START_RANK) continue;
        }

        /* ---- a scheduling pass at t ---- */
        if (run->policy == POLICY_CONSERVATIVE) {
            if (ended_count > 0) {
                /* Compression: each waiting job gives up its slot and takes the earliest one now. */
                int64_t count = queue_length;
                order_queue(queue, count, run->order, t, submit, estimate, procs, run->keys, ordered, scratch);
                for (int64_t i = 0; i < count; i++) {
                    int64_t candidate = ordered[i];
                    if (planned_seq[candidate] < 0 || planned_time[candidate] <= t) continue;
                    double old_start = planned_time[candidate], duration = estimate[candidate];
                    int64_t width = procs[candidate];
                    CHECK(add(&profile, old_start, old_start + duration, width), OVER_RELEASE, candidate);
                    double new_start = earliest_start(&profile, t, duration, width);
                    if (new_start > old_start) FAIL(COMPRESSION_MOVED_LATER, candidate);
                    CHECK(add(&profile, new_start, new_start + duration, -width), OVER_COMMIT, candidate);
                    if (new_start != old_start &&
                        plan_start(&heap, &sequence, planned_time, planned_seq, promised, candidate, new_start))
                        FAIL(OUT_OF_MEMORY, candidate);
                }
            }
            for (int64_t i = 0; i < submitted_count; i++) {
                int64_t candidate = submitted[i];
                double duration = estimate[candidate];
                int64_t width = procs[candidate];
                double slot = earliest_start(&profile, t, duration, width);
                CHECK(add(&profile, slot, slot + duration, -width), OVER_COMMIT, candidate);
                if (plan_start(&heap, &sequence, planned_time, planned_seq, promised, candidate, slot))
                    FAIL(OUT_OF_MEMORY, candidate);
            }
        } else {
            int64_t count = queue_length;
            order_queue(queue, count, run->order, t, submit, estimate, procs, run->keys, ordered, scratch);
            if (run->policy == POLICY_EASY && count > 0 && protected_head >= 0 && protected_head != ordered[0] &&
                isnan(start_time[protected_head]))
                promised[protected_head] = INFINITY; /* overtaken under a priority order */
            int64_t head_index = count, free_now = 0;
            double reservation = NAN;
            for (int64_t i = 0; i < count; i++) {
                int64_t candidate = ordered[i];
                double duration = estimate[candidate];
                int64_t width = procs[candidate];
                if (i < head_index) {
                    /* Queue heads start while they fit. */
                    if (min_free(&profile, t, t + duration) < width) {
                        head_index = i;
                        if (run->policy != POLICY_EASY) break;
                        protected_head = candidate;
                        free_now = free_at(&profile, t);
                        continue;
                    }
                } else {
                    /* EASY: a later job backfills if it fits now beside the head's reservation. */
                    if (width > free_now) continue;
                    int64_t head = ordered[head_index];
                    if (isnan(reservation)) {
                        reservation = earliest_start(&profile, t, estimate[head], procs[head]);
                        if (reservation < promised[head]) promised[head] = reservation;
                    }
                    if (!fits_beside(&profile, t, t + duration, width, reservation, reservation + estimate[head],
                                     procs[head]))
                        continue;
                }
                CHECK(add(&profile, t, t + duration, -width), OVER_COMMIT, candidate);
                queue_length = dequeue(queue, queue_length, candidate);
                start_time[candidate] = t;
                busy += width;
                sequence++;
                if (push(&heap, (Event){t + actual[candidate], rank_terminate, t, sequence, candidate, EVENT_TERMINATE}))
                    FAIL(OUT_OF_MEMORY, candidate);
                if (i > head_index) free_now = free_at(&profile, t);
            }
        }
        submitted_count = ended_count = 0;
    }
    if (now != -INFINITY) {
        if (run->recorded == series_capacity) {
            Sample *series = realloc(run->series, (size_t)(series_capacity + 1) * sizeof(Sample));
            if (!series) FAIL(OUT_OF_MEMORY, -1);
            run->series = series;
        }
        run->series[run->recorded++] = (Sample){now, queue_length, busy};
    }

finish:
    free(profile.times);
    free(profile.free);
    free(heap.events);
    free(queue);
    free(ordered);
    free(submitted);
    free(scratch);
    free(planned_time);
    free(planned_seq);
    return status;
}

/* ---- Python binding ---- */

static int column(PyObject *object, Py_buffer *view, int writable, const char *format, Py_ssize_t n,
                  const char *name) {
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    /* int64 is 'l' where long has 64 bits, 'q' elsewhere */
    int integer = format[0] == 'q' && view->itemsize == 8 && (view->format[0] == 'l' || view->format[0] == 'q');
    if ((!integer && strcmp(view->format, format) != 0) || (n >= 0 && view->len != n * view->itemsize)) {
        PyErr_Format(PyExc_TypeError, "%s: expected %zd values of format '%s'", name, n, format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

enum { COLUMNS = 7, SESSION_COLUMNS = 13 };

/* The closed-loop tables, in the order compiled.py hands them over; -1: any length,
 * -2: one per job, -3: one per session plus one, -4: one per session. */
static const char *session_names[SESSION_COLUMNS] = {
    "job_session", "held", "member_start", "members", "member_offsets", "dependent_start", "dependents",
    "think", "time_of_day", "running", "waiting", "ready", "ended"};
static const char *session_formats[SESSION_COLUMNS] = {"q", "q", "q", "q", "d", "q", "q",
                                                       "d", "d", "q", "q", "d", "d"};
static const int session_lengths[SESSION_COLUMNS] = {-2, -2, -3, -1, -1, -3, -1, -4, -4, -4, -4, -4, -4};

static PyObject *run_replay(PyObject *self, PyObject *args) {
    PyObject *objects[COLUMNS + SESSION_COLUMNS];
    PyObject *session_tables = Py_None, *keys = Py_None;
    Run run = {0};
    Sessions sessions = {0};
    long long capacity;
    if (!PyArg_ParseTuple(args, "OOOOOOOLiiii|OO", &objects[0], &objects[1], &objects[2], &objects[3], &objects[4],
                          &objects[5], &objects[6], &capacity, &run.policy, &run.order, &run.submissions_first,
                          &run.per_event, &session_tables, &keys))
        return NULL;
    if ((run.order == ORDER_KEY) != (keys != Py_None)) {
        PyErr_SetString(PyExc_ValueError, "keys are given with the key order, and only with it");
        return NULL;
    }
    int closed_loop = session_tables != Py_None;
    if (closed_loop) {
        PyObject **tables = objects + COLUMNS;
        if (!PyArg_ParseTuple(session_tables, "OOOOOOOOOOOOOd;sessions: 13 tables and the day clock", &tables[0],
                              &tables[1], &tables[2], &tables[3], &tables[4], &tables[5], &tables[6], &tables[7],
                              &tables[8], &tables[9], &tables[10], &tables[11], &tables[12], &sessions.day_clock))
            return NULL;
    }
    run.capacity = capacity;
    static const char *names[COLUMNS] = {"submit", "estimate", "actual", "procs", "start", "promised", "finished"};
    static const char *formats[COLUMNS] = {"d", "d", "d", "q", "d", "d", "q"};
    Py_buffer views[COLUMNS + SESSION_COLUMNS];
    Py_ssize_t n = PyObject_Length(objects[0]);
    if (n < 0) return NULL;
    Py_ssize_t session_count = closed_loop ? PyObject_Length(objects[COLUMNS + 7]) : 0;
    if (session_count < 0) return NULL;
    int wanted = closed_loop ? COLUMNS + SESSION_COLUMNS : COLUMNS, held = 0;
    for (; held < wanted; held++) {
        int writable, ok;
        if (held < COLUMNS) {
            writable = held == 0 || held >= 4;
            ok = column(objects[held], &views[held], writable, formats[held], held == 6 ? 1 : n, names[held]);
        } else {
            int k = held - COLUMNS, kind = session_lengths[k];
            Py_ssize_t length = kind == -2 ? n : kind == -3 ? session_count + 1 : kind == -4 ? session_count : -1;
            ok = column(objects[held], &views[held], k >= 9, session_formats[k], length, session_names[k]);
        }
        if (ok < 0) break;
    }
    Py_buffer key_view;
    int keyed = 0;
    if (held == wanted && keys != Py_None && column(keys, &key_view, 0, "d", n, "keys") == 0) keyed = 1;
    PyObject *result = NULL;
    if (held == wanted && (keys == Py_None || keyed)) {
        run.n = n;
        run.submit = views[0].buf;
        run.estimate = views[1].buf;
        run.actual = views[2].buf;
        run.procs = views[3].buf;
        run.start_time = views[4].buf;
        run.promised = views[5].buf;
        run.finished = views[6].buf;
        if (closed_loop) {
            Py_buffer *t = views + COLUMNS;
            sessions.count = session_count;
            sessions.job_session = t[0].buf;
            sessions.held = t[1].buf;
            sessions.member_start = t[2].buf;
            sessions.members = t[3].buf;
            sessions.member_offsets = t[4].buf;
            sessions.dependent_start = t[5].buf;
            sessions.dependents = t[6].buf;
            sessions.think = t[7].buf;
            sessions.time_of_day = t[8].buf;
            sessions.running = t[9].buf;
            sessions.waiting = t[10].buf;
            sessions.ready = t[11].buf;
            sessions.ended = t[12].buf;
            run.sessions = &sessions;
        }
        if (keyed) run.keys = key_view.buf;
        int status;
        Py_BEGIN_ALLOW_THREADS status = simulate(&run);
        Py_END_ALLOW_THREADS
        if (status == OUT_OF_MEMORY)
            PyErr_NoMemory();
        else
            result = Py_BuildValue("iLy#", status, (long long)run.failed_job, (const char *)run.series,
                                   (Py_ssize_t)(run.recorded * (int64_t)sizeof(Sample)));
        free(run.series);
    }
    for (int i = 0; i < held; i++) PyBuffer_Release(&views[i]);
    if (keyed) PyBuffer_Release(&key_view);
    return result;
}

static PyMethodDef methods[] = {
    {"run", run_replay, METH_VARARGS,
     "run(submit_inout, estimate, actual, procs, start_out, promised_out, finished_out, capacity, policy, order, "
     "submissions_first, per_event, sessions=None, keys=None) -> (status, job, series bytes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_event_loop", "The batch replay's compiled event loop.",
                                    -1, methods};

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 "unknown"
#endif

PyMODINIT_FUNC PyInit__event_loop(void) {
    PyObject *built = PyModule_Create(&module);
    if (built && PyModule_AddStringConstant(built, "source_sha256", SOURCE_SHA256) < 0) {
        Py_DECREF(built);
        return NULL;
    }
    return built;
}
