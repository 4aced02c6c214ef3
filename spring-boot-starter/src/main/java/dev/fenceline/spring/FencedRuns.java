package dev.fenceline.spring;

import dev.fenceline.core.HeldLease;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link Fenced} methods running now in this application, each with its lease: what the health
 * indicator reports as the leases this application holds. Thread-safe.
 */
public final class FencedRuns {

  /**
   * One running call.
   *
   * @param method the fenced method
   * @param thread the thread that runs it
   * @param lease the lease it runs under
   */
  public record Run(Method method, Thread thread, HeldLease lease) {}

  private final List<Run> running = new CopyOnWriteArrayList<>();

  /** The calls running now, oldest first. */
  public List<Run> running() {
    return List.copyOf(running);
  }

  void started(Run run) {
    running.add(run);
  }

  void ended(Run run) {
    running.remove(run);
  }
}
