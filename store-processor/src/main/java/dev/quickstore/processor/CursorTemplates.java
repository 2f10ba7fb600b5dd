package dev.quickstore.processor;

/**
 * The Java text of a cursor's navigation methods, with placeholders {@link CursorWriter} fills in ({@code %C%} the
 * cursor's class, {@code %I%} the interface, {@code %M%} its {@code $Impl}, {@code %F%}/{@code %X%}/{@code %OFF%}
 * a reference field, its capitalised name and its offset constant, {@code %SIZE%} the layout's size,
 * {@code %FIELDS%}/{@code %PROXIES%}/{@code %ADDRESSES%} the pre-order walk's per-field lines). Their shapes are what
 * keeps a cursor used in one method in registers (docs/object-api.md, "Cursors"; docs/results.md, "Cursors in
 * registers").
 */
final class CursorTemplates {
    private CursorTemplates() {}

    /**
     * The address stack: {@code up()} and the slow half of a push. The fast paths of the moves push inline while
     * no pushed position holds a proxy ({@code others == null}), so they stay small enough for C2 to inline.
     */
    static final String STACK = """
                /**
                 * Returns to the position the last successful {@code down...()} left.
                 *
                 * @throws IllegalStateException if there is none
                 */
                public void up() {
                    int d = depth - 1;
                    if (d < 0 || others != null) {
                        upSlow();
                        return;
                    }
                    depth = d;
                    address = stack[d];
                    other = null;
                }

                private void upSlow() {
                    session.checkReadable();
                    int d = depth - 1;
                    if (d < 0) {
                        throw new IllegalStateException(
                                "%C%.up(): no position to return to (each up() needs an earlier successful down...())");
                    }
                    depth = d;
                    address = stack[d];
                    other = others[d];
                    others[d] = null;
                }

                /**
                 * A longer copy of a stack (static: the rare growth of a move's fast path passes no cursor to a
                 * call C2 does not inline, so a cursor used in one method stays in registers).
                 */
                private static long[] grown(long[] a) {
                    return java.util.Arrays.copyOf(a, Math.max(16, 2 * a.length));
                }

                /** Pushes the current position while it or a pushed one is held as a proxy. */
                private void push() {
                    int d = depth;
                    if (d == stack.length) {
                        stack = grown(stack);
                    }
                    stack[d] = address;
                    if (other != null || others != null) {
                        if (others == null || others.length < stack.length) {
                            others = others == null
                                    ? new %I%[stack.length]
                                    : java.util.Arrays.copyOf(others, stack.length);
                        }
                        others[d] = other;
                    }
                    depth = d + 1;
                }

            """;

    /** Arriving at an address read from a reference field: the type tag decides whether a proxy is needed. */
    static final String GO = """
                /**
                 * Positions at an address read from a reference field (0: at null); false when 0. The arrival
                 * check: the object's whole layout must lie in the view, else the move throws and the cursor
                 * stays where it was; the fast paths' loads then need no compare of their own.
                 */
                private boolean go(long a) {
                    if (a == 0) {
                        address = 0;
                        other = null;
                        return false;
                    }
                    int tag = FlatView.tagOf(a, %SIZE%);
                    long from = address;
                    address = a; // before other is decided: 11 % faster on a list walk (docs/results.md)
                    if (tag == %M%.TAG) {
                        other = null;
                    } else {
                        try {
                            other = enter(a);
                        } catch (RuntimeException e) {
                            address = from; // refused: the cursor stays where it was
                            throw e;
                        }
                    }
                    return true;
                }

                /** The proxy of an object that is not a {@code %M%} (a subtype's layout differs). */
                private %I% enter(long a) {
                    return %M%.of(session, a);
                }

            """;

    /** {@code toX()} and {@code downX()} for a reference field {@code x} of the interface's own type. */
    static final String MOVE = """

                /** Moves along {@code %F%} (to null if it is null); true when it arrived at an object. */
                public boolean to%X%() {
                    long a = here();
                    %I% o = other;
                    return o == null ? go(FlatView.getLongIn(a + %OFF%)) : place(o.%F%());
                }

                /**
                 * Descends along {@code %F%} if it is not null, pushing the current position for {@link #up};
                 * else stays and returns false.
                 */
                public boolean down%X%() {
                    long a = here();
                    if (other != null) {
                        return down%X%Slow();
                    }
                    long n = FlatView.getLongIn(a + %OFF%);
                    if (n == 0) {
                        return false;
                    }
                    if (others == null) {
                        int d = depth;
                        long[] st = stack;
                        if (d == st.length) {
                            st = grown(st);
                            stack = st;
                        }
                        st[d] = a;
                        depth = d + 1;
                    } else {
                        push();
                    }
                    return go(n);
                }

                private boolean down%X%Slow() {
                    %I% n = other.%F%();
                    if (n == null) {
                        return false;
                    }
                    push();
                    return place(n);
                }
            """;

    /**
     * The pre-order walk. Its fast path has one arrival (one inlined {@code go}): with two (the first child's and the
     * pending stack's) its compiled code passed C2's {@code InlineSmallCode}, so a caller's loop did not inline it
     * ({@code PrintInlining}: "already compiled into a big method") and the cursor escaped to the heap
     * (docs/results.md, "Cursors in registers").
     */
    static final String PREORDER = """

                /**
                 * Moves to the next object of a depth-first, pre-order walk along the reference fields of this
                 * type (in field order) from the object the cursor was placed at by {@code at} or {@code moveTo};
                 * false when the walk is complete (the cursor then stays where it is). Every path is walked: an
                 * object reachable along two paths is visited twice, and a cycle never ends (use it on trees).
                 * Independent of {@code down...()}/{@link #up}'s stack.
                 */
                public boolean toNextPreorder() {
                    long a = here();
                    %I% o = other;
                    if (o != null || pendingOthers != null) {
                        return preorderSlow(a, o);
                    }
            %FIELDS%        if (c0 == 0) {
                        int p = pendingCount - 1;
                        if (p < 0) {
                            return false;
                        }
                        pendingCount = p;
                        c0 = pending[p];
                    }
                    return go(c0);
                }

                /** The walk's step when the current object or a pending one is held as a proxy. */
                private boolean preorderSlow(long a, %I% o) {
                    if (o != null) {
            %PROXIES%        } else {
            %ADDRESSES%        }
                    return popPending();
                }

                private boolean popPending() {
                    int p = pendingCount - 1;
                    if (p < 0) {
                        return false;
                    }
                    pendingCount = p;
                    %I%[] po = pendingOthers;
                    if (po != null && po[p] != null) {
                        %I% x = po[p];
                        po[p] = null;
                        return place(x);
                    }
                    return go(pending[p]);
                }

                private void pendAddress(long a) {
                    if (a != 0) {
                        pend(a);
                    }
                }

                private void pend(long a) {
                    int p = pendingCount;
                    long[] pd = pending;
                    if (p == pd.length) {
                        pd = grown(pd);
                        pending = pd;
                        if (pendingOthers != null) {
                            pendingOthers = java.util.Arrays.copyOf(pendingOthers, pd.length);
                        }
                    }
                    pd[p] = a;
                    pendingCount = p + 1;
                }

                private void pendSlow(%I% x) {
                    if (x == null) {
                        return;
                    }
                    int p = pendingCount;
                    pend(PersistentObject.addressOf(x)); // grows pendingOthers with pending once it exists
                    if (pendingOthers == null) {
                        pendingOthers = new %I%[pending.length];
                    }
                    pendingOthers[p] = x instanceof %M% ? null : x;
                }

            """;
}
