package io.lakestream.testkit;

import io.lakestream.testkit.kafka.KafkaBroker;
import io.lakestream.testkit.postgres.PostgresServer;
import java.util.concurrent.CompletableFuture;

/**
 * Main class of a JVM that starts a Kafka broker and an embedded PostgreSQL, prints their process
 * ids and directories, and waits to be killed: {@link ServicesDieWithTheTestJvmTest} kills it with
 * SIGKILL, so neither {@code close()} nor shutdown hooks run.
 */
public final class ServiceHoldingJvm {

  private ServiceHoldingJvm() {}

  public static void main(String[] args) throws Exception {
    CompletableFuture<PostgresServer> starting =
        CompletableFuture.supplyAsync(PostgresServer::embedded);
    KafkaBroker broker = KafkaBroker.start();
    PostgresServer postgres = starting.join();
    System.out.println(
        "SERVICES "
            + broker.process().pid()
            + " "
            + broker.directory()
            + " "
            + postgres.process().orElseThrow().pid()
            + " "
            + postgres.directory().orElseThrow());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
