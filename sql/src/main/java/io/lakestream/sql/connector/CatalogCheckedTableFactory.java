package io.lakestream.sql.connector;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The base of lakestream's table factories: a table's options are checked by its connector's {@link
 * OptionsCatalog} (keys ignore case, as Spark's do; an unknown key fails naming the closest valid
 * one; rules between options hold) rather than by Flink's {@link ConfigOption} sets, which match
 * keys exactly. So {@link #requiredOptions()} and {@link #optionalOptions()} are empty, and the
 * planner passes every option through to {@link #options}.
 */
@Internal
public abstract class CatalogCheckedTableFactory implements DynamicTableFactory {
  @Override
  public final Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public final Set<ConfigOption<?>> optionalOptions() {
    return Set.of();
  }

  /**
   * The options of the table in {@code context} but {@code connector}, checked by {@code catalog}.
   *
   * @throws io.lakestream.api.error.LakestreamException naming the option, for a bad one
   */
  protected static TableOptions options(Context context, OptionsCatalog catalog) {
    String table = context.getObjectIdentifier().asSummaryString();
    Map<String, String> given = new LinkedHashMap<>(context.getCatalogTable().getOptions());
    given.remove(FactoryUtil.CONNECTOR.key());
    OptionValues values = catalog.validate(given, "for table " + table);
    return new TableOptions(table, Map.copyOf(given), values, catalog);
  }
}
