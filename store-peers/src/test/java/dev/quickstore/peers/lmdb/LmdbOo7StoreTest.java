package dev.quickstore.peers.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.peers.PeerOo7Contract;
import dev.quickstore.peers.Peers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The peer contract on LMDB, plus the LMDB peer's own checks. */
class LmdbOo7StoreTest extends PeerOo7Contract {
    @Override
    protected Oo7Store open(Path dir) {
        return Peers.open("lmdb", dir);
    }

    @Test
    void aTextViewRefusesToBeReadAfterAWriteOrTheTransactionsEnd() throws Exception {
        Oo7Store store = buildPeer(tmp.resolve("text"));
        store.begin();
        Document doc = store.documentById(1);
        CharSequence text = doc.text();
        assertEquals('I', text.charAt(0));
        doc.text("changed");
        assertThrows(IllegalStateException.class, () -> text.charAt(0));
        assertEquals("changed", doc.text().toString());
        CharSequence again = doc.text();
        store.abort();
        assertThrows(IllegalStateException.class, () -> again.charAt(0));
        assertEquals(10, ops(store).run(Oo7Operation.Q1), "the store works after the refused reads");
        assertTrue(Files.size(((LmdbOo7Store) store).dataFile()) > 0);
    }

    @Test
    void anotherFormatVersionIsRefused() {
        Path dir = tmp.resolve("format");
        openTracked(dir).close();
        // a database written by a later version of this encoding
        try (LmdbOo7Store store = LmdbOo7Store.open(dir)) {
            store.begin();
            store.setMeta("format", LmdbRecords.FORMAT_VERSION + 1);
            store.commit();
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> LmdbOo7Store.open(dir));
        assertTrue(e.getMessage().contains("format version " + (LmdbRecords.FORMAT_VERSION + 1)), e.getMessage());
        assertTrue(e.getMessage().contains("data.mdb"), e.getMessage());
    }
}
