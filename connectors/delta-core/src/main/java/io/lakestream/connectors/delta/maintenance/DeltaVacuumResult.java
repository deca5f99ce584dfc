package io.lakestream.connectors.delta.maintenance;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.List;

/**
 * What one VACUUM run found and did.
 *
 * @param dryRun whether it only listed the files
 * @param files the files no version within the retention needs (deleted unless a dry run)
 * @param bytes their total size
 * @param retentionMillis the retention it used
 */
@PublicEvolving
public record DeltaVacuumResult(
    boolean dryRun, List<String> files, long bytes, long retentionMillis) {
  public DeltaVacuumResult {
    files = List.copyOf(files);
  }
}
