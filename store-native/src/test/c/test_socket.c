/* test_socket.c - the page-server source (qs_socket.c) with real SIGSEGVs and a real server thread on the
 * other end of a socket pair: pages are served with their bytes and checksums; four threads fault at once on
 * one connection; a server that does not answer makes the fault a refusal (IO, ETIMEDOUT) within the
 * deadline and breaks the connection; a bad checksum, a wrong id, "no such page" and a closed connection
 * are each refused with their own errno; the handler never raises SIGPIPE; under page locking the requests
 * carry their lock modes, a cached page is locked with LOCK_PAGE on its first touch in a transaction and
 * reloaded when its LSN changed, and a refused lock is a LOCK refusal that keeps the connection. */
#include "qs_test.h"
#include "qs_wire.h"
#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>

#define FS 8192u
#define NPAGES 32u

static struct qs_arena *A;
static int server_fd;
/* what the server does with a request for page `special` (the others are answered normally) */
enum { NORMAL, SILENT, BAD_CRC, WRONG_ID, NO_PAGE, CLOSE, STALE, DEADLOCK } mode;
static uint64_t special = 1u << 30;
static _Atomic int served;
static _Atomic int lock_requests, special_reads, last_type, last_mode;

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static int read_full(int fd, uint8_t *p, size_t n) {
    size_t d = 0;
    while (d < n) { ssize_t r = read(fd, p + d, n - d); if (r <= 0) return -1; d += (size_t)r; }
    return 0;
}

static void *server(void *arg) {
    (void)arg;
    uint8_t h[QS_WIRE_HEADER], page[FS];
    for (;;) {
        if (read_full(server_fd, h, sizeof h) != 0) return NULL;
        CHECK(get32(h) == QS_WIRE_REQUEST_MAGIC && h[4] == QS_WIRE_VERSION &&
                  (h[5] == QS_WIRE_READ_PAGE || h[5] == QS_WIRE_LOCK_PAGE) && h[7] == 0 && h[6] <= 2,
              "request header");
        CHECK(get32(h + 28) == qs_crc32c(h, 28), "request checksum");
        uint64_t id = get64(h + 8), p = get64(h + 16);
        last_type = h[5];
        last_mode = h[6];
        if (h[5] == QS_WIRE_LOCK_PAGE) {
            /* answer a lock: the page's LSN (word 2 of a test page, offset 16), one more when STALE */
            CHECK(get32(h + 24) == 8 && h[6] != 0, "a lock request wants 8 bytes and names a mode");
            lock_requests++;
            uint8_t r[QS_WIRE_HEADER + 8];
            memset(r, 0, sizeof r);
            int dead = p == special && mode == DEADLOCK;
            put32(r, QS_WIRE_RESPONSE_MAGIC);
            r[4] = QS_WIRE_VERSION;
            r[5] = dead ? QS_WIRE_DEADLOCK : QS_WIRE_OK;
            put64(r + 8, id);
            put64(r + 16, p);
            put32(r + 24, dead ? 0 : 8);
            put64(r + 32, qs_test_word(p, 2) + (p == special && mode == STALE ? 1 : 0));
            put32(r + 28, dead ? qs_crc32c(r, 28) : ~qs_crc32c_update(~qs_crc32c(r, 28), r + 32, 8));
            size_t n = dead ? QS_WIRE_HEADER : sizeof r;
            if (send(server_fd, r, n, MSG_NOSIGNAL) != (ssize_t)n) return NULL;
            continue;
        }
        CHECK(get32(h + 24) == FS, "page bytes wanted");
        if (p == special) special_reads++;
        if (p == special && mode == DEADLOCK && h[6] != 0) { /* a locked read refused: deadlock */
            uint8_t r[QS_WIRE_HEADER];
            memset(r, 0, sizeof r);
            put32(r, QS_WIRE_RESPONSE_MAGIC);
            r[4] = QS_WIRE_VERSION;
            r[5] = QS_WIRE_DEADLOCK;
            put64(r + 8, id);
            put64(r + 16, p);
            put32(r + 28, qs_crc32c(r, 28));
            if (send(server_fd, r, sizeof r, MSG_NOSIGNAL) != (ssize_t)sizeof r) return NULL;
            continue;
        }
        int m = p == special && mode != STALE && mode != DEADLOCK ? (int)mode : NORMAL;
        if (m == SILENT) continue;
        if (m == CLOSE) { shutdown(server_fd, SHUT_RDWR); return NULL; }
        uint8_t r[QS_WIRE_HEADER];
        memset(r, 0, sizeof r);
        put32(r, QS_WIRE_RESPONSE_MAGIC);
        r[4] = QS_WIRE_VERSION;
        r[5] = m == NO_PAGE ? QS_WIRE_NO_SUCH_PAGE : QS_WIRE_OK;
        put64(r + 8, m == WRONG_ID ? id + 7 : id);
        put64(r + 16, p);
        put32(r + 24, m == NO_PAGE ? 0 : FS);
        qs_test_fill_page(page, FS, p);
        uint32_t crc = qs_crc32c(r, 28);
        if (m != NO_PAGE) crc = ~qs_crc32c_update(~crc, page, FS); /* one stream over header and page */
        put32(r + 28, m == BAD_CRC ? crc ^ 1 : crc);
        served++; /* before the answer: the client may look right after it */
        /* the test may shut the socket down while an answer the client gave up on is still being written:
         * MSG_NOSIGNAL, and the server thread ends (a SIGPIPE here would be the test's, not the source's) */
        if (send(server_fd, r, sizeof r, MSG_NOSIGNAL) != (ssize_t)sizeof r) return NULL;
        if (m != NO_PAGE && send(server_fd, page, FS, MSG_NOSIGNAL) != (ssize_t)FS) return NULL;
    }
}

