package dev.quickstore.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code qs}: the QuickStore/J admin shell. One picocli command tree; each subcommand is a class named
 * after what it does. Errors reach the user as one line and an exit code from {@link ExitCodes};
 * {@code --verbose} adds the stack trace.
 */
@Command(
        name = "qs",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Administer QuickStore/J stores: memory-mapped persistent object stores for the JVM.",
        subcommands = {
            CreateCommand.class,
            InfoCommand.class,
            VerifyCommand.class,
            StatsCommand.class,
            PageCommand.class,
            ObjectCommand.class,
            LogCommand.class,
            CheckpointCommand.class,
            RecoverCommand.class,
            BackupCommand.class,
            RestoreCommand.class,
            ShellCommand.class,
            ServeCommand.class,
            ClientsCommand.class,
            ClusterCommand.class,
            dev.quickstore.cli.oo7.Oo7Command.class,
            dev.quickstore.cli.lab.LabCommand.class,
            CommandLine.HelpCommand.class
        },
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

    /** Builds the command line with the project's error handling; used by {@link #main} and tests. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Qs());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(new ExitCodes.Handler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        return cl;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}
