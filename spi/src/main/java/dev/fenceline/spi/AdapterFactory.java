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
}
