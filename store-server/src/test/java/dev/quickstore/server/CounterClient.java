package dev.quickstore.server;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.TransactionConflictException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * A client process of {@link OptimisticCommitTest}: {@code N} transactions, each incrementing a counter all
 * clients share and this client's own, retried on conflict. Prints {@code committed K} after each
 * acknowledged commit (the parent trusts only those), then {@code done commits=N conflicts=C invalidated=I}.
 * With {@code park} as the last argument it instead begins one transaction, writes, prints {@code written}
 * and waits to be killed.
 */
public final class CounterClient {
    private CounterClient() {}

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        Path secret = Path.of(args[1]);
        int n = Integer.parseInt(args[2]);
        long shared = Long.parseLong(args[3]);
        long own = Long.parseLong(args[4]);
        boolean park = args.length > 5 && args[5].equals("park");
        try (RemotePages client = RemotePages.connect(uri, secret, 5000)) {
            if (park) {
                RemoteTransaction t = client.begin();
                MemorySegment v = t.view();
                v.set(ValueLayout.JAVA_LONG_UNALIGNED, own, 1_000_000L);
                v.set(ValueLayout.JAVA_LONG_UNALIGNED, shared, 1_000_000L);
                System.out.println("written");
                System.out.flush();
                java.util.concurrent.locks.LockSupport.park(); // until SIGKILL
                return;
            }
            int committed = 0;
            while (committed < n) {
                try (RemoteTransaction t = client.begin()) {
                    MemorySegment v = t.view();
                    v.set(ValueLayout.JAVA_LONG_UNALIGNED, shared, v.get(ValueLayout.JAVA_LONG_UNALIGNED, shared) + 1);
                    v.set(ValueLayout.JAVA_LONG_UNALIGNED, own, v.get(ValueLayout.JAVA_LONG_UNALIGNED, own) + 1);
                    t.commit();
                    committed++;
                    System.out.println("committed " + committed);
                } catch (TransactionConflictException e) {
                    // another client committed the shared page since this one read it: retry with the new value
                } catch (dev.quickstore.core.remote.PageLockException e) {
                    Thread.sleep(1 + (System.nanoTime() & 3)); // a deadlock victim: retry after a random pause
                }
            }
            long[] c = client.transactionCounters();
            System.out.println("done commits=" + c[0] + " conflicts=" + c[1] + " invalidated=" + c[2]);
        }
    }
}
