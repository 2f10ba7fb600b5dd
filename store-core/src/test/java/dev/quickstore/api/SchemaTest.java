package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.internal.Catalog;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema catalog and the processor, with persistent interfaces compiled inside the test (several
 * versions of one type, and invalid declarations) by javac running dev.quickstore.processor.
 */
class SchemaTest {
    @TempDir
    Path dir;

    record Compiled(boolean ok, String diagnostics, ClassLoader loader) {}

    private Compiled compile(String name, String source) throws Exception {
        Path src = dir.resolve(name + "-src/evo/Part.java");
        Path out = dir.resolve(name + "-classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(out);
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (var fm = javac.getStandardFileManager(null, null, null)) {
            boolean ok = javac.getTask(
                            diagnostics,
                            fm,
                            null,
                            List.of(
                                    "-d",
                                    out.toString(),
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    "-processor",
                                    "dev.quickstore.processor.PersistentProcessor",
                                    "-Xlint:all",
                                    "-Werror"),
                            null,
                            fm.getJavaFileObjects(src))
                    .call();
            return new Compiled(
                    ok,
                    diagnostics.toString(),
                    new URLClassLoader(
                            new URL[] {out.toUri().toURL()}, getClass().getClassLoader()));
        }
    }

    private Class<?> part(String version, String body) throws Exception {
        Compiled c = compile(
                version, "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {\n" + body + "\n}\n");
        assertTrue(c.ok(), c.diagnostics());
        return c.loader().loadClass("evo.Part");
    }

    @Test
    void catalogRecordsTypesAndRefusesAnIncompatibleDefinitionNamingTheField() throws Exception {
        Class<?> v1 = part("v1", "int x(); void x(int v); @dev.quickstore.api.Chars(10) String type();");
        Class<?> v2 = part("v2", "long x(); void x(long v); @dev.quickstore.api.Chars(10) String type();");
        Class<?> v3 = part("v3", "int x(); void x(int v); @dev.quickstore.api.Chars(10) String type(); int y();");
        Class<?> v4 = part("v4", "int x(); void x(int v); @dev.quickstore.api.Chars(12) String type();");
        Class<?> same = part("same", "int x(); void x(int v); @dev.quickstore.api.Chars(10) String type();");
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, v1)) {
            Catalog.TypeRecord r = s.schema().get("evo.Part");
            assertEquals(2, r.fields().size());
            assertEquals("x INT at 4 (4 bytes)", r.fields().get(0).describe());
            assertEquals("type CHARS at 8 (10 bytes)", r.fields().get(1).describe());
            assertEquals(24, r.size());
        }
        SchemaMismatchException e = assertThrows(SchemaMismatchException.class, () -> PersistentStore.open(db, v2));
        assertEquals("evo.Part", e.typeName());
        assertEquals("x", e.fieldName());
        assertTrue(
                e.getMessage()
                        .startsWith("incompatible definition of persistent type evo.Part: field 'x' is x INT at 4"
                                + " (4 bytes) in the store but x LONG at 8 (8 bytes) in the code"),
                e.getMessage());
        e = assertThrows(SchemaMismatchException.class, () -> PersistentStore.open(db, v3));
        assertEquals("y", e.fieldName());
        assertTrue(e.getMessage().contains("is in the code but not in the store"), e.getMessage());
        e = assertThrows(SchemaMismatchException.class, () -> PersistentStore.open(db, v4));
        assertEquals("type", e.fieldName());
        // a recompiled identical definition (another class loader) is compatible; so is opening with no types,
        // and the check then happens on first use
        try (PersistentStore s = PersistentStore.open(db, same)) {
            assertEquals(1, s.schema().size());
        }
        try (PersistentStore s = PersistentStore.open(db);
                ObjectTransaction tx = s.begin()) {
            e = assertThrows(SchemaMismatchException.class, () -> tx.create(v2));
            assertEquals("x", e.fieldName());
        }
    }

    @Test
    void catalogRecordsTheCollectionKindAndRefusesAnotherNamingTheField() throws Exception {
        Class<?> list = part("list", "int x(); void x(int v); java.util.List<Part> ps();");
        Class<?> set = part("set", "int x(); void x(int v); java.util.Set<Part> ps();");
        Class<?> bag = part("bag", "int x(); void x(int v); java.util.Collection<Part> ps();");
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, set)) {
            assertEquals(
                    "ps SET<evo.Part> at 8 (8 bytes)",
                    s.schema().get("evo.Part").fields().get(1).describe());
        }
        SchemaMismatchException e = assertThrows(SchemaMismatchException.class, () -> PersistentStore.open(db, list));
        assertEquals("ps", e.fieldName());
        assertTrue(
                e.getMessage()
                        .contains("field 'ps' is ps SET<evo.Part> at 8 (8 bytes) in the store but ps LIST<evo.Part>"
                                + " at 8 (8 bytes) in the code"),
                e.getMessage());
        e = assertThrows(SchemaMismatchException.class, () -> PersistentStore.open(db, bag));
        assertEquals("ps", e.fieldName());
        assertTrue(e.getMessage().contains("ps BAG<evo.Part>"), e.getMessage());
        Compiled c = compile(
                "setter",
                "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {"
                        + " java.util.Set<Part> ps(); void ps(java.util.Set<Part> v); }\n");
        assertFalse(c.ok());
        assertTrue(
                c.diagnostics().contains("set property ps is a live view of its references: declare no setter"),
                c.diagnostics());
        c = compile(
                "bagOfStrings",
                "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {"
                        + " java.util.Collection<String> names(); }\n");
        assertFalse(c.ok());
        assertTrue(
                c.diagnostics().contains("unsupported type java.util.Collection<java.lang.String>"), c.diagnostics());
    }

    @Test
    void typesCreatedInAnAbortedTransactionAreNotCatalogued() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db)) {
            try (ObjectTransaction tx = s.begin()) {
                tx.create(ListNode.class);
                tx.abort();
            }
            assertFalse(s.schema().containsKey("dev.quickstore.api.ListNode"));
            try (ObjectTransaction tx = s.begin()) {
                tx.create(TreeNode.class);
                tx.commit();
            }
            assertTrue(s.schema().containsKey("dev.quickstore.api.TreeNode"));
        }
        try (PersistentStore s = PersistentStore.open(db)) {
            assertEquals(
                    List.of("dev.quickstore.api.TreeNode"),
                    List.copyOf(s.schema().keySet()));
            TypeRecordCheck.pointerFieldsOf(s.schema().get("dev.quickstore.api.TreeNode"));
        }
    }

    /** Helper kept separate so the assertion reads as a sentence. */
    static final class TypeRecordCheck {
        static void pointerFieldsOf(Catalog.TypeRecord r) {
            assertEquals(
                    List.of(
                            "left REF<dev.quickstore.api.TreeNode> at 8 (8 bytes)",
                            "right REF<dev.quickstore.api.TreeNode> at 16 (8 bytes)"),
                    r.fields().stream()
                            .filter(f -> f.kind().pointer())
                            .map(f -> f.describe())
                            .toList());
        }
    }

    @Test
    void processorRejectsWhatItCannotLayOut() throws Exception {
        Compiled c = compile(
                "bad1",
                "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {"
                        + " java.util.Date when(); }\n");
        assertFalse(c.ok());
        assertTrue(c.diagnostics().contains("unsupported type java.util.Date of when()"), c.diagnostics());
        c = compile("bad2", "package evo;\n@dev.quickstore.api.Persistent\npublic abstract class Part {}\n");
        assertFalse(c.ok());
        assertTrue(c.diagnostics().contains("@Persistent applies to interfaces only"), c.diagnostics());
        c = compile(
                "bad3",
                "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {"
                        + " int x(); void x(long v); }\n");
        assertFalse(c.ok());
        assertTrue(c.diagnostics().contains("does not match getter type int"), c.diagnostics());
        c = compile(
                "bad4",
                "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {"
                        + " java.util.List<String> names(); }\n");
        assertFalse(c.ok());
        assertTrue(c.diagnostics().contains("unsupported type"), c.diagnostics());
        c = compile(
                "bad5",
                "package evo;\n@dev.quickstore.api.Persistent\npublic interface Part {"
                        + " @dev.quickstore.api.Chars(300) String t(); }\n");
        assertFalse(c.ok());
        assertTrue(c.diagnostics().contains("length must be 1..255"), c.diagnostics());
    }
}
