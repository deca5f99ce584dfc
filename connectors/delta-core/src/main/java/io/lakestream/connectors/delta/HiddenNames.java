package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.Internal;
import java.util.List;

/**
 * Delta's rule for the names in a table's directory that belong to no table version: a name
 * starting with {@code _} or {@code .} is hidden (logs, checkpoint locations, staging areas),
 * except {@code _change_data} and partition directories of a column whose name starts with {@code
 * _}. VACUUM passes hidden names by; everything else under the table is the table's to delete.
 */
@Internal
public final class HiddenNames {
  private HiddenNames() {}

  /** Whether VACUUM of a table partitioned by {@code partitionColumns} passes {@code name} by. */
  public static boolean isHidden(String name, List<String> partitionColumns) {
    if (!name.startsWith("_") && !name.startsWith(".")) {
      return false;
    }
    return !name.equals("_change_data")
        && partitionColumns.stream().noneMatch(c -> name.startsWith(c + "="));
  }
}
