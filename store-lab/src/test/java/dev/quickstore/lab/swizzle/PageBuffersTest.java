package dev.quickstore.lab.swizzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreFormatException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab's object manager refuses damaged pages and oids by file, page and offset. */
class PageBuffersTest {
    static final int PAGE = 8192;

    @TempDir
    Path tmp;

    @Test
    void descriptorAndLookupOfEveryNode() throws Exception {
        Path file = tmp.resolve("c.qs");
        TreeShape shape = TreeShape.uniform(10, 3, 20);
        CollectionFile.Descriptor d = CollectionFile.write(file, shape, PAGE);
        try (PageBuffers b = PageBuffers.open(file, PAGE)) {
            assertEquals(d, b.descriptor());
            assertEquals(shape, b.descriptor().shape());
            long root = b.lookup(d.rootOid());
            assertEquals(1, CollectionFile.node(b.memory(), root));
            assertEquals(d.rootOid(), b.memory().get(CollectionFile.LONG, root + CollectionFile.SELF));
            b.loadAll();
            assertEquals(d.pages() - 1, b.pagesRead());
        }
    }

    @Test
    void anOidPastTheSlotArrayIsRefusedByPage() throws Exception {
        Path file = tmp.resolve("c.qs");
        CollectionFile.write(file, TreeShape.uniform(6, 2, 0), PAGE);
        try (PageBuffers b = PageBuffers.open(file, PAGE)) {
            StoreFormatException e =
                    assertThrows(StoreFormatException.class, () -> b.lookup(CollectionFile.oid(1, 9999)));
            assertEquals(1, e.pageId(), e.getMessage());
            assertTrue(e.getMessage().contains("9999"), e.getMessage());
            StoreFormatException far =
                    assertThrows(StoreFormatException.class, () -> b.lookup(CollectionFile.oid(77, 0)));
            assertEquals(77, far.pageId(), far.getMessage());
        }
    }

    @Test
    void aDamagedPageIsRefusedByItsChecksum() throws Exception {
        Path file = tmp.resolve("c.qs");
        CollectionFile.Descriptor d = CollectionFile.write(file, TreeShape.uniform(8, 2, 8), PAGE);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(PAGE + 700);
            int v = f.read();
            f.seek(PAGE + 700);
            f.write(v ^ 0x40);
        }
        try (PageBuffers b = PageBuffers.open(file, PAGE)) {
            StoreFormatException e = assertThrows(StoreFormatException.class, b::loadAll);
            assertEquals(1, e.pageId(), e.getMessage());
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        }
        assertTrue(d.pages() > 1);
    }
}
