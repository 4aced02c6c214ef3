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
package dev.fenceline.vfs;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.StorePreflight;
import dev.fenceline.spi.StoreRole;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code vfs} adapter: a {@link VfsBlobStore} on a local directory or an SFTP server. Its keys
 * are declared in {@link #configKeys()} (listed in {@code docs/configuration-reference.md}); user
 * names and passwords are never shown in messages, also when written into the URI. {@link
 * #validate} refuses the SFTP keys for a local ({@code file://}, {@code ram://} or plain path)
 * directory, where {@link #create} would ignore them.
 */
public final class VfsAdapterFactory implements AdapterFactory {

  private static final String SFTP_ONLY = "SFTP only: ";

  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("uri")
              .required()
              .example("file:///var/lib/reports")
              .description(
                  "The directory: file:///var/lib/reports, sftp://host/srv/reports, or a local"
                      + " path such as ./reports.")
              .build(),
          ConfigKey.string("user").description(SFTP_ONLY + "the user; goes with password.").build(),
          ConfigKey.string("password")
              .secret()
              .description(SFTP_ONLY + "the password; goes with user.")
              .build(),
          ConfigKey.bool("strict-host-key-checking")
              .defaultValue(true)
              .description(SFTP_ONLY + "check the server's host key.")
              .build(),
          ConfigKey.duration("timeout")
              .defaultValue(VfsBlobStore.DEFAULT_TIMEOUT)
              .description(SFTP_ONLY + "the connect and read timeout.")
              .build(),
          ConfigKey.bool("allow-case-folding")
              .defaultValue(false)
              .description(
                  "Accept a file system that folds case (two keys that differ in case would be"
                      + " one file).")
              .build());

  @Override
  public String name() {
    return "vfs";
  }

  @Override
  public List<ConfigKey> configKeys() {
    return KEYS;
  }

  @Override
  public Set<StoreRole> roles() {
    return Set.of(StoreRole.BLOB_STORE);
  }

  /**
   * Checks the keys as {@link #create} does, and also refuses the SFTP keys for a local directory,
   * which {@link #create} would ignore.
   */
  @Override
  public void validate(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(this, instanceName, values);
    String scheme = scheme(config.required("uri"));
    if (scheme.equals("file") || scheme.equals("ram")) {
      TreeSet<String> local = new TreeSet<>();
      KEYS.stream()
          .filter(key -> !key.description().startsWith(SFTP_ONLY))
          .forEach(key -> local.add(key.name()));
      for (ConfigKey key : KEYS) {
        if (!local.contains(key.name()) && config.isSet(key.name())) {
          throw config.error(
              key.name(),
              key.name()
                  + " does not apply to a vfs store on a "
                  + scheme
                  + ":// directory: it is an SFTP setting, so the key would be ignored (remove"
                  + " it, or point uri at an SFTP server (sftp://host/srv/reports); keys for "
                  + scheme
                  + "://: "
                  + String.join(", ", local)
                  + ")");
        }
      }
    }
    builder(config);
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    VfsBlobStore store = builder(AdapterConfig.of(this, instanceName, values)).build();
    return Adapter.builder(store::close).blobStore(store).build();
  }

  /**
   * Whether the base directory exists and can be written, creating nothing (see {@link
   * VfsBlobStore.Builder#preflight()}).
   */
  @Override
  public StorePreflight preflight(String instanceName, Map<String, String> values) {
    return builder(AdapterConfig.of(this, instanceName, values)).preflight();
  }

  private static VfsBlobStore.Builder builder(AdapterConfig config) {
    Optional<String> user = config.optional("user");
    Optional<String> password = config.optional("password");
    if (user.isPresent() != password.isPresent()) {
      throw config.error(
          user.isPresent() ? "user" : "password",
          "keys \"user\" and \"password\" go together (set both or neither)");
    }
    String uri = config.required("uri");
    VfsBlobStore.Builder builder = config.apply("uri", uri, () -> VfsBlobStore.builder(uri));
    user.ifPresent(name -> builder.credentials(name, password.get()));
    builder
        .strictHostKeyChecking(config.bool("strict-host-key-checking").orElseThrow())
        .timeout(config.duration("timeout").orElseThrow())
        .allowCaseFolding(config.bool("allow-case-folding").orElseThrow());
    return builder;
  }

  /** The URI's scheme in lower case; {@code file} for a plain path. */
  private static String scheme(String uri) {
    Matcher matcher = SCHEME.matcher(uri);
    return matcher.find() ? matcher.group(1).toLowerCase(Locale.ROOT) : "file";
  }
}
