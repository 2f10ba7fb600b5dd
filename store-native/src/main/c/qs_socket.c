/*
 * qs_socket.c - the page-server source: a fault on a non-resident frame asks the page server for the page
 * over a connected socket and waits for the answer, entirely in C (QuickStore as an ESM client, White and
 * DeWitt 1994 section 1: the client faults pages in from the EXODUS server; design notes section 11).
 *
 * EVERYTHING HERE IS ASYNC-SIGNAL-SAFE: send/recv/poll/clock_gettime/futex and C11 atomics. The rules of
 * design notes section 11:
 *  - every wait has a deadline (timeout_ms per request, the wait for the connection's lock included): poll()
 *    before each send/recv; when the deadline passes the read fails with -ETIMEDOUT and the fault path
 *    refuses the access (scratch page + refusal record), never an unbounded wait in the handler;
 *  - send(..., MSG_NOSIGNAL): a closed connection is an error, never a SIGPIPE;
 *  - one connection is shared by the threads that fault at once under a futex lock that a read takes and
 *    releases itself (never held across a return to Java);
 *  - after a timeout, a short frame or a protocol error the connection's state is unknown (a late answer
 *    may still arrive), so the source is marked broken and every later read fails at once (-ECONNRESET):
 *    the control plane connects again and adds a new source.
 * Frames: qs_wire.h. The connection is opened and authenticated by the control plane (Java); this file
 * only sends page requests on it.
 */
#include "qs_arena.h"
#include "qs_export.h"
#include "qs_api.h"
#include "qs_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/futex.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Takes the connection's lock before `deadline`; 0 or -ETIMEDOUT. */
static int lock_until(struct qs_source *s, int64_t deadline) {
    for (;;) {
        uint32_t c = 0;
        if (atomic_compare_exchange_strong(&s->lock, &c, 1)) return 0;
        if (c == 1) atomic_compare_exchange_strong(&s->lock, &c, 2);
        int64_t left = deadline - now_ms();
        if (left <= 0) return -ETIMEDOUT;
        struct timespec ts = {left / 1000, (left % 1000) * 1000000};
        syscall(SYS_futex, (uint32_t *)&s->lock, FUTEX_WAIT_PRIVATE, 2, &ts, NULL, 0);
        c = 0;
        if (atomic_compare_exchange_strong(&s->lock, &c, 2)) return 0;
    }
}

static void unlock(struct qs_source *s) {
    if (atomic_exchange(&s->lock, 0) == 2) syscall(SYS_futex, (uint32_t *)&s->lock, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits until fd is ready for `events` before `deadline`: 0, -ETIMEDOUT or -ECONNRESET (hang-up, error). */
static int wait_fd(int fd, short events, int64_t deadline) {
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0) return -ETIMEDOUT;
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
        if (r < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (r == 0) continue;
        if (p.revents & events) return 0;
        if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return -ECONNRESET;
    }
}

static int send_all(int fd, const uint8_t *p, size_t n, int64_t deadline) {
    size_t done = 0;
    while (done < n) {
        int w = wait_fd(fd, POLLOUT, deadline);
        if (w < 0) return w;
        ssize_t r = send(fd, p + done, n - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return errno == EPIPE ? -ECONNRESET : -errno;
        }
        done += (size_t)r;
    }
    return 0;
}

static int recv_all(int fd, uint8_t *p, size_t n, int64_t deadline) {
    size_t done = 0;
    while (done < n) {
        int w = wait_fd(fd, POLLIN, deadline);
        if (w < 0) return w;
        ssize_t r = recv(fd, p + done, n - done, MSG_DONTWAIT);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return -errno;
        }
        if (r == 0) return -ECONNRESET; /* the server closed the connection */
        done += (size_t)r;
    }
    return 0;
}

/* One request and its answer, the lock held. 0, or -errno: -ETIMEDOUT, -ECONNRESET, -EPROTO (a frame that
 * is not the answer: magic, version, id, page, length or checksum), -ENOENT (no such page), -EACCES
 * (denied), -EIO (the server failed). */
