package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link Qs#main} builds only the branch a command line names (docs/cli.md, "Start-up"); everything a user
 * sees must be what the whole tree gives.
 */
class LazyCommandTreeTest {
    @TempDir
    Path tmp;

    private static CommandLine tree(String... args) {
        PrintWriter sink = new PrintWriter(new StringWriter());
        return Qs.commandLineFor(args, sink, sink);
    }

    @Test
    void aNamedSubcommandBuildsOnlyItsBranch() {
        assertEquals(Set.of("info"), tree("info", "db").getSubcommands().keySet());
        assertEquals(
                Set.of("oo7"), tree("oo7", "run", "--help").getSubcommands().keySet());
        // the named branch is whole below its root: oo7's own subcommands are all there
        assertTrue(tree("oo7", "run")
                .getSubcommands()
                .get("oo7")
                .getSubcommands()
                .keySet()
                .containsAll(Set.of("run", "build", "report", "multiuser")));
    }

    @Test
    void helpRootOptionsAndUnknownCommandsGetTheWholeTree() {
        List<String> all = List.copyOf(Qs.SUBCOMMANDS.keySet());
        for (String[] args : List.of(
                new String[0],
                new String[] {"--help"},
                new String[] {"help", "info"},
                new String[] {"--verbose", "info", "db"},
                new String[] {"inf", "db"})) {
            assertEquals(all, List.copyOf(tree(args).getSubcommands().keySet()), String.join(" ", args));
        }
    }

    @Test
    void outputAndExitCodeAreTheWholeTreesForEveryCommandsHelpAndAnError() {
        String missing = tmp.resolve("nope").toString();
        for (String name : Qs.SUBCOMMANDS.keySet()) {
            assertSameRun(name, "--help");
        }
        assertSameRun("info", missing);
        assertSameRun("verify", missing);
        assertSameRun("info", "--no-such-option");
        assertSameRun("oo7", "run", "--system", "nope");
    }

    @Test
    void theRootsInheritedVerboseOptionReachesALazilyBuiltSubcommand() {
        String[] args = {"info", "--verbose", tmp.resolve("nope").toString()};
        StringWriter err = new StringWriter();
        PrintWriter sink = new PrintWriter(new StringWriter());
        int code = Qs.commandLineFor(args, sink, new PrintWriter(err, true)).execute(args);
        assertEquals(ExitCodes.IO, code, err.toString());
        assertTrue(err.toString().contains("\tat dev.quickstore."), err.toString()); // the stack trace
    }

    private static void assertSameRun(String... args) {
        StringWriter wholeOut = new StringWriter();
        StringWriter wholeErr = new StringWriter();
        int wholeCode = Qs.commandLine(new PrintWriter(wholeOut, true), new PrintWriter(wholeErr, true))
                .execute(args);
        StringWriter lazyOut = new StringWriter();
        StringWriter lazyErr = new StringWriter();
        int lazyCode = Qs.commandLineFor(args, new PrintWriter(lazyOut, true), new PrintWriter(lazyErr, true))
                .execute(args);
        String what = String.join(" ", args);
        assertEquals(wholeCode, lazyCode, what);
        assertEquals(wholeOut.toString(), lazyOut.toString(), what);
        assertEquals(wholeErr.toString(), lazyErr.toString(), what);
    }
}
