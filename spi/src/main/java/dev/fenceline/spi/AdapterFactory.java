/*
 * Copyright 2026 the Fenceline authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.fenceline.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Creates adapters from configuration. Implementations are found with {@link
 * java.util.ServiceLoader}: list the class in {@code
 * META-INF/services/dev.fenceline.spi.AdapterFactory}. A factory needs a public no-argument
 * constructor.
 *
 * <p>A factory declares its keys ({@link #configKeys()}) and the roles its stores can play ({@link
 * #roles()}); Fenceline's YAML loader checks, locates and masks values from these declarations, and
 * the configuration reference is generated from them. A factory reads its configuration through
 * {@link AdapterConfig#of(AdapterFactory, String, Map)}, whose errors carry the key they are about
 * ({@link ConfigurationException#key()}).
 */
public interface AdapterFactory {

  /**
   * {@return the stable name users put in configuration, such as {@code jdbc}: lowercase letters,
   * digits and {@code -}} Two factories on one class path must not share a name.
   */
  String name();

  /**
   * {@return every key this adapter understands, each declared once with its type, default and
   * meaning (see {@link ConfigKey})} The default, an empty list, declares nothing: the loader then
   * passes every key to {@link #create} unchecked, and treats every value as secret, since it
   * cannot tell.
   */
  default List<ConfigKey> configKeys() {
    return List.of();
  }

  /**
   * {@return what the adapters of this factory offer ({@link Adapter#leaseIssuer()}, {@link
   * Adapter#pointerStore}, ...), so that a configuration naming a store for a role it cannot play
   * is refused before anything opens} The default, an empty set, declares nothing: the roles are
   * found out when the store is opened.
   */
  default Set<StoreRole> roles() {
    return Set.of();
  }

  /**
   * Checks {@code config} as {@link #create} would, opening, creating and connecting to nothing:
   * unknown keys, missing required keys, values of the wrong type, and rules between keys (keys
   * that go together, values the store refuses). It may also refuse keys that {@link #create}
   * accepts but would ignore for this kind of store (a network timeout of an embedded database), so
   * that a configuration file with such a key is refused at load time while Java callers may pass
   * one map for every kind. The default checks the declared keys ({@link AdapterConfig#of(
   * AdapterFactory, String, Map)}); a factory with rules between keys overrides it, and its {@link
   * #create}, {@link #createForReading} and {@link #preflight} apply the same checks.
   *
   * @param instanceName the user's name for this instance, for messages
   * @param config the configuration {@link #create} would take
   * @throws ConfigurationException if the configuration is wrong; {@link
   *     ConfigurationException#key()} names the key
   */
  default void validate(String instanceName, Map<String, String> config) {
    if (!configKeys().isEmpty()) {
      AdapterConfig.of(this, instanceName, config);
    }
  }

  /**
   * {@return the declared {@link ConfigKey.Type#INTEGER} key that says how many versions of each
   * publish pointer the pointer stores of this adapter keep when they prune older ones (such as the
   * jdbc adapter's {@code pointer-versions}); empty (the default) if they keep every version} A
   * configuration that keeps more versions of a staged destination than its pointer store does is
   * refused at load time, naming this key: the store would prune versions that the sweep and
   * rollbacks still count on. A store whose configuration does not set the key keeps every version.
   */
  default Optional<String> pointerVersionsKey() {
    return Optional.empty();
  }

  /**
   * Creates an adapter.
   *
   * @param instanceName the user's name for this instance, for messages
   * @param config flat configuration with kebab-case keys, such as {@code url}
   * @return the adapter; the caller closes it
   * @throws ConfigurationException if a key is missing, unknown or has a bad value; the message
   *     names the instance, the key, the value and the fix, and {@link
   *     ConfigurationException#key()} the key
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
   * @param instanceName the name of the store in the configuration
   * @param config the store's configuration
   * @return an adapter that does not create, migrate or write anything when opened
   * @see #create(String, Map)
   */
  default Adapter createForReading(String instanceName, Map<String, String> config) {
    return create(instanceName, config);
  }
}
