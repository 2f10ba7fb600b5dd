package dev.quickstore.cli.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code qs lab texas}: the Texas paper's experiment (Kakkad and Wilson 1999, section 6, Figures 3-4) as issue 16
 * names it - {@code qs lab oo1 --systems heap,qs,texas,texas-raw}, every other option passed through ({@link
 * Oo1Command}).
 */
@Command(
        name = "texas",
        mixinStandardHelpOptions = true,
        header = "OO1 on the heap, QuickStore (qs) and Texas mode (texas, texas-raw): qs lab oo1 --systems"
                + " heap,qs,texas,texas-raw.",
        description = {
            "Texas mode stores references as persistent pointers (page id + offset) and swizzles them when their page"
                    + " is faulted in, reserving a frame one step ahead for every page a faulted page refers to;"
                    + " QuickStore stores virtual addresses and translates only pages that were relocated. Both run"
                    + " Cattell's OO1 as the Texas paper did; the table shows CPU time per traversal, pages read,"
                    + " faults and the frames (address space) each system holds.",
            "texas finds parts by id through the store's B+tree, whose values are converted on use (the paper's"
                    + " smart index, section 5); texas-raw through a persistent array of part references that the"
                    + " fault path swizzles with its page, reserving frames for every part it lists (the paper's"
                    + " all-raw configuration, Figure 3).",
            "Every option of 'qs lab oo1' applies (--size, --parts, --seed, --csv, --json, --quiet, ...); --systems"
                    + " defaults to heap,qs,texas,texas-raw. Progress goes to stderr, the tables to stdout."
        },
        footer = {"", "Examples:", "  qs lab texas --parts 20000", "  qs lab texas --json > texas.json"})
public final class TexasCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Unmatched
    List<String> options = new ArrayList<>();

    @Override
    public Integer call() {
        List<String> args = new ArrayList<>(options);
        if (!args.contains("--systems")) {
            args.addAll(0, List.of("--systems", "heap,qs,texas,texas-raw"));
        }
        CommandLine oo1 = new CommandLine(new Oo1Command())
                .setOut(spec.commandLine().getOut())
                .setErr(spec.commandLine().getErr())
                .setExecutionExceptionHandler(spec.commandLine().getExecutionExceptionHandler())
                .setParameterExceptionHandler(spec.commandLine().getParameterExceptionHandler());
        return oo1.execute(args.toArray(String[]::new));
    }
}
