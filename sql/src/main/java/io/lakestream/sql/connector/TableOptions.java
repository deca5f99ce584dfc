package io.lakestream.sql.connector;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import java.util.Map;

/**
 * A table's options, checked by its connector's catalog ({@link
 * CatalogCheckedTableFactory#options}).
 *
 * @param table the table's identifier, e.g. {@code default_catalog.default_database.orders}
 * @param given the options as written, but {@code connector}
 * @param values the typed values
 * @param catalog the catalog that checked them
 */
@Internal
public record TableOptions(
    String table, Map<String, String> given, OptionValues values, OptionsCatalog catalog) {

  /**
   * The value of {@code option}, which the table must set.
   *
   * @param how what the table's WITH clause should hold, e.g. {@code 'path' = '<table location>'}
   * @throws io.lakestream.api.error.LakestreamException ({@code MISSING_OPTION}) when it is unset
   */
  public String required(Option<String> option, String how) {
    return values
        .getOptional(option)
        .orElseThrow(
            () ->
                catalog.failure(
                    OptionErrorClass.MISSING_OPTION,
                    option.key(),
                    "option '" + option.key() + "' is missing for " + table + ": " + how));
  }
}
