package io.lakestream.bench;

import io.lakestream.bench.e2.E2BronzeBench;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.kafka.KafkaBroker;
import io.lakestream.testkit.postgres.PostgresDatabase;
import io.lakestream.testkit.postgres.PostgresServer;
import io.lakestream.testkit.s3.S3Server;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The services benches start first, for {@code bin/bench --check} ({@link Bench#check}): each is
 * started on first use, exercised once (a query, a topic, a bucket) and shared by the benches
 * checked after it; {@link #close} stops them all. So a bench whose first service cannot start on
 * bin/bench's classpath (a conflicting library, a missing class) fails the check in seconds,
 * without measuring anything.
 */
public final class BenchServices implements AutoCloseable {
  private final Path root;
  private final List<AutoCloseable> started = new ArrayList<>();
  private PostgresServer postgres;
  private KafkaBroker kafka;
  private FlinkMiniCluster flink;
  private S3Server s3;

  /** Services for benches of the checkout at {@code root} (bin/bench's {@code bench.root}). */
  public BenchServices(Path root) {
    this.root = root;
  }

  /** An embedded PostgreSQL that answered a query in a fresh database. */
  public PostgresServer postgres() throws Exception {
    if (postgres == null) {
      postgres = remember(PostgresServer.start());
      try (PostgresDatabase db = postgres.createDatabase("bench_check");
          Connection c = db.connect();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT 1")) {
        r.next();
      }
    }
    return postgres;
  }

  /** A Kafka broker with one topic created. */
  public KafkaBroker kafka() {
    if (kafka == null) {
      kafka = remember(KafkaBroker.start());
      kafka.createTopic("bench-check", 2);
    }
    return kafka;
  }

  /** A started 2-slot Flink MiniCluster. */
  public FlinkMiniCluster flink() {
    if (flink == null) {
      flink = remember(FlinkMiniCluster.builder().slotsPerTaskManager(2).start());
    }
    return flink;
  }

  /** An S3-API server with its bucket. */
  public S3Server s3() {
    if (s3 == null) {
      s3 = remember(S3Server.start("bench-check"));
    }
    return s3;
  }

  /**
   * The Spark peer's classpath.
   *
   * @throws IllegalStateException saying how to build it when the {@code spark-bench} profile has
   *     not been built
   */
  public String sparkClasspath() throws java.io.IOException {
    return E2BronzeBench.sparkClasspath(root);
  }

  /**
   * Loads {@code className} from this JVM's classpath (a class the bench needs that no service
   * above loads).
   *
   * @throws ClassNotFoundException if bin/bench's classpath lacks it
   */
  public void load(String className) throws ClassNotFoundException {
    Class.forName(className, true, BenchServices.class.getClassLoader());
  }

  private <T extends AutoCloseable> T remember(T service) {
    started.add(service);
    return service;
  }

  @Override
  public void close() throws Exception {
    Exception failure = null;
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
