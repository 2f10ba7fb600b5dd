package dev.quickstore.cli;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.mmu.NativeLibraryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/** Maps exception types to exit codes and one-line messages. The one place that decides both. */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int CHECK_FAILED = 1;
    public static final int USAGE = 2;
    public static final int DAMAGED = 3;
    public static final int IO = 4;
    public static final int NATIVE = 5;
    public static final int INTERNAL = 70;

    private ExitCodes() {}

    public static int of(Throwable t) {
        if (t instanceof UncheckedIOException u) {
            t = u.getCause();
        }
        if (t instanceof StoreFormatException || t instanceof BackupException) {
            return DAMAGED;
        }
        if (t instanceof IOException
                || t instanceof StoreLockedException
                || t instanceof dev.quickstore.core.remote.ServerUnavailableException) {
            return IO;
        }
        if (t instanceof NativeLibraryException) {
            return NATIVE;
        }
        if (t instanceof IllegalArgumentException) {
            return USAGE;
        }
        return INTERNAL;
    }

    public static String message(Throwable t) {
        if (t instanceof UncheckedIOException u) {
            t = u.getCause();
        }
        return switch (t) {
            case NoSuchFileException e -> e.getFile() + ": " + (e.getReason() == null ? "no such file" : e.getReason());
            case FileAlreadyExistsException e ->
                e.getFile() + ": " + (e.getReason() == null ? "already exists" : e.getReason());
            case ProcessAttachException e -> e.getMessage();
            case IOException e -> e.getClass().getSimpleName() + ": " + e.getMessage();
            default -> t.getMessage() == null ? t.toString() : t.getMessage();
        };
    }

    /** Bad usage (unknown option, missing or malformed argument): one line naming the help to read, exit 2. */
    static final class ParameterHandler implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            CommandLine cl = ex.getCommandLine();
            cl.getErr()
                    .println("qs: error: " + ex.getMessage() + " (see '"
                            + cl.getCommandSpec().qualifiedName() + " --help')");
            cl.getErr().flush();
            return USAGE;
        }
    }

    /** Prints {@code qs: error: <message>} (and the stack trace with --verbose) and returns the code. */
    static final class Handler implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
            boolean verbose = verbose(parsed);
            cl.getErr().println("qs: error: " + message(ex));
            if (verbose) {
                ex.printStackTrace(cl.getErr());
            }
            cl.getErr().flush();
            return of(ex);
        }

        /** Whether {@code --verbose} was given to the command or to any subcommand below it ({@code qs oo7 run}). */
        private static boolean verbose(ParseResult parsed) {
            if (parsed.hasMatchedOption("--verbose")) {
                return true;
            }
            for (ParseResult sub : parsed.subcommands()) {
                if (verbose(sub)) {
                    return true;
                }
            }
            return false;
        }
    }
}
