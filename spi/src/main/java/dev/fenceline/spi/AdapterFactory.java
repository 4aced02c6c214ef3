package dev.fenceline.spi;

import java.util.Map;

/**
 * Creates adapters from configuration. Implementations are found with {@link
 * java.util.ServiceLoader}: list the class in {@code
 * META-INF/services/dev.fenceline.spi.AdapterFactory}. A factory needs a public no-argument
 * constructor.
 */
public interface AdapterFactory {

  /**
   * The stable name users put in configuration, such as {@code jdbc}: lowercase letters, digits and
   * {@code -}. Two factories on one class path must not share a name.
   */
  String name();

  /**
   * Creates an adapter.
   *
   * @param instanceName the user's name for this instance, for messages
   * @param config flat configuration with kebab-case keys, such as {@code url}
   * @return the adapter; the caller closes it
   * @throws ConfigurationException if a key is missing, unknown or has a bad value; the message
   *     names the instance, the key, the value and the fix
   * @throws UnsafeStoreException if the store cannot keep the guarantees (see the adapter's docs)
   * @throws StoreException if the store cannot be reached
   */
  Adapter create(String instanceName, Map<String, String> config);

  /**
   * Checks what {@link #create} would need, creating and changing nothing (no directory, file,
   * table or connection that outlives the call): for {@code fenceline doctor}, which must not leave
   * a mistyped path behind. Reports what opening would create (a missing directory or database
   * file) and why the store could not be written (a read-only file system, missing permissions). It
   * does not replace {@link #create}'s own checks, which run when a ready store is opened.
   *
   * @param instanceName the user's name for this instance, for messages
   * @param config the same configuration {@link #create} takes
   * @return the findings; the default, {@link StorePreflight#notChecked()}, says that this adapter
   *     cannot check without opening
   * @throws ConfigurationException as {@link #create} does for a key that is missing, unknown or
   *     has a bad value
   */
  default StorePreflight preflight(String instanceName, Map<String, String> config) {
    return StorePreflight.notChecked();
  }

  /**
   * Creates an adapter for looking only, as {@code fenceline status} does: opening it must not
   * create, migrate or lock anything in the store (a database's tables, its write lock, a missing
   * file), so that it answers while another process holds the store busy and leaves a store nobody
   * has used yet untouched. Its components are for reads; what they would write may fail. The
   * default creates the adapter as {@link #create} does: override it where opening changes the
   * store.
   *
   * @see #create(String, Map)
   */
  default Adapter createForReading(String instanceName, Map<String, String> config) {
    return create(instanceName, config);
  }
}
