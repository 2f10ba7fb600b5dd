package dev.quickstore.cli;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code qs}: the QuickStore/J admin shell. One picocli command tree; each subcommand is a class named
 * after what it does. Errors reach the user as one line and an exit code from {@link ExitCodes};
 * {@code --verbose} adds the stack trace.
 *
 * <p>The subcommands are registered from {@link #SUBCOMMANDS}, not from the annotation, so that {@link #main}
 * can build only the branch a command line names: picocli reflects over every command class of the tree
 * it is given (options, parameters, their types), and the whole tree - the oo7, lab and cluster commands with
 * the classes their fields name - cost more start-up than most commands' own work (docs/cli.md, "Start-up").
 * Anything that needs the whole tree ({@code qs}, {@code qs --help}, {@code qs help ...}, the shell, an unknown
 * command's suggestions) gets it: the output is the same either way.
 */
@Command(
        name = "qs",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Administer QuickStore/J stores: memory-mapped persistent object stores for the JVM.",
        footer = {
            "",
            "Examples:",
            "  qs create ./db          create an empty store in ./db",
            "  qs info ./db            header, space, roots, indexes and log state of ./db",
            "  qs info --json ./db     the same, as JSON",
            "  qs verify ./db          check checksums and structure (exit 1 on problems)",
            "  qs page ./db 16         decode page 16 (header and slots)",
            "  qs object ./db 16:0     the object in slot 0 of page 16, pointers shown with their pages",
            "  qs log ./db --limit 20  the first 20 log records",
            "  qs backup ./db ./bak    consistent copy with a checksummed manifest",
            "  qs shell ./db           interactive shell on ./db (completion, history)",
            "  qs oo7 run              OO7 small, printed as a table",
            "",
            "Exit codes: 0 ok, 1 check failed, 2 bad usage, 3 damaged or foreign store, 4 I/O error, 5 native library missing, 70 internal error."
        })
public final class Qs implements Runnable {
    @Option(names = "--verbose", description = "print stack traces of errors", scope = CommandLine.ScopeType.INHERIT)
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The subcommands in the order {@code qs --help} lists them, by name. */
    static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("create", CreateCommand::new);
        m.put("info", InfoCommand::new);
        m.put("verify", VerifyCommand::new);
        m.put("stats", StatsCommand::new);
        m.put("page", PageCommand::new);
        m.put("object", ObjectCommand::new);
        m.put("log", LogCommand::new);
        m.put("checkpoint", CheckpointCommand::new);
        m.put("recover", RecoverCommand::new);
        m.put("backup", BackupCommand::new);
        m.put("restore", RestoreCommand::new);
        m.put("shell", ShellCommand::new);
        m.put("serve", ServeCommand::new);
        m.put("clients", ClientsCommand::new);
        m.put("cluster", ClusterCommand::new);
        m.put("oo7", dev.quickstore.cli.oo7.Oo7Command::new);
        m.put("lab", dev.quickstore.cli.lab.LabCommand::new);
        m.put("help", CommandLine.HelpCommand::new);
        return Collections.unmodifiableMap(m);
    }

    /** Builds the whole command tree with the project's error handling; used by the shell and tests. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, SUBCOMMANDS.keySet());
    }

    /**
     * The command tree for {@code args}: only the subcommand named by the first argument when it names one
     * (other than {@code help}), the whole tree otherwise.
     */
    static CommandLine commandLineFor(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length > 0 && !args[0].equals("help") && SUBCOMMANDS.containsKey(args[0])) {
            return commandLine(out, err, List.of(args[0]));
        }
        return commandLine(out, err);
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, Collection<String> names) {
        CommandLine cl = new CommandLine(new Qs());
        for (String name : names) {
            cl.addSubcommand(name, SUBCOMMANDS.get(name).get());
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(new ExitCodes.Handler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        return cl;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = commandLineFor(args, out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}
