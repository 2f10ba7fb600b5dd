package dev.quickstore.jmh.store;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.TransactionConflictException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One client process of {@link MultiClientThroughput}: for {@code seconds}, transactions that increment this
 * client's own counter (its own page) and, with probability {@code sharedPercent}/100, also one of the shared
 * counters; conflicts are retried. Prints one line: {@code commits=N conflicts=C invalidated=I p50us=..
 * p99us=..} (commit latency of the successful commits, the retries of a transaction included).
 */
public final class ThroughputClient {
    private ThroughputClient() {}

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        Path secret = Path.of(args[1]);
        double seconds = Double.parseDouble(args[2]);
        long own = Long.parseLong(args[3]);
        long[] shared =
                Arrays.stream(args[4].split(",")).mapToLong(Long::parseLong).toArray();
        int sharedPercent = Integer.parseInt(args[5]);
        SplittableRandom r = new SplittableRandom(own);
        ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
        long[] lat = new long[1 << 20];
        int n = 0;
        long lockRefusals = 0;
        try (RemotePages client = RemotePages.connect(uri, secret, 10_000)) {
            System.out.println("ready");
            System.out.flush();
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
                long at = r.nextInt(100) < sharedPercent ? shared[r.nextInt(shared.length)] : -1;
                long t0 = System.nanoTime();
                while (true) {
                    try (RemoteTransaction t = client.begin()) {
                        MemorySegment v = t.view();
                        v.set(L, own, v.get(L, own) + 1);
                        if (at >= 0) {
                            v.set(L, at, v.get(L, at) + 1);
                        }
                        t.commit();
                        break;
                    } catch (TransactionConflictException e) {
                        // retry
                    } catch (dev.quickstore.core.remote.PageLockException e) {
                        lockRefusals++; // under locking: a deadlock or a lock wait timeout; retry after a pause
                        Thread.sleep(r.nextInt(1, 4));
                    }
                }
                if (n < lat.length) {
                    lat[n++] = System.nanoTime() - t0;
                }
            }
            long[] c = client.transactionCounters();
            long[] sorted = Arrays.copyOf(lat, n);
            Arrays.sort(sorted);
            System.out.println("commits=" + c[0] + " conflicts=" + (c[1] + lockRefusals) + " invalidated=" + c[2]
                    + " p50us=" + (n == 0 ? 0 : sorted[n / 2] / 1000) + " p99us="
                    + (n == 0 ? 0 : sorted[(int) (n * 0.99)] / 1000));
        }
    }
}
