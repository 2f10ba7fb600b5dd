package dev.quickstore.cli.lab;

import dev.quickstore.cli.ExitCodes;
import dev.quickstore.cli.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The output side the {@code qs lab} commands share: progress lines on stderr (prefixed with the command's name,
 * silenced by {@code --quiet}), the results on stdout as a table, or with {@code --json} / {@code --csv} as JSON or
 * CSV, the exit code (1 when the results disagree with the heap's), and the number formats of their CSV columns and
 * table ratios. (Each command declares its own {@code --json}/{@code --csv} group: picocli's annotation processor
 * refuses one group class shared by two commands, picocli issue 2407.)
 */
final class LabOutput {
    private LabOutput() {}

    /** Progress lines on {@code err} as {@code "name: line"}, flushed each; none if {@code quiet}. */
    static Consumer<String> progress(PrintWriter err, String name, boolean quiet) {
        return line -> {
            if (!quiet) {
                err.println(name + ": " + line);
                err.flush();
            }
        };
    }

    /**
     * Prints {@code results} on {@code out} as the command's {@code --json} or {@code --csv} asks (neither: the table):
     * the whole record as JSON, its rows as CSV (the header, then one line of cells per row), or {@code table}.
     */
    static <R, X> void print(
            PrintWriter out,
            boolean json,
            boolean csv,
            R results,
            List<X> rows,
            String csvHeader,
            Function<X, List<String>> csvCells,
            Consumer<R> table) {
        if (json) {
            out.println(Json.object(results));
        } else if (csv) {
            out.println(csvHeader);
            for (X x : rows) {
                out.println(String.join(",", csvCells.apply(x)));
            }
        } else {
            table.accept(results);
        }
        out.flush();
    }

    /**
     * The command's exit code: {@link ExitCodes#OK} if the results {@code agree} with the heap's, else {@link
     * ExitCodes#CHECK_FAILED} after printing {@code disagreement} on {@code err}.
     */
    static int exitCode(PrintWriter err, boolean agree, Supplier<String> disagreement) {
        if (!agree) {
            err.println(disagreement.get());
            return ExitCodes.CHECK_FAILED;
        }
        return ExitCodes.OK;
    }

    /** A CSV number: six significant digits, empty for null. */
    static String num(Double v) {
        return v == null ? "" : String.format(Locale.ROOT, "%.6g", v);
    }

    /** A table ratio: {@code 1.23x}, {@code -} for null. */
    static String ratio(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2fx", v);
    }
}
