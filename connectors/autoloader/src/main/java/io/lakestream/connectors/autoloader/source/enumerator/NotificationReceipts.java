package io.lakestream.connectors.autoloader.source.enumerator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The receipt handles of received notification messages, kept until a checkpoint that holds their
 * files has completed: the messages received in an epoch belong to the checkpoint that ends it.
 * Coordinator thread only.
 */
final class NotificationReceipts {
  private List<String> thisEpoch = new ArrayList<>();
  private final TreeMap<Long, List<String>> byCheckpoint = new TreeMap<>();

  /** Messages received in the current epoch. */
  void received(List<String> receiptHandles) {
    thisEpoch.addAll(receiptHandles);
  }

  /** Checkpoint {@code checkpointId} is taken: it holds the files of this epoch's messages. */
  void checkpoint(long checkpointId) {
    if (!thisEpoch.isEmpty()) {
      byCheckpoint.put(checkpointId, thisEpoch);
      thisEpoch = new ArrayList<>();
    }
  }

  /**
   * Removes and returns the handles of the messages whose files are in checkpoint {@code
   * checkpointId} or an earlier one: they may be deleted once it completed.
   */
  List<String> takeUpTo(long checkpointId) {
    Map<Long, List<String>> done = byCheckpoint.headMap(checkpointId, true);
    List<String> handles = new ArrayList<>();
    done.values().forEach(handles::addAll);
    done.clear();
    return handles;
  }
}
