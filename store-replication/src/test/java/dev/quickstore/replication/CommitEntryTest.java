package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.core.remote.TransactionConflictException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replicated log entry and the state machine's reply: round trips, and every damaged field refused by name. */
class CommitEntryTest {
    private static final CommitMessages.Commit COMMIT = new CommitMessages.Commit(
            7,
            List.of(new CommitMessages.PageVersion(3, 100)),
            List.of(new CommitMessages.PageWrite(5, 200, new int[] {64, 128}, new byte[][] {{1, 2}, {3}})));

    @Test
    void aCommitAndACheckpointSurviveTheRoundTrip() throws Exception {
        CommitEntry e = CommitEntry.decode(CommitEntry.commit(COMMIT).encode());
        assertEquals(CommitEntry.COMMIT, e.kind());
        assertEquals(COMMIT.reads(), e.commit().reads());
        CommitMessages.PageWrite w = e.commit().writes().getFirst();
        assertEquals(5, w.page());
        assertEquals(200, w.lsn());
        assertArrayEquals(new int[] {64, 128}, w.offsets());
        assertArrayEquals(new byte[] {1, 2}, w.bytes()[0]);
        CommitEntry c = CommitEntry.decode(CommitEntry.checkpoint().encode());
        assertEquals(CommitEntry.CHECKPOINT, c.kind());
        assertNull(c.commit());
    }

    @Test
    void everyDamagedFieldIsRefusedByName() {
        byte[] good = CommitEntry.commit(COMMIT).encode();
        assertRefused(flip(good, 0), "magic");
        assertRefused(flip(good, 4), "version");
        assertRefused(flip(good, good.length - 10), "checksum");
        assertRefused(flip(good, 8), "payload length");
        assertRefused(java.util.Arrays.copyOf(good, 10), "too short");
        byte[] kind = good.clone();
        kind[5] = 9; // a kind this build does not know, checksum recomputed
        assertRefused(reseal(kind), "kind 9");
    }

    @Test
    void repliesCarryEachOutcome() throws Exception {
        var applied = (CommitMessages.Applied)
                EntryReply.decode(EntryReply.applied(new CommitMessages.Applied(42, new long[] {43, 44})));
        assertEquals(42, applied.commitLsn());
        assertArrayEquals(new long[] {43, 44}, applied.pageLsns());
        var conflict = new TransactionConflictException("x", List.of(new CommitMessages.Conflict(5, 200, 300)));
        var back =
                assertInstanceOf(TransactionConflictException.class, EntryReply.decode(EntryReply.conflict(conflict)));
        assertEquals(conflict.conflicts(), back.conflicts());
        var refused = assertInstanceOf(IllegalArgumentException.class, EntryReply.decode(EntryReply.refused("no")));
        assertEquals("no", refused.getMessage());
        assertEquals(Boolean.TRUE, EntryReply.decode(EntryReply.checkpointed()));
        assertThrows(SessionFrame.ProtocolException.class, () -> EntryReply.decode(new byte[] {2, 1}));
    }

    private static byte[] flip(byte[] b, int at) {
        byte[] c = b.clone();
        c[at] ^= 0x40;
        return c;
    }

    private static byte[] reseal(byte[] b) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b, 0, b.length - 4);
        java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, (int) crc.getValue());
        return b;
    }

    private static void assertRefused(byte[] b, String fragment) {
        SessionFrame.ProtocolException e =
                assertThrows(SessionFrame.ProtocolException.class, () -> CommitEntry.decode(b));
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }
}
