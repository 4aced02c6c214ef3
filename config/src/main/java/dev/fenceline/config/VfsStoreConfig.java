package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A store of {@code type: vfs}: a directory (Apache Commons VFS) that offers a blob store only, so
 * destinations on it are staged with a pointer store of another store.
 *
 * <table>
 *   <caption>vfs keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code uri}</td><td>{@code file:///var/lib/reports} or {@code
 *       sftp://host/srv/reports}</td><td>required</td></tr>
 *   <tr><td>{@code user}, {@code password}</td><td>SFTP credentials, both or neither (masked
 *       everywhere); SFTP only, like the next two: a {@code file://} or {@code ram://} store
 *       refuses them</td><td>none</td></tr>
 *   <tr><td>{@code strict-host-key-checking}</td><td>SFTP host key check</td><td>{@code
 *       true}</td></tr>
 *   <tr><td>{@code timeout}</td><td>SFTP connect and read timeout</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code allow-case-folding}</td><td>accept a file system that folds case</td><td>{@code
 *       false}</td></tr>
 * </table>
 *
 * @param uri the directory's URI
 * @param user the SFTP user
 * @param password the SFTP password
 * @param strictHostKeyChecking see the table
 * @param timeout see the table
 * @param allowCaseFolding see the table
 */
public record VfsStoreConfig(
    String uri,
    Optional<String> user,
    Optional<Secret> password,
    boolean strictHostKeyChecking,
    Duration timeout,
    boolean allowCaseFolding) {

  static final Set<String> KEYS =
      Set.of(
          "type",
          "uri",
          "user",
          "password",
          "strict-host-key-checking",
          "timeout",
          "allow-case-folding");

  /**
   * The keys that apply to a local ({@code file://}) or {@code ram://} directory; {@code sftp://}
   * takes every key of {@link #KEYS}.
   */
  static final Set<String> LOCAL_KEYS = Set.of("type", "uri", "allow-case-folding");

  /** Validates the settings. */
  public VfsStoreConfig {
    requireNonNull(uri, "uri is null");
    requireNonNull(user, "user is null");
    requireNonNull(password, "password is null");
    requireNonNull(timeout, "timeout is null");
    if (user.isPresent() != password.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot use VFS credentials: user and password go together (set both or neither)");
    }
  }

  /** The flat keys the {@code vfs} adapter factory takes. */
  public Map<String, String> adapterKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("uri", uri);
    user.ifPresent(value -> keys.put("user", value));
    password.ifPresent(value -> keys.put("password", value.value()));
    keys.put("strict-host-key-checking", Boolean.toString(strictHostKeyChecking));
    keys.put("timeout", Durations.format(timeout));
    keys.put("allow-case-folding", Boolean.toString(allowCaseFolding));
    return keys;
  }

  /** Shows the settings with the password and any password inside the URI masked. */
  @Override
  public String toString() {
    return "VfsStoreConfig[uri="
        + Secrets.redactUrls(uri)
        + ", user="
        + user.orElse("-")
        + ", password="
        + password.map(Secret::toString).orElse("-")
        + ", strictHostKeyChecking="
        + strictHostKeyChecking
        + ", timeout="
        + timeout
        + ", allowCaseFolding="
        + allowCaseFolding
        + "]";
  }

  /** The URI's scheme in lower case; {@code file} for a plain path. */
  private static String scheme(String uri) {
    java.util.regex.Matcher matcher =
        java.util.regex.Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):").matcher(uri);
    return matcher.find() ? matcher.group(1).toLowerCase(java.util.Locale.ROOT) : "file";
  }

  static VfsStoreConfig from(Section section) {
    section.allowOnly(KEYS);
    String uri = section.requiredString("uri", "file:///var/lib/reports");
    String scheme = scheme(uri);
    if (scheme.equals("file") || scheme.equals("ram")) {
      for (String key : section.keys()) {
        if (!LOCAL_KEYS.contains(key) && section.has(key)) {
          throw section.keyError(
              key,
              key
                  + " does not apply to a vfs store on a "
                  + scheme
                  + ":// directory: it is an SFTP setting, so the key would be ignored",
              "remove it, or point uri at an SFTP server (sftp://host/srv/reports); keys for "
                  + scheme
                  + "://: "
                  + String.join(", ", new java.util.TreeSet<>(LOCAL_KEYS)));
        }
      }
    }
    Optional<String> user = section.string("user");
    Optional<Secret> password = section.string("password").map(Secret::new);
    if (user.isPresent() != password.isPresent()) {
      throw section.keyError(
          user.isPresent() ? "user" : "password",
          "user and password go together",
          "set both or neither");
    }
    return new VfsStoreConfig(
        uri,
        user,
        password,
        section.bool("strict-host-key-checking").orElse(true),
        section.positiveDuration("timeout").orElse(Duration.ofSeconds(30)),
        section.bool("allow-case-folding").orElse(false));
  }
}
