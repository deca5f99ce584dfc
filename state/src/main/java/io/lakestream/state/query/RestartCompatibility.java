package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The restart matrix, checked before a query is resubmitted on an existing checkpoint location.
 *
 * <p>Refused: a changed source set, a changed, added or removed stateful operator (its state
 * schema, including the names of the key columns it is keyed by), a changed state backend, a
 * changed max parallelism, a sink changed into a kind the matrix forbids (see {@link
 * SinkKind#canRestartAs}), a file/Delta sink pointed at another path, a removed sink. Allowed:
 * everything else, notably filters, projections, trigger interval, rate limits, parallelism up to
 * the max parallelism, and new sinks.
 */
@Internal
public final class RestartCompatibility {
  /**
   * Where an operator's state schema names its key columns: {@code "...; key columns [event_id]"}.
   */
  public static final String KEY_COLUMNS = "; key columns ";

  private RestartCompatibility() {}

  /**
   * Checks that a query with fingerprint {@code before} may restart as {@code after} at {@code
   * parallelism}.
   *
   * @throws IncompatibleRestartException listing every problem found
   */
  public static void check(QueryFingerprint before, QueryFingerprint after, int parallelism) {
    List<String> problems = problems(before, after, parallelism);
    if (!problems.isEmpty()) {
      throw new IncompatibleRestartException(problems);
    }
  }

  /** Every reason the restart is refused; empty when it is allowed. */
  public static List<String> problems(
      QueryFingerprint before, QueryFingerprint after, int parallelism) {
    return problems(before, after, parallelism, Set.of());
  }

  /**
   * Every reason the restart is refused, leaving out the stateful operators whose uids are in
   * {@code checkedElsewhere}: a check that knows more about them (a SQL query's compiled plan) has
   * decided whether their state carries over.
   */
  public static List<String> problems(
      QueryFingerprint before,
      QueryFingerprint after,
      int parallelism,
      Set<String> checkedElsewhere) {
    List<String> problems = new ArrayList<>();
    checkSources(before, after, problems);
    checkOperators(before, after, checkedElsewhere, problems);
    checkSinks(before, after, problems);
    if (!Objects.equals(before.stateBackend(), after.stateBackend())) {
      problems.add(
          "state backend changed from "
              + before.stateBackend()
              + " to "
              + after.stateBackend()
              + ": the state store cannot be switched between restarts");
    }
    if (before.maxParallelism() != after.maxParallelism()) {
      problems.add(
          "max parallelism changed from "
              + before.maxParallelism()
              + " to "
              + after.maxParallelism()
              + ": keyed state is split into that many key groups and cannot be re-split");
    }
    if (parallelism > after.maxParallelism()) {
      problems.add(
          "parallelism "
              + parallelism
              + " exceeds the query's max parallelism "
              + after.maxParallelism()
              + ": lower --parallelism");
    }
    return problems;
  }

  private static void checkSources(
      QueryFingerprint before, QueryFingerprint after, List<String> problems) {
    Set<String> was = describe(before.sources());
    Set<String> now = describe(after.sources());
    if (!was.equals(now)) {
      Set<String> removed = new TreeSet<>(was);
      removed.removeAll(now);
      Set<String> added = new TreeSet<>(now);
      added.removeAll(was);
      problems.add(
          "the source set changed (removed "
              + removed
              + ", added "
              + added
              + "): source offsets in the checkpoint belong to the old sources");
    }
  }

  private static Set<String> describe(List<SourceSpec> sources) {
    return sources.stream()
        .map(s -> s.name() + " (" + s.type() + ")")
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static void checkOperators(
      QueryFingerprint before,
      QueryFingerprint after,
      Set<String> checkedElsewhere,
      List<String> problems) {
    Map<String, String> was = byUid(before.statefulOperators());
    Map<String, String> now = byUid(after.statefulOperators());
    was.keySet().removeAll(checkedElsewhere);
    now.keySet().removeAll(checkedElsewhere);
    for (Map.Entry<String, String> old : was.entrySet()) {
      String current = now.get(old.getKey());
      if (current == null) {
        problems.add(
            "stateful operator '" + old.getKey() + "' was removed: its state would be dropped");
      } else if (!sameState(old.getValue(), current)) {
        problems.add(
            "state schema of operator '"
                + old.getKey()
                + "' changed from ["
                + old.getValue()
                + "] to ["
                + current
                + "]");
      }
    }
    for (String uid : now.keySet()) {
      if (!was.containsKey(uid)) {
        problems.add(
            "stateful operator '"
                + uid
                + "' was added: the checkpoint has no state for it (a state schema change)");
      }
    }
  }

  /**
   * Whether a recorded state schema is the current one. Fingerprints written before the key columns
   * were part of them ({@link #KEY_COLUMNS}) match the current schema without its key columns: that
   * state was written under whatever columns the program had then, which the restart cannot know,
   * as before.
   */
  private static boolean sameState(String recorded, String current) {
    if (current.equals(recorded)) {
      return true;
    }
    int columns = current.lastIndexOf(KEY_COLUMNS);
    return !recorded.contains(KEY_COLUMNS)
        && columns >= 0
        && current.substring(0, columns).equals(recorded);
  }

  private static Map<String, String> byUid(List<OperatorSpec> operators) {
    Map<String, String> map = new LinkedHashMap<>();
    operators.forEach(o -> map.put(o.uid(), o.stateSchema()));
    return map;
  }

  private static void checkSinks(
      QueryFingerprint before, QueryFingerprint after, List<String> problems) {
    if (before.sinks().size() == 1
        && after.sinks().size() == 1
        && !before.sinks().get(0).name().equals(after.sinks().get(0).name())) {
      checkSinkChange(before.sinks().get(0), after.sinks().get(0), problems);
      return;
    }
    Map<String, SinkSpec> now = new LinkedHashMap<>();
    after.sinks().forEach(s -> now.put(s.name(), s));
    for (SinkSpec old : before.sinks()) {
      SinkSpec current = now.get(old.name());
      if (current == null) {
        problems.add(
            "sink '"
                + old.name()
                + "' ("
                + old.kind()
                + ") was removed: its pending commits would be lost");
      } else {
        checkSinkChange(old, current, problems);
      }
    }
  }

  private static void checkSinkChange(SinkSpec old, SinkSpec current, List<String> problems) {
    if (!old.kind().canRestartAs(current.kind())) {
      problems.add(
          "sink '"
              + old.name()
              + "' changed from "
              + old.kind()
              + " to "
              + current.kind()
              + ", which the restart matrix does not allow (allowed: FILE->KAFKA,"
              + " KAFKA<->FOREACH_BATCH)");
    } else if (old.kind() == current.kind()
        && (old.kind() == SinkKind.FILE || old.kind() == SinkKind.DELTA)
        && !Objects.equals(old.target(), current.target())) {
      problems.add(
          "sink '"
              + old.name()
              + "' now writes to "
              + current.target()
              + " instead of "
              + old.target()
              + ": a file or Delta sink's output path cannot change");
    }
  }
}
