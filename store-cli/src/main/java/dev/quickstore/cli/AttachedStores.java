package dev.quickstore.cli;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.stats.StoreMXBean;
import dev.quickstore.mmu.FaultCounters;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The stores open in another JVM, read through their {@link StoreMXBean}s (docs/observability.md): the JDK's
 * Attach API ({@link VirtualMachine#attach}) starts the target's local management agent ({@link
 * VirtualMachine#startLocalManagementAgent}, the same agent JConsole uses for a local process), a JMX connector
 * reads every {@code dev.quickstore:type=Store,*} bean, and each store becomes the map {@code qs stats DIR}
 * prints for a handle, plus the live counters only an open handle has (commits, aborts, faults, pool). The
 * process of this command itself is read from its own platform MBean server (a JVM may not attach to itself).
 */
final class AttachedStores {
    private AttachedStores() {}

    /**
     * The counters of the stores open in process {@code pid}, each a map starting with {@code store} (its
     * directory); only the store in {@code dir} if that is not null.
     *
     * @throws ProcessAttachException naming what went wrong: no such process, not a JVM, attach refused, no
     *     store open there (or not the one asked for)
     */
    static List<Map<String, Object>> read(long pid, String dir) throws IOException {
        if (pid == ProcessHandle.current().pid()) {
            return read(pid, ManagementFactory.getPlatformMBeanServer(), dir);
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty()) {
            throw new ProcessAttachException("no process with id " + pid);
        }
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            String command = process.get().info().command().orElse("unknown command");
            boolean listed = VirtualMachine.list().stream().anyMatch(d -> d.id().equals(Long.toString(pid)));
            if (!listed && !command.endsWith("/java")) {
                throw new ProcessAttachException(
                        "process " + pid + " is not a Java virtual machine this user can attach to (" + command + ")",
                        e);
            }
            throw new ProcessAttachException(
                    "process " + pid + " refused the attach (" + e.getMessage() + "): is it a JVM of this user, not"
                            + " started with -XX:+DisableAttachMechanism?",
                    e);
        }
        try {
            String address = vm.startLocalManagementAgent();
            try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
                return read(pid, c.getMBeanServerConnection(), dir);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof ProcessAttachException p) {
                throw p;
            }
            throw new ProcessAttachException(
                    "process " + pid + ": reading its management agent failed: " + e.getMessage(), e);
        } finally {
            vm.detach();
        }
    }

    private static List<Map<String, Object>> read(long pid, MBeanServerConnection server, String dir)
            throws IOException {
        TreeSet<ObjectName> names;
        try {
            names = new TreeSet<>(server.queryNames(new ObjectName("dev.quickstore:type=Store,*"), null));
        } catch (MalformedObjectNameException e) {
            throw new AssertionError(e);
        }
        List<Map<String, Object>> stores = new ArrayList<>();
        List<String> open = new ArrayList<>();
        for (ObjectName n : names) {
            StoreMXBean bean = JMX.newMXBeanProxy(server, n, StoreMXBean.class);
            String directory;
            try {
                directory = bean.getDirectory();
            } catch (RuntimeException closed) {
                continue; // closed meanwhile
            }
            open.add(directory);
            if (dir != null && !sameStore(dir, directory)) {
                continue;
            }
            try {
                stores.add(counters(bean));
            } catch (RuntimeException e) {
                if (dir != null) {
                    throw new ProcessAttachException("store " + directory + " in process " + pid
                            + " could not be read (closed meanwhile?): " + e.getMessage());
                }
            }
        }
        if (open.isEmpty()) {
            throw new ProcessAttachException("process " + pid + " has no store open");
        }
        if (stores.isEmpty()) {
            throw new ProcessAttachException(
                    "no store " + dir + " open in process " + pid + " (open there: " + String.join(", ", open) + ")");
        }
        return stores;
    }

    private static boolean sameStore(String asked, String directory) {
        return asked.equals(directory)
                || java.nio.file.Path.of(asked)
                        .toAbsolutePath()
                        .normalize()
                        .toString()
                        .equals(directory);
    }

    /** What {@code qs stats DIR} prints (StoreStats), then the live counters of the open handle. */
    private static Map<String, Object> counters(StoreMXBean bean) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("store", bean.getDirectory());
        m.put("client", bean.isClient());
        m.putAll(Json.MAPPER.convertValue(bean.getStoreStats(), Json.MAP));
        m.put("commits", bean.getCommits());
        m.put("aborts", bean.getAborts());
        PoolStats pool = bean.getPoolStats();
        m.put("poolFramesUsed", pool.resident());
        m.put("poolFramesFree", Math.max(0, pool.capacity() - pool.resident()));
        m.put("evictions", pool.evictions());
        FaultCounters f = bean.getFaultCounters();
        m.put("readFaults", f.readFaults());
        m.put("writeFaults", f.writeFaults());
        m.put("referenceFaults", f.referenceFaults());
        m.put("faultBytesRead", f.bytesRead());
        m.put("refusedFaults", f.refusals());
        m.put("faultHandlerNanos", f.handlerNanos());
        return m;
    }
}
