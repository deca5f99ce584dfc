package io.lakestream.testkit.flink;

/**
 * Main class of a JVM that starts a {@link FlinkCluster} with one TaskManager, prints the process
 * ids and the cluster directory, and waits to be killed: {@link FlinkClusterDiesWithTheTestJvmTest}
 * kills it with SIGKILL, so neither {@code close()} nor shutdown hooks run.
 */
public final class FlinkClusterHoldingJvm {

  private FlinkClusterHoldingJvm() {}

  public static void main(String[] args) throws Exception {
    FlinkCluster cluster = FlinkCluster.builder().taskManagers(1).start();
    System.out.println(
        "CLUSTER "
            + cluster.jobManagerProcess().pid()
            + " "
            + cluster.taskManagerProcess(0).pid()
            + " "
            + cluster.directory());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
