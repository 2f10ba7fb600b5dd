package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.stats.StoreMXBean;
import dev.quickstore.core.stats.StoreStats;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every open store has its {@link StoreMXBean} in the platform MBean server, named after its directory, from
 * right after its open (the management thread registers it) until it closes; two stores in one JVM do not collide; the attributes read through JMX
 * (an MXBean proxy, as JConsole and {@code qs stats --pid} read them) are the store's counters.
 */
class StoreBeanTest {
    @TempDir
    Path dir;

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private static ObjectName nameOf(Path db) throws Exception {
        return new ObjectName("dev.quickstore:type=Store,name="
                + ObjectName.quote(db.toAbsolutePath().normalize().toString()));
    }

    @Test
    void registeredWhileOpenGoneAfterCloseTwoStoresApart() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b, with \"quotes\" and =*?"); // every character ObjectName quotes
        ObjectName na = nameOf(a);
        ObjectName nb = nameOf(b);
        try (Store sa = Store.create(a, 8192, MappedStoreTest.OPTS);
                Store sb = Store.create(b, 8192, MappedStoreTest.OPTS.withFrames(FramesMode.EXPLICIT))) {
            // registered by the management thread right after open
            assertEquals(na, StoreBean.awaitRegistered(sa, Duration.ofSeconds(60)));
            assertEquals(nb, StoreBean.awaitRegistered(sb, Duration.ofSeconds(60)));
            assertTrue(SERVER.isRegistered(na), na.toString());
            assertTrue(SERVER.isRegistered(nb), nb.toString());
            assertNotEquals(na, nb);
            Set<ObjectName> all = SERVER.queryNames(new ObjectName(StoreBean.DOMAIN_TYPE + ",*"), null);
            assertTrue(all.containsAll(Set.of(na, nb)), all.toString());

            long[] refs = MappedStoreTest.populate(sa, 6);
            try (Transaction tx = sa.begin()) {
                MappedStoreTest.put(sa, refs[0], 8, 5); // a write fault through the view
                tx.abort();
            }
            StoreMXBean pa = JMX.newMXBeanProxy(SERVER, na, StoreMXBean.class);
            assertEquals(a.toAbsolutePath().normalize().toString(), pa.getDirectory());
            assertFalse(pa.isClient());
            assertEquals(sa.commitStats().commits(), pa.getCommits());
            assertEquals(1, pa.getCommits(), "populate's commit (the bootstrap is not a transaction's)");
            assertEquals(1, pa.getAborts());
            assertTrue(pa.getWriteFaults() >= 1, "the view store: " + pa.getFaultCounters());
            assertEquals(sa.faultCounters().writeFaults(), pa.getFaultCounters().writeFaults());
            assertEquals(sa.stats().redoBytes(), pa.getLogBytes());
            assertTrue(pa.getLogBytes() > 0);
            assertEquals(16, pa.getPoolFramesUsed() + pa.getPoolFramesFree());
            StoreStats st = pa.getStoreStats(); // a record through the MXBean's open types and back
            assertEquals(sa.stats(), st);
            assertEquals(sa.poolStats().capacity(), pa.getPoolStats().capacity());
            assertEquals(pa.getCommits(), pa.getCommitStats().commits());
            assertEquals(pa.getCheckpoints(), st.checkpoints());
            assertEquals(sa.stats().pageWrites(), pa.getPageWrites());

            // the EXPLICIT store: no application view, fault counters zero
            StoreMXBean pb = JMX.newMXBeanProxy(SERVER, nb, StoreMXBean.class);
            assertEquals(0, pb.getReadFaults());
            assertEquals(sb.commitStats().commits(), pb.getCommits());
            assertEquals(
                    sb.commitStats().commits(),
                    (long) SERVER.getAttribute(nb, "Commits"),
                    "the flat attribute as JConsole reads it");
        }
        assertFalse(SERVER.isRegistered(na), "unregistered at close");
        assertFalse(SERVER.isRegistered(nb), "unregistered at close");
        assertTrue(StoreBean.open().isEmpty()
                || StoreBean.open().stream()
                        .noneMatch(x -> x.getDirectory()
                                .equals(a.toAbsolutePath().normalize().toString())));
    }

    @Test
    void aProxyOfAClosedStoreAnswersClosed() throws Exception {
        Path a = dir.resolve("c");
        Store s = Store.create(a, 8192, MappedStoreTest.OPTS);
        StoreBean.awaitRegistered(s, Duration.ofSeconds(60));
        StoreBean bean = StoreBean.open().stream()
                .filter(x ->
                        x.getDirectory().equals(a.toAbsolutePath().normalize().toString()))
                .findFirst()
                .orElseThrow();
        s.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, bean::getCommits);
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
        try (Store again = Store.open(a, MappedStoreTest.OPTS)) {
            assertEquals(nameOf(a), StoreBean.awaitRegistered(again, Duration.ofSeconds(60)), "registered again");
            assertEquals(again.commitStats().commits(), (long) SERVER.getAttribute(nameOf(a), "Commits"));
        }
    }
}