static int exchange(struct qs_source *s, int type, int mode, uint64_t page_no, uint8_t *dst, size_t len,
                    int64_t deadline) {
    uint8_t h[QS_WIRE_HEADER];
    uint64_t id = atomic_fetch_add(&s->next_id, 1);
    memset(h, 0, sizeof h);
    put32(h, QS_WIRE_REQUEST_MAGIC);
    h[4] = QS_WIRE_VERSION;
    h[5] = (uint8_t)type;
    h[6] = (uint8_t)mode;
    put64(h + 8, id);
    put64(h + 16, page_no);
    put32(h + 24, (uint32_t)len);
    put32(h + 28, qs_crc32c(h, 28));
    int rc = send_all(s->fd, h, sizeof h, deadline);
    if (rc < 0) return rc;
    rc = recv_all(s->fd, h, sizeof h, deadline);
    if (rc < 0) return rc;
    if (get32(h) != QS_WIRE_RESPONSE_MAGIC || h[4] != QS_WIRE_VERSION || get64(h + 8) != id ||
        get64(h + 16) != page_no)
        return -EPROTO;
    uint32_t payload = get32(h + 24);
    if (h[5] != QS_WIRE_OK) {
        if (payload != 0 || get32(h + 28) != qs_crc32c(h, 28)) return -EPROTO;
        switch (h[5]) {
        case QS_WIRE_NO_SUCH_PAGE: return -ENOENT;
        case QS_WIRE_DENIED: return -EACCES;
        case QS_WIRE_DEADLOCK: return -EDEADLK;
        case QS_WIRE_LOCK_TIMEOUT: return -EBUSY;
        default: return -EIO;
        }
    }
    if (payload != len) return -EPROTO;
    rc = recv_all(s->fd, dst, len, deadline);
    if (rc < 0) return rc;
    /* CRC32C of the header's first 28 bytes and the payload as one stream (qs_crc32c_update works on the
     * un-inverted register: invert, continue, invert) - what java.util.zip.CRC32C computes over both */
    uint32_t crc = ~qs_crc32c_update(~qs_crc32c(h, 28), dst, len);
    return crc == get32(h + 28) ? 0 : -EPROTO;
}

/* One request under the connection's lock, with the deadline of the source. [signal-safe] */
static int request(struct qs_source *s, int type, int mode, uint64_t page_no, void *dst, size_t len) {
    if (atomic_load(&s->broken)) return -ECONNRESET;
    int64_t deadline = now_ms() + s->timeout_ms;
    int rc = lock_until(s, deadline);
    if (rc < 0) return rc;
    if (atomic_load(&s->broken)) {
        unlock(s);
        return -ECONNRESET;
    }
    rc = exchange(s, type, mode, page_no, dst, len, deadline);
    /* answers that leave the stream in step (no such page, denied, server error, refused lock) keep it */
    if (rc < 0 && rc != -ENOENT && rc != -EACCES && rc != -EIO && rc != -EDEADLK && rc != -EBUSY)
        atomic_store(&s->broken, 1);
    unlock(s);
    return rc;
}

/* [signal-safe] */
static int socket_read_page(struct qs_source *s, uint64_t page_no, void *dst, size_t len) {
    return request(s, QS_WIRE_READ_PAGE, 0, page_no, dst, len);
}

/* The page under a lock of `mode` (a server under page locking). [signal-safe] */
static int socket_read_page_locked(struct qs_source *s, uint64_t page_no, int mode, void *dst, size_t len) {
    return request(s, QS_WIRE_READ_PAGE, mode, page_no, dst, len);
}

/* Only the lock, and the page's current LSN (to tell whether a cached copy is current). [signal-safe] */
static int socket_lock_page(struct qs_source *s, uint64_t page_no, int mode, uint64_t *lsn) {
    uint8_t b[8];
    int rc = request(s, QS_WIRE_LOCK_PAGE, mode, page_no, b, sizeof b);
    if (rc == 0) *lsn = get64(b);
    return rc;
}

