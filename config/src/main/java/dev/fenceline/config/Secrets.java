package dev.fenceline.config;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Knows which values of one configuration are secret and takes them out of every text shown to
 * people: values of secret keys ({@code password}, {@code secret}, {@code token}, {@code
 * credentials}, ...), values that came from secret-looking environment variables, passwords inside
 * URLs, and bearer tokens read from the environment.
 */
final class Secrets {

  /** What secrets are shown as. */
  static final String MASK = "****";

  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "(?i)(^|.*-)(password|passwd|passphrase|secret|token|credentials?|api-key|access-key"
              + "|secret-key|private-key|auth-digest)(-.*)?");

  private static final Pattern SECRET_VARIABLE =
      Pattern.compile(
          "(?i).*(PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIAL|API_KEY|ACCESS_KEY"
              + "|PRIVATE_KEY).*");

  private static final Pattern URL_USER_INFO = Pattern.compile("(//[^/@:?#]*:)([^/@?#]*)(@)");
  private static final Pattern URL_PASSWORD_PARAMETER =
      Pattern.compile("(?i)([?&;](?:password|passwd|secret|token|sslpassword)=)([^&;#]*)");

  private final Set<String> values = new LinkedHashSet<>();

  /**
   * Whether a key holds a secret. Keys ending in {@code -env} name an environment variable and are
   * not secret themselves (the variable's value is).
   */
  static boolean isSecretKey(String key) {
    return !key.endsWith("-env") && SECRET_KEY.matcher(key).matches();
  }

  /** Whether an environment variable's name says it holds a secret. */
  static boolean isSecretVariable(String variable) {
    return SECRET_VARIABLE.matcher(variable).matches();
  }

  /** Remembers a secret value, to be masked wherever it shows up. */
  void add(String value) {
    if (value != null && !value.isEmpty()) {
      synchronized (values) {
        values.add(value);
      }
    }
  }

  /** Remembers the passwords a URL carries (user info, password query parameters). */
  void addFromUrl(String url) {
    Matcher userInfo = URL_USER_INFO.matcher(url);
    while (userInfo.find()) {
      add(userInfo.group(2));
    }
    Matcher parameter = URL_PASSWORD_PARAMETER.matcher(url);
    while (parameter.find()) {
      add(parameter.group(2));
    }
  }

  /**
   * {@code text} with every known secret, and every password in a URL, replaced by {@link #MASK}.
   */
  String scrub(String text) {
    if (text == null) {
      return null;
    }
    String result = redactUrls(text);
    String[] known;
    synchronized (values) {
      known = values.toArray(String[]::new);
    }
    // Longest first, so that a secret containing a shorter one is masked whole.
    java.util.Arrays.sort(known, Comparator.comparingInt(String::length).reversed());
    for (String secret : known) {
      result = result.replace(secret, MASK);
    }
    return result;
  }

  /** {@code url} with user-info passwords and password parameters masked. */
  static String redactUrls(String url) {
    String result = URL_USER_INFO.matcher(url).replaceAll("$1" + MASK + "$3");
    return URL_PASSWORD_PARAMETER.matcher(result).replaceAll("$1" + MASK);
  }
}
