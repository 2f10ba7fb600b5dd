/* test_socket.c - the page-server source (qs_socket.c) with real SIGSEGVs and a real server thread on the
 * other end of a socket pair: pages are served with their bytes and checksums; four threads fault at once on
 * one connection; a server that does not answer makes the fault a refusal (IO, ETIMEDOUT) within the
 * deadline and breaks the connection; a bad checksum, a wrong id, "no such page" and a closed connection
 * are each refused with their own errno; the handler never raises SIGPIPE. */
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
enum { NORMAL, SILENT, BAD_CRC, WRONG_ID, NO_PAGE, CLOSE } mode;
static uint64_t special = 1u << 30;
static _Atomic int served;

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
        CHECK(get32(h) == QS_WIRE_REQUEST_MAGIC && h[4] == QS_WIRE_VERSION && h[5] == QS_WIRE_READ_PAGE, "request header");
        CHECK(get32(h + 28) == qs_crc32c(h, 28), "request checksum");
        uint64_t id = get64(h + 8), p = get64(h + 16);
        CHECK(get32(h + 24) == FS, "page bytes wanted");
        int m = p == special ? (int)mode : NORMAL;
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
        CHECK(write(server_fd, r, sizeof r) == (ssize_t)sizeof r, "write header");
        if (m != NO_PAGE) CHECK(write(server_fd, page, FS) == (ssize_t)FS, "write page");
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

    qs_arena_set_txn(A, 0);
    qs_arena_close(A);
    printf("test_socket: %d checks passed\n", qs_checks);
    return 0;
}
