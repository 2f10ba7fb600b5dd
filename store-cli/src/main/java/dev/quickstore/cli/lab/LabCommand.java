package dev.quickstore.cli.lab;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code qs lab}: the seed papers' experiments (issue 16), one subcommand per paper, each printing its table on
 * stdout (progress on stderr) next to the paper's numbers.
 */
@Command(
        name = "lab",
        mixinStandardHelpOptions = true,
        header = "The seed papers' experiments, regenerated on this machine.",
        description = "The seed papers' experiments (Texas, Cricket, Moss, Hosking and Moss), each regenerating its"
                + " paper's tables on this machine next to the paper's numbers.",
        subcommands = {
            Oo1Command.class,
            TexasCommand.class,
            CricketCommand.class,
            MossCommand.class,
            HoskingMossCommand.class
        })
public final class LabCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
