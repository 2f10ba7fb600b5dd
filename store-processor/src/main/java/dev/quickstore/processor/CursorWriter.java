package dev.quickstore.processor;

import java.util.Set;

/**
 * Writes the readable Java source of {@code <Name>Cursor}: an allocation-free navigation form of a persistent
 * interface (docs/object-api.md, "Cursors"). A cursor is one mutable handle holding a virtual address; its
 * getters load at that address plus the field's offset (as the proxy's do), and {@code toX()} / {@code downX()}
 * replace the address by the one stored in reference field {@code x}: following a reference is a load, as
 * QuickStore promises (White and DeWitt 1994, section 1 and section 3.2: a stored pointer is the object's
 * virtual address), without the {@code $Impl} proxy the interface's getter allocates per followed reference.
 * {@code downX()} pushes the current address on the cursor's own address stack and {@code up()} pops it, so a
 * tree walk descends and returns without allocating.
 *
 * <p>Objects of another class than {@code <Name>$Impl} (a sub-interface, whose layout may place the inherited
 * fields elsewhere; software mode's {@code <Name>$Soft}) are read through their proxy, which the cursor then
 * holds: same results, one allocation per such move.
 */
final class CursorWriter {
    private CursorWriter() {}

    /** The cursor's own method names: a field with one of these names gets no accessor on the cursor. */
    private static final Set<String> RESERVED = Set.of(
            "at",
            "moveTo",
            "toNextPreorder",
            "object",
            "isNull",
            "up",
            "depth",
            "address",
            "equals",
            "hashCode",
            "toString",
            "getClass",
            "notify",
            "notifyAll",
            "wait",
            "clone",
            "finalize");

    /**
     * The address stack: {@code up()} and the slow half of a push. The fast paths of the moves push inline while
     * no pushed position holds a proxy ({@code others == null}), so they stay small enough for C2 to inline.
     */
    private static final String STACK = """
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
                            others = others == null ? new %I%[stack.length] : java.util.Arrays.copyOf(others, stack.length);
                        }
                        others[d] = other;
                    }
                    depth = d + 1;
                }

            """;

    /** Arriving at an address read from a reference field: the type tag decides whether a proxy is needed. */
    private static final String GO = """
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
    private static final String MOVE = """

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

    /** {@code Outer$Node$Impl} becomes {@code Outer$NodeCursor}. */
    static String cursorName(String implName) {
        return implName.substring(0, implName.length() - "$Impl".length()) + "Cursor";
    }

    private static boolean primitive(Kind k) {
        return switch (k) {
            case BYTE, BOOLEAN, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE -> true;
            default -> false;
        };
    }

    private static String access(Kind k) {
        return switch (k) {
            case BYTE, BOOLEAN -> "Byte";
            case SHORT -> "Short";
            case CHAR -> "Char";
            case INT -> "Int";
            case LONG -> "Long";
            case FLOAT -> "Float";
            case DOUBLE -> "Double";
            default -> throw new IllegalArgumentException(k + " is not a primitive field");
        };
    }

