package io.lakestream.sql.catalog;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;

/**
 * {@code CREATE CATALOG lake WITH ('type' = 'delta', 'warehouse' = 's3a://bucket/lake')}: a {@link
 * DeltaCatalog}. The options are checked against {@link DeltaCatalogOptions#CATALOG}.
 */
@PublicEvolving
public final class DeltaCatalogFactory implements CatalogFactory {
  /** The catalog type's name. */
  public static final String IDENTIFIER = "delta";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(); // checked by DeltaCatalogOptions.CATALOG, which ignores case
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of();
  }

  @Override
  public Catalog createCatalog(Context context) {
    Map<String, String> options = new LinkedHashMap<>(context.getOptions());
    options.remove("type");
    options.remove("property-version");
    OptionValues values =
        DeltaCatalogOptions.CATALOG.validate(options, "for catalog " + context.getName());
    String warehouse =
        values
            .getOptional(DeltaCatalogOptions.WAREHOUSE)
            .orElseThrow(
                () ->
                    DeltaCatalogOptions.CATALOG.failure(
                        OptionErrorClass.MISSING_OPTION,
                        DeltaCatalogOptions.WAREHOUSE.key(),
                        "option 'warehouse' is missing for catalog "
                            + context.getName()
                            + ": add 'warehouse' = '<root directory or URI>'"));
    return new DeltaCatalog(
        context.getName(),
        values.get(DeltaCatalogOptions.DEFAULT_DATABASE),
        warehouse,
        values.passThrough("hadoop."));
  }
}
