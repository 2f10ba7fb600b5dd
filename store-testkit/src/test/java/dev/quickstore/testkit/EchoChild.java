package dev.quickstore.testkit;

/** A child for {@link ChildJvmTest}: {@code exit N} prints and exits, {@code wait} prints ready and parks. */
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
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
