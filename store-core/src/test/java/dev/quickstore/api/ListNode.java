package dev.quickstore.api;

/** A singly linked list node (traversal tests and benchmarks). */
@Persistent
public interface ListNode {
    int value();

    void value(int v);

    ListNode next();

    void next(ListNode n);
}
