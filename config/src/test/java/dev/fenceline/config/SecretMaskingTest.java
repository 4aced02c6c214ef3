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
package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A password never appears in any error, toString or doctor output. */
class SecretMaskingTest {

  private static final String PASSWORD = "Tr0ub4dor&3-horse";
  private static final String ENV_PASSWORD = "correct-battery-staple-42";
  private static final String API_TOKEN = "tok_live_5f3c9a81";

  @TempDir Path directory;

  /** Everything a user can see of an exception: message, toString and the printed stack. */
  private static String shown(Throwable error) {
    StringWriter trace = new StringWriter();
    error.printStackTrace(new PrintWriter(trace));
    return error.getMessage() + "\n" + error + "\n" + trace;
  }

  private static void assertNoSecret(String text) {
    assertThat(text)
        .doesNotContain(PASSWORD)
        .doesNotContain(ENV_PASSWORD)
        .doesNotContain(API_TOKEN);
  }

  private Throwable loadFailure(String yaml) {
    Throwable error =
        catchThrowable(
            () ->
                ConfigFiles.load(
                        directory,
                        yaml,
                        Map.of("DB_PASSWORD", ENV_PASSWORD, "PAYMENTS_TOKEN", API_TOKEN))
                    .describe());
    assertThat(error).isNotNull();
    return error;
  }

  @Test
  void aWrongValueOfAPasswordKeyIsShownMasked() {
    Throwable error =
        loadFailure(
            """
            stores:
              main: {type: jdbc, url: "jdbc:postgresql://db/app", user: app, password: "%s", lock-timeout: "%s"}
            issuer: main
            """
                .formatted(PASSWORD, PASSWORD));
    // lock-timeout holds the password by mistake: the message shows the value masked.
    assertThat(error).hasMessageContaining("\"****\" is not a duration");
    assertNoSecret(shown(error));
  }

  @Test
  void passwordsInUrlsAndFromTheEnvironmentAreMaskedInTypoErrors() {
    Throwable error =
        loadFailure(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:postgresql://db.example.com/app?user=app&password=%s
                password: ${DB_PASSWORD}
                pool-size: "%s"
            issuer: main
            """
                .formatted(PASSWORD, ENV_PASSWORD));
    assertThat(error).hasMessageContaining("\"****\" is not a whole number");
    assertNoSecret(shown(error));
  }

  @Test
  void anAdapterRefusalAndAnUnreachableStoreDoNotShowThePassword() {
    // The vfs factory gets user and password; the store cannot open a relative uri.
    Throwable refused =
        loadFailure(
            """
            stores:
              main: {type: jdbc, url: "jdbc:sqlite:%s"}
              files: {type: vfs, uri: "sftp://files.example.com:1/srv?password=%s", user: u, password: "%s", timeout: 1s}
            issuer: main
            destinations:
              reports: {store: files}
            """
                .formatted(directory.resolve("f.db"), PASSWORD, PASSWORD));
    assertNoSecret(shown(refused));

    Throwable unreachable =
        loadFailure(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:postgresql://127.0.0.1:1/app
                user: app
                password: ${DB_PASSWORD}
                connect-timeout: 1s
                login-timeout: 2s
            issuer: main
            """);
    assertThat(unreachable).hasMessageContaining("Cannot open store stores.main (jdbc)");
    assertNoSecret(shown(unreachable));
  }

