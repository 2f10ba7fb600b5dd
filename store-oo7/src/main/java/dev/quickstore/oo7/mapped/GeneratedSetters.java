package dev.quickstore.oo7.mapped;

import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.AtomicPart$Impl;
import dev.quickstore.oo7.schema.AtomicPart$Soft;
import dev.quickstore.oo7.schema.BaseAssembly$Impl;
import dev.quickstore.oo7.schema.BaseAssembly$Soft;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly$Impl;
import dev.quickstore.oo7.schema.ComplexAssembly$Soft;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.CompositePart$Impl;
import dev.quickstore.oo7.schema.CompositePart$Soft;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Connection$Impl;
import dev.quickstore.oo7.schema.Connection$Soft;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Document$Impl;
import dev.quickstore.oo7.schema.Document$Soft;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Manual$Impl;
import dev.quickstore.oo7.schema.Manual$Soft;
import dev.quickstore.oo7.schema.Module;
import dev.quickstore.oo7.schema.Module$Impl;
import dev.quickstore.oo7.schema.Module$Soft;

/**
 * The setters the OO7 builder needs beyond the schema interfaces' (the interfaces are read-only where OO7 never
 * updates), on whichever generated class the store's mode made: {@code $Impl} (mapped and explicit frames) or
 * {@code $Soft} (software persistence, system {@code e}). Both classes generate a setter for every field; they
 * share no type, so each call dispatches on the class once.
 */
final class GeneratedSetters {
    private GeneratedSetters() {}

    private static IllegalArgumentException unknown(Object o) {
        return new IllegalArgumentException(
                "not a generated OO7 object: " + o.getClass().getName());
    }

    /** id, type and buildDate of a module, assembly or composite part. */
    static void designObj(Object o, int id, String type, int buildDate) {
        switch (o) {
            case Module$Impl m -> {
                m.id(id);
                m.type(type);
                m.buildDate(buildDate);
            }
            case Module$Soft m -> {
                m.id(id);
                m.type(type);
                m.buildDate(buildDate);
            }
            case ComplexAssembly$Impl a -> {
                a.id(id);
                a.type(type);
                a.buildDate(buildDate);
            }
            case ComplexAssembly$Soft a -> {
                a.id(id);
                a.type(type);
                a.buildDate(buildDate);
            }
            case BaseAssembly$Impl a -> {
                a.id(id);
                a.type(type);
                a.buildDate(buildDate);
            }
            case BaseAssembly$Soft a -> {
                a.id(id);
                a.type(type);
                a.buildDate(buildDate);
            }
            case CompositePart$Impl p -> {
                p.id(id);
                p.type(type);
                p.buildDate(buildDate);
            }
            case CompositePart$Soft p -> {
                p.id(id);
                p.type(type);
                p.buildDate(buildDate);
            }
            case AtomicPart$Impl p -> {
                p.id(id);
                p.type(type);
                p.buildDate(buildDate);
            }
            case AtomicPart$Soft p -> {
                p.id(id);
                p.type(type);
                p.buildDate(buildDate);
            }
            default -> throw unknown(o);
        }
    }

    static void assembly(Object o, Module module, ComplexAssembly superAssembly) {
        switch (o) {
            case ComplexAssembly$Impl a -> {
                a.module(module);
                a.superAssembly(superAssembly);
            }
            case ComplexAssembly$Soft a -> {
                a.module(module);
                a.superAssembly(superAssembly);
            }
            case BaseAssembly$Impl a -> {
                a.module(module);
                a.superAssembly(superAssembly);
            }
            case BaseAssembly$Soft a -> {
                a.module(module);
                a.superAssembly(superAssembly);
            }
            default -> throw unknown(o);
        }
    }

    static void manual(Manual o, int id, String title, CharSequence text, Module mod) {
        switch (o) {
            case Manual$Impl m -> {
                m.id(id);
                m.title(title);
                m.text(text);
                m.textLen(text.length());
                m.mod(mod);
            }
            case Manual$Soft m -> {
                m.id(id);
                m.title(title);
                m.text(text);
                m.textLen(text.length());
                m.mod(mod);
            }
            default -> throw unknown(o);
        }
    }

    static void document(Document o, String title, int id, CharSequence text, CompositePart part) {
        switch (o) {
            case Document$Impl d -> {
                d.title(title);
                d.id(id);
                d.text(text);
                d.part(part);
            }
            case Document$Soft d -> {
                d.title(title);
                d.id(id);
                d.text(text);
                d.part(part);
            }
            default -> throw unknown(o);
        }
    }

    static void atomicPart(AtomicPart o, int docId, CompositePart partOf) {
        switch (o) {
            case AtomicPart$Impl p -> {
                p.docId(docId);
                p.partOf(partOf);
            }
            case AtomicPart$Soft p -> {
                p.docId(docId);
                p.partOf(partOf);
            }
            default -> throw unknown(o);
        }
    }

    static void buildDate(AtomicPart o, int buildDate) {
        switch (o) {
            case AtomicPart$Impl p -> p.buildDate(buildDate);
            case AtomicPart$Soft p -> p.buildDate(buildDate);
            default -> throw unknown(o);
        }
    }

    static void connection(Connection o, String type, int length, AtomicPart from, AtomicPart to) {
        switch (o) {
            case Connection$Impl c -> {
                c.type(type);
                c.length(length);
                c.from(from);
                c.to(to);
            }
            case Connection$Soft c -> {
                c.type(type);
                c.length(length);
                c.from(from);
                c.to(to);
            }
            default -> throw unknown(o);
        }
    }
}
