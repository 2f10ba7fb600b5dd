package dev.quickstore.cli.oo7;

import dev.quickstore.cli.Qs;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that runs this CLI in a new JVM (the OO7 driver's children: fresh-process cold runs, page
 * servers, multi-user clients): the same {@code java} and class path, native access enabled, the options of
 * this JVM that start with one of the inherited prefixes, then the given JVM options.
 */
public final class QsJvm {
    private QsJvm() {}

    public static List<String> command(List<String> inheritedPrefixes, List<String> jvmOptions, List<String> qsArgs) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--enable-native-access")
                    || inheritedPrefixes.stream().anyMatch(a::startsWith)) {
                cmd.add(a);
            }
        }
        if (cmd.stream().noneMatch(a -> a.startsWith("--enable-native-access"))) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Qs.class.getName()));
        cmd.addAll(qsArgs);
        return cmd;
    }
}
