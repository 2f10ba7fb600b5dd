package dev.quickstore.oo7;

import java.util.function.ToIntFunction;

/**
 * The OO7 operations by name, for drivers; each constant delegates to the {@link Oo7Operations} method of
 * the same name, which documents its definition.
 */
public enum Oo7Operation {
    T1(Oo7Operations::t1, false),
    T2A(Oo7Operations::t2a, true),
    T2B(Oo7Operations::t2b, true),
    T2C(Oo7Operations::t2c, true),
    T3A(Oo7Operations::t3a, true),
    T3B(Oo7Operations::t3b, true),
    T3C(Oo7Operations::t3c, true),
    T4(Oo7Operations::t4, false),
    T5DO(Oo7Operations::t5do, true),
    T5UNDO(Oo7Operations::t5undo, true),
    T6(Oo7Operations::t6, false),
    T7(Oo7Operations::t7, false),
    T8(Oo7Operations::t8, false),
    T9(Oo7Operations::t9, false),
    T10(Oo7Operations::t10, false),
    Q1(Oo7Operations::q1, false),
    Q2(Oo7Operations::q2, false),
    Q3(Oo7Operations::q3, false),
    Q4(Oo7Operations::q4, false),
    Q5(Oo7Operations::q5, false),
    Q6(Oo7Operations::q6, false),
    Q7(Oo7Operations::q7, false),
    Q8(Oo7Operations::q8, false),
    SM1(Oo7Operations::sm1, true),
    SM2(Oo7Operations::sm2, true);

    private final ToIntFunction<Oo7Operations> body;
    private final boolean updates;

    Oo7Operation(ToIntFunction<Oo7Operations> body, boolean updates) {
        this.body = body;
        this.updates = updates;
    }

    /** Whether the operation changes the database. */
    public boolean updates() {
        return updates;
    }

    /** Runs the operation inside the caller's transaction; see {@link Oo7Operations#run(Oo7Operation)}. */
    int apply(Oo7Operations ops) {
        return body.applyAsInt(ops);
    }
}
