package com.example.parts;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;
import java.util.List;

@Persistent
public interface Part {
    int id();

    void id(int v);

    @Chars(10)
    String type();

    void type(String v);

    Part next();

    void next(Part p);

    List<Part> to(); // a live list of references; no setter
}
