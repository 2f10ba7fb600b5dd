package dev.quickstore.replication;

import dev.quickstore.oo7.Oo7MultiUser;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * One client's OO7 update transactions for the failover test (the update half of {@link Oo7MultiUser}'s mix, after
 * Carey, DeWitt, Kant and Naughton's multi-user OO7): descend from a module's design root to a random base
 * assembly and run T2A (swap x and y of each private composite part's root part) or T2B (of every atomic part of
 * each, depth first), on the shared module with probability {@code sharedPercent}, else on the client's private
 * module. Unlike {@link Oo7MultiUser} it returns the ids of the atomic parts it swapped (a part swapped twice is
 * listed twice), which the test's model of acknowledged updates needs.
 */
final class Oo7Updates {
    /**
     * What one transaction did: on the shared module or not, the atomic parts it swapped, and for each swap the x
     * and y it read before it.
     */
    record Update(boolean shared, List<Integer> swapped, List<int[]> before) {}

    private final int client;
    private final int sharedPercent;
    private final Random rnd;

    Oo7Updates(int client, int sharedPercent, long seed) {
        this.client = client;
        this.sharedPercent = sharedPercent;
        this.rnd = new Random(seed * 1_000_003L + client);
    }

    /** Runs one T2A or T2B inside the store's current transaction. */
    Update run(Oo7Store store) {
        boolean shared = rnd.nextInt(100) < sharedPercent;
        boolean all = rnd.nextBoolean();
        int id = shared ? Oo7MultiUser.SHARED_MODULE : Oo7MultiUser.privateModule(client);
        Assembly a =
                Objects.requireNonNull(store.moduleById(id), "no module " + id).designRoot();
        while (a instanceof ComplexAssembly complex) {
            List<Assembly> subs = complex.subAssemblies();
            a = subs.get(rnd.nextInt(subs.size()));
        }
        Update u = new Update(shared, new ArrayList<>(), new ArrayList<>());
        for (CompositePart c : ((BaseAssembly) a).componentsPriv()) {
            AtomicPart root = c.rootPart();
            if (all) {
                Set<Integer> visited = new HashSet<>();
                visited.add(root.id());
                dfs(root, visited, u);
            } else {
                swap(root, u);
            }
        }
        return u;
    }

    private static void dfs(AtomicPart part, Set<Integer> visited, Update u) {
        swap(part, u);
        for (Connection c : part.to()) {
            AtomicPart next = c.to();
            if (visited.add(next.id())) {
                dfs(next, visited, u);
            }
        }
    }

    private static void swap(AtomicPart part, Update u) {
        int x = part.x();
        int y = part.y();
        part.x(y);
        part.y(x);
        u.swapped().add(part.id());
        u.before().add(new int[] {x, y});
    }
}