/* ends the server thread: shutdown wakes its blocked read (close alone would not) */
static void stop_server(pthread_t t) {
    shutdown(server_fd, SHUT_RDWR);
    pthread_join(t, NULL);
    close(server_fd);
}

static uint64_t rd(uint64_t frame, uint64_t k) { return ((volatile uint64_t *)(qs_arena_base(A) + frame * FS))[k]; }

static int connect_source(pthread_t *t) {
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0, "socketpair");
    server_fd = sv[1];
    CHECK(pthread_create(t, NULL, server, NULL) == 0, "server thread");
    int src = qs_source_open_socket(A, sv[0], 300);
    CHECK(src >= 0, "source %d", src);
    return src;
}

static void *reader(void *arg) {
    uint64_t base = (uint64_t)(uintptr_t)arg;
    for (uint64_t p = base; p < base + 4; p++)
        for (uint64_t k = 1; k < FS / 8; k += 97) CHECK(rd(p, k) == qs_test_word(p, k), "page %lu word %lu", p, k);
    return NULL;
}

static int64_t ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000 + t.tv_nsec / 1000000; }

/* touches frame f (a refused read returns zeros) and returns the refusal's errno, or 0 if none */
static int refused_errno(uint64_t f) {
    (void)rd(f, 1);
    uint64_t out[7];
    if (qs_refusal_take(A, out) == 0) return 0;
    CHECK(out[0] == QS_R_IO && out[4] == f, "an IO refusal of frame %lu (reason %lu)", f, out[0]);
    return (int)out[1];
}

