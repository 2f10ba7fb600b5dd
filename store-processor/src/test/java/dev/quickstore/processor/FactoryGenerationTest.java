package dev.quickstore.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated static factory {@code of(session, a)}: a case for the type's own tag and one for every
 * persistent sub-interface of the same round (transitively), none for supertypes or unrelated types; reference
 * getters call it and list, set and bag getters return the element type's {@code Refs}, {@code SetRefs}, {@code BagRefs}. Runs the processor only
 * ({@code -proc:only}, with stubs for the run-time names the generated imports need): this module does not
 * depend on store-core, whose tests compile and run generated classes.
 */
class FactoryGenerationTest {
    @TempDir
    Path dir;

    private static final String SOURCES = """
            package h;
            import dev.quickstore.api.Persistent;
            import java.util.Collection;
            import java.util.List;
            import java.util.Set;
            @Persistent interface Shape {
                int id(); void id(int v); Shape next(); void next(Shape s); List<Shape> all();
                Set<Box> boxes(); Collection<Shape> bag();
            }
            @Persistent interface Box extends Shape { int w(); void w(int v); }
            @Persistent interface Cube extends Box { int d(); void d(int v); }
            @Persistent interface Other { long x(); void x(long v); }
            """;

    private void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private Path generate() throws IOException {
        Path src = dir.resolve("src");
        write(
                src.resolve("dev/quickstore/api/Persistent.java"),
                "package dev.quickstore.api; public @interface Persistent {}");
        write(
                src.resolve("dev/quickstore/api/PersistentObject.java"),
                "package dev.quickstore.api; public abstract class PersistentObject {}");
        for (String name : List.of(
                "Accessors",
                "FieldDescriptor",
                "FieldKind",
                "FlatView",
                "Session",
                "View",
                "RefList",
                "RefSet",
                "RefBag",
                "TypeDescriptor",
                "SoftObject",
                "SoftObjects",
                "SoftView",
                "SoftRefList",
                "SoftRefSet")) {
            String params =
                    name.startsWith("Ref") || name.startsWith("SoftRef") || name.equals("TypeDescriptor") ? "<T>" : "";
            write(
                    src.resolve("dev/quickstore/api/internal/" + name + ".java"),
                    "package dev.quickstore.api.internal; public class " + name + params + " {}");
        }
        write(
                src.resolve("dev/quickstore/core/software/Oid.java"),
                "package dev.quickstore.core.software; public class Oid {}");
        write(src.resolve("h/Shapes.java"), SOURCES);
        Path out = dir.resolve("gen");
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(List.of(
                "-proc:only",
                "-processor",
                PersistentProcessor.class.getName(),
                "-processorpath",
                System.getProperty("java.class.path"),
                "-s",
                out.toString()));
        try (Stream<Path> files = Files.walk(src)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)));
        return out.resolve("h");
    }

    private static String factory(String source) {
        Matcher m = Pattern.compile(
                        "public static h\\.\\w+ of\\(Session session, long a\\) \\{(.*?)\\n    }", Pattern.DOTALL)
                .matcher(source);
        assertTrue(m.find(), source);
        return m.group(1);
    }

    private static int arms(String factory) {
        return factory.split("->", -1).length - 1;
    }

    private static String subCase(String subSource, String subImpl) {
        Matcher m = Pattern.compile("public static final int TAG = (0x[0-9a-f]{8});")
                .matcher(subSource);
        assertTrue(m.find(), subSource);
        return "case " + m.group(1) + " -> new h." + subImpl + "(session, a);";
    }

    @Test
    void factoryCasesAreOwnAndSameRoundSubtypeTags() throws IOException {
        Path h = generate();
        String shape = Files.readString(h.resolve("Shape$Impl.java"));
        String box = Files.readString(h.resolve("Box$Impl.java"));
        String cube = Files.readString(h.resolve("Cube$Impl.java"));
        String other = Files.readString(h.resolve("Other$Impl.java"));

        String shapeOf = factory(shape);
        assertTrue(shapeOf.contains("case TAG -> new Shape$Impl(session, a);"), shapeOf);
        assertTrue(shapeOf.contains(subCase(box, "Box$Impl")), shapeOf);
        assertTrue(shapeOf.contains(subCase(cube, "Cube$Impl")), shapeOf);
        assertTrue(shapeOf.contains("default -> TYPE.resolve(session, a);"), shapeOf);
        assertEquals(4, arms(shapeOf), shapeOf);

        String boxOf = factory(box);
        assertTrue(boxOf.contains(subCase(cube, "Cube$Impl")), boxOf);
        assertFalse(boxOf.contains("Shape$Impl"), boxOf);
        assertEquals(3, arms(boxOf), boxOf);
        assertEquals(2, arms(factory(cube)));
        assertEquals(2, arms(factory(other)));

        assertTrue(shape.contains("return a == 0 ? null : h.Shape$Impl.of(session, a);"), shape);
        assertTrue(shape.contains("return new h.Shape$Impl.Refs(session, address + OFF_ALL);"), shape);
        assertTrue(shape.contains("public static final class Refs extends RefList<h.Shape>"), shape);
        assertTrue(shape.contains("public java.util.Set<h.Box> boxes() {"), shape);
        assertTrue(shape.contains("return new h.Box$Impl.SetRefs(session, address + OFF_BOXES);"), shape);
        assertTrue(shape.contains("public java.util.Collection<h.Shape> bag() {"), shape);
        assertTrue(shape.contains("return new h.Shape$Impl.BagRefs(session, address + OFF_BAG);"), shape);
        assertTrue(box.contains("public static final class SetRefs extends RefSet<h.Box>"), box);
        assertTrue(box.contains("public static final class BagRefs extends RefBag<h.Box>"), box);
        assertTrue(shape.contains("new FieldDescriptor(\"boxes\", FieldKind.SET"), shape);
        assertTrue(shape.contains("new FieldDescriptor(\"bag\", FieldKind.BAG"), shape);
    }

    /**
     * The software implementation ({@code $Soft}, docs/software-mode.md) is generated next to {@code $Impl}: same
     * offsets, its factory registered on {@code $Impl.TYPE}, the same subtype cases in {@code of}, reference
     * getters with the in-line residency check, setters behind the software write barrier.
     */
    @Test
    void aSoftwareImplementationIsGeneratedNextToEachImpl() throws IOException {
        Path h = generate();
        String shape = Files.readString(h.resolve("Shape$Soft.java"));
        String impl = Files.readString(h.resolve("Shape$Impl.java"));
        String cube = Files.readString(h.resolve("Cube$Impl.java"));
        assertTrue(Files.exists(h.resolve("Other$Soft.java")));
        assertTrue(shape.contains("public final class Shape$Soft extends SoftObject implements h.Shape {"), shape);
        assertTrue(shape.contains("h.Shape$Impl.TYPE.software(Shape$Soft::new);"), shape);
        Matcher off = Pattern.compile("static final long OFF_NEXT = (\\d+);").matcher(impl);
        assertTrue(off.find(), impl);
        assertTrue(shape.contains("static final long OFF_NEXT = " + off.group(1) + ";"), shape);
        Matcher tag = Pattern.compile("public static final int TAG = (0x[0-9a-f]{8});")
                .matcher(cube);
        assertTrue(tag.find(), cube);
        assertTrue(shape.contains("case " + tag.group(1) + " -> new h.Cube$Soft(session, oid, at);"), shape);
        assertTrue(shape.contains("default -> SoftObjects.resolve(h.Shape$Impl.TYPE, session, oid, at);"), shape);
        assertTrue(shape.contains("return h.Shape$Soft.of(session, w, SoftView.resolve(field, w));"), shape);
        assertTrue(shape.contains("SoftView.region().set(JAVA_INT, writable(OFF_ID), value);"), shape);
        assertTrue(shape.contains("SoftView.region().set(JAVA_LONG, writable(OFF_NEXT), oid);"), shape);
        assertTrue(shape.contains("return new h.Box$Soft.SetRefs(session, this, OFF_BOXES);"), shape);
        assertTrue(shape.contains("return new h.Shape$Soft.Refs(session, this, OFF_BAG);"), shape);
    }
}
