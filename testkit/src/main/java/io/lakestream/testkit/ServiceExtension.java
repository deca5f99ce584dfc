package io.lakestream.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Base of the JUnit 5 extensions that start a real service for tests and stop it afterwards.
 *
 * <p>Registered on a {@code static} field with {@code @RegisterExtension}, the service is started
 * once before all tests of the class (and its {@code @Nested} classes) and stopped after them.
 * Registered on an instance field, it is started before and stopped after each test. When several
 * such extensions depend on each other (for example a Flink cluster that checkpoints to the S3
 * server), order them with {@code @Order}.
 *
 * <p>The service is stopped even when tests fail. If it fails to start, the exception of {@link
 * #start} fails the class (or test) and nothing is left running.
 *
 * @param <S> the running service
 */
public abstract class ServiceExtension<S extends AutoCloseable>
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  private S service;
  private String startedBy;

  /** Creates the extension; nothing starts until JUnit calls it. */
  protected ServiceExtension() {}

  /**
   * Starts the service.
   *
   * @param context the JUnit context of the class or test it is started for
   */
  protected abstract S start(ExtensionContext context) throws Exception;

  /** Stops the service; by default {@link AutoCloseable#close()}. */
  protected void stop(S service) throws Exception {
    service.close();
  }

  /**
   * The running service.
   *
   * @throws IllegalStateException outside the tests the extension is registered for, or after the
   *     service failed to start
   */
  public final S service() {
    S running = service;
    if (running == null) {
      throw new IllegalStateException(
          getClass().getSimpleName()
              + " is not running: register it with @RegisterExtension and use it only from tests"
              + " (or @BeforeAll/@BeforeEach methods) of that class");
    }
    return running;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    startIfNeeded(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    startIfNeeded(context);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    stopIfStartedBy(context);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    stopIfStartedBy(context);
  }

  private synchronized void startIfNeeded(ExtensionContext context) throws Exception {
    if (service == null) {
      service = start(context);
      startedBy = context.getUniqueId();
    }
  }

  private synchronized void stopIfStartedBy(ExtensionContext context) throws Exception {
    if (service != null && context.getUniqueId().equals(startedBy)) {
      S running = service;
      service = null;
      startedBy = null;
      stop(running);
    }
  }
}