  @Test
  void toStringAndTheRecordsNeverShowThePassword() {
    String yaml =
        """
        stores:
          main:
            type: jdbc
            url: jdbc:postgresql://db.example.com/app?password=%s
            user: app
            password: ${DB_PASSWORD}
          files: {type: vfs, uri: "sftp://u:%s@files.example.com/srv", user: u, password: "%s"}
        issuer: main
        destinations:
          payments:
            type: http
            base-uri: https://api.example.com
            bearer-token-env: PAYMENTS_TOKEN
            keys-honoured: true
            request: {path: /payments}
        """
            .formatted(PASSWORD, PASSWORD, PASSWORD);
    try (FencelineConfig config =
        ConfigFiles.load(
            directory, yaml, Map.of("DB_PASSWORD", ENV_PASSWORD, "PAYMENTS_TOKEN", API_TOKEN))) {
      assertNoSecret(config.toString());
      Section.Source source =
          new Section.Source(Map.of("DB_PASSWORD", ENV_PASSWORD)::get, new Secrets());
      ConfigNode.Mapping tree = YamlTreeReader.read(directory.resolve("fenceline.yaml"));
      Stores stores = Stores.read(new Section(source, "", tree), AdapterRegistry.load());
      Stores.Entry jdbc = stores.entry("main");
      Stores.Entry vfs = stores.entry("files");
      assertThat(jdbc.values().get("password")).isEqualTo(ENV_PASSWORD);
      assertThat(jdbc.toString())
          .contains("password=****")
          .contains("password%3D****".replace("%3D", "="));
      assertNoSecret(jdbc.toString());
      assertNoSecret(vfs.toString());
    }
  }

  /** An adapter that declares, as a third party's would, which of its keys hold credentials. */
  private static final class CredentialKeys implements AdapterFactory {
    @Override
    public String name() {
      return "credentials";
    }

    @Override
    public List<ConfigKey> configKeys() {
      return List.of(
          ConfigKey.string("password").secret().description("A password.").build(),
          ConfigKey.string("auth-digest").secret().description("user:password.").build(),
          ConfigKey.string("ssh-private-key").secret().description("A key.").build(),
          ConfigKey.string("api-key").secret().description("A key.").build(),
          ConfigKey.string("client-secret").secret().description("A secret.").build(),
          ConfigKey.string("url").description("A URL.").build(),
          ConfigKey.string("user").description("A user.").build(),
          ConfigKey.string("connect-string").description("Hosts.").build(),
          ConfigKey.string("password-env").description("A variable's name.").build(),
          ConfigKey.string("digest").description("Not a secret.").build());
    }

    @Override
    public Adapter create(String instanceName, Map<String, String> config) {
      throw new UnsupportedOperationException("only declares keys");
    }
  }

  @Test
  void keysThatHoldCredentialsAreSecretWhateverTheAdapter() {
    // Secret is what the adapter declares (ConfigKey.secret()), not what a key's name suggests:
    // zookeeper's auth-digest is user:password, declared secret like a password.
    Predicate<String> secret = DeclaredKeys.secretKeys(new CredentialKeys().configKeys());
    for (String key :
        new String[] {"password", "auth-digest", "ssh-private-key", "api-key", "client-secret"}) {
      assertThat(secret.test(key)).as(key).isTrue();
    }
    for (String key : new String[] {"url", "user", "connect-string", "password-env", "digest"}) {
      assertThat(secret.test(key)).as(key).isFalse();
    }
    // The built-in adapters on this class path declare theirs.
    Predicate<String> jdbc =
        DeclaredKeys.secretKeys(AdapterRegistry.load().factory("jdbc").configKeys());
    assertThat(jdbc.test("password")).isTrue();
    assertThat(jdbc.test("url")).isFalse();
    assertThat(jdbc.test("user")).isFalse();
  }

  @Test
  void maskHidesEverySecretOfTheFileInOutsideText() {
    String yaml =
        ConfigFiles.sqliteAndDirectory(directory)
                .replace(
                    "jdbc:sqlite:" + directory.resolve("fenceline.db"), "jdbc:postgresql://db/app")
                .replace("type: jdbc", "type: jdbc\n    password: ${DB_PASSWORD}")
            + """
            allow-fenced-at-intent: true
            destinations:
              reports:
                store: reports-dir
            """;
    try (FencelineConfig config =
        ConfigFiles.load(directory, yaml, Map.of("DB_PASSWORD", ENV_PASSWORD))) {
      String masked = config.mask("the store said: login failed for " + ENV_PASSWORD + " (x)");

      assertNoSecret(masked);
      assertThat(masked).contains("****", "login failed for", "(x)");
      assertThat(config.allowFencedAtIntent()).isTrue();
      assertThat(config.allowIdempotentOnly()).isFalse();
      assertThat(config.allowUnguarded()).isFalse();
    }
  }
}
