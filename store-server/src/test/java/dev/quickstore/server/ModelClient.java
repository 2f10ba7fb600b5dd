package dev.quickstore.server;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.TransactionConflictException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A client process of {@link SerializableHistoryTest}: {@code N} seeded random transactions over counters
 * (one per page), each either incrementing one to three counters or only reading two or three, retried on
 * conflict. For every acknowledged commit it prints the values it read: {@code W seq c:v,c:v} (it wrote v+1)
 * or {@code R seq c:v,c:v}, then {@code done commits=N conflicts=C invalidated=I}.
 */
public final class ModelClient {
    private ModelClient() {}

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        Path secret = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        int n = Integer.parseInt(args[3]);
        long[] offsets =
                Arrays.stream(args[4].split(",")).mapToLong(Long::parseLong).toArray();
        SplittableRandom r = new SplittableRandom(seed);
        ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
        try (RemotePages client = RemotePages.connect(uri, secret, 5000)) {
            int done = 0;
            long lockRefusals = 0;
            while (done < n) {
                boolean write = r.nextInt(4) != 0;
                int k = write ? 1 + r.nextInt(3) : 2 + r.nextInt(2);
                int[] cs = r.ints(0, offsets.length).distinct().limit(k).toArray();
                while (true) {
                    StringBuilder line = new StringBuilder(write ? "W " : "R ");
                    try (RemoteTransaction t = client.begin()) {
                        MemorySegment v = t.view();
                        line.append(t.seq()).append(' ');
                        for (int i = 0; i < cs.length; i++) {
                            long value = v.get(L, offsets[cs[i]]);
                            line.append(i == 0 ? "" : ",")
                                    .append(cs[i])
                                    .append(':')
                                    .append(value);
                            if (write) {
                                v.set(L, offsets[cs[i]], value + 1);
                            }
                        }
                        t.commit();
                        System.out.println(line);
                        break;
                    } catch (TransactionConflictException e) {
                        // retry the same intent on fresh values
                    } catch (dev.quickstore.core.remote.PageLockException e) {
                        lockRefusals++; // a deadlock or lock wait timeout under locking: retry likewise, after a
                        // random pause (victims retrying in step with each other can keep re-forming the cycle)
                        Thread.sleep(r.nextInt(1, 4));
                    }
                }
                done++;
            }
            long[] c = client.transactionCounters();
            c[1] += lockRefusals;
            System.out.println("done commits=" + c[0] + " conflicts=" + c[1] + " invalidated=" + c[2]);
        }
    }
}
