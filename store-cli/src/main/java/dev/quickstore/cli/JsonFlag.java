package dev.quickstore.cli;

import picocli.CommandLine.Option;

/** {@code --json}: the command prints JSON (one document, or an array for listings) instead of text (a mixin). */
public final class JsonFlag {
    @Option(names = "--json", description = "print JSON instead of text")
    boolean json;

    public boolean on() {
        return json;
    }
}
