package io.lakestream.connectors.delta.merge;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructField;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import io.lakestream.connectors.delta.kernel.KernelProtocol;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The table features a MERGE (or OPTIMIZE) commit must honour, read from the snapshot it is planned
 * on.
 *
 * @param physicalNames column name to the name data files, statistics and partition values use (the
 *     same name without column mapping)
 * @param rowTracking whether commits must assign row ids ({@code rowTracking} writer feature, not
 *     suspended): {@code baseRowId} and {@code defaultRowCommitVersion} on adds, and the high water
 *     mark in the {@code delta.rowTracking} domain
 * @param inCommitTimestamps whether commits carry {@code commitInfo.inCommitTimestamp}
 * @param deletionVectors whether the table allows writing deletion vectors ({@code
 *     delta.enableDeletionVectors=true} and the {@code deletionVectors} feature)
 * @param previousTimestamp the commit time of the snapshot's version (its in-commit timestamp when
 *     the table has them)
 * @param rowIdHighWaterMark the highest row id assigned so far, -1 if none
 * @param materializedColumns with row tracking enabled ({@code delta.enableRowTracking=true}): the
 *     data file columns that keep moved rows' ids and commit versions ({@code
 *     delta.rowTracking.materializedRowIdColumnName}, then {@code
 *     materializedRowCommitVersionColumnName}); empty otherwise
 */
@Internal
public record MergeTableFeatures(
    Map<String, String> physicalNames,
    boolean rowTracking,
    boolean inCommitTimestamps,
    boolean deletionVectors,
    long previousTimestamp,
    long rowIdHighWaterMark,
    List<String> materializedColumns) {

  static final String ROW_TRACKING_DOMAIN = "delta.rowTracking";
  static final String ROW_ID_COLUMN = "delta.rowTracking.materializedRowIdColumnName";
  static final String COMMIT_VERSION_COLUMN =
      "delta.rowTracking.materializedRowCommitVersionColumnName";

  /** The features of {@code snapshot}, whose commit time is {@code previousTimestamp}. */
  public static MergeTableFeatures of(Snapshot snapshot, long previousTimestamp) {
    Map<String, String> properties = snapshot.getTableProperties();
    Set<String> writerFeatures = KernelProtocol.writerFeatures(snapshot);
    Map<String, String> physical = new LinkedHashMap<>();
    for (StructField field : snapshot.getSchema().fields()) {
      physical.put(field.getName(), KernelColumnMapping.physicalName(field));
    }
    boolean rowTracking =
        writerFeatures.contains("rowTracking") && !isTrue(properties, "delta.rowTrackingSuspended");
    return new MergeTableFeatures(
        physical,
        rowTracking,
        isTrue(properties, "delta.enableInCommitTimestamps"),
        isTrue(properties, "delta.enableDeletionVectors")
            && writerFeatures.contains("deletionVectors"),
        previousTimestamp,
        rowTracking ? highWaterMark(snapshot) : -1L, // the domain's replay reads the whole log
        rowTracking ? materializedColumns(properties) : List.of());
  }

  private static long highWaterMark(Snapshot snapshot) {
    return snapshot
        .getDomainMetadata(ROW_TRACKING_DOMAIN)
        .map(MergeTableFeatures::highWaterMark)
        .orElse(-1L);
  }

  /** The materialized row id and commit version columns, if rows must keep their ids. */
  private static List<String> materializedColumns(Map<String, String> properties) {
    String ids = properties.get(ROW_ID_COLUMN);
    String versions = properties.get(COMMIT_VERSION_COLUMN);
    return isTrue(properties, "delta.enableRowTracking") && ids != null && versions != null
        ? List.of(ids, versions)
        : List.of();
  }

  /** Whether moved and copied rows carry their row id and commit version into the new files. */
  public boolean materializesRowIds() {
    return !materializedColumns.isEmpty();
  }

  /** The same table after a version another writer committed, whose action lines are given. */
  MergeTableFeatures after(Iterable<String> winnerLines) {
    long timestamp =
        previousTimestamp; // a table with in-commit timestamps has them in every commit
    long mark = rowIdHighWaterMark;
    try {
      for (String line : winnerLines) {
        JsonNode action = MergeCommitFile.JSON.readTree(line);
        JsonNode ict = action.path("commitInfo").path("inCommitTimestamp");
        if (ict.canConvertToLong()) {
          timestamp = ict.asLong();
        }
        JsonNode domain = action.path("domainMetadata");
        if (ROW_TRACKING_DOMAIN.equals(domain.path("domain").asText())) {
          mark = Math.max(mark, highWaterMark(domain.path("configuration").asText()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new MergeTableFeatures(
        physicalNames,
        rowTracking,
        inCommitTimestamps,
        deletionVectors,
        timestamp,
        mark,
        materializedColumns);
  }

  /** The partition values of a written file keyed by physical names, as the log records them. */
  public Map<String, String> physicalKeys(Map<String, String> partitionValues) {
    Map<String, String> out = new LinkedHashMap<>();
    partitionValues.forEach(
        (name, value) -> out.put(physicalNames.getOrDefault(name, name), value));
    return out;
  }

  private static long highWaterMark(String configuration) {
    try {
      return MergeCommitFile.JSON.readTree(configuration).path("rowIdHighWaterMark").asLong(-1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isTrue(Map<String, String> properties, String key) {
    String v = properties.get(key);
    return v != null && v.trim().toLowerCase(Locale.ROOT).equals("true");
  }
}
