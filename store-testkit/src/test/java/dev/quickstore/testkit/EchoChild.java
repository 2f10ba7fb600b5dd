package dev.quickstore.testkit;

/**
 * A child for {@link ChildJvmTest}: {@code exit N} prints and exits, {@code wait} prints ready and parks, {@code
 * count FILE} counts forever: for i = 1, 2, ... it writes i to FILE, then prints {@code committed i} (as the
 * crash-torture child acknowledges its commits), until it is killed.
 */
public final class EchoChild {
    private EchoChild() {}

    public static void main(String[] args) throws InterruptedException {
        switch (args[0]) {
            case "exit" -> {
                System.out.println("out " + args[1]);
                System.err.println("err " + args[1]);
                System.exit(Integer.parseInt(args[1]));
            }
            case "wait" -> {
                System.out.println("ready");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE); // until SIGKILL or the watchdog
            }
            case "count" -> {
                java.nio.file.Path file = java.nio.file.Path.of(args[1]);
                java.nio.file.Path tmp = java.nio.file.Path.of(args[1] + ".tmp");
                for (long i = 1; ; i++) {
                    try { // written whole (rename), so that a kill never leaves it empty
                        java.nio.file.Files.writeString(tmp, Long.toString(i));
                        java.nio.file.Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    System.out.println("committed " + i);
                    System.out.flush();
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
