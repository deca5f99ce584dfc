package io.lakestream.pipelines.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The soak ({@link Soak}) for {@code lakestream.soak.minutes} (1 in CI; {@code ./bin/lakestream
 * soak --minutes N} runs it for longer): bronze, silver and gold in processing time with a task
 * failure, a SIGKILL and a broker restart injected in turn. It passes when every round's outputs
 * equal the model row for row, each Delta log holds every epoch once, the deduplication state stays
 * within its bound after every round, every kind of failure was injected (runs long enough for
 * three), and the processes' live heap stayed flat (checked for runs of 10 minutes or more; shorter
 * runs report it). The report ({@code <directory>/soak-report.md}) has every round and failure.
 */
class SoakIT {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final double HEAP_CHECKED_FROM_MINUTES = 10;

  @Test
  void theLakehouseMatchesItsModelAfterEveryFailureAndStateAndHeapStayFlat() throws Exception {
    Soak.Settings settings = Soak.Settings.fromSystemProperties();
    System.out.println("soak: " + settings);
    Soak soak = new Soak(settings, KAFKA.broker());
    try {
      soak.run();
    } finally {
      report(settings, soak);
    }
    List<String> problems = problems(settings, soak);
    assertThat(problems).as("soak checks failed (seed %d)", settings.seed()).isEmpty();
  }

  private static List<String> problems(Soak.Settings settings, Soak soak) {
    List<String> problems = new ArrayList<>(soak.logProblems);
    for (Soak.Round round : soak.rounds) {
      if (!round.matched()) {
        problems.add("round " + round.number() + ": " + round.mismatch());
      }
      round
          .stateRows()
          .forEach(
              (pipeline, rows) -> {
                if (rows > round.stateBound()) {
                  problems.add(
                      "round "
                          + round.number()
                          + ": "
                          + pipeline
                          + " state "
                          + rows
                          + " rows > bound "
                          + round.stateBound());
                }
              });
    }
    Set<Soak.Fault> injected = EnumSet.noneOf(Soak.Fault.class);
    soak.injections.forEach(i -> injected.add(i.fault()));
    if (settings.duration().toMillis() >= settings.failureEvery().toMillis() * 7 / 2
        && !injected.containsAll(EnumSet.allOf(Soak.Fault.class))) {
      problems.add("not every kind of failure was injected: " + injected);
    }
    if (settings.duration().toMinutes() >= HEAP_CHECKED_FROM_MINUTES) {
      heaps(soak)
          .forEach(
              (pipeline, mib) -> {
                if (!HeapSamples.flat(mib)) {
                  problems.add(pipeline + "'s live heap grew: " + mib);
                }
              });
    }
    return problems;
  }

  /** Each pipeline's live heap samples (MiB) in time order. */
  private static Map<String, List<Long>> heaps(Soak soak) {
    Map<String, List<Long>> heaps = new LinkedHashMap<>();
    for (Soak.Round round : soak.rounds) {
      round
          .liveHeapMib()
          .forEach(
              (pipeline, mib) -> {
                if (mib >= 0) {
                  heaps.computeIfAbsent(pipeline, p -> new ArrayList<>()).add(mib);
                }
              });
    }
    return heaps;
  }

  private static void report(Soak.Settings settings, Soak soak) throws Exception {
    StringBuilder out = new StringBuilder("# Soak report\n\n");
    out.append("Settings: ").append(settings).append("\n\n");
    long matched = soak.rounds.stream().filter(Soak.Round::matched).count();
    out.append(
        String.format(
            "Rounds: %d, outputs = model after %d of them.%n%n", soak.rounds.size(), matched));
    out.append(
        "| failure | round | into | recovered (all outputs = model) ms |\n|---|---|---|---|\n");
    for (Soak.Injection i : soak.injections) {
      out.append(
          String.format(
              "| %s | %d | %s | %d |%n", i.fault(), i.round(), i.pipeline(), i.recoveryMillis()));
    }
    out.append(
        "\n| pipeline | live heap MiB, first third mean | last third mean | flat |\n|---|---|---|---|\n");
    heaps(soak)
        .forEach(
            (pipeline, mib) ->
                out.append(
                    String.format(
                        "| %s | %.0f | %.0f | %s |%n",
                        pipeline,
                        HeapSamples.mean(HeapSamples.firstThird(mib)),
                        HeapSamples.mean(HeapSamples.lastThird(mib)),
                        HeapSamples.flat(mib))));
    out.append("\nRounds:\n\n");
    soak.rounds.forEach(r -> out.append("- ").append(Soak.describe(r)).append('\n'));
    if (!soak.logProblems.isEmpty()) {
      out.append("\nLog lines:\n\n");
      soak.logProblems.forEach(l -> out.append("- ").append(l).append('\n'));
    }
    Files.createDirectories(settings.directory());
    Path report = settings.directory().resolve("soak-report.md");
    Files.writeString(report, out);
    System.out.println(out);
    System.out.println("soak report: " + report);
  }
}
