/*
 * qs_wire.h - the page-request frames between a client's fault path and a page server (docs/formats.md,
 * "Page server: page requests"). Little-endian, fixed 32-byte headers, every frame checksummed:
 *
 *   request  (client -> server, 32 bytes):
 *     0 u32 magic "QSPQ"   4 u8 version (1)   5 u8 type (1 = READ_PAGE, 2 = LOCK_PAGE)
 *     6 u16 lock mode (0 none, 1 shared, 2 exclusive; a server under page locking takes it before answering)
 *     8 u64 request id     16 u64 page number  24 u32 page bytes wanted    28 u32 CRC32C of bytes 0..27
 *   response (server -> client, 32 bytes + payload):
 *     0 u32 magic "QSPR"   4 u8 version (1)   5 u8 status (QS_WIRE_*)      6 u16 0
 *     8 u64 request id     16 u64 page number  24 u32 payload bytes        28 u32 CRC32C of bytes 0..27
 *                                                                             continued over the payload
 *   A response answers the request with the same id and page; its payload is the page (READ_PAGE, status OK,
 *   payload bytes = the bytes wanted), the page's current LSN as a u64 (LOCK_PAGE, status OK, 8 bytes), or
 *   empty (any other status).
 */
#ifndef QS_WIRE_H
#define QS_WIRE_H

#include <stdint.h>

#define QS_WIRE_VERSION 1
#define QS_WIRE_REQUEST_MAGIC 0x51505351u  /* "QSPQ" little-endian */
#define QS_WIRE_RESPONSE_MAGIC 0x52505351u /* "QSPR" little-endian */
#define QS_WIRE_HEADER 32
#define QS_WIRE_READ_PAGE 1
#define QS_WIRE_LOCK_PAGE 2

/* response status */
#define QS_WIRE_OK 0
#define QS_WIRE_NO_SUCH_PAGE 1
#define QS_WIRE_DENIED 2   /* not authenticated, or the page is not this client's to read */
#define QS_WIRE_ERROR 3    /* the server failed (I/O); the request may be retried on a new connection */
#define QS_WIRE_DEADLOCK 4 /* granting the lock would close a cycle of waiting transactions: refused */
#define QS_WIRE_LOCK_TIMEOUT 5 /* the lock was not granted within the server's lock wait */

#endif
