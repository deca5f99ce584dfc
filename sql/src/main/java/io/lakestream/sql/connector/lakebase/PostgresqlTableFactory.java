package io.lakestream.sql.connector.lakebase;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * {@code 'connector' = 'postgresql'}: the Lakebase sink under the name Spark's {@code
 * format("postgresql")} gives it; the same as {@link LakebaseTableFactory}.
 */
@PublicEvolving
public final class PostgresqlTableFactory extends LakebaseTableFactory {
  /** The factory Flink's SPI finds. */
  public PostgresqlTableFactory() {
    super(ALIAS);
  }
}
