package dev.fenceline.spi;

/**
 * The store is reachable but cannot keep Fenceline's guarantees as configured, for example a
 * database replica in recovery (R5) or a database that may lose commits on a crash (R1). The
 * message names the setting and how to fix it.
 */
public class UnsafeStoreException extends ConfigurationException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message, in the project's error format
   */
  public UnsafeStoreException(String message) {
    super(message);
  }
}
