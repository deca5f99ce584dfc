package io.lakestream.operators.dedup;

import java.util.ArrayList;
import java.util.List;

/**
 * A Bloom filter over the keys a deduplicator holds in its state, kept on the heap and never
 * stored: "absent" is certain, "present" only likely. Most rows of a deduplicated stream carry a
 * key the state does not hold yet, so {@link #mightContain} spares the state backend a lookup that
 * would find nothing (with RocksDB a native call that searched the memtables and each file's
 * filter). Keys freed from the state stay in the filter (they only cost a lookup) until the owner
 * rebuilds it from the keys it still holds.
 *
 * <p>About 10 bits and 7 probes per key: ~1% of absent keys look present per layer. It grows
 * without its owner walking the state: when the newest layer holds as many keys as it is sized for,
 * the next key goes into a new layer twice that size (or what is left of {@link #MAX_CAPACITY}),
 * and a lookup asks every layer (from the initial size at most 5: 1M + 2M + 4M + 8M + 1M keys, 32
 * MiB). Past {@link #MAX_CAPACITY} keys in all it grows no further and more absent keys look
 * present (still correct, only slower), as {@link #full()} reports; its owner no longer has to ask
 * before it can grow.
 */
final class AdmittedKeys {
  /** Keys a new filter is sized for: 2 MiB of bits. */
  static final int INITIAL_CAPACITY = 1 << 20;

  /** The layers together hold no more than this many keys before false positives grow. */
  static final int MAX_CAPACITY = 1 << 24;

  private static final int BITS_PER_KEY = 10;
  private static final int PROBES = 7;

  private final List<Layer> layers = new ArrayList<>(4);
  private int capacity; // of all layers

  AdmittedKeys(int capacity) {
    addLayer(Math.min(Math.max(capacity, 1024), MAX_CAPACITY));
  }

  /** False only if {@code key} was never {@link #add added}. */
  boolean mightContain(Object key) {
    long hash = hash(key);
    for (int i = layers.size() - 1; i >= 0; i--) {
      if (layers.get(i).mightContain(hash)) {
        return true;
      }
    }
    return false;
  }

  void add(Object key) {
    Layer newest = newest();
    if (newest.added >= newest.capacity && capacity < MAX_CAPACITY) {
      newest = addLayer(Math.min(2 * newest.capacity, MAX_CAPACITY - capacity));
    }
    newest.add(hash(key));
  }

  /** The keys it is sized for, all layers together. */
  int capacity() {
    return capacity;
  }

  /** How many layers it has grown to. */
  int layers() {
    return layers.size();
  }

  /** Whether it holds more keys than it can be sized for: false positives grow from here. */
  boolean full() {
    Layer newest = newest();
    return newest.added > newest.capacity;
  }

  /** An empty filter of one layer sized for all the keys this one is sized for. */
  AdmittedKeys emptyNext() {
    return new AdmittedKeys(capacity);
  }

  private Layer newest() {
    return layers.get(layers.size() - 1);
  }

  private Layer addLayer(int layerCapacity) {
    Layer layer = new Layer(layerCapacity);
    layers.add(layer);
    capacity += layerCapacity;
    return layer;
  }

  /** Spreads the key's hash code over 64 bits (the finalizer of MurmurHash3). */
  private static long hash(Object key) {
    long h = key.hashCode() * 0x9E3779B97F4A7C15L;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93fe5f3ba53L;
    h ^= h >>> 33;
    return h;
  }

  /** One bit array sized for {@code capacity} keys; the bit count is a power of two. */
  private static final class Layer {
    final int capacity;
    final long[] words;
    final int mask; // of bit positions
    int added;

    Layer(int capacity) {
      this.capacity = capacity;
      long bits = Long.highestOneBit((long) capacity * BITS_PER_KEY - 1) << 1;
      this.words = new long[(int) (bits >>> 6)];
      this.mask = (int) (bits - 1);
    }

    boolean mightContain(long hash) {
      int h1 = (int) hash;
      int h2 = (int) (hash >>> 32) | 1;
      for (int i = 0; i < PROBES; i++) {
        int bit = (h1 + i * h2) & mask;
        if ((words[bit >>> 6] & (1L << bit)) == 0) {
          return false;
        }
      }
      return true;
    }

    void add(long hash) {
      int h1 = (int) hash;
      int h2 = (int) (hash >>> 32) | 1;
      for (int i = 0; i < PROBES; i++) {
        int bit = (h1 + i * h2) & mask;
        words[bit >>> 6] |= 1L << bit;
      }
      added++;
    }
  }
}