static void socket_close(struct qs_source *s) {
    if (s->fd >= 0) close(s->fd);
    s->fd = -1;
}

static const struct qs_source_ops socket_ops = {"page-server", socket_read_page, socket_close,
                                                socket_read_page_locked, socket_lock_page, NULL};

/* Adds a page source that asks a page server for pages over `fd`, a connected and authenticated stream
 * socket the arena now owns (closed at arena close); each request must be answered within timeout_ms.
 * Returns the source id (>= 0) or -errno (-EINVAL for a timeout of 0, -EMFILE when all sources are used). */
QS_EXPORT int qs_source_open_socket(struct qs_arena *a, int fd, uint32_t timeout_ms) {
    if (fd < 0 || timeout_ms == 0) return -EINVAL;
    pthread_mutex_lock(&a->ctl_lock);
    int id = -EMFILE;
    for (int k = 0; k < QS_MAX_SOURCES; k++) {
        if (a->sources[k].ops == NULL) {
            struct qs_source *s = &a->sources[k];
            s->fd = fd;
            s->base_offset = 0;
            s->page_size = a->frame_size;
            s->timeout_ms = timeout_ms;
            atomic_store(&s->lock, 0);
            atomic_store(&s->broken, 0);
            atomic_store(&s->next_id, 1);
            atomic_thread_fence(memory_order_release);
            s->ops = &socket_ops;
            id = k;
            break;
        }
    }
    pthread_mutex_unlock(&a->ctl_lock);
    return id;
}

/* Whether source `id` is a page-server source whose connection broke (1), is usable (0), or -EINVAL. */
QS_EXPORT int qs_source_broken(struct qs_arena *a, int id) {
    if (id < 0 || id >= QS_MAX_SOURCES || a->sources[id].ops != &socket_ops) return -EINVAL;
    return (int)atomic_load(&a->sources[id].broken);
}

/* ---- the control plane's half (called from Java, never from the handler) ----------------------------- */

/* Connects to an IPv4 page server within timeout_ms: a non-blocking stream socket (close-on-exec, TCP_NODELAY,
 * as the fault path wants it: poll() decides, never a blocking call). Returns the fd or -errno
 * (-ECONNREFUSED, -ETIMEDOUT, -EINVAL for a timeout of 0). */
QS_EXPORT int qs_socket_dial(uint32_t ipv4, uint32_t port, uint32_t timeout_ms) {
    if (timeout_ms == 0 || port == 0 || port > 65535) return -EINVAL;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(ipv4);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        if (errno != EINPROGRESS) {
            int e = errno;
            close(fd);
            return -e;
        }
        int w = wait_fd(fd, POLLOUT, now_ms() + timeout_ms);
        int err = 0;
        socklen_t len = sizeof err;
        if (w == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
        if (w < 0 || err != 0) {
            close(fd);
            return w == -ETIMEDOUT ? -ETIMEDOUT : err != 0 ? -err : -ECONNREFUSED;
        }
    }
    return fd;
}

/* Sends all n bytes within timeout_ms: 0 or -errno. */
QS_EXPORT int qs_socket_send(int fd, const void *p, uint64_t n, uint32_t timeout_ms) {
    if (fd < 0 || timeout_ms == 0) return -EINVAL;
    return send_all(fd, p, (size_t)n, now_ms() + timeout_ms);
}

/* Receives exactly n bytes within timeout_ms: 0 or -errno (-ECONNRESET when the peer closed). */
QS_EXPORT int qs_socket_recv(int fd, void *p, uint64_t n, uint32_t timeout_ms) {
    if (fd < 0 || timeout_ms == 0) return -EINVAL;
    return recv_all(fd, p, (size_t)n, now_ms() + timeout_ms);
}

/* Closes an fd that no arena owns (a connection whose handshake failed). */
QS_EXPORT int qs_socket_close(int fd) {
    return close(fd) < 0 ? -errno : 0;
}
