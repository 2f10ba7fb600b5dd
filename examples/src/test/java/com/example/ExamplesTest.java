package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples run, and the README quotes them (and this project's pom) verbatim. */
class ExamplesTest {
    @TempDir
    Path tmp;

    @Test
    void partsExample() throws Exception {
        assertEquals(3, com.example.parts.PartsExample.example(tmp.resolve("db")));
    }

    @Test
    void documentIndexExample() throws Exception {
        Path dir = tmp.resolve("documents");
        com.example.documents.DocumentIndex.load(dir, java.util.List.of("design notes", "recovery"));
        assertEquals(2, com.example.documents.DocumentIndex.revise(dir, "recovery", "; redo then undo"));
        assertEquals("the text of recovery; redo then undo", com.example.documents.DocumentIndex.text(dir, "recovery"));
    }

    @Test
    void theReadmeQuotesTheExamplesVerbatim() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        String readme = Files.readString(root.getParent().resolve("README.md"));
        for (String file : new String[] {
            "src/main/java/com/example/parts/Part.java", "src/main/java/com/example/parts/PartsExample.java"
        }) {
            String body = quotedPart(Files.readString(root.resolve(file)));
            assertTrue(readme.contains(body), "README.md must quote " + file + " verbatim:\n" + body);
        }
        String pom = Files.readString(root.resolve("pom.xml"));
        for (String block : new String[] {"dependencyManagement", "dependencies", "annotationProcessorPaths"}) {
            String b = element(pom, block);
            assertTrue(readme.contains(b), "README.md must quote the pom's <" + block + "> verbatim:\n" + b);
        }
    }

    /** The file from its first import (or declaration) on: what a reader needs beside the package line. */
    private static String quotedPart(String java) {
        int start = java.indexOf("\nimport ");
        return java.substring(start + 1).stripTrailing();
    }

    private static String element(String xml, String name) {
        int open = xml.indexOf("<" + name + ">");
        int close = xml.indexOf("</" + name + ">", open) + name.length() + 3;
        int lineStart = xml.lastIndexOf('\n', open) + 1;
        return xml.substring(lineStart, close);
    }
}
