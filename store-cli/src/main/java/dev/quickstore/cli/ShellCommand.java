package dev.quickstore.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.shell.jline3.PicocliJLineCompleter;

/**
 * {@code qs shell [DIR]}: the same command tree, interactively (JLine 3: line editing, completion of
 * commands and options, persistent history). With DIR, commands that take a store directory get it
 * filled in ({@code page 16} runs {@code page DIR 16}). An error prints its one line and the shell goes
 * on; {@code exit}, {@code quit} or end of input leaves.
 */
@Command(
        name = "shell",
        mixinStandardHelpOptions = true,
        header = "An interactive shell over the qs commands (completion, history).",
        description = {
            "Interactive shell over the qs commands: completion (Tab), history (arrows, Ctrl-R), errors never",
            "end the shell. With DIR, store commands use it: type 'page 16' for 'qs page DIR 16'.",
            "Leave with exit, quit or Ctrl-D."
        },
        footer = {
            "",
            "Examples:",
            "  qs shell ./db",
            "  qs> info",
            "  qs> page 16 --hex",
            "  qs> object 16:0",
            "  qs> exit"
        })
final class ShellCommand implements Callable<Integer> {
    /** Commands whose first parameter is the store directory. */
    static final Set<String> STORE_COMMANDS =
            Set.of("info", "verify", "stats", "page", "object", "log", "checkpoint", "recover", "backup");

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "store directory the commands use")
    Path dir;

    @Option(names = "--history", paramLabel = "FILE", description = "history file (default: ~/.qs_history)")
    Path history;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (dir != null && !Files.isDirectory(dir)) {
            throw new java.nio.file.NoSuchFileException(dir.toString(), null, "no such store directory");
        }
        Path hist = history != null ? history : Path.of(System.getProperty("user.home"), ".qs_history");
        try (Terminal terminal =
                TerminalBuilder.builder().name("qs").system(true).build()) {
            return run(terminal, dir, hist);
        }
    }

    /** The read-eval loop on {@code terminal}; used by {@link #call} and by tests (dumb terminal over pipes). */
    static int run(Terminal terminal, Path dir, Path historyFile) throws IOException {
        PrintWriter out = terminal.writer();
        CommandLine completion = Qs.commandLine(out, out);
        LineReader reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("qs")
                .completer(new PicocliJLineCompleter(completion.getCommandSpec()))
                .parser(new DefaultParser())
                .variable(LineReader.HISTORY_FILE, historyFile)
                .build();
        out.println("QuickStore/J shell" + (dir != null ? " on " + dir : "")
                + ". Type help for the commands, <command> --help for one, exit to leave.");
        out.flush();
        String prompt = dir != null ? "qs:" + dir.getFileName() + "> " : "qs> ";
        while (true) {
            String line;
            try {
                line = reader.readLine(prompt);
            } catch (UserInterruptException e) {
                continue; // Ctrl-C: drop the line, keep the shell
            } catch (EndOfFileException e) {
                break;
            }
            List<String> words = new ArrayList<>(reader.getParsedLine().words());
            words.removeIf(String::isEmpty);
            if (words.isEmpty() || line.isBlank()) {
                continue;
            }
            String cmd = words.get(0);
            if (cmd.equals("exit") || cmd.equals("quit")) {
                break;
            }
            if (cmd.equals("shell")) {
                out.println("qs: error: already in the shell");
                out.flush();
                continue;
            }
            boolean help = words.contains("--help") || words.contains("-h");
            if (dir != null && STORE_COMMANDS.contains(cmd) && !help) {
                words.add(1, dir.toString());
            }
            // A fresh command tree per line: options of one line never leak into the next.
            Qs.commandLine(out, out).execute(words.toArray(String[]::new));
            out.flush();
        }
        reader.getHistory().save();
        return ExitCodes.OK;
    }
}
