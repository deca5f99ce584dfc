package io.lakestream.bench.spark;

import org.apache.spark.sql.SparkSession;

/** The Spark children's session settings: local, UI off, Delta's SQL extension and catalog. */
final class LocalDeltaSpark {
  private LocalDeltaSpark() {}

  /**
   * A builder for {@code local[parallelism]} with Delta and one shuffle partition per core (Spark's
   * default 200 would be far slower on 2 cores); a child adds its own settings and creates it.
   */
  static SparkSession.Builder builder(String appName, int parallelism) {
    return SparkSession.builder()
        .master("local[" + parallelism + "]")
        .appName(appName)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config(
            "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.shuffle.partitions", String.valueOf(parallelism));
  }
}
