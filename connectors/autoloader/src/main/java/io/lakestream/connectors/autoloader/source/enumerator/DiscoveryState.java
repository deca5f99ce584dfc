package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import java.util.List;

/**
 * The discovery enumerator's checkpoint: the listing cursor and the files discovered but not yet
 * handed to a reader. Files before the cursor were discovered (handed out, pending here, or in a
 * reader's state); what was read is the file ledger's business, so the state stays small however
 * many files the input holds.
 *
 * @param cursor the greatest key listed so far ({@code ""} before the first listing)
 * @param backfillCursor where a running full listing continues, or null when none runs
 * @param incrementalListings incremental listings since the last full one
 * @param lastBackfillMillis when the last full listing started (epoch ms; 0 = never)
 * @param ignoreBefore files modified before this are not ingested (includeExistingFiles=false: the
 *     first start), {@link Long#MIN_VALUE} = none
 * @param filesAdmitted files handed out so far (new files, not backfill candidates)
 * @param listingCalls listing calls made so far
 * @param pending new files not yet handed out, in key order
 * @param candidates files a full listing found at or before the cursor, not yet handed out; the
 *     ledger drops those already read
 */
@Internal
public record DiscoveryState(
    String cursor,
    String backfillCursor,
    int incrementalListings,
    long lastBackfillMillis,
    long ignoreBefore,
    long filesAdmitted,
    long listingCalls,
    List<DiscoveredFile> pending,
    List<DiscoveredFile> candidates) {

  public DiscoveryState {
    pending = List.copyOf(pending);
    candidates = List.copyOf(candidates);
  }

  /** The state of a stream that has listed nothing yet. */
  public static DiscoveryState initial(long ignoreBefore) {
    return new DiscoveryState("", null, 0, 0, ignoreBefore, 0, 0, List.of(), List.of());
  }
}
