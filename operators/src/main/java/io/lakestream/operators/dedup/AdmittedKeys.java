package io.lakestream.operators.dedup;

/**
 * A Bloom filter over the keys a deduplicator holds in its state, kept on the heap and never
 * stored: "absent" is certain, "present" only likely. Most rows of a deduplicated stream carry a
 * key the state does not hold yet, so {@link #mightContain} spares the state backend a lookup that
 * would find nothing (with RocksDB a native call that searched the memtables and each file's
 * filter). Keys freed from the state stay in the filter (they only cost a lookup) until the owner
 * rebuilds it from the keys it still holds.
 *
 * <p>About 10 bits and 7 probes per key: ~1% of absent keys look present while at most {@link
 * #capacity()} keys were added; beyond that the share grows (still correct, only slower), which is
 * what {@link #full()} tells the owner.
 */
final class AdmittedKeys {
  /** Keys a new filter is sized for: 2 MiB of bits. */
  static final int INITIAL_CAPACITY = 1 << 20;

  /** It grows no further (32 MiB); past this many keys more absent keys look present. */
  static final int MAX_CAPACITY = 1 << 24;

  private static final int BITS_PER_KEY = 10;
  private static final int PROBES = 7;

  private final int capacity;
  private final long[] words;
  private final int mask; // of bit positions: the bit count is a power of two
  private int added;

  AdmittedKeys(int capacity) {
    this.capacity = Math.min(Math.max(capacity, 1024), MAX_CAPACITY);
    long bits = Long.highestOneBit((long) this.capacity * BITS_PER_KEY - 1) << 1;
    this.words = new long[(int) (bits >>> 6)];
    this.mask = (int) (bits - 1);
  }

  /** False only if {@code key} was never {@link #add added}. */
  boolean mightContain(Object key) {
    long hash = hash(key);
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

  void add(Object key) {
    long hash = hash(key);
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 32) | 1;
    for (int i = 0; i < PROBES; i++) {
      int bit = (h1 + i * h2) & mask;
      words[bit >>> 6] |= 1L << bit;
    }
    added++;
  }

  /** The keys it is sized for. */
  int capacity() {
    return capacity;
  }

  /** Whether more keys were added than it is sized for (false positives grow from here). */
  boolean full() {
    return added > capacity;
  }

  /**
   * Whether a rebuild would help: it is full and may still grow. At {@link #MAX_CAPACITY} it stays
   * overfull (more lookups) rather than have its owner walk a huge state at every epoch end.
   */
  boolean wantsToGrow() {
    return full() && capacity < MAX_CAPACITY;
  }

  /** A filter of the same size, or twice the size if this one is full. */
  AdmittedKeys emptyNext() {
    return new AdmittedKeys(full() ? Math.min(capacity * 2, MAX_CAPACITY) : capacity);
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
}
