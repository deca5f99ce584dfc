package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import java.util.Map;
import java.util.Set;

/**
 * Column mapping ({@code delta.columnMapping.mode} {@code name} or {@code id}): the physical names
 * (and, in {@code id} mode, Parquet field ids) data files hold for a table's columns. Wraps
 * Kernel's {@code util.ColumnMapping}, which Kernel's own scans use to read such tables; reading
 * single files outside a Kernel scan needs the same conversion.
 */
@Internal
public final class KernelColumnMapping {
  private KernelColumnMapping() {}

  /** The table property that names the mode. */
  public static final String MODE_PROPERTY = ColumnMapping.COLUMN_MAPPING_MODE_KEY;

  /** The mode of a table's properties: {@code none}, {@code name} or {@code id}. */
  public static String mode(Map<String, String> tableProperties) {
    return ColumnMapping.getColumnMappingMode(tableProperties).value;
  }

  /**
   * The schema to read data files with for the columns {@code columns} of {@code tableSchema}:
   * physical names and, in {@code id} mode, field ids; {@code columns} itself in mode {@code none}.
   * Columns without mapping metadata (such as a change file's {@code _change_type}) keep their
   * names.
   */
  public static StructType physicalSchema(StructType columns, StructType tableSchema, String mode) {
    ColumnMapping.ColumnMappingMode kernelMode =
        ColumnMapping.ColumnMappingMode.fromTableConfig(mode);
    StructType physical = new StructType();
    for (StructField field : columns.fields()) {
      physical =
          physical.add(
              isMapped(field)
                  ? ColumnMapping.convertToPhysicalColumn(field, tableSchema, kernelMode)
                  : field);
    }
    return physical;
  }

  /** The physical name of a column (its name when it has none). */
  public static String physicalName(StructField field) {
    return ColumnMapping.getPhysicalName(field);
  }

  /** Whether the column carries column-mapping metadata (a physical name). */
  public static boolean isMapped(StructField field) {
    return field.getMetadata().contains(ColumnMapping.COLUMN_MAPPING_PHYSICAL_NAME_KEY);
  }

  /** Whether two columns' metadata are equal besides the keys column mapping sets. */
  public static boolean sameMetadataBesidesMapping(FieldMetadata a, FieldMetadata b) {
    return a.equalsIgnoreKeys(
        b,
        Set.of(
            ColumnMapping.COLUMN_MAPPING_ID_KEY,
            ColumnMapping.COLUMN_MAPPING_PHYSICAL_NAME_KEY,
            ColumnMapping.COLUMN_MAPPING_NESTED_IDS_KEY,
            ColumnMapping.PARQUET_FIELD_ID_KEY,
            ColumnMapping.PARQUET_FIELD_NESTED_IDS_METADATA_KEY));
  }

  /** The column's mapping id, or -1 when it has none. */
  public static long columnId(StructField field) {
    return field.getMetadata().contains(ColumnMapping.COLUMN_MAPPING_ID_KEY)
        ? field.getMetadata().getLong(ColumnMapping.COLUMN_MAPPING_ID_KEY)
        : -1;
  }
}
