package dev.quickstore.jmh.objects;

import dev.quickstore.api.Persistent;
import java.util.List;

/** Owner of a persistent reference list ({@link RefListBenchmark}). */
@Persistent
public interface PBag {
    List<PNode> items();
}
