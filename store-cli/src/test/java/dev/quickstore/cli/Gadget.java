package dev.quickstore.cli;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/** A persistent test type whose objects {@code qs object} and {@code qs info} decode through the catalog. */
@Persistent
public interface Gadget {
    int id();

    void id(int v);

    @Chars(10)
    String type();

    void type(String v);

    double weight();

    void weight(double v);

    boolean broken();

    void broken(boolean v);

    String name();

    void name(String v);

    Gadget next();

    void next(Gadget v);
}
