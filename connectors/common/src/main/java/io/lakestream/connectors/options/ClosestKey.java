package io.lakestream.connectors.options;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The valid key nearest to a mistyped one, by edit distance ignoring case (a swap of two adjacent
 * letters counts as one edit), if it is near enough to be a plausible typo: at most a quarter of
 * the key's length, and at least 2, edits away.
 */
final class ClosestKey {
  private ClosestKey() {}

  static Optional<String> among(Collection<String> candidates, String given) {
    String target = given.trim().toLowerCase(Locale.ROOT);
    int limit = Math.max(2, target.length() / 4);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(candidate.toLowerCase(Locale.ROOT), target);
      if (d < bestDistance || (d == bestDistance && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = d;
      }
    }
    return bestDistance <= limit ? Optional.of(best) : Optional.empty();
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
