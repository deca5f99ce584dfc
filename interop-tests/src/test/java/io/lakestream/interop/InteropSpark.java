package io.lakestream.interop;

import org.apache.spark.sql.SparkSession;

/**
 * One local SparkSession with Delta for every interop test class in this JVM (starting Spark costs
 * seconds, and surefire runs the classes in one JVM); stopped when the JVM exits. A class that
 * changes the session's configuration restores it in its {@code @AfterAll}.
 */
final class InteropSpark {
  private static SparkSession spark;

  private InteropSpark() {}

  static synchronized SparkSession session() {
    if (spark == null) {
      spark =
          SparkSession.builder()
              .master("local[1]")
              .appName("lakestream-interop")
              .config("spark.ui.enabled", "false")
              .config("spark.driver.host", "127.0.0.1")
              .config("spark.driver.bindAddress", "127.0.0.1")
              .config("spark.sql.shuffle.partitions", "1")
              .config("spark.default.parallelism", "1")
              .config("spark.databricks.delta.snapshotPartitions", "1")
              .config("spark.sql.session.timeZone", "UTC")
              .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
              .config(
                  "spark.sql.catalog.spark_catalog",
                  "org.apache.spark.sql.delta.catalog.DeltaCatalog")
              .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(InteropSpark::stop, "interop-spark-stop"));
    }
    return spark;
  }

  private static synchronized void stop() {
    if (spark != null) {
      spark.stop();
      spark = null;
    }
  }
}