    private static String capitalized(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static String constant(FieldModel f) {
        return "OFF_" + f.name().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
    }

    static String generate(PersistentType t) {
        String iface = t.qualifiedName();
        String impl = t.implName();
        String cursor = cursorName(impl);
        java.util.List<FieldModel> self = t.layout().fields().stream()
                .filter(f -> f.kind() == Kind.REF && f.refType().equals(iface))
                .toList();
        Set<String> taken = new java.util.HashSet<>(RESERVED);
        for (FieldModel f : self) {
            taken.add("to" + capitalized(f.name()));
            taken.add("down" + capitalized(f.name()));
        }
        StringBuilder s = new StringBuilder();
        if (!t.pkg().isEmpty()) {
            s.append("package ").append(t.pkg()).append(";\n\n");
        }
        s.append("import dev.quickstore.api.PersistentObject;\n");
        s.append("import dev.quickstore.api.internal.FlatView;\n");
        s.append("import dev.quickstore.api.internal.Session;\n");
        s.append("import dev.quickstore.api.internal.View;\n\n");
        s.append("/**\n * Generated by {@code dev.quickstore.processor.PersistentProcessor} from {@link ")
                .append(iface)
                .append("}; do not edit.\n *\n")
                .append(" * <p>A cursor over {@code ")
                .append(iface)
                .append("} objects: one mutable handle whose moves follow references without\n")
                .append(
                        " * allocating a proxy per object (docs/object-api.md, \"Cursors\"). It is not an identity (it denotes\n")
                .append(
                        " * whatever object it was last moved to) and lives as long as the transaction of the object it started\n")
                .append(" * at: any use afterwards throws. Not thread-safe.\n */\n");
        s.append("public final class ").append(cursor).append(" {\n");
        s.append("    private static final long[] NO_STACK = new long[0];\n\n");
        s.append("    private final Session session;\n");
        s.append("    /** The current object's address; 0 after a move along a null reference. */\n");
        s.append("    private long address;\n");
        s.append("    /** The current object's proxy when it is not a {@code ")
                .append(impl)
                .append("} (a subtype, software mode), else null. */\n");
        s.append("    private ").append(iface).append(" other;\n");
        s.append("    private long[] stack = NO_STACK;\n");
        s.append("    /** The pushed positions' {@code other}, allocated by the first push of a non-null one. */\n");
        s.append("    private ").append(iface).append("[] others;\n");
        s.append("    private int depth;\n");
        s.append(
                "    /** The pre-order walk's objects still to visit (addresses; a proxy in pendingOthers if it needs one). */\n");
        s.append("    private long[] pending = NO_STACK;\n");
        s.append("    private ").append(iface).append("[] pendingOthers;\n");
        s.append("    private int pendingCount;\n\n");
        s.append("    private ")
                .append(cursor)
                .append("(Session session, long address, ")
                .append(iface)
                .append(" other) {\n        this.session = session;\n        this.address = address;\n")
                .append("        this.other = other;\n    }\n\n");
        // at
        s.append("    /**\n     * A cursor at {@code object}, a proxy obtained in a running transaction (not null).\n")
                .append(
                        "     *\n     * @throws IllegalArgumentException if {@code object} is null or not a persistent object\n")
                .append("     */\n    public static ")
                .append(cursor)
                .append(" at(")
                .append(iface)
                .append(" object) {\n")
                .append("        if (!(object instanceof PersistentObject p)) {\n")
                .append("            throw new IllegalArgumentException(object == null\n")
                .append("                    ? \"a cursor starts at an object, not at null\"\n")
                .append(
                        "                    : object.getClass().getName() + \" is not a persistent object\");\n        }\n")
                .append("        Session s = PersistentObject.sessionOf(p);\n        s.checkReadable();\n")
                // placed as place(object) would, but without passing the new cursor to a call: a caller that
                // inlines at() keeps the cursor in registers (escape analysis) instead of storing every move
                // and with one allocation site: two (one per branch) merge in a phi, which escape analysis does
                // not scalar-replace, so every move stored the cursor's address and reloaded it (store-to-load
                // forwarding on the walk's critical path; PrintAssembly, docs/results.md)
                .append("        long a = PersistentObject.addressOf(object);\n")
                .append("        ")
                .append(iface)
                .append(" other = object;\n")
                .append("        if (object instanceof ")
                .append(impl)
                .append(") {\n            FlatView.checkObject(a, ")
                .append(t.layout().size())
                .append(");\n            other = null;\n        }\n")
                .append("        return new ")
                .append(cursor)
                .append("(s, a, other);\n    }\n\n");
        s.append(
                        "    /** Moves to {@code object} (null: to no object), an object of this cursor's transaction; keeps the stack. */\n")
                .append("    public ")
                .append(cursor)
                .append(" moveTo(")
                .append(iface)
                .append(" object) {\n")
                .append("        session.checkReadable();\n")
                .append("        session.addressOf(object, true, \"moveTo\");\n")
                .append("        pendingCount = 0;\n")
                .append("        if (pendingOthers != null) {\n")
                .append("            java.util.Arrays.fill(pendingOthers, null);\n        }\n")
                .append("        place(object);\n        return this;\n    }\n\n");
        s.append(
                        "    /** The proxy of the current object (an allocation), or null after a move along a null reference. */\n")
                .append("    public ")
                .append(iface)
                .append(" object() {\n        session.checkReadable();\n")
                .append("        return address == 0 ? null : other != null ? other : new ")
                .append(impl)
                .append("(session, address);\n    }\n\n");
        s.append("    /** True after a move along a null reference (every getter then throws). */\n")
                .append(
                        "    public boolean isNull() {\n        session.checkReadable();\n        return address == 0;\n    }\n\n");
        s.append(
                        "    /** The current object's virtual address (as {@code ObjectTransaction.addressOf}), 0 at null. */\n")
                .append(
                        "    public long address() {\n        session.checkReadable();\n        return address;\n    }\n\n");
        s.append(
                        "    /** The number of positions pushed by {@code down...()} and not yet returned to by {@link #up}. */\n")
                .append("    public int depth() {\n        return depth;\n    }\n\n");
        s.append(STACK.replace("%C%", cursor).replace("%I%", iface));
        s.append("    /** Positions at a proxy (null: at null); false when null. */\n")
                .append("    private boolean place(")
                .append(iface)
                .append(" object) {\n")
                .append(
                        "        if (object == null) {\n            address = 0;\n            other = null;\n            return false;\n        }\n")
                .append("        long a = PersistentObject.addressOf(object);\n")
                .append("        if (object instanceof ")
                .append(impl)
                .append(") {\n            FlatView.checkObject(a, ")
                .append(t.layout().size())
                .append(");\n            other = null;\n        } else {\n            other = object;\n        }\n")
                .append("        address = a;\n        return true;\n    }\n\n");
        s.append(GO.replace("%M%", impl)
                .replace("%I%", iface)
                .replace("%SIZE%", Integer.toString(t.layout().size())));
        s.append(
                        "    /** The current address, after the transaction and null checks every accessor and move makes. */\n")
                .append("    private long here() {\n        session.checkReadable();\n        long a = address;\n")
                .append("        if (a == 0) {\n            throw new NullPointerException(\"")
                .append(cursor)
                .append(
                        " is at null (its last move followed a null reference)\");\n        }\n        return a;\n    }\n");
        for (FieldModel f : self) {
            move(s, iface, impl, f);
        }
        if (!self.isEmpty()) {
            preorder(s, iface, impl, self);
        }
        for (FieldModel f : t.layout().fields()) {
            if (taken.contains(f.name())) {
                continue;
            }
            getter(s, impl, f);
            if (f.setterParam() != null) {
                setter(s, impl, f);
            }
        }
        s.append("}\n");
        return s.toString();
    }

    private static void move(StringBuilder s, String iface, String impl, FieldModel f) {
        s.append(MOVE.replace("%X%", capitalized(f.name()))
                .replace("%F%", f.name())
                .replace("%OFF%", impl + "." + constant(f))
                .replace("%I%", iface));
    }

    /**
     * {@code toNextPreorder()}: pushes the current object's non-null references of the interface's own type (last
     * field first) on the pending stack and moves to the top of it; no recursion, so C2 keeps the position in a
     * register when the cursor does not escape the loop.
     */
    private static void preorder(StringBuilder s, String iface, String impl, java.util.List<FieldModel> self) {
        StringBuilder fields = new StringBuilder();
        StringBuilder proxies = new StringBuilder();
        StringBuilder addresses = new StringBuilder();
        for (int i = self.size() - 1; i >= 0; i--) {
            FieldModel f = self.get(i);
            fields.append("        long c")
                    .append(i)
                    .append(" = FlatView.getLongIn(a + ")
                    .append(impl)
                    .append('.')
                    .append(constant(f))
                    .append(");\n");
            if (i > 0) {
                fields.append("        if (c")
                        .append(i)
                        .append(" != 0) {\n            pend(c")
                        .append(i)
                        .append(");\n        }\n");
            } // the first child is visited next: no round trip through the pending stack
            addresses
                    .append("            pendAddress(FlatView.getLongIn(a + ")
                    .append(impl)
                    .append('.')
                    .append(constant(f))
                    .append("));\n");
            proxies.append("            pendSlow(o.").append(f.name()).append("());\n");
        }
        s.append(PREORDER.replace("%FIELDS%", fields.toString())
                .replace("%PROXIES%", proxies.toString())
                .replace("%ADDRESSES%", addresses.toString())
                .replace("%I%", iface)
                .replace("%M%", impl));
    }

    /**
     * The pre-order walk. Its fast path has one arrival (one inlined {@code go}): with two (the first child's and the
     * pending stack's) its compiled code passed C2's {@code InlineSmallCode}, so a caller's loop did not inline it
     * ({@code PrintInlining}: "already compiled into a big method") and the cursor escaped to the heap
     * (docs/results.md, "Cursors in registers").
     */
    private static final String PREORDER = """

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
                    if (p == pending.length) {
                        pending = grown(pending);
                        if (pendingOthers != null) {
                            pendingOthers = java.util.Arrays.copyOf(pendingOthers, pending.length);
                        }
                    }
                    if (pendingOthers == null) {
                        pendingOthers = new %I%[pending.length];
                    }
                    pending[p] = PersistentObject.addressOf(x);
                    pendingOthers[p] = x instanceof %M% ? null : x;
                    pendingCount = p + 1;
                }

            """;

    private static String returnType(FieldModel f) {
        return switch (f.kind()) {
            case LIST -> "java.util.List<" + f.refType() + ">";
            case SET -> "java.util.Set<" + f.refType() + ">";
            case BAG -> "java.util.Collection<" + f.refType() + ">";
            default -> f.javaType();
        };
    }

    private static void getter(StringBuilder s, String impl, FieldModel f) {
        String off = impl + "." + constant(f);
        s.append("\n    /** The current object's {@code ")
                .append(f.name())
                .append("}. */\n")
                .append("    public ")
                .append(returnType(f))
                .append(' ')
                .append(f.name())
                .append("() {\n")
                .append("        long a = here();\n        if (other != null) {\n            return other.")
                .append(f.name())
                .append("();\n        }\n");
        if (primitive(f.kind())) {
            s.append("        return FlatView.get")
                    .append(access(f.kind()))
                    .append("In(a + ")
                    .append(off)
                    .append(')')
                    .append(f.kind() == Kind.BOOLEAN ? " != 0" : "")
                    .append(";\n");
        } else if (f.kind() == Kind.REF) {
            s.append("        long r = FlatView.getLongIn(a + ")
                    .append(off)
                    .append(");\n")
                    .append("        return r == 0 ? null : ")
                    .append(f.refImpl())
                    .append(".of(session, r);\n");
        } else {
            s.append("        return new ")
                    .append(impl)
                    .append("(session, a).")
                    .append(f.name())
                    .append("();\n");
        }
        s.append("    }\n");
    }

    private static void setter(StringBuilder s, String impl, FieldModel f) {
        String off = impl + "." + constant(f);
        s.append("\n    /** Sets the current object's {@code ")
                .append(f.name())
                .append("} (logged as a proxy's write is). */\n")
                .append("    public void ")
                .append(f.name())
                .append('(')
                .append(f.setterParam())
                .append(" value) {\n")
                .append("        long a = here();\n        if (other != null) {\n            other.")
                .append(f.name())
                .append("(value);\n            return;\n        }\n");
        if (primitive(f.kind())) {
            s.append("        session.checkWritable();\n        View.mark(a + ")
                    .append(off)
                    .append(");\n")
                    .append("        FlatView.set")
                    .append(access(f.kind()))
                    .append("(a + ")
                    .append(off)
                    .append(", ")
                    .append(f.kind() == Kind.BOOLEAN ? "(byte) (value ? 1 : 0)" : "value")
                    .append(");\n");
        } else {
            s.append("        new ")
                    .append(impl)
                    .append("(session, a).")
                    .append(f.name())
                    .append("(value);\n");
        }
        s.append("    }\n");
    }
}