int main(void) {
    signal(SIGPIPE, SIG_DFL); /* a SIGPIPE would kill the test: the source must never raise one */
    { /* a response's checksum is one CRC32C over header bytes 0..27 and the payload (what Java's CRC32C over
         both computes: the page server is Java) */
        static uint8_t both[28 + FS];
        for (size_t k = 0; k < sizeof both; k++) both[k] = (uint8_t)(k * 31 + 7);
        CHECK(~qs_crc32c_update(~qs_crc32c(both, 28), both + 28, FS) == qs_crc32c(both, sizeof both),
              "chained checksum equals the checksum of the concatenation");
        CHECK(qs_crc32c("123456789", 9) == 0xE3069283u, "CRC32C check value (RFC 3720)");
    }
    CHECK(qs_signal_install() == 0, "install");
    CHECK(qs_arena_open(256ull * FS, FS, 0, QS_MODE_STORE, &A) == 0, "open");
    CHECK(qs_source_open_socket(A, -1, 100) == -EINVAL && qs_source_open_socket(A, 0, 0) == -EINVAL, "bad arguments");
    pthread_t t;
    int src = connect_source(&t);
    CHECK(qs_source_broken(A, src) == 0 && qs_source_broken(A, src + 1) == -EINVAL, "broken flag");
    CHECK(qs_reserve(A, 0, NPAGES, (uint32_t)src, 0) == NPAGES, "reserve");
    qs_arena_set_txn(A, 1);

    /* pages served over the socket, verified and mapped by the fault path */
    for (uint64_t k = 1; k < FS / 8; k += 31) CHECK(rd(0, k) == qs_test_word(0, k), "page 0 word %lu", k);
    CHECK(served == 1 && qs_test_counter(A, QS_C_READ_FAULTS) == 1, "one request, one read fault");

    /* four threads fault at once on the one connection */
    pthread_t r[4];
    for (uintptr_t i = 0; i < 4; i++) CHECK(pthread_create(&r[i], NULL, reader, (void *)(4 + 4 * i)) == 0, "reader");
    for (int i = 0; i < 4; i++) pthread_join(r[i], NULL);
    CHECK(served == 17, "16 more pages served: %d", served);
    CHECK(*(volatile uint64_t *)qs_arena_pending_addr(A) == 0, "nothing refused");

    /* answers that keep the connection in step: no such page (ENOENT) */
    mode = NO_PAGE; special = 1;
    CHECK(refused_errno(1) == ENOENT, "no such page");
    CHECK(qs_source_broken(A, src) == 0, "still usable");
    CHECK(rd(2, 5) == qs_test_word(2, 5), "the next page still comes");

    /* protocol errors break the connection: a bad checksum (EPROTO), then every read fails at once */
    mode = BAD_CRC; special = 3;
    CHECK(refused_errno(3) == EPROTO, "bad checksum");
    CHECK(qs_source_broken(A, src) == 1, "broken after a protocol error");
    int64_t t0 = ms();
    CHECK(refused_errno(30) == ECONNRESET && ms() - t0 < 100, "a broken source fails at once");
    stop_server(t);

    /* a wrong id on a new connection: EPROTO */
    src = connect_source(&t);
    CHECK(qs_reserve(A, 40, 4, (uint32_t)src, 10) == 4, "reserve on the new source");
    mode = WRONG_ID; special = 11;
    CHECK(refused_errno(41) == EPROTO, "wrong request id");
    stop_server(t);

    /* a server that does not answer: refused with ETIMEDOUT after the deadline (300 ms), not later */
    src = connect_source(&t);
    CHECK(qs_reserve(A, 50, 4, (uint32_t)src, 20) == 4, "reserve");
    mode = SILENT; special = 21;
    t0 = ms();
    CHECK(refused_errno(51) == ETIMEDOUT, "timeout");
    int64_t waited = ms() - t0;
    CHECK(waited >= 290 && waited < 2000, "the deadline bounds the wait: %ld ms", (long)waited);
    stop_server(t);

    /* the server closes the connection mid-request: ECONNRESET, no SIGPIPE on the next send */
    src = connect_source(&t);
    CHECK(qs_reserve(A, 60, 4, (uint32_t)src, 30) == 4, "reserve");
    mode = CLOSE; special = 30;
    CHECK(refused_errno(60) == ECONNRESET, "closed by the server");
    pthread_join(t, NULL);
    close(server_fd);
    CHECK(refused_errno(61) == ECONNRESET, "and stays broken");

    /* page locking (ABI 7): lock modes in page requests, LOCK_PAGE for a cached page, a stale copy reloaded
     * under the lock, a refused lock (deadlock) refused with its own reason and the connection kept */
    src = connect_source(&t);
    CHECK(qs_reserve(A, 70, 4, (uint32_t)src, 40) == 4, "reserve");
    qs_arena_set_locking(A, 1);
    mode = NORMAL;
    CHECK(rd(70, 5) == qs_test_word(40, 5), "a locked read");
    CHECK(last_type == QS_WIRE_READ_PAGE && last_mode == QS_LOCK_S, "a read fault loads under a shared lock");
    ((volatile uint64_t *)(qs_arena_base(A) + 71 * FS))[5] = 7;
    CHECK(last_type == QS_WIRE_READ_PAGE && last_mode == QS_LOCK_X, "a write fault loads under an exclusive lock");
    int locks0 = lock_requests;
    qs_reprotect_all(A);
    CHECK(rd(70, 5) == qs_test_word(40, 5), "a cached page read again");
    CHECK(lock_requests == locks0 + 1 && last_type == QS_WIRE_LOCK_PAGE && last_mode == QS_LOCK_S,
          "its first touch in the transaction locks it (LOCK_PAGE, shared)");
    ((volatile uint64_t *)(qs_arena_base(A) + 70 * FS))[6] = 9;
    CHECK(lock_requests == locks0 + 2 && last_mode == QS_LOCK_X, "its first write upgrades the lock");
    mode = STALE; special = 42;
    special_reads = 0;
    CHECK(rd(72, 5) == qs_test_word(42, 5) && special_reads == 1, "page 42 loaded");
    qs_reprotect_all(A);
    CHECK(rd(72, 5) == qs_test_word(42, 5), "page 42 read again");
    CHECK(special_reads == 2, "its LSN changed at the server: the cached copy was reloaded (%d reads)", special_reads);
    mode = DEADLOCK; special = 43;
    (void)rd(73, 1); /* its load asks for the page under a shared lock: refused */
    uint64_t out[7] = {0};
    CHECK(qs_refusal_take(A, out) == 1 && out[0] == QS_R_LOCK && out[1] == EDEADLK && out[4] == 73,
          "a refused lock: reason LOCK, errno EDEADLK (reason %lu errno %lu frame %lu page %lu)", out[0], out[1],
          out[4], out[5]);
    CHECK(qs_source_broken(A, src) == 0, "the connection stays usable after a refused lock");
    qs_arena_set_locking(A, 0);
    stop_server(t);

    qs_arena_set_txn(A, 0);
    qs_arena_close(A);
    printf("test_socket: %d checks passed\n", qs_checks);
    return 0;
}
