package io.lakestream.pipelines.cli;

import io.lakestream.runtime.StreamingQuery;
import io.lakestream.state.checkpoint.QueryLease;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;

/**
 * SIGTERM (what {@code kill}, systemd and container runtimes send) and SIGINT (Ctrl-C) stop an
 * embedded query as {@link StreamingQuery#stop()} does: with a savepoint where it can (else it
 * cancels after the last completed checkpoint), the job's runner releasing the checkpoint
 * location's lease, so the next run starts at once and resumes where this one stopped. The command
 * then exits with {@link #exitCode()} (128 + the signal's number: 143 for SIGTERM, 130 for SIGINT,
 * as a shell reports a process ended by that signal).
 *
 * <p>A second signal while the stop runs exits at once ({@link Runtime#halt}): nothing is lost (the
 * next run resumes from the last completed checkpoint); the lease stays in the location, and a next
 * run on this machine takes it over at once since its holder has exited ({@link QueryLease}).
 *
 * <p>A run of several queries one after the other (the demo's stages) installs a handler per query;
 * a signal that arrives while one query has ended and the next is starting stops the next one as
 * soon as its handler is installed.
 *
 * <p>A signal ignored when the command started stays ignored, as for any program: a background job
 * of a non-interactive shell starts with SIGINT ignored, so there only SIGTERM stops the query.
 *
 * <p>Without this the JVM's default handling ended the process mid-epoch with no word about it, and
 * the lease held the next run off until it expired ({@link QueryLease#EXPIRY}).
 */
final class SignalStop {
  private static final List<String> SIGNALS = List.of("TERM", "INT");

  /**
   * The last signal any handler of this process received: a signal that reaches the handler of a
   * query that has just ended, before the next query of the run (a stage) installs its own, stops
   * that next query as soon as it is installed.
   */
  private static final AtomicReference<Signal> LAST = new AtomicReference<>();

  private final StreamingQuery query;
  private final PrintStream out;
  private final AtomicReference<Signal> received = new AtomicReference<>();

  private SignalStop(StreamingQuery query, PrintStream out) {
    this.query = query;
    this.out = out;
  }

  /** Handles SIGTERM and SIGINT for {@code query} from now on; messages go to {@code out}. */
  static SignalStop install(StreamingQuery query, PrintStream out) {
    SignalStop stop = new SignalStop(query, out);
    for (String name : SIGNALS) {
      Signal.handle(new Signal(name), stop::onSignal);
    }
    Signal earlier = LAST.getAndSet(null);
    if (earlier != null) {
      stop.onSignal(earlier);
    }
    return stop;
  }

  private void onSignal(Signal signal) {
    LAST.set(signal);
    if (!received.compareAndSet(null, signal)) {
      out.printf(
          "SIG%s again: exiting now. The next run resumes from the last completed checkpoint;"
              + " on another machine it may wait up to %d s for this run's lease to expire.%n",
          signal.getName(), QueryLease.EXPIRY.toSeconds());
      out.flush();
      Runtime.getRuntime().halt(128 + signal.getNumber());
    }
    out.printf(
        "SIG%s: stopping query '%s' with a savepoint (signal again to exit at once)...%n",
        signal.getName(), query.name());
    out.flush();
    Thread stopper = new Thread(this::stopQuery, "lakestream-signal-stop");
    stopper.setDaemon(true);
    stopper.start();
  }

  private void stopQuery() {
    try {
      query.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // the main thread's awaitTermination reports how the query ended
    }
  }

  /**
   * 128 + the number of a signal this process received that no query's handler has taken over yet
   * (it arrived after the last query ended), or 0: a run of several queries starts no further one
   * then.
   */
  static int pendingExitCode() {
    Signal signal = LAST.get();
    return signal == null ? 0 : 128 + signal.getNumber();
  }

  /** The signal that stopped the query, if one did. */
  Optional<String> signal() {
    return Optional.ofNullable(received.get()).map(s -> "SIG" + s.getName());
  }

  /** 128 + the signal's number; 0 if no signal stopped the query. */
  int exitCode() {
    Signal signal = received.get();
    return signal == null ? 0 : 128 + signal.getNumber();
  }
}
