package dev.quickstore.api;

import java.util.List;

/** A node of the million-object graph ({@link MillionGraph}). */
@Persistent
public interface GraphNode {
    int id();

    void id(int v);

    long weight();

    void weight(long v);

    GraphNode next();

    void next(GraphNode n);

    GraphNode other();

    void other(GraphNode n);

    String label();

    void label(String v);

    List<GraphNode> out();
}
