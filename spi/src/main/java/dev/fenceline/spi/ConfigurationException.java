package dev.fenceline.spi;

/**
 * Configuration is missing, unknown or invalid. The message names the key, the value and the fix.
 */
public class ConfigurationException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public ConfigurationException(String message) {
    super(message);
  }

  /** Creates the exception, keeping the cause. */
  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
